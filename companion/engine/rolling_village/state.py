"""Rolling Village states and actions: immutable values, one Village per player.

A state records the turn (0 = the Start Phase, then 1-9), this turn's building roll (None while
a roll is due), and per player their grid, what they still owe this turn and their Bonus use.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from ..core import Action, Pairs
from .scoring import Activation, Grid
from .sheet import Legend, Sheet

TURNS = 9
BONUS_TURNS = (3, 6, 9)


# ---------------------------------------------------------------------------------------------
# Actions (the log vocabulary, docs/game-log-rolling-village.md)
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Roll(Action):
    """A building roll: the first one is the Start roll."""

    type: ClassVar[str] = "roll"
    dice: tuple[int, ...]


@dataclass(frozen=True)
class Build(Action):
    """A player draws a rolled (or, in the Start Phase, chosen) Project on a square."""

    type: ClassVar[str] = "build"
    player: str
    project: str
    row: int
    street: int


@dataclass(frozen=True)
class Bonus(Action):
    """A player's Bonus Project on turn 3, 6 or 9 (each type once per game)."""

    type: ClassVar[str] = "bonus"
    player: str
    project: str
    row: int
    street: int


@dataclass(frozen=True)
class Activate(Action):
    """The scoring roll. `choices` (player -> Avenue) only on a sum each player chooses for."""

    type: ClassVar[str] = "activate"
    dice: tuple[int, ...]
    choices: Pairs | None = None


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Owed:
    """One Project a player still has to build this turn.

    kind "start": any Project in `street`, but not `not_project` (the two must differ);
    kind "build": `project` in `street`, or anywhere empty once `street` is full;
    kind "bonus": any Project not yet used as a Bonus, in any empty square.
    """

    kind: str
    street: int = 0
    project: str = ""
    not_project: str = ""


@dataclass(frozen=True)
class Village:
    name: str
    grid: Grid
    owed: tuple[Owed, ...] = ()
    bonus_used: tuple[str, ...] = ()
    turn_scores: tuple[int, ...] = ()

    @property
    def score(self) -> int:
        return sum(self.turn_scores)


@dataclass(frozen=True)
class VillageState:
    sheet: Sheet
    legend: Legend
    villages: tuple[Village, ...]
    turn: int = 0
    dice: tuple[int, ...] | None = None
    last_dice: tuple[int, ...] | None = None
    last_activation: tuple[Activation, ...] = ()

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.villages)

    @property
    def over(self) -> bool:
        return len(self.villages[0].turn_scores) >= TURNS

    @property
    def phase(self) -> str:
        """"over", "roll" (a building roll is due), "build" (Projects owed) or "activate"."""
        if self.over:
            return "over"
        if self.dice is None:
            return "roll"
        if any(v.owed for v in self.villages):
            return "build"
        return "activate"

    def village(self, player: str) -> Village:
        for v in self.villages:
            if v.name == player:
                return v
        raise KeyError(player)

    def with_village(self, village: Village) -> "VillageState":
        return replace(self, villages=tuple(village if v.name == village.name else v
                                            for v in self.villages))


def empty_grid(sheet: Sheet) -> Grid:
    return tuple((None,) * sheet.streets for _ in range(sheet.avenues))


def place(grid: Grid, row: int, street: int, project: str) -> Grid:
    line = grid[row - 1]
    return grid[:row - 1] + (line[:street - 1] + (project,) + line[street:],) + grid[row:]


def street_full(grid: Grid, street: int) -> bool:
    return all(line[street - 1] is not None for line in grid)


def empty_squares(grid: Grid) -> list[tuple[int, int]]:
    return [(r, s) for r, line in enumerate(grid, 1) for s, kind in enumerate(line, 1) if kind is None]


def describe_owed(owed: Owed, legend: Legend) -> str:
    """A phrase for one owed Project, e.g. "a House in Street 2"."""
    if owed.kind == "bonus":
        return "a Bonus Project"
    if owed.kind == "start":
        other = f" (not a {legend.title(owed.not_project)})" if owed.not_project else ""
        return f"a Project of their choice{other} in Street {owed.street}"
    return f"a {legend.title(owed.project)} in Street {owed.street}"


def join_phrases(parts: list[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]
