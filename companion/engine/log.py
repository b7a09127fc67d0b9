"""The game log: JSON Lines, one header line then one action per line (docs/game-log.md).

    {"game": "rolling-village", "players": ["Ann", "Bo"], ...options}
    {"type": "roll", "dice": [2, 4]}
    ...

`replay` rebuilds the state from a log; errors name the line number and the rule or field.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Iterable, Mapping

from .core import Action, Game, RulesError, find_game

HEADER_KEYS = ("game", "players")


class LogError(ValueError):
    """A log line that cannot be read or replayed. `line` is 1-based."""

    def __init__(self, line: int, message: str):
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Header:
    game: str
    players: tuple[str, ...]
    options: Mapping[str, Any]

    def to_json(self) -> dict:
        return {"game": self.game, "players": list(self.players), **dict(self.options)}


@dataclass(frozen=True)
class Replayed:
    game: Game
    header: Header
    actions: tuple[Action, ...]
    states: tuple  # states[0] is the start, states[i] follows actions[i-1]

    @property
    def state(self):
        return self.states[-1]


def encode_line(obj: Mapping[str, Any]) -> str:
    return json.dumps(obj, separators=(", ", ": "), ensure_ascii=False)


def encode(header: Header, actions: Iterable[Action]) -> str:
    lines = [encode_line(header.to_json())]
    lines += [encode_line(a.to_json()) for a in actions]
    return "\n".join(lines) + "\n"


def parse_header(data: Any, line: int = 1) -> Header:
    if not isinstance(data, dict):
        raise LogError(line, 'the first line must be an object like {"game": ..., "players": [...]}.')
    game = data.get("game")
    if not isinstance(game, str):
        raise LogError(line, 'field "game": the first line must name the game.')
    players = data.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise LogError(line, 'field "players": must be a list of player names.')
    options = {k: v for k, v in data.items() if k not in HEADER_KEYS}
    return Header(game, tuple(players), options)


# Bounds on one line, each refused with a sentence before any game code runs: a log is a few
# hundred short lines, so anything past these is damage or an attack, not a game.
MAX_LINE_CHARS = 1_000_000
MAX_DEPTH = 32
MAX_INT_DIGITS = 30


def decode_lines(data: bytes) -> list[str]:
    """The log's lines, split on "\n" only (U+2028 or NEL inside a name is text, not a line end);
    LogError with the line number for bytes that are not UTF-8."""
    lines = data.split(b"\n")
    out = []
    for number, raw in enumerate(lines, start=1):
        try:
            out.append(raw.decode("utf-8"))
        except UnicodeDecodeError as exc:
            raise LogError(number, f"not UTF-8 text (byte {raw[exc.start]:#04x} at column {exc.start + 1}).") from None
    return out


def split_lines(text: str) -> list[str]:
    """A log already decoded: split on "\n" only, like decode_lines."""
    return text.split("\n")


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_INT_DIGITS:
        raise _Refused(f"a number of {len(text.lstrip('-'))} digits (at most {MAX_INT_DIGITS}).")
    return int(text)


def _bounded_float(text: str) -> float:
    value = float(text)
    if value in (float("inf"), float("-inf")):
        raise _Refused(f"the number {text[:20]} is too large.")
    return value


def _no_constant(name: str):
    raise _Refused(f"{name} is not a number JSON allows.")


class _Refused(ValueError):
    """A bound broken while parsing one line (turned into a LogError with the line number)."""


def _depth(value, limit: int) -> bool:
    """True if `value` nests deeper than `limit` (iterative: a deep value cannot overflow it)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            if depth > limit:
                return True
            stack.extend((v, depth + 1) for v in (item.values() if isinstance(item, dict) else item))
    return False


def parse_line(text: str, number: int):
    """One JSON line, bounded (length, nesting, number size); LogError naming the line."""
    if len(text) > MAX_LINE_CHARS:
        raise LogError(number, f"the line is {len(text):,} characters long (at most {MAX_LINE_CHARS:,}).")
    try:
        value = json.loads(text, parse_int=_bounded_int, parse_float=_bounded_float,
                           parse_constant=_no_constant)
    except json.JSONDecodeError as exc:
        raise LogError(number, f"not valid JSON ({exc.msg} at column {exc.colno}).") from None
    except _Refused as exc:
        raise LogError(number, str(exc)) from None
    except RecursionError:
        raise LogError(number, f"nested deeper than {MAX_DEPTH} levels.") from None
    if _depth(value, MAX_DEPTH):
        raise LogError(number, f"nested deeper than {MAX_DEPTH} levels.")
    return value


def _json_lines(lines: Iterable[str]):
    for number, text in enumerate(lines, start=1):
        if not text.strip():
            continue
        yield number, parse_line(text, number)


def replay(lines: Iterable[str], keep_states: bool = True) -> Replayed:
    """Replay a whole log. Raises LogError (line number + rule or field) on the first bad line."""
    rows = _json_lines(lines)
    try:
        number, first = next(rows)
    except StopIteration:
        raise LogError(1, "the log is empty; the first line names the game and players.") from None
    header = parse_header(first, number)
    try:
        game = find_game(header.game)
        state = game.new(header.players, header.options)
    except RulesError as exc:
        raise LogError(number, str(exc)) from None
    states = [state]
    actions = []
    for number, data in rows:
        try:
            action = game.action_from_json(data)
            state = game.apply(state, action)
        except RulesError as exc:
            raise LogError(number, str(exc)) from None
        actions.append(action)
        if keep_states:
            states.append(state)
    if not keep_states:
        states.append(state)
    return Replayed(game, header, tuple(actions), tuple(states))


def replay_actions(game: Game, header: Header, actions: Iterable[Action]):
    """The state after `actions` from the header's set-up (RulesError if one is illegal)."""
    state = game.new(header.players, header.options)
    for action in actions:
        state = game.apply(state, action)
    return state
