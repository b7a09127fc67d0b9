"""Civility's actions: frozen dataclasses that round-trip through JSON (docs/game-log-civility.md).

Chance is entered, never drawn by the engine: the Diplomat's roll (`roll`), battle and event dice
(`battle-roll`, `event-roll`), the Status card turned over (`reveal-status`) and a World Event found
among drawn cards (`world-event`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..core import Action


# -- the round and the Action Ring -------------------------------------------------------------
@dataclass(frozen=True)
class Roll(Action):
    type: ClassVar[str] = "roll"
    dice: tuple[int, ...]


@dataclass(frozen=True)
class DrawCard(Action):
    type: ClassVar[str] = "draw-card"
    player: str
    die: int


@dataclass(frozen=True)
class MoveArmy(Action):
    type: ClassVar[str] = "move-army"
    player: str
    die: int
    to: str  # a player (their port) or "home"


@dataclass(frozen=True)
class BuildBridge(Action):
    type: ClassVar[str] = "build-bridge"
    player: str
    die: int
    bridge: int  # 1 or 2
    to: str


@dataclass(frozen=True)
class Upgrade(Action):
    type: ClassVar[str] = "upgrade"
    player: str
    die: int
    department: str


@dataclass(frozen=True)
class SaveDie(Action):
    type: ClassVar[str] = "save-die"
    player: str
    die: int


@dataclass(frozen=True)
class Combo(Action):
    type: ClassVar[str] = "combo"
    player: str
    die: int
    token: str  # "attack-anytime" or "steal-a-turn"


@dataclass(frozen=True)
class RecruitDefenders(Action):
    type: ClassVar[str] = "recruit-defenders"
    player: str
    die: int


@dataclass(frozen=True)
class Decline(Action):
    type: ClassVar[str] = "decline"
    player: str
    department: str  # the department that loses a level ("" only when every level is 0)


@dataclass(frozen=True)
class DrawTwo(Action):
    type: ClassVar[str] = "draw-two"
    player: str


@dataclass(frozen=True)
class TurnInSavedDie(Action):
    type: ClassVar[str] = "turn-in-saved-die"
    player: str


@dataclass(frozen=True)
class DieCard(Action):
    type: ClassVar[str] = "die-card"
    player: str
    die: int
    kind: str  # "action" (played, its effect entered) or "ability" (stays in front of the player)
    with_saved: bool = False  # a combo card: the saved die plus `die`


@dataclass(frozen=True)
class StealTurn(Action):
    type: ClassVar[str] = "steal-turn"
    player: str  # the token's holder; the turn stolen is the current one


@dataclass(frozen=True)
class TakeFirstDie(Action):
    type: ClassVar[str] = "take-first-die"
    player: str  # the Sabotage ability's holder
    die: int


# -- cards and the end of a turn ---------------------------------------------------------------
@dataclass(frozen=True)
class PlayCard(Action):
    type: ClassVar[str] = "play-card"
    player: str
    kind: str  # "action" (counts toward the limit of 2) or "anytime"


@dataclass(frozen=True)
class Discard(Action):
    type: ClassVar[str] = "discard"
    player: str
    count: int


@dataclass(frozen=True)
class DiscardToUpgrade(Action):
    type: ClassVar[str] = "discard-to-upgrade"
    player: str
    department: str


@dataclass(frozen=True)
class SetDial(Action):
    type: ClassVar[str] = "set-dial"
    player: str  # the city whose dial a played card changed
    dial: str  # a department or "defenders"
    value: int


@dataclass(frozen=True)
class MovePiece(Action):
    type: ClassVar[str] = "move-piece"
    player: str  # the piece's owner
    piece: str  # "army", "bridge1", "bridge2"
    to: str


@dataclass(frozen=True)
class EndTurn(Action):
    type: ClassVar[str] = "end-turn"
    player: str
    draw: bool = True


# -- armies and battles ------------------------------------------------------------------------
@dataclass(frozen=True)
class Attack(Action):
    type: ClassVar[str] = "attack"
    player: str
    target: str
    via: str = "die"  # "die" (a 6), "card" (Action card), "anytime-card", "token"
    die: int | None = None


@dataclass(frozen=True)
class BattleRoll(Action):
    type: ClassVar[str] = "battle-roll"
    player: str
    die: int


@dataclass(frozen=True)
class BattleCards(Action):
    type: ClassVar[str] = "battle-cards"
    player: str
    cards: int


@dataclass(frozen=True)
class Retreat(Action):
    type: ClassVar[str] = "retreat"
    player: str


@dataclass(frozen=True)
class BattleTotals(Action):
    type: ClassVar[str] = "battle-totals"
    attacker: int  # what the attacker's battle cards add (entered when they are turned up)
    defender: int


@dataclass(frozen=True)
class WarReward(Action):
    type: ClassVar[str] = "war-reward"
    player: str
    departments: tuple[str, ...]


# -- status ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class RevealStatus(Action):
    type: ClassVar[str] = "reveal-status"
    name: str
    kind: str  # "battle" or "city"


@dataclass(frozen=True)
class ClaimStatus(Action):
    type: ClassVar[str] = "claim-status"
    player: str
    card: str  # a displayed card's name, or "personal"


@dataclass(frozen=True)
class PayStatusCost(Action):
    type: ClassVar[str] = "pay-status-cost"
    player: str
    department: str


@dataclass(frozen=True)
class StatusCostPaid(Action):
    type: ClassVar[str] = "status-cost-paid"
    player: str


@dataclass(frozen=True)
class GiveRenewal(Action):
    """The lowest-status card was drawn: its drawer hands it to the city with the lowest status."""
    type: ClassVar[str] = "give-renewal"
    player: str  # who drew it
    to: str


@dataclass(frozen=True)
class RenewStatus(Action):
    """The holder discards a face-up Status card and the next one is turned over."""
    type: ClassVar[str] = "renew-status"
    player: str
    card: str


@dataclass(frozen=True)
class ChoosePacifist(Action):
    type: ClassVar[str] = "choose-pacifist"
    player: str
    option: str


# -- World Events ------------------------------------------------------------------------------
@dataclass(frozen=True)
class WorldEvent(Action):
    type: ClassVar[str] = "world-event"
    player: str  # who drew it
    event: str


@dataclass(frozen=True)
class EventRoll(Action):
    type: ClassVar[str] = "event-roll"
    player: str
    die: int


@dataclass(frozen=True)
class EventChoice(Action):
    """A player's answer in a World Event step: a wager, a guess, a department, a player, a pass."""
    type: ClassVar[str] = "event-choice"
    player: str
    choice: str = ""
    number: int = 0
    other: str = ""


ALL_ACTIONS = (
    Roll, DrawCard, MoveArmy, BuildBridge, Upgrade, SaveDie, Combo, RecruitDefenders, Decline, DrawTwo,
    TurnInSavedDie, DieCard, StealTurn, TakeFirstDie, PlayCard, Discard, DiscardToUpgrade, SetDial,
    MovePiece, EndTurn, Attack, BattleRoll, BattleCards, Retreat, BattleTotals, WarReward, RevealStatus,
    ClaimStatus, PayStatusCost, StatusCostPaid, GiveRenewal, RenewStatus, ChoosePacifist, WorldEvent, EventRoll,
    EventChoice,
)
CHANCE = (Roll, BattleRoll, RevealStatus, WorldEvent, EventRoll, GiveRenewal)
