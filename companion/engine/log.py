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

from . import edge, schema
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


# The header line's fields; every other key is a game option, which the game checks by name
# (Game.check_options). Each action line's fields are its Action dataclass's type hints.
HEADER = schema.Obj({"game": schema.Str(says="the first line must name the game."),
                     "players": schema.List(schema.Str())},
                    required=HEADER_KEYS, rest=schema.Anything(),
                    says='the first line must be an object like {"game": ..., "players": [...]}.')


def parse_header(data: Any, line: int = 1) -> Header:
    try:
        schema.check(HEADER, data)
    except schema.SchemaError as exc:
        if exc.path == "(top)":
            raise LogError(line, exc.problem) from None
        raise LogError(line, f'field "{exc.path}": {exc.problem}') from None
    game, players = data["game"], data["players"]
    options = {k: v for k, v in data.items() if k not in HEADER_KEYS}
    return Header(game, tuple(players), options)


# The bounds on one line (length, nesting, number size) and the decoding live in edge.py, shared
# by every reader; here they become LogErrors naming the line.
MAX_LINE_CHARS, MAX_DEPTH, MAX_INT_DIGITS = edge.MAX_LINE_CHARS, edge.MAX_DEPTH, edge.MAX_INT_DIGITS


def decode_lines(data: bytes) -> list[str]:
    """The log's lines, split on "\n" only (U+2028 or NEL inside a name is text, not a line end);
    LogError with the line number for bytes that are not UTF-8."""
    try:
        return edge.decode_lines(data)
    except edge.EdgeError as exc:
        raise LogError(exc.line, exc.message) from None


def split_lines(text: str) -> list[str]:
    """A log already decoded: split on "\n" only, like decode_lines."""
    return text.split("\n")


def parse_line(text: str, number: int):
    """One JSON line, bounded (length, nesting, number size); LogError naming the line."""
    try:
        return edge.parse_json(text, number)
    except edge.EdgeError as exc:
        raise LogError(number, exc.message) from None


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
