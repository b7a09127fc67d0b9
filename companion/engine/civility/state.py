"""Civility's state: immutable values. Every change goes through `dataclasses.replace`.

The physical cards stay on the table: a hand is a count, a played card is a count, and a
Status card is the name and kind the table entered when it was turned over.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .tables import BOOK, DEPARTMENTS

HOME = "home"


@dataclass(frozen=True)
class City:
    player: str
    city: str
    levels: tuple[int, ...]  # DEPARTMENTS order
    defenders: int
    status: int = 0
    hand: int = 0
    saved_die: int | None = None
    tokens: tuple[str, ...] = ()
    army: str = HOME  # HOME or the player whose port holds it
    bridges: tuple[str, ...] = ()  # per bridge: HOME or the player whose port holds it
    personal_status: bool = True  # the Personal Status card is still unclaimed
    battled: bool = False  # ever attacker or defender (the Pacifist Perk's condition)
    abilities: tuple[str, ...] = ()  # active ability slots: "single", "combo"
    perks: tuple[str, ...] = ()  # departments this city leads alone
    pacifist: str = ""  # the Pacifist option chosen, if this city holds the Perk
    sabotage: int = 0  # uses left of the Sabotage ability
    renewals: int = 0  # uses left of the lowest-status card that discards a Status card
    spent: tuple[int, ...] = ()  # battles "spent" on battle Status cards

    def level(self, department: str) -> int:
        return self.levels[DEPARTMENTS.index(department)]


@dataclass(frozen=True)
class StatusCard:
    name: str
    kind: str  # "battle" or "city"
    revealed_at: int  # battles fought before it was turned over (only later ones count)


@dataclass(frozen=True)
class Battle:
    attacker: str
    defender: str
    via: str  # "die", "card", "anytime-card", "token"
    bridge: tuple[str, int] | None  # (owner, bridge index) used, to send home afterwards
    defender_army_home: bool
    stage: str = "defender"  # defender -> attacker -> reveal -> reward
    defender_roll: int = 0
    attacker_roll: int = 0
    defender_cards: int = 0
    attacker_cards: int = 0
    defender_total: int = 0
    attacker_total: int = 0
    winner: str = ""


@dataclass(frozen=True)
class BattleRecord:
    attacker: str
    defender: str
    winner: str  # "" for a retreat (no win for anybody)
    winner_used_cards: bool


@dataclass(frozen=True)
class Claim:
    """A Status card being claimed whose cost the table enters level by level."""
    player: str
    card: str
    paid: int = 0


@dataclass(frozen=True)
class Event:
    """A World Event in progress: guided steps through `order`, from the player after the drawer."""
    name: str
    drawer: str
    order: tuple[str, ...]
    pos: int = 0
    stage: str = ""
    marks: tuple[tuple[str, int], ...] = ()  # per-player numbers (rolls, wagers, totals)
    flags: tuple[str, ...] = ()  # per-event players marked (went to war, lost health, ...)
    owed: int = 0  # levels still to be paid by the player at `pos`
    leader: str = ""

    def mark(self, player: str, default: int | None = None) -> int | None:
        for p, v in self.marks:
            if p == player:
                return v
        return default

    def with_mark(self, player: str, value: int) -> "Event":
        return replace(self, marks=tuple((p, v) for p, v in self.marks if p != player) + ((player, value),))


@dataclass(frozen=True)
class CivState:
    players: tuple[str, ...]
    cities: tuple[City, ...]
    dice_per_round: int
    round: int = 1
    diplomat: int = 0
    seat: int = 0  # turns taken this round; the current player is diplomat + seat
    dice: tuple[int, ...] | None = None  # available dice (None until the Diplomat rolls)
    step: str = "roll"  # roll -> die -> cards -> (next turn)
    stolen_by: str = ""  # a Steal a Turn in play: who acts for the current city
    took_die: bool = False  # a die (or a saved die) went to an action this turn
    drew_two: bool = False  # no die was left: no final draw
    action_cards: int = 0
    claimed: tuple[str, ...] = ()  # players who claimed a Status card this turn
    top: StatusCard | None = None  # the face-up card on the Status pile
    side: StatusCard | None = None  # a battle Status card set beside the pile
    reveals: int = 1  # Status cards still to be turned over
    battles: tuple[BattleRecord, ...] = ()
    battle: Battle | None = None
    claim: Claim | None = None
    event: Event | None = None
    pacifist_choice: str = ""  # the player now choosing the Pacifist option
    pacifist_taken: bool = False
    fresh: tuple[tuple[str, int], ...] = ()  # cards just drawn: may be World Events
    effects: int = 0  # dial/piece changes still open for the card just played
    sabotage_die: tuple[str, int] | None = None  # (player, die) taken with Sabotage
    quick_play: bool = False  # Quick Play: a battle deck and a city deck, one face-up card each
    winner: str = ""

    # -- lookups -------------------------------------------------------------------------
    def index(self, player: str) -> int:
        return self.players.index(player)

    def city(self, player: str) -> City:
        return self.cities[self.players.index(player)]

    @property
    def current(self) -> str:
        return self.players[(self.diplomat + self.seat) % len(self.players)]

    @property
    def actor(self) -> str:
        """Who decides for the current city this turn (the thief during a stolen turn)."""
        return self.stolen_by or self.current

    def after(self, player: str, k: int = 1) -> str:
        return self.players[(self.index(player) + k) % len(self.players)]

    def table_order_from(self, player: str) -> tuple[str, ...]:
        """Every player clockwise starting with the one after `player`, ending with `player`."""
        return tuple(self.after(player, k) for k in range(1, len(self.players) + 1))

    @property
    def display(self) -> tuple[StatusCard, ...]:
        """The Status cards that may be claimed now (at most 2)."""
        return tuple(c for c in (self.top, self.side) if c is not None)

    def tokens_out(self, token: str) -> int:
        return sum(token in c.tokens for c in self.cities)


def with_city(state: CivState, player: str, **changes) -> CivState:
    i = state.index(player)
    cities = list(state.cities)
    cities[i] = replace(cities[i], **changes)
    return replace(state, cities=tuple(cities))


def set_level(state: CivState, player: str, department: str, value: int) -> CivState:
    c = state.city(player)
    levels = list(c.levels)
    levels[DEPARTMENTS.index(department)] = max(0, min(BOOK.level_max, value))
    return with_city(state, player, levels=tuple(levels))


def gain(state: CivState, player: str, department: str, n: int = 1) -> CivState:
    """Raise a department (capped at 5); doubled for the Pacifist "double-gains" holder."""
    c = state.city(player)
    if c.pacifist == "double-gains":
        n *= 2
    return set_level(state, player, department, c.level(department) + n)


def lose(state: CivState, player: str, department: str, n: int = 1) -> CivState:
    return set_level(state, player, department, state.city(player).level(department) - n)


def set_defenders(state: CivState, player: str, value: int) -> CivState:
    return with_city(state, player, defenders=max(0, min(BOOK.defenders_max, value)))


def add_hand(state: CivState, player: str, n: int) -> CivState:
    """Cards into (n > 0) or out of a hand; drawn cards are 'fresh' (they may be World Events)."""
    state = with_city(state, player, hand=max(0, state.city(player).hand + n))
    if n > 0:
        fresh = dict(state.fresh)
        fresh[player] = fresh.get(player, 0) + n
        state = replace(state, fresh=tuple(sorted(fresh.items())))
    return state


def send_home(state: CivState, player: str) -> CivState:
    """The army and every bridge of `player` go home."""
    c = state.city(player)
    return with_city(state, player, army=HOME, bridges=tuple(HOME for _ in c.bridges))
