"""The engine's shared vocabulary: actions, the Game protocol, rules errors, the game registry.

Everything here is pure: no I/O, no clock, no global random. A game is a set of pure
functions over immutable states; `Session` is the only thing that holds a current state.
"""
from __future__ import annotations

import abc
import dataclasses
import types
import typing
from dataclasses import dataclass
from typing import Any, ClassVar, Iterable, Mapping

from . import edge, schema
from .keys import check_keys


# ---------------------------------------------------------------------------------------------
# Errors: a family under ValueError whose messages are sentences a player understands.
# ---------------------------------------------------------------------------------------------
class RulesError(ValueError):
    """An action the rules do not allow. `rule` names the rule broken, in the game's words."""

    def __init__(self, message: str, rule: str = ""):
        super().__init__(message)
        self.rule = rule

    @property
    def reason(self) -> str:
        return str(self)


class IllegalAction(RulesError):
    """A well-formed action that is not legal in this position."""


class OutOfTurn(IllegalAction):
    """An action by a player (or of a kind) that is not expected now."""


class GameOver(IllegalAction):
    """Any action after the game has ended."""


class MalformedAction(RulesError):
    """An action that cannot be read: unknown type, missing or badly typed field."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message, rule="action format")
        self.field = field


class SetupError(RulesError):
    """A game that cannot be set up as asked (player count, names, options, data files)."""


class DataFileError(ValueError):
    """A game-data file (a sheet, a board, a city) that fails validation; names file and key.

    `problem` is what is wrong without the file and key (for a reader that names them its own
    way, e.g. a state file's "board.villas"); it defaults to the whole message.
    """

    def __init__(self, message: str, path: str = "", key: str = "", problem: str = ""):
        super().__init__(message)
        self.path = path
        self.key = key
        self.problem = problem or message


def data_file_error(path: str):
    """A maker of DataFileError naming `path` and a key: for check_keys and a reader's own checks."""

    def error(key: str, problem: str) -> DataFileError:
        return DataFileError(f"{path}: {key}: {problem}", path=path, key=key, problem=problem)

    return error


def load_data_toml(data: str | bytes, path: str, shape: schema.Node | None = None) -> dict:
    """A shipped data file (board.toml, dice.toml, Civility's tables, ...) read like a player's
    file: UTF-8 naming the line of a bad byte, bounded (a deep array or a huge number names its
    key and line, not a RecursionError from tomllib), TOML errors with their line, then `shape`
    (a schema) checked whole. Every failure is a DataFileError naming `path` and the key; a
    damaged install then says which file and field to fix instead of a traceback."""
    import tomllib

    try:
        text = edge.decode_text(data) if isinstance(data, bytes) else data
        parsed = edge.read_toml(text)
    except edge.EdgeError as exc:
        key = exc.message.split(": ", 1)[0] if ": " in exc.message else ""
        raise DataFileError(f"{path}: {exc}", path=path, key=key, problem=exc.message) from None
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"{path}: not valid TOML ({exc}).", path=path, problem=f"not valid TOML ({exc}).") from None
    return parsed if shape is None else check_data(shape, parsed, path)


def check_data(shape: schema.Node, data: Any, path: str) -> Any:
    """`data` if it fits the schema `shape`; else DataFileError naming `path`, the field and why."""
    try:
        return schema.check(shape, data)
    except schema.SchemaError as exc:
        raise DataFileError(f"{path}: {exc.path}: {exc.problem}", path=path, key=exc.path,
                            problem=exc.problem) from None


# ---------------------------------------------------------------------------------------------
# Actions: small frozen dataclasses that round-trip through JSON.
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Action:
    """Base of every game action. Subclasses are frozen dataclasses with a class-level `type`.

    Field types are limited to int, str, bool, float, tuples of those, tuples of tuples, and
    mappings (stored as tuples of pairs so the action stays hashable), optionally `| None`.
    """

    type: ClassVar[str] = ""

    def to_json(self) -> dict:
        out: dict[str, Any] = {"type": self.type}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if value is None and f.default is None:
                continue
            out[f.name] = _to_plain(value, _is_mapping_field(type(self), f.name))
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> "Action":
        hints = typing.get_type_hints(cls)
        # A misspelt optional field would otherwise replay as its default: a different game.
        check_keys(data, ("type", *(f.name for f in dataclasses.fields(cls))), "", _malformed_key)
        kwargs = {}
        for f in dataclasses.fields(cls):
            if f.name in data:
                kwargs[f.name] = _from_plain(data[f.name], hints[f.name], f.name, cls.type)
            elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                raise MalformedAction(f'A "{cls.type}" needs the field "{f.name}".', field=f.name)
        return cls(**kwargs)

    def __str__(self) -> str:
        parts = ", ".join(f"{k}={v}" for k, v in self.to_json().items() if k != "type")
        return f"{self.type}({parts})"


def _malformed_key(path: str, problem: str) -> MalformedAction:
    return MalformedAction(f"{path}: {problem}", field=path)


def _is_mapping_field(cls: type, name: str) -> bool:
    hint = typing.get_type_hints(cls)[name]
    return _unwrap_optional(hint) is Pairs or typing.get_origin(_unwrap_optional(hint)) is Pairs


class Pairs(tuple):
    """Marker type: a mapping kept as a sorted tuple of (key, value) pairs; JSON object on disk."""


def pairs(mapping: Mapping[str, Any] | Iterable[tuple[str, Any]]) -> Pairs:
    items = mapping.items() if isinstance(mapping, Mapping) else mapping
    return Pairs(sorted((str(k), v) for k, v in items))


def _unwrap_optional(hint):
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return args[0]
    return hint


def _to_plain(value, as_mapping=False):
    if as_mapping or isinstance(value, Pairs):
        return {k: _to_plain(v) for k, v in value}
    if isinstance(value, tuple):
        return [_to_plain(v) for v in value]
    return value


def _from_plain(value, hint, name: str, action_type: str):
    optional = _unwrap_optional(hint) is not hint
    hint = _unwrap_optional(hint)
    where = f'The field "{name}" of a "{action_type}"'
    if value is None:
        # A null where the rules expect a value would reach them as None: refused here instead.
        if optional or hint is Any:
            return None
        raise MalformedAction(f"{where} must not be null.", field=name)
    if hint is Pairs:
        if not isinstance(value, Mapping):
            raise MalformedAction(f"{where} must be an object.", field=name)
        return pairs(value)
    origin = typing.get_origin(hint)
    if origin is tuple or hint is tuple:
        if not isinstance(value, (list, tuple)):
            raise MalformedAction(f"{where} must be a list.", field=name)
        args = typing.get_args(hint)
        inner = args[0] if args else Any
        return tuple(_from_plain(v, inner, name, action_type) for v in value)
    if hint is bool:
        if not isinstance(value, bool):
            raise MalformedAction(f"{where} must be true or false.", field=name)
        return value
    if hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise MalformedAction(f"{where} must be a whole number, not {value!r}.", field=name)
        return value
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise MalformedAction(f"{where} must be a number, not {value!r}.", field=name)
        return float(value)
    if hint is str:
        if not isinstance(value, str):
            raise MalformedAction(f"{where} must be text, not {value!r}.", field=name)
        return value
    return value


# ---------------------------------------------------------------------------------------------
# The Game protocol and the registry.
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Prompt:
    """What the game waits for now, for the screen and for the input wiring.

    kind: a short word the wiring understands ("roll", "build", "choose", ...);
    player: whose decision it is (None: the table, e.g. a dice roll); text: a sentence to show.
    """

    kind: str
    text: str
    player: str | None = None
    options: tuple = ()


class Game(abc.ABC):
    """A game's rules. Subclasses are stateless; states are immutable values they return.

    Subclasses set `name`, `title`, `actions` (the Action subclasses it accepts), player limits,
    and implement `new`, `apply`, `prompt`, `finished`, `summary`; `legal_actions` enumerates.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 1
    actions: ClassVar[tuple[type[Action], ...]] = ()
    options: ClassVar[tuple[str, ...]] = ()  # the set-up options `new` reads (a log header's keys)

    # -- set-up ---------------------------------------------------------------------------
    @abc.abstractmethod
    def new(self, players: tuple[str, ...], options: Mapping[str, Any] | None = None):
        """The initial state. Raises SetupError for a bad player list or option."""

    def check_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """The options as a dict; SetupError naming an unknown one and the nearest known option."""
        options = dict(options or {})
        check_keys(options, self.options, "", _unknown_option)
        return options

    def check_players(self, players: Iterable[str]) -> tuple[str, ...]:
        names = tuple(p.strip() for p in players)
        if not self.min_players <= len(names) <= self.max_players:
            raise SetupError(
                f"{self.title} is played by {self.min_players} to {self.max_players} players, "
                f"not {len(names)}."
            )
        if any(not n for n in names):
            raise SetupError("Every player needs a name.")
        if len(set(n.casefold() for n in names)) != len(names):
            raise SetupError("Two players have the same name; give each a different one.")
        return names

    # -- play -----------------------------------------------------------------------------
    @abc.abstractmethod
    def apply(self, state, action: Action):
        """The state after `action`, or RulesError naming the rule broken. Never mutates."""

    @abc.abstractmethod
    def legal_actions(self, state) -> Iterable[Action]:
        """Every legal action in `state` (chance actions included, e.g. every dice roll)."""

    @abc.abstractmethod
    def prompt(self, state) -> Prompt:
        """What the game waits for now: whose decision, of what kind, in a sentence."""

    @abc.abstractmethod
    def finished(self, state) -> bool:
        """True once the game is over (every later action is refused)."""

    @abc.abstractmethod
    def summary(self, state) -> dict:
        """A JSON-ready summary: at least "finished", "turn", "players", "ranking"."""

    def is_chance(self, action: Action) -> bool:
        """True for actions that enter what chance gave (dice, draws): a correction targets these."""
        return False

    # -- actions from JSON ----------------------------------------------------------------
    def action_from_json(self, data: Mapping[str, Any]) -> Action:
        if not isinstance(data, Mapping):
            raise MalformedAction("An action must be a JSON object.")
        kind = data.get("type")
        for cls in self.actions:
            if cls.type == kind:
                return cls.from_json(data)
        known = ", ".join(f'"{c.type}"' for c in self.actions)
        if kind is None:
            raise MalformedAction(f'An action needs a "type" (one of {known}).', field="type")
        raise MalformedAction(f'"{kind}" is not an action of {self.title} (one of {known}).', field="type")


def _unknown_option(path: str, problem: str) -> SetupError:
    return SetupError(f"{path}: {problem}", rule="set-up options")


_REGISTRY: dict[str, Game] = {}


def register(game_cls: type[Game]) -> type[Game]:
    """Class decorator: make a game findable by its name."""
    _REGISTRY[game_cls.name] = game_cls()
    return game_cls


def find_game(name: str) -> Game:
    """The registered game called `name` (e.g. "rolling-village"); SetupError if unknown."""
    _load_builtin_games()
    try:
        return _REGISTRY[name]
    except KeyError:
        known = ", ".join(sorted(_REGISTRY))
        raise SetupError(f'There is no game called "{name}" (known: {known}).') from None


def all_games() -> list[Game]:
    _load_builtin_games()
    return [g for _, g in sorted(_REGISTRY.items())]


def _load_builtin_games() -> None:
    # Imported lazily so that a game package's import error only breaks that game.
    import importlib

    for module in ("rolling_village", "centerville", "civility"):
        try:
            importlib.import_module(f"companion.engine.{module}")
        except ModuleNotFoundError as exc:
            if exc.name != f"companion.engine.{module}":
                raise
