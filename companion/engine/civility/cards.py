"""Civility cards at the table: plays and discards as counts, and the effects the table enters.

The engine cannot read a card, so a played card's effect on dials and pieces is entered with
`set-dial` and `move-piece`; what the engine enforces are the limits around them.
"""
from __future__ import annotations

from dataclasses import replace

from ..core import IllegalAction, OutOfTurn
from . import actions as A
from .checks import department, known_player, nothing_pending, own_turn
from .ring import check_army_move, check_bridge_move
from .state import HOME, CivState, gain, set_defenders, set_level, with_city
from .tables import BOOK, DEPARTMENTS


def _hand(state: CivState, player: str, n: int, what: str) -> None:
    if state.city(player).hand < n:
        raise IllegalAction(f"{player} holds {state.city(player).hand} card(s), too few to {what} "
                            "(rule: The Cards).", rule="The Cards")


def play_card(state: CivState, a: A.PlayCard) -> CivState:
    nothing_pending(state)
    known_player(state, a.player)
    if a.kind == "action":
        own_turn(state, a.player)
        if state.step != "cards":
            raise OutOfTurn("Action cards are played after the die action (rule: Gameplay).", rule="Gameplay")
        if state.action_cards >= BOOK.action_card_limit:
            raise IllegalAction(f"{a.player} has played {BOOK.action_card_limit} Action cards this turn, the limit "
                                "(rule: card play limit).", rule="Card Play Limit")
        state = replace(state, action_cards=state.action_cards + 1)
    elif a.kind != "anytime":
        raise IllegalAction('A card played on its own is an "action" or an "anytime" card; abilities and die '
                            'cards go with a die ("die-card"), battle cards in battle (rule: The Cards).',
                            rule="The Cards")
    _hand(state, a.player, 1, "play a card")
    state = with_city(state, a.player, hand=state.city(a.player).hand - 1)
    return replace(state, effects=BOOK.card_effects)


def _effect(state: CivState) -> CivState:
    """A card's effect is entered right after the card is played, a few dials or pieces at most."""
    if state.effects < 1:
        raise OutOfTurn("Dials and pieces are changed here only for a card just played: play the card first "
                        f"(at most {BOOK.card_effects} changes per card) (rule: The Cards).", rule="The Cards")
    return replace(state, effects=state.effects - 1)


def discard(state: CivState, a: A.Discard) -> CivState:
    own_turn(state, a.player)
    if a.count < 1:
        raise IllegalAction("Discard at least 1 card (rule: Gameplay).", rule="Gameplay")
    _hand(state, a.player, a.count, f"discard {a.count}")
    if state.stolen_by:
        # The thief plays or discards at most 2 of the victim's cards (rule: Steal a Turn).
        if state.action_cards + a.count > BOOK.action_card_limit:
            raise IllegalAction(f"In a stolen turn {state.stolen_by} plays or discards at most "
                                f"{BOOK.action_card_limit} cards (rule: Steal a Turn).", rule="Steal a Turn")
        state = replace(state, action_cards=state.action_cards + a.count)
    return with_city(state, a.player, hand=state.city(a.player).hand - a.count)


def discard_to_upgrade(state: CivState, a: A.DiscardToUpgrade) -> CivState:
    own_turn(state, a.player)
    department(a.department)
    _hand(state, a.player, BOOK.upgrade_discard, f"discard {BOOK.upgrade_discard} to upgrade")
    if state.stolen_by and state.action_cards + BOOK.upgrade_discard > BOOK.action_card_limit:
        raise IllegalAction(f"In a stolen turn {state.stolen_by} plays or discards at most "
                            f"{BOOK.action_card_limit} cards (rule: Steal a Turn).", rule="Steal a Turn")
    if state.city(a.player).level(a.department) >= BOOK.level_max:
        raise IllegalAction(f"{a.player}'s {a.department.title()} is already at {BOOK.level_max} "
                            "(rule: Departments 0-5).", rule="Departments")
    state = with_city(state, a.player, hand=state.city(a.player).hand - BOOK.upgrade_discard)
    return gain(state, a.player, a.department)


def set_dial(state: CivState, a: A.SetDial) -> CivState:
    nothing_pending(state)
    known_player(state, a.player)
    c = state.city(a.player)
    if a.dial == "defenders":
        if not 0 <= a.value <= BOOK.defenders_max:
            raise IllegalAction(f"Defenders go from 0 to {BOOK.defenders_max}, not {a.value} (rule: Defenders).",
                                rule="Defenders")
        current = c.defenders
    else:
        department(a.dial)
        if not 0 <= a.value <= BOOK.level_max:
            raise IllegalAction(f"Departments go from 0 to {BOOK.level_max}, not {a.value} (rule: Departments).",
                                rule="Departments")
        current = c.level(a.dial)
    if current == a.value:
        raise IllegalAction(f"{a.player}'s {a.dial} is already {a.value}.", rule="Departments")
    state = _effect(state)
    if a.dial == "defenders":
        return set_defenders(state, a.player, a.value)
    return set_level(state, a.player, a.dial, a.value)


def move_piece(state: CivState, a: A.MovePiece) -> CivState:
    nothing_pending(state)
    known_player(state, a.player)
    state = _effect(state)
    if a.piece == "army":
        check_army_move(state, a.player, a.to)
        return with_city(state, a.player, army=a.to)
    if a.piece not in ("bridge1", "bridge2"):
        raise IllegalAction('A piece is "army", "bridge1" or "bridge2" (rule: Components).', rule="Components")
    index = int(a.piece[-1])
    check_bridge_move(state, a.player, index, a.to, home_ok=True)
    bridges = list(state.city(a.player).bridges)
    bridges[index - 1] = a.to
    return with_city(state, a.player, bridges=tuple(bridges))


def dial_values(state: CivState, player: str) -> list[tuple[str, int]]:
    """Every (dial, value) a card could set for `player` (for enumerating legal actions)."""
    c = state.city(player)
    out = [(d, v) for d in DEPARTMENTS for v in range(BOOK.level_max + 1) if v != c.level(d)]
    out += [("defenders", v) for v in range(BOOK.defenders_max + 1) if v != c.defenders]
    return out


def piece_moves(state: CivState, player: str) -> list[tuple[str, str]]:
    c = state.city(player)
    places = [HOME] + [p for p in state.players if p != player]
    out = [("army", p) for p in places if p != c.army]
    for i, at in enumerate(c.bridges, start=1):
        out += [(f"bridge{i}", p) for p in places if p != at]
    return out
