"""Civility's choices in words: the menu path that leads to each legal action ("Upgrade",
"Education"), and the short names of dials, tokens and Pacifist options. No Kivy here."""
from __future__ import annotations

from companion.engine.civility import actions as A
from companion.engine.civility.state import HOME, CivState
from companion.engine.civility.tables import BOOK, DEPARTMENTS

ANYTIME = "Anytime (any player)"
DRAWN = "A card just drawn is..."
DIAL_TITLES = {**{d: d.title() for d in DEPARTMENTS}, "defenders": "Defenders"}
SHORT = {"education": "Edu", "health": "Hea", "technology": "Tec", "army": "Arm", "government": "Gov",
         "economy": "Eco", "defenders": "Def"}
TOKEN_TITLES = {"attack-anytime": "Attack Anytime", "steal-a-turn": "Steal a Turn"}
PACIFIST_TITLES = {"army-health-doubled": "Army and Health doubled in battle",
                   "double-gains": "Department gains doubled"}


# -- words ----------------------------------------------------------------------------------------
def place(state: CivState, where: str) -> str:
    return "home" if where == HOME else f"{where}'s port"


def dial_title(dial: str) -> str:
    return DIAL_TITLES.get(dial, dial)


def path_of(state: CivState, a: A.Action) -> tuple[str, ...] | None:
    """The menu words leading to `a`; None for dice, which are entered on the die pad."""
    me = state.current
    if isinstance(a, (A.Roll, A.BattleRoll, A.EventRoll)):
        return None
    if isinstance(a, A.DrawCard):
        return ("Draw a card",)
    if isinstance(a, A.MoveArmy):
        return ("Move army", f"to {place(state, a.to)}")
    if isinstance(a, A.BuildBridge):
        return ("Build or move a bridge", f"Bridge {a.bridge} to {a.to}'s port")
    if isinstance(a, A.Upgrade):
        return ("Upgrade", dial_title(a.department))
    if isinstance(a, A.Attack):
        if a.via == "die":
            return ("Attack", a.target)
        if a.via == "card":
            return ("Attack with an Action card", a.target)
        title = "Attack Anytime token" if a.via == "token" else "Anytime Attack card"
        return (ANYTIME, title, f"{a.player} attacks {a.target}")
    if isinstance(a, A.SaveDie):
        return ("Save the die",)
    if isinstance(a, A.Combo):
        faces = "+".join(map(str, BOOK.combos[a.token]))
        return (f"Combo {faces}: {TOKEN_TITLES[a.token]} token",)
    if isinstance(a, A.RecruitDefenders):
        return (f"Recruit {a.die} Defenders",)
    if isinstance(a, A.DieCard):
        what = "Action card" if a.kind == "action" else "Ability card"
        return ("Play a card with the die", f"{what} with the saved die" if a.with_saved else what)
    if isinstance(a, A.Decline):
        return ("Decline: lose a level", dial_title(a.department) if a.department else "(every level is 0)")
    if isinstance(a, A.DrawTwo):
        return ("No die left: draw 2 cards",)
    if isinstance(a, A.TurnInSavedDie):
        return ("Turn in the saved die for a card",)
    if isinstance(a, A.StealTurn):
        return (ANYTIME, "Steal a Turn token", f"{a.player} steals {me}'s turn")
    if isinstance(a, A.TakeFirstDie):
        return (ANYTIME, "Sabotage: take a die first", f"{a.player} takes the {a.die}")
    if isinstance(a, A.PlayCard):
        if a.kind == "action":
            return ("Play an Action card",)
        return (ANYTIME, "Play an Anytime card", a.player)
    if isinstance(a, A.Discard):
        return ("Discard cards", f"{a.count} card{'s' if a.count > 1 else ''}")
    if isinstance(a, A.DiscardToUpgrade):
        return (f"Discard {BOOK.upgrade_discard} to upgrade", dial_title(a.department))
    if isinstance(a, A.SetDial):
        return ("Enter the card's effect", a.player, dial_title(a.dial), f"{dial_title(a.dial)} {a.value}")
    if isinstance(a, A.MovePiece):
        piece = "Army" if a.piece == "army" else f"Bridge {a.piece[-1]}"
        return ("Enter the card's effect", a.player, piece, f"{piece} to {place(state, a.to)}")
    if isinstance(a, A.EndTurn):
        return ("End the turn, draw 1",) if a.draw else ("End the turn without drawing",)
    if isinstance(a, A.BattleCards):
        return ("Play battle cards", f"{a.cards} card{'s' if a.cards != 1 else ''}") if a.cards else (
            "No modifier",)
    if isinstance(a, A.Retreat):
        return ("Retreat (give 2 cards)",)
    if isinstance(a, A.BattleTotals):
        return (f"Attacker {a.attacker:+d}", f"Defender {a.defender:+d}")
    if isinstance(a, A.WarReward):
        b = state.battle
        if len(a.departments) == 1:
            return (f"{b.defender} loses {dial_title(a.departments[0])}",)
        first, second = a.departments
        return (f"Gain {dial_title(first)}", f"and {dial_title(second)}")
    if isinstance(a, A.RevealStatus):
        return (f"{a.name} ({a.kind})",)
    if isinstance(a, A.ClaimStatus):
        card = "Personal Status card" if a.card == "personal" else a.card
        return ("Claim a Status card", a.player, card)
    if isinstance(a, A.RenewStatus):
        return (ANYTIME, "Discard a Status card (ability)", f"{a.player} discards {a.card}")
    if isinstance(a, A.PayStatusCost):
        return (f"Pay 1 {dial_title(a.department)}",)
    if isinstance(a, A.StatusCostPaid):
        return ("The cost is paid",)
    if isinstance(a, A.GiveRenewal):
        return (DRAWN,) + _drawer(state, a.player) + ("the lowest-status card", f"{a.to} gets it")
    if isinstance(a, A.ChoosePacifist):
        return (PACIFIST_TITLES.get(a.option, a.option),)
    if isinstance(a, A.WorldEvent):
        return (DRAWN,) + _drawer(state, a.player) + (f"World Event: {a.event}",)
    if isinstance(a, A.EventChoice):
        return event_choice_path(state, a)
    return (a.type,)


def _drawer(state: CivState, player: str) -> tuple[str, ...]:
    """Who drew the card: asked only when more than one player has just drawn."""
    return (f"drawn by {player}",) if len(state.fresh) > 1 else ()


def event_choice_path(state: CivState, a: A.EventChoice) -> tuple[str, ...]:
    stage = state.event.stage
    if stage == "wager":
        return ("Pass",) if a.number == 0 else ("Wager", str(a.number))
    if stage == "guess":
        return ("Pass",) if a.number == 0 else (f"Pick {a.number}",)
    if stage in ("pay", "zombie-up", "zombie-down"):
        return (dial_title(a.choice),)
    if stage == "claim":
        return (f"Claim {a.choice}",)
    if stage == "move":
        return (f"Army to {place(state, a.other or HOME)}",)
    if stage == "choose":
        verb = "take its level" if a.number == 0 else "give it my level"
        return (dial_title(a.choice), f"with {a.other}", verb)
    if stage == "cure":
        return ("Pass",) if not a.other else (f"Pay 1 Economy to {a.other}",)
    if stage == "modify":
        if a.choice == "cards":
            return ("Battle cards", str(a.number))
        return ("Roll a die",) if a.choice == "roll" else ("No modifier",)
    if stage == "totals":
        return (f"Cards add {a.number:+d}",)
    return (a.choice or str(a.number),)


def acting(a: A.Action) -> str:
    return getattr(a, "player", "") or ""
