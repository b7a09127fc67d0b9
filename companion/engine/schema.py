"""Field schemas: each file format's fields and their JSON/TOML types, declared once and checked
at the edge before any game code sees the data.

A reader declares its format as a tree of nodes and calls `check(node, data)`; the first field of
the wrong type, out of its range, missing, or unknown raises SchemaError with the field's path
(`players[1].wealth`, `town.yellow.2[0]`) and one sentence, which each reader turns into its own
error family (a log's LogError adds the line). Unknown keys are refused by name with the nearest
known key (keys.py), never skipped. What depends on the game itself (a colour of *this* file, a
level a board has) stays in the reader, after the schema: the schema only guarantees the types.

Used by: the game log's header (log.py; each action's fields are its dataclass's type hints,
core.Action.from_json), the Centerville state file (statefile.py), its board corrections (the
shape of the shipped board.toml, `like`), and the shipped data files read through
`core.load_data_toml`. Pure: no I/O.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Mapping

from .keys import join_path, unknown_key


class SchemaError(ValueError):
    """A field that does not fit its schema: `path` (e.g. "players[0].wealth") and `problem`."""

    def __init__(self, path: str, problem: str):
        super().__init__(f"{path or '(top)'}: {problem}")
        self.path = path or "(top)"
        self.problem = problem


class Node(ABC):
    says: str | None = None

    @abstractmethod
    def check(self, value: Any, path: str) -> None:
        """Return if `value` fits; raise SchemaError naming `path` if it does not."""

    def fail(self, path: str, default: str) -> SchemaError:
        return SchemaError(path, self.says or default)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _range(node, value, path: str) -> None:
    low, high = node.low, node.high
    if (low is not None and value < low) or (high is not None and value > high):
        if high is None:
            raise node.fail(path, f"must be at least {low}, not {value}.")
        if low is None:
            raise node.fail(path, f"must be at most {high}, not {value}.")
        raise node.fail(path, f"must be {low} to {high}, not {value}.")


@dataclass(frozen=True)
class Int(Node):
    """A whole number (not true/false, not 2.0), within [low, high] or one of `choices` when given."""

    low: int | None = None
    high: int | None = None
    says: str | None = None
    choices: tuple[int, ...] | None = None

    def check(self, value, path):
        if isinstance(value, bool) or not isinstance(value, int):
            raise SchemaError(path, f"must be a whole number, not {_shown(value)}.")
        _range(self, value, path)
        if self.choices is not None and value not in self.choices:
            raise self.fail(path, f"must be one of {', '.join(map(str, self.choices))}, not {value}.")


@dataclass(frozen=True)
class Num(Node):
    """A number, whole or not (not true/false, not NaN), within [low, high] when given; not infinite
    either with `finite` (JSON readers take Infinity)."""

    low: float | None = None
    high: float | None = None
    says: str | None = None
    finite: bool = False

    def check(self, value, path):
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value != value:
            raise SchemaError(path, f"must be a number, not {_shown(value)}.")
        if self.finite and value in (float("inf"), float("-inf")):
            raise SchemaError(path, f"must be a finite number, not {_shown(value)}.")
        _range(self, value, path)


@dataclass(frozen=True)
class Bool(Node):
    says: str | None = None

    def check(self, value, path):
        if not isinstance(value, bool):
            raise self.fail(path, f"must be true or false, not {_shown(value)}.")


@dataclass(frozen=True)
class Str(Node):
    """Text; `choices` limits it to those words, `nonempty` refuses "" and blanks."""

    choices: tuple[str, ...] | None = None
    nonempty: bool = False
    says: str | None = None

    def check(self, value, path):
        if not isinstance(value, str):
            raise self.fail(path, f"must be text in quotes, not {_shown(value)}.")
        if self.nonempty and not value.strip():
            raise self.fail(path, "must not be empty.")
        if self.choices is not None and value not in self.choices:
            words = ", ".join(c or '""' for c in self.choices)  # "" is a choice too (the config's "no panel")
            raise self.fail(path, f"must be one of {words}, not {_shown(value)}.")


@dataclass(frozen=True)
class Null(Node):
    """`of`, or null."""

    of: Node

    def check(self, value, path):
        if value is not None:
            self.of.check(value, path)


@dataclass(frozen=True)
class Anything(Node):
    """Any value (its reader checks it further, e.g. a game's own options)."""

    def check(self, value, path):
        return None


@dataclass(frozen=True)
class List(Node):
    """A list of `of`, with at least `min` and at most `max` items when given."""

    of: Node
    min: int | None = None
    max: int | None = None
    says: str | None = None

    def check(self, value, path):
        if not isinstance(value, list):
            raise self.fail(path, f"must be a list, not {_shown(value)}.")
        if (self.min is not None and len(value) < self.min) or (self.max is not None and len(value) > self.max):
            size = (f"{self.min} to {self.max}" if self.min is not None and self.max is not None
                    else f"at least {self.min}" if self.min is not None else f"at most {self.max}")
            raise self.fail(path, f"must list {size} items, not {len(value)}.")
        for i, item in enumerate(value):
            self.of.check(item, f"{path}[{i}]")


@dataclass(frozen=True)
class Obj(Node):
    """An object (a JSON object or TOML table) with these fields. `required` must be there; any
    other key is refused by name, unless `rest` is given (then every other key's value is checked
    against it: a log header's game options)."""

    fields: Mapping[str, Node]
    required: tuple[str, ...] = ()
    rest: Node | None = None
    says: str | None = None

    def check(self, value, path):
        if not isinstance(value, Mapping):
            raise self.fail(path, "must be an object.")
        for key, item in value.items():
            node = self.fields.get(key, self.rest)
            if node is None:
                bad = unknown_key(key, self.fields, path)
                raise SchemaError(bad.path, bad.problem)
            node.check(item, join_path(path, str(key)))
        for key in self.required:
            if key not in value:
                raise SchemaError(join_path(path, key), self.fields[key].says or "is missing.")


@dataclass(frozen=True)
class Map(Node):
    """An object whose keys are data (a zone, a level, a player colour): each key must be one of
    `keys` when given (refused by name otherwise), each value must fit `of`."""

    of: Node
    keys: tuple[str, ...] | None = None
    says: str | None = None

    def check(self, value, path):
        if not isinstance(value, Mapping):
            raise self.fail(path, "must be an object.")
        for key, item in value.items():
            if self.keys is not None and key not in self.keys:
                bad = unknown_key(key, self.keys, path)
                raise SchemaError(bad.path, bad.problem)
            self.of.check(item, join_path(path, str(key)))


def like(example: Any, optional: bool = True) -> Node:
    """The schema of values shaped like `example` (a shipped data file): the same keys (each
    optional when `optional`, for a file of corrections), the same kind of value under each
    (a whole number where the example has one, a list of text where it has one, ...)."""
    if isinstance(example, Mapping):
        return Obj({str(k): like(v, optional) for k, v in example.items()},
                   required=() if optional else tuple(str(k) for k in example))
    if isinstance(example, list):
        kinds = {type(item) for item in example}
        if len(kinds) == 1:
            return List(like(example[0], optional))
        return List(Anything())
    if isinstance(example, bool):
        return Bool()
    if isinstance(example, int):
        return Int()
    if isinstance(example, float):
        return Num()
    if isinstance(example, str):
        return Str()
    return Anything()


def check(node: Node, value: Any, path: str = "") -> Any:
    """`value` if it fits `node`; SchemaError naming the first field that does not."""
    node.check(value, path)
    return value


__all__ = ["SchemaError", "Node", "Int", "Num", "Bool", "Str", "Null", "Anything", "List", "Obj", "Map",
           "like", "check"]
