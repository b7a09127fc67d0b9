"""Shared refusals: each raises a RulesError subclass whose sentence names the rule."""
from __future__ import annotations

from ..core import GameOver, IllegalAction, OutOfTurn
from .state import CivState
from .tables import DEPARTMENTS


def open_game(state: CivState) -> None:
    if state.winner:
        raise GameOver(f"{state.winner} has reached status 5 and won; the game is over (rule: How to Win).",
                       rule="How to Win")


def nothing_pending(state: CivState) -> None:
    """Refuse a table action while a step the rules put first is still open."""
    open_game(state)
    if state.reveals:
        raise OutOfTurn("Turn over the next Status card and enter it first (rule: Status Cards).",
                        rule="Status Cards")
    if state.pacifist_choice:
        raise OutOfTurn(f"{state.pacifist_choice} first chooses a Pacifist Perk option (rule: Pacifist Perk).",
                        rule="Pacifist Perk")
    if state.claim:
        raise OutOfTurn(f"{state.claim.player} is still paying for \"{state.claim.card}\" "
                        "(rule: claiming a Status Card).", rule="Status Cards")
    if state.battle:
        raise OutOfTurn(f"A battle between {state.battle.attacker} and {state.battle.defender} is under way; "
                        "it is resolved first (rule: Attack).", rule="Attack")
    if state.event:
        raise OutOfTurn(f"The World Event {state.event.name} is being played out first "
                        "(rule: World Event Cards).", rule="World Event Cards")


def known_player(state: CivState, player: str) -> None:
    if player not in state.players:
        raise IllegalAction(f"{player!r} is not at this table ({', '.join(state.players)}).", rule="Set-Up")


def own_turn(state: CivState, player: str) -> None:
    """`player` names the city whose turn it is (during a stolen turn the thief acts for it)."""
    nothing_pending(state)
    known_player(state, player)
    if player != state.current:
        raise OutOfTurn(f"It is {state.current}'s turn, not {player}'s (rule: Gameplay).", rule="Gameplay")


def department(name: str, allow_government: bool = True) -> None:
    if name not in DEPARTMENTS:
        raise IllegalAction(f"{name!r} is not a department ({', '.join(DEPARTMENTS)}); Defenders are not a "
                            "department (rule: Civility Terms).", rule="Civility Terms")
    if name == "government" and not allow_government:
        raise IllegalAction("Government may not be upgraded or lowered this way (rule: Upgrade 1 Department "
                            "Level; War rewards).", rule="Government")


def die_face(die: int) -> None:
    if not 1 <= die <= 6:
        raise IllegalAction(f"A die shows 1 to 6, not {die} (rule: Dice).", rule="Dice")
