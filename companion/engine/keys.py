"""Unknown keys in a file the project reads: one wording, one nearest-key suggestion, everywhere.

A key a format does not know is almost always a typo ("office" for "offices"), and a reader that
skipped it would give a silently wrong result; so every reader (state files, board corrections,
game logs, config, sheets, game data) refuses it with this line:

    players[0].grenbelt: unknown key; did you mean greenbelt?

Pure: the readers hand over parsed data and raise their own error family with the line's parts.
"""
from __future__ import annotations

import difflib
import json
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping


def nearest(word: str, known: Iterable[str]) -> str | None:
    """The known key closest to `word`, or None when nothing is close."""
    options = [str(k) for k in known]
    exact = [k for k in options if k.casefold() == word.casefold()]
    if exact:  # a key in the wrong case is close by any measure
        return exact[0]
    found = difflib.get_close_matches(word, options, n=1)
    return found[0] if found else None


def join_path(where: str, key: str) -> str:
    """The dotted path of `key` inside `where` ("players[0]" + "park" -> "players[0].park").
    An empty key, or one holding a line break, a control character or a lone surrogate, is
    written as its JSON string, so that the error stays one line and can be printed."""
    key = key if key and key.isprintable() else json.dumps(key)
    return f"{where}.{key}" if where else key


@dataclass(frozen=True)
class UnknownKey:
    """One unknown key: where it is and the known key it most likely means."""

    path: str
    key: str
    suggestion: str | None
    known: tuple[str, ...] = ()

    @property
    def problem(self) -> str:
        """The words after the path: "unknown key; did you mean X?", else the keys there are."""
        if self.suggestion:
            return f"unknown key; did you mean {self.suggestion}?"
        return f"unknown key (known: {', '.join(self.known)})" if self.known else "unknown key"

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}"


def unknown_key(key: str, known: Iterable[str], where: str = "") -> UnknownKey:
    """`key`, found at `where` among `known` keys, as an UnknownKey with its suggestion."""
    known = tuple(str(k) for k in known)
    return UnknownKey(join_path(where, str(key)), str(key), nearest(str(key), known), known)


def unknown_keys(data: Mapping[str, Any], known: Iterable[str], where: str = "") -> list[UnknownKey]:
    """Every key of `data` not in `known`, in the file's order, each with its nearest known key."""
    known = tuple(known)
    return [unknown_key(k, known, where) for k in data if k not in known]


def check_keys(data: Mapping[str, Any], known: Iterable[str], where: str,
               error: Callable[[str, str], Exception]) -> None:
    """Refuse the first unknown key: raise error(path, problem), the reader's own error family."""
    found = unknown_keys(data, known, where)
    if found:
        raise error(found[0].path, found[0].problem)
