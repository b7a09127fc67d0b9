"""Centerville's actions: what the table enters (dice, draws, revealed tiles) and what players do.

Dice in a spend are named by die colour ("red", ..., "black"); `copies` maps each fate die spent
to the die whose icon (and colour) it copies (rule: Fate).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..core import Action, Pairs


# -- chance: entered as it happens at the table --------------------------------------------------
@dataclass(frozen=True)
class Draw(Action):
    """One tile drawn from the bag: a vocation (1-9) or a Disaster (office/vocations/town/greenbelt)."""

    type: ClassVar[str] = "draw"
    vocation: int | None = None
    disaster: str | None = None


@dataclass(frozen=True)
class OpenLegacy(Action):
    """2-player set-up: the Legacy tile laid face up on the board."""

    type: ClassVar[str] = "open_legacy"
    legacy: str


@dataclass(frozen=True)
class Roll(Action):
    """The faces of the dice just rolled, e.g. ["yellow-contract", "green-hourglass"]."""

    type: ClassVar[str] = "roll"
    dice: tuple[str, ...]


@dataclass(frozen=True)
class RevealLegacy(Action):
    """Final scoring: a player's secret Legacy tile, turned face up."""

    type: ClassVar[str] = "reveal_legacy"
    player: str
    legacy: str


@dataclass(frozen=True)
class BotLoseVocations(Action):
    """Disaster on the bot: the two vocations determined at random (vocation type numbers)."""

    type: ClassVar[str] = "bot_lose_vocations"
    vocations: tuple[int, ...]


# -- rolling ---------------------------------------------------------------------------------------
@dataclass(frozen=True)
class SetMaster(Action):
    """Before rolling: set the die of a Master you own to a face; it is locked for the turn."""

    type: ClassVar[str] = "set_master"
    face: str


@dataclass(frozen=True)
class Reroll(Action):
    """Pick up these dice (colours) to roll again; hourglasses and Master dice stay."""

    type: ClassVar[str] = "reroll"
    dice: tuple[str, ...]


@dataclass(frozen=True)
class Keep(Action):
    """Keep all dice: rolling is finished, spending begins."""

    type: ClassVar[str] = "keep"


# -- spending --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Hourglass(Action):
    """Time Marches On: the time marker advances; gain "status", "wealth" or "prestige"."""

    type: ClassVar[str] = "hourglass"
    die: str
    gain: str


@dataclass(frozen=True)
class Greenbelt(Action):
    """1 tree: advance on the greenbelt; at 12, lower `opponent` by 1 instead."""

    type: ClassVar[str] = "greenbelt"
    die: str
    copies: Pairs = Pairs()
    opponent: str | None = None


@dataclass(frozen=True)
class River(Action):
    """3 trees: a cube on an empty river space ("north-1", "bridge", "south-2", ...).

    favor: the Favor Bonus takes the bridge whether empty or controlled.
    """

    type: ClassVar[str] = "river"
    dice: tuple[str, ...]
    space: str
    copies: Pairs = Pairs()
    favor: bool = False


@dataclass(frozen=True)
class Build(Action):
    """Build in town: 1-3 contracts for levels 1-3 (one die of the zone's colour), 4 trees for 4.

    favor: the Favor Bonus builds on a space of `replace` (a player's name), whose cube goes home.
    """

    type: ClassVar[str] = "build"
    dice: tuple[str, ...]
    zone: str
    level: int
    copies: Pairs = Pairs()
    favor: bool = False
    replace: str | None = None


@dataclass(frozen=True)
class Landmark(Action):
    """4 contracts: flip your status marker to its two-star side."""

    type: ClassVar[str] = "landmark"
    dice: tuple[str, ...]
    copies: Pairs = Pairs()


@dataclass(frozen=True)
class TakeVocation(Action):
    """1, 2 or 3 education: the vocation on campus space `space` (1 = bottom .. 6 = top).

    favor (3 education): take a vocation of type `vocation` from the player `from_player` instead.
    """

    type: ClassVar[str] = "vocation"
    dice: tuple[str, ...]
    space: int = 0
    copies: Pairs = Pairs()
    favor: bool = False
    from_player: str | None = None
    vocation: int | None = None


@dataclass(frozen=True)
class Media(Action):
    """4 education: National Headlines, take the Media tile."""

    type: ClassVar[str] = "media"
    dice: tuple[str, ...]
    copies: Pairs = Pairs()


@dataclass(frozen=True)
class Park(Action):
    """3 benches: a cube in the central park."""

    type: ClassVar[str] = "park"
    dice: tuple[str, ...]
    copies: Pairs = Pairs()


@dataclass(frozen=True)
class Leisure(Action):
    """1 bench: gain 1 status per cube you have in the park."""

    type: ClassVar[str] = "leisure"
    die: str
    copies: Pairs = Pairs()


@dataclass(frozen=True)
class Elect(Action):
    """2+ votes: take an office whose colour matches one of the votes (more votes than its cubes,
    or as many with the Favor Bonus)."""

    type: ClassVar[str] = "elect"
    dice: tuple[str, ...]
    office: str
    copies: Pairs = Pairs()
    favor: bool = False


@dataclass(frozen=True)
class TakeMaster(Action):
    """4 votes: take a Master still at the Airport."""

    type: ClassVar[str] = "master"
    dice: tuple[str, ...]
    master: str
    copies: Pairs = Pairs()


@dataclass(frozen=True)
class Done(Action):
    """Finished spending; unspent dice (never hourglasses) are wasted."""

    type: ClassVar[str] = "done"


# -- decisions the rules leave to a player ----------------------------------------------------------
@dataclass(frozen=True)
class Upgrade(Action):
    """Public Works: move a building of `zone` at `level` one level up; zone None forgoes it."""

    type: ClassVar[str] = "upgrade"
    zone: str | None = None
    level: int = 0


@dataclass(frozen=True)
class LoseOffice(Action):
    type: ClassVar[str] = "lose_office"
    office: str


@dataclass(frozen=True)
class LoseVocations(Action):
    type: ClassVar[str] = "lose_vocations"
    vocations: tuple[int, ...]


@dataclass(frozen=True)
class LoseTown(Action):
    """Disaster: the cubes lost from town, each "park" or "<zone>-<level>" (e.g. "red-2")."""

    type: ClassVar[str] = "lose_town"
    cubes: tuple[str, ...]


@dataclass(frozen=True)
class ChooseVictim(Action):
    """Bot contract with a Favor: whose level-1 building the bot takes (player higher in status)."""

    type: ClassVar[str] = "choose_victim"
    player: str


@dataclass(frozen=True)
class NameMedia(Action):
    """Final scoring: the vocation (1-9) the Media counts as."""

    type: ClassVar[str] = "name_media"
    vocation: int


ALL_ACTIONS = (
    Draw, OpenLegacy, Roll, RevealLegacy, BotLoseVocations, SetMaster, Reroll, Keep, Hourglass,
    Greenbelt, River, Build, Landmark, TakeVocation, Media, Park, Leisure, Elect, TakeMaster, Done,
    Upgrade, LoseOffice, LoseVocations, LoseTown, ChooseVictim, NameMedia,
)
CHANCE = (Draw, OpenLegacy, Roll, RevealLegacy, BotLoseVocations)
