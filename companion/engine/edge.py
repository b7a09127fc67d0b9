"""What every file reader checks at the edge, before any game code sees the data.

Game logs, board-state files (with their board corrections), stored actions and the config all
come from outside: a player's editor, a damaged card, an attacker. Each reader's own schema checks
the fields and their types (log.parse_header and each game's action_from_json, statefile.load_state,
board_from_data, hardware.config); under all of them sit the same few bounds, here, so that a
deep, huge or badly encoded input gets one sentence naming its line and never reaches Python's
recursion limit, its 4,300-digit int limit or a `str.splitlines` that ends lines at U+2028:

- text is UTF-8, and a byte that is not says its line and column;
- lines end at "\\n" only (U+2028, U+0085 NEL and form feeds are characters of a name or note);
- a line holds at most MAX_LINE_CHARS characters, a value nests at most MAX_DEPTH levels and a
  whole number has at most MAX_INT_DIGITS digits; infinities and NaN are refused.

Pure: callers read the bytes and turn EdgeError into their own error family.
"""
from __future__ import annotations

import json
import re
from typing import Any

from .keys import join_path

# A log or state file is a few hundred short lines and a config a page: anything past these is
# damage or an attack, not a game.
MAX_LINE_CHARS = 1_000_000
MAX_DEPTH = 32
MAX_INT_DIGITS = 30


class EdgeError(ValueError):
    """Input refused at the edge. `line` is 1-based (None when the caller knows no lines)."""

    def __init__(self, message: str, line: int | None = None):
        super().__init__(message if line is None else f"line {line}: {message}")
        self.message = message
        self.line = line


def decode_lines(data: bytes) -> list[str]:
    """The lines of UTF-8 bytes, split on "\\n" only; EdgeError naming the line of a bad byte."""
    out = []
    for number, raw in enumerate(data.split(b"\n"), start=1):
        try:
            out.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise EdgeError(f"not UTF-8 text (byte {raw[exc.start]:#04x} at column {exc.start + 1}).",
                            number) from None
    return out


def decode_text(data: bytes) -> str:
    """Whole UTF-8 text (a JSON or TOML file); EdgeError naming the line of a bad byte."""
    return "\n".join(decode_lines(data))


class _Refused:
    """A number past the bounds, left in the parsed value by json's hooks so that the walk after
    parsing can name its field path (the hooks themselves do not know where they are)."""

    def __init__(self, problem: str):
        self.problem = problem


def _bounded_int(text: str):
    digits = len(text.lstrip("-"))
    if digits > MAX_INT_DIGITS:
        return _Refused(f"a number of {digits} digits (at most {MAX_INT_DIGITS}).")
    return int(text)


def _bounded_float(text: str):
    value = float(text)
    if value in (float("inf"), float("-inf")):
        return _Refused(f"the number {text[:20]} is too large.")
    return value


def _no_constant(name: str):
    return _Refused(f"{name} is not a number JSON allows.")


def refused_field(value: Any, limit: int = MAX_DEPTH) -> tuple[str, str] | None:
    """(field path, problem) of the first value nesting past `limit` or holding a number past
    the bounds, else None. Iterative: a deep value cannot overflow it."""
    stack = [(value, 1, "")]
    while stack:
        item, depth, path = stack.pop()
        if isinstance(item, _Refused):
            return path or "(top)", item.problem
        if isinstance(item, (list, dict)):
            if depth > limit:
                return _short(path) or "(top)", f"nested deeper than {limit} levels."
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            stack.extend((v, depth + 1, f"{path}[{k}]" if isinstance(item, list) else join_path(path, str(k)))
                         for k, v in reversed(list(pairs)))
    return None


def _short(path: str) -> str:
    """players[0].wealth[0][0][0]... -> players[0].wealth[0]... (29 levels)"""
    return re.sub(r"((?:\[0\]){4,})$", lambda m: f"[0]... ({len(m.group(1)) // 3} levels)", path)


def _deep_position(text: str) -> tuple[int, int]:
    """(line, column) where `text` first opens its (MAX_DEPTH + 1)th bracket, strings skipped:
    only called once json itself ran out of stack, to say where."""
    depth, i, in_string = 0, 0, False
    while i < len(text):
        c = text[i]
        if in_string:
            if c == "\\":
                i += 1
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                break
        elif c in "]}":
            depth -= 1
        i += 1
    line = text.count("\n", 0, i) + 1
    return line, i - (text.rfind("\n", 0, i) + 1) + 1


def parse_json(text: str, line: int | None = None, max_chars: int = MAX_LINE_CHARS) -> Any:
    """One JSON text, bounded (length, nesting, number size); EdgeError saying which bound, with
    `line` for a one-line value or the line inside a longer text."""
    if len(text) > max_chars:
        raise EdgeError(f"{'the line' if line else 'the text'} is {len(text):,} characters long "
                        f"(at most {max_chars:,}).", line)
    try:
        value = json.loads(text, parse_int=_bounded_int, parse_float=_bounded_float,
                           parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        where = f"column {exc.colno}" if line else f"line {exc.lineno}, column {exc.colno}"
        raise EdgeError(f"not valid JSON ({exc.msg} at {where}).", line) from None
    except RecursionError:
        at, column = _deep_position(text)
        where = f"column {column}" if line else f"line {at}, column {column}"
        raise EdgeError(f"nested deeper than {MAX_DEPTH} levels (at {where}).", line) from None
    refused = refused_field(value)
    if refused:
        raise EdgeError(f"{refused[0]}: {refused[1]}" if refused[0] != "(top)" else refused[1], line)
    return value


def printable(text: str) -> bytes:
    """`text` as UTF-8 for output: what UTF-8 cannot carry (a lone surrogate, which JSON allows
    in a name) is written as its escape instead of failing the whole output."""
    return text.encode("utf-8", "backslashreplace")


# TOML: tomllib recurses per nesting level and calls int() on any digit run, so a deep array or
# a 5,000-digit number fails the whole file with RecursionError or ValueError. bound_toml finds
# such values first and blanks them, so the rest of the file still counts and the key is named.
_BARE_KEY = re.compile(r"""\s*((?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*')(?:\s*\.\s*(?:[A-Za-z0-9_-]+|"[^"\n]*"|'[^'\n]*'))*)\s*=""")
_HEADER = re.compile(r"""\s*\[\[?\s*([^\]\n]*?)\s*\]\]?""")
_DIGIT_RUN = re.compile(r"[0-9_]{%d,}" % (MAX_INT_DIGITS + 1))


def _key_text(raw: str) -> str:
    return ".".join(part.strip().strip("\"'") for part in raw.split("."))


def _skip_string(text: str, i: int) -> int:
    """The index just after the TOML string starting at text[i] (its end, if unterminated)."""
    quote = text[i]
    if text.startswith(quote * 3, i):
        end = text.find(quote * 3, i + 3)
        while quote == '"' and end > 0 and _escaped(text, end):
            end = text.find(quote * 3, end + 1)
        return len(text) if end < 0 else end + 3
    j = i + 1
    while j < len(text) and text[j] not in (quote, "\n"):
        j += 2 if quote == '"' and text[j] == "\\" else 1
    return j + 1


def _escaped(text: str, at: int) -> bool:
    slashes = 0
    while at - slashes - 1 >= 0 and text[at - slashes - 1] == "\\":
        slashes += 1
    return slashes % 2 == 1


def bound_toml(text: str) -> tuple[str, list[tuple[str, str, int]]]:
    """(text with each too-deep or too-big value blanked, [(dotted key, problem, line)]). Lines keep
    their numbers, so tomllib's own errors still point at the right line. EdgeError for a value
    whose brackets never close (the whole file is unreadable then)."""
    problems: list[tuple[str, str, int]] = []
    out = list(text)
    table, i, n = "", 0, len(text)
    while i < n:
        line_end = text.find("\n", i)
        line_end = n if line_end < 0 else line_end
        stripped = text[i:line_end].lstrip()
        if not stripped or stripped.startswith("#"):
            i = line_end + 1
            continue
        header = _HEADER.match(text, i) if stripped.startswith("[") else None
        if header:
            table = _key_text(header.group(1))
            i = line_end + 1
            continue
        key = _BARE_KEY.match(text, i)
        if not key:
            i = line_end + 1
            continue
        name = f"{table}.{_key_text(key.group(1))}" if table else _key_text(key.group(1))
        start, j, depth, deepest = key.end(), key.end(), 0, 0
        while j < n:  # to the end of the value: a newline outside brackets, strings and comments
            c = text[j]
            if c in "\"'":
                j = _skip_string(text, j)
                continue
            if c == "#":
                j = text.find("\n", j)
                j = n if j < 0 else j
                continue
            if c in "[{":
                depth += 1
                deepest = max(deepest, depth)
            elif c in "]}":
                depth -= 1
            elif c == "\n" and depth <= 0:
                break
            j += 1
        if depth > 0:  # never closed: no key's value ends, so the file cannot be read at all
            raise EdgeError(f"{name}: an array or inline table that is never closed.",
                            text.count("\n", 0, key.start()) + 1)
        value = text[start:j]
        problem = None
        if deepest > MAX_DEPTH:
            problem = f"nested deeper than {MAX_DEPTH} levels"
        elif _DIGIT_RUN.search(_without_strings(value)):
            problem = f"a number of more than {MAX_INT_DIGITS} digits"
        if problem:
            problems.append((name, problem, text.count("\n", 0, key.start()) + 1))
            for k in range(key.start(), j):  # the whole `key = value`, newlines kept
                if out[k] != "\n":
                    out[k] = " "
        i = j + 1
    return "".join(out), problems


def read_toml(text: str) -> dict:
    """A TOML text that must be read whole (a player's sheet): the first too-deep or too-big
    value is an EdgeError naming its key and line; tomllib.TOMLDecodeError as tomllib says."""
    import tomllib

    text, problems = bound_toml(text)
    if problems:
        key, problem, line = problems[0]
        raise EdgeError(f"{key}: {problem}.", line)
    return tomllib.loads(text)


def _without_strings(value: str) -> str:
    parts, i = [], 0
    while i < len(value):
        if value[i] in "\"'":
            i = _skip_string(value, i)
            parts.append(" ")
            continue
        parts.append(value[i])
        i += 1
    return "".join(parts)
