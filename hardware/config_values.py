"""Reading config values: each validator returns the value or raises ValueError saying what is
wrong; `Reader` turns that into a warning naming the key and keeps the default.

The type of every value (true/false, a whole number in a range, one of some words, a list of
text) is checked by the same field schemas as the logs and state files (companion/engine/schema.py);
what only a config has (a port, a path with ~user, a camera source, a pin) is checked here after."""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Mapping

from companion.engine import schema as S
from companion.engine.keys import unknown_keys
from companion.events import Command

GPIO_PINS = range(0, 28)  # BCM numbers on the 40-pin header
CAMERA_SCHEMES = ("auto", "sim", "v4l2", "picamera2", "file", "folder", "video")  # as vision.sources


class UnknownKeyWarning(str):
    """A warning about a key the config does not know: the app starts, `companion doctor` refuses."""


class Reader:
    """Reads keys with validators; a bad value becomes a warning and the default."""

    def __init__(self, source: str, warnings: list[str]) -> None:
        self.source, self.warnings = source, warnings

    def warn(self, key: str, problem: str, default: Any) -> None:
        self.warnings.append(f"{self.source}: {key}: {problem}; using the default {default!r}")

    def table(self, raw: Mapping[str, Any], key: str) -> Mapping[str, Any]:
        value = raw.get(key, {})
        if not isinstance(value, dict):
            self.warn(key, f"must be a table ([{key}]), not {type(value).__name__}", {})
            return {}
        return value

    def unknown(self, raw: Mapping[str, Any], known: tuple[str, ...], where: str) -> None:
        # A typo keeps the default silently otherwise; the app still starts (a table is waiting).
        for bad in unknown_keys(raw, known, where):
            self.warnings.append(UnknownKeyWarning(f"{self.source}: {bad} (ignored)"))

    def get(self, raw: Mapping[str, Any], key: str, default: Any, check: Callable[[Any], Any]) -> Any:
        name = key.rsplit(".", 1)[-1]
        if name not in raw:
            return default
        try:
            return check(raw[name])
        except ValueError as exc:
            self.warn(key, str(exc), default)
            return default


def typed(node: S.Node, convert: Callable[[Any], Any] = lambda value: value) -> Callable[[Any], Any]:
    """A validator from a field schema: the value (converted) if it fits, else ValueError with the
    schema's sentence (and the entry, for a list: "[1] must be text in quotes, not 3")."""
    def check(value: Any) -> Any:
        try:
            S.check(node, value)
        except S.SchemaError as exc:
            problem = exc.problem.rstrip(".")
            raise ValueError(problem if exc.path == "(top)" else f"{exc.path} {problem}") from None
        return convert(value)
    return check


bool_value = typed(S.Bool())
string = typed(S.Str())
string_list = typed(S.List(S.Str(nonempty=True)), tuple)


def number(low: float, high: float) -> Callable[[Any], float]:
    return typed(S.Num(low, high, says=f"must be a number of seconds from {low} to {high}"), float)


def integer(low: int, high: int) -> Callable[[Any], int]:
    return typed(S.Int(low, high))


def choice(options: tuple) -> Callable[[Any], Any]:
    if all(isinstance(o, str) for o in options):
        return typed(S.Str(choices=options))
    return typed(S.Int(choices=options))


def pin(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value not in GPIO_PINS:
        raise ValueError(f"must be a BCM GPIO number from 0 to 27 (got {value!r})")
    return value


def pin_or_none(value: Any) -> int | None:
    # TOML has no null: false (or -1) leaves a device out.
    if value is False or value == -1:
        return None
    return pin(value)


def port(value: Any) -> str:
    value = string(value)
    if value and not (value.startswith("/") or value.startswith("hwgrep://") or "://" in value):
        raise ValueError(f'must be a device path like "/dev/ttyACM0" or a pattern like '
                         f'"hwgrep://2341:0043" (got {value!r})')
    if value.startswith("hwgrep://"):
        # pyserial searches the ports with this regular expression: a broken one must be found
        # here, with its key, not when the panel thread opens the port.
        pattern = value[len("hwgrep://"):].split("&", 1)[0]
        try:
            re.compile(pattern, re.I)
        except re.error as exc:
            raise ValueError(f"the pattern after hwgrep:// is not a valid regular expression "
                             f"({exc}) (got {value!r})") from None
    return value


def home_path(value: Any) -> Path | None:
    """A path, "~" and "~user" expanded ("" = None, the default); a user this machine does not
    have is an error naming it, not a RuntimeError from pathlib."""
    value = string(value)
    if not value:
        return None
    try:
        return Path(value).expanduser()
    except RuntimeError:
        user = value[1:].split("/", 1)[0]
        raise ValueError(f'"~{user}" does not resolve: no user "{user}" here, or no home for it '
                         f"(got {value!r})") from None


def camera_source(value: Any) -> str:
    value = string(value).strip()
    if value.startswith("/dev/video"):
        return value
    scheme = value.split(":", 1)[0].lower()
    if ":" not in value or scheme not in CAMERA_SCHEMES:
        raise ValueError(f"must start with one of {', '.join(s + ':' for s in CAMERA_SCHEMES)} "
                         f"(got {value!r})")
    return value


def command(value: Any) -> Command:
    try:
        return Command(value)
    except ValueError:
        raise ValueError(f"must be one of {', '.join(c.value for c in Command)} (got {value!r})") from None
