"""The Centerville game state: an immutable value (`State`) and its mutable working copy (`Work`).

`apply` thaws a state into a Work, changes it with the helpers below, and freezes it again, so a
state handed out is never changed. Players are seat indices (clockwise); the bot of the 2-player
game is one more seat. Town spaces of one zone and level are interchangeable for every rule, so
the town keeps, per zone and level, the sorted owners of its built spaces.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any

from .board import Board

DIE_ORDER = ("red", "yellow", "blue", "purple", "green", "black")
GREEN = DIE_ORDER.index("green")


@dataclass(frozen=True)
class Pending:
    """A decision the rules leave to a player (or an entry chance must give) before play goes on.

    kind: "upgrade", "lose-office", "lose-vocations", "lose-town", "bot-lose-vocations",
    "bot-victim", "name-media", "reveal-legacy"; player: who decides (None: the table enters it);
    subject: the player the decision is about; amount: how many (vocations, cubes).
    """

    kind: str
    player: int | None
    subject: int
    amount: int = 0
    options: tuple = ()


@dataclass(frozen=True)
class Step:
    """One scoring step: what was scored and each player's actual wealth and prestige change.

    For the table's words: subject (the zone, or the Legacy tile), values (each seat's count
    compared: zone value, offices, rank, vocation types, Legacy count) and items (the step's
    pieces: park cubes, river cubes, stars, offices the reset trims, vocation sets, villas, whose
    Legacy); see scoring.py.
    """

    step: int
    name: str
    detail: str
    wealth: tuple[int, ...]
    prestige: tuple[int, ...]
    subject: str = ""
    values: tuple[int, ...] = ()
    items: tuple = ()


@dataclass(frozen=True)
class ScoringRound:
    number: int
    steps: tuple[Step, ...]
    wealth_before: tuple[int, ...] = ()  # the victory markers when the round began
    prestige_before: tuple[int, ...] = ()


@dataclass(frozen=True)
class State:
    board: Board
    names: tuple[str, ...]
    colours: tuple[str, ...]
    bot: int | None
    wealth: tuple[int, ...]
    prestige: tuple[int, ...]
    greenbelt: tuple[int, ...]
    stars: tuple[int, ...]
    favors: tuple[int, ...]
    vocations: tuple[tuple[int, ...], ...]  # per player: tiles of type 1..9
    park: tuple[int, ...]
    status: tuple[int, ...]  # seats, top (1st) to bottom
    town: tuple[tuple[int, ...], ...]  # zone*4 + level-1 -> sorted owners of built spaces
    river: tuple[int | None, ...]  # north-1.., bridge, south-1..
    villas: tuple[tuple[int | None, ...], ...]  # per road: owner per villa, from the river out
    offices: tuple[tuple[int, int] | None, ...]  # (owner, vote cubes) or None
    safe: int | None
    media: int | None
    masters: tuple[int | None, ...]
    campus: tuple[int | None, ...]  # vocation type per space, bottom to top
    bag: tuple[int, ...]  # vocation tiles of each type in the bag
    bag_disasters: int
    disaster_sites: tuple[str, ...]  # Disasters still face down on the board
    disasters_drawn: tuple[str, ...]
    favor_supply: int
    time: int  # spaces the time marker has moved from its start space
    rounds: tuple[ScoringRound, ...]
    legacies: tuple[str | None, ...]  # revealed at the final scoring
    open_legacy: str | None
    media_vocation: int | None
    active: int
    turn: int
    phase: str
    dice: tuple[str | None, ...]  # face label per die (DIE_ORDER); None: not rolled
    locked: tuple[bool, ...]  # hourglass rolled or Master set: never rerolled
    to_roll: tuple[int, ...]  # dice awaiting the next roll entry
    rolls: int
    spent: tuple[bool, ...]
    masters_set: tuple[int, ...]  # dice set by a Master this turn
    no_green: bool  # Urban Planning's extra turn is played without the green die
    extra_turn: bool
    pending: tuple[Pending, ...]
    disaster_queue: tuple[str, ...]
    bot_tasks: tuple[tuple, ...]
    winner: tuple[int, ...] = ()

    @property
    def players(self) -> int:
        return len(self.names)

    def thaw(self) -> "Work":
        return Work(self)


_NESTED = ("town", "vocations", "villas")
_LISTS = (
    "wealth", "prestige", "greenbelt", "stars", "favors", "park", "status", "river", "offices",
    "masters", "campus", "bag", "disaster_sites", "disasters_drawn", "rounds", "legacies", "dice",
    "locked", "to_roll", "spent", "masters_set", "pending", "disaster_queue", "bot_tasks", "winner",
)


class Work:
    """A mutable copy of a State for one `apply`; `freeze()` gives the next State."""

    def __init__(self, state: State):
        values = state.__dict__
        for name in _LISTS:
            setattr(self, name, list(values[name]))
        for name in _NESTED:
            setattr(self, name, [list(v) for v in values[name]])
        for name in _PLAIN:
            setattr(self, name, values[name])

    def freeze(self) -> State:
        # States are built field by field here for speed; the dataclass stays frozen to callers.
        values = self.__dict__
        out = object.__new__(State)
        d = out.__dict__
        for name in _LISTS:
            d[name] = tuple(values[name])
        for name in _NESTED:
            d[name] = tuple(tuple(v) for v in values[name])
        for name in _PLAIN:
            d[name] = values[name]
        return out

    # these attributes are set in __init__ from State's fields
    board: Board
    names: tuple
    bot: Any

    @property
    def players(self) -> int:
        return len(self.names)


# ---------------------------------------------------------------------------------------------
# Cubes: 32 per player; everything on the board counts against them (rule: Component Limits).
# ---------------------------------------------------------------------------------------------
def cubes_on_board(s, player: int) -> int:
    n = s.park[player]
    n += sum(owners.count(player) for owners in s.town)
    n += sum(1 for o in s.river if o == player)
    n += sum(road.count(player) for road in s.villas)
    n += sum(o[1] for o in s.offices if o is not None and o[0] == player)
    return n


def available_cubes(s, player: int) -> int:
    return s.board.cubes - cubes_on_board(s, player)


def town_cubes(s, player: int) -> list[tuple[int, int]]:
    """(zone index, level) of each of the player's buildings."""
    out = []
    for i, owners in enumerate(s.town):
        out += [(i // 4, i % 4 + 1)] * owners.count(player)
    return out


def empty_spaces(s, zone: int, level: int) -> int:
    return s.board.spaces[level - 1] - len(s.town[zone * 4 + level - 1])


def turn_order(s, start: int | None = None) -> list[int]:
    start = s.active if start is None else start
    return [(start + i) % s.players for i in range(s.players)]


def rank(s, player: int) -> int:
    """1-based place on the status track."""
    return s.status.index(player) + 1


def offices_held(s, player: int) -> int:
    return sum(1 for o in s.offices if o is not None and o[0] == player)


# ---------------------------------------------------------------------------------------------
# Markers that move: victory points, status, greenbelt, time. Each may uncover a Disaster.
# ---------------------------------------------------------------------------------------------
def to_bag(w: Work, site: str) -> None:
    """A marker entered or passed a Disaster's space: it goes into the bag (rule: The Calm)."""
    if site in w.disaster_sites:
        w.disaster_sites.remove(site)
        w.bag_disasters += 1


def _track_space(board: Board, points: int) -> int:
    return (points - 1) % board.victory_lap + 1


def _cross_victory(w: Work, old: int, new: int) -> None:
    if old == new or not any(s.startswith("victory-") for s in w.disaster_sites):
        return
    step = 1 if new > old else -1
    for points in range(old + step, new + step, step):
        space = _track_space(w.board, points)
        if space in w.board.disaster_victory_spaces:
            to_bag(w, f"victory-{space}")


def gain(w: Work, player: int, wealth: int = 0, prestige: int = 0) -> tuple[int, int]:
    """Move the victory markers; never below 1 (rule: Wealth & Prestige Markers). Actual change."""
    low = w.board.victory_lowest
    old_w, old_p = w.wealth[player], w.prestige[player]
    new_w, new_p = max(low, old_w + wealth), max(low, old_p + prestige)
    w.wealth[player], w.prestige[player] = new_w, new_p
    _cross_victory(w, old_w, new_w)
    _cross_victory(w, old_p, new_p)
    return new_w - old_w, new_p - old_p


def _bumped_from_top(w: Work, player: int) -> None:
    # "Whenever the player who occupies 1st is bumped down to 2nd, he takes a Favor" (Favor Tiles).
    if w.favor_supply > 0:
        w.favor_supply -= 1
        w.favors[player] += 1


def raise_status(w: Work, player: int, steps: int = 1) -> None:
    """Swap places with the marker directly above, `steps` times (rule: Gain 1 status)."""
    for _ in range(steps):
        place = w.status.index(player)
        if place == 0:
            return
        above = w.status[place - 1]
        w.status[place - 1], w.status[place] = player, above
        if place - 1 == 0:
            _bumped_from_top(w, above)


def status_to_top(w: Work, player: int) -> None:
    """Mayor: move to the top; everyone above slides down one (the old 1st takes a Favor)."""
    place = w.status.index(player)
    if place == 0:
        return
    top = w.status[0]
    del w.status[place]
    w.status.insert(0, player)
    _bumped_from_top(w, top)


def move_greenbelt(w: Work, player: int, delta: int) -> None:
    top = w.board.greenbelt_top
    w.greenbelt[player] = min(top, max(0, w.greenbelt[player] + delta))
    if w.greenbelt[player] == top:
        to_bag(w, "greenbelt")


def advance_time(w: Work) -> None:
    last = time_start(w) + w.board.clock_towers - 1
    w.time = min(last, w.time + 1)
    if w.time >= time_start(w):
        to_bag(w, "clock-tower")


def time_start(s) -> int:
    """Spaces from the start space to the first clock tower for this game's seats."""
    key = 2 if s.bot is not None else s.players
    return s.board.time_start[key]


_PLAIN = tuple(f.name for f in dataclasses.fields(State) if f.name not in _NESTED + _LISTS)
