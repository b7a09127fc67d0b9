"""Every legal action in a position: candidates per pending step, kept if `apply` accepts them.

Names of Status cards are free text at the table; the enumeration offers the names the data file
knows (an unlisted card can still be entered, it just is not listed here).
"""
from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Callable, Iterable

from ..core import Action, RulesError
from . import actions as A
from .battle import reward_options
from .cards import dial_values, piece_moves
from .events import actor as event_actor, in_deck
from .ring import available, decline_options
from .state import HOME, CivState
from .status import claimable
from .tables import BOOK, DEPARTMENTS


def candidates(state: CivState) -> Iterable[Action]:
    if state.winner:
        return
    if state.reveals:
        shown = {c.name for c in state.display}
        for card in BOOK.status_cards.values():
            if card.name not in shown:
                yield A.RevealStatus(card.name, card.kind)
        return
    if state.pacifist_choice:
        for option in BOOK.pacifist_options:
            yield A.ChoosePacifist(state.pacifist_choice, option)
        return
    if state.claim:
        for d in DEPARTMENTS:
            yield A.PayStatusCost(state.claim.player, d)
        yield A.StatusCostPaid(state.claim.player)
        return
    if state.battle:
        yield from _battle(state)
        return
    if state.event:
        yield from _event(state)
        return
    yield from _turn(state)
    yield from _anytime(state)


def _battle(state: CivState) -> Iterable[Action]:
    b = state.battle
    if b.stage in ("defender", "attacker"):
        who = b.defender if b.stage == "defender" else b.attacker
        for d in range(1, 7):
            yield A.BattleRoll(who, d)
        for n in range(state.city(who).hand + 1):
            yield A.BattleCards(who, n)
        if b.stage == "attacker":
            yield A.Retreat(who)
    elif b.stage == "reveal":
        low, high = BOOK.card_totals
        for att in range(low, high + 1):
            for dfn in range(low, high + 1):
                yield A.BattleTotals(att, dfn)
    else:
        for choice in reward_options(state):
            yield A.WarReward(b.winner, choice)


def _event(state: CivState) -> Iterable[Action]:
    e = state.event
    who = event_actor(state)
    if e.stage in ("roll", "modify-roll", "opponent-roll", "zombie-roll"):
        for d in range(1, 7):
            yield A.EventRoll(who, d)
    elif e.stage in ("wager", "guess"):
        top = 6 if e.stage == "guess" else max(state.city(who).hand, sum(state.city(who).levels))
        for n in range(top + 1):
            yield A.EventChoice(who, number=n)
    elif e.stage in ("pay", "zombie-up", "zombie-down"):
        for d in DEPARTMENTS:
            yield A.EventChoice(who, choice=d)
    elif e.stage == "claim":
        for c in state.display:
            yield A.EventChoice(who, choice=c.name)
    elif e.stage == "move":
        for p in (HOME,) + state.players:
            yield A.EventChoice(who, other=p)
    elif e.stage == "choose":
        for d in DEPARTMENTS:
            for p in state.players:
                for n in (0, 1):
                    yield A.EventChoice(who, choice=d, other=p, number=n)
    elif e.stage == "cure":
        for p in ("",) + state.players:
            yield A.EventChoice(who, other=p)
    elif e.stage == "modify":
        yield A.EventChoice(who, choice="roll")
        yield A.EventChoice(who, choice="none")
        for n in range(1, state.city(who).hand + 1):
            yield A.EventChoice(who, choice="cards", number=n)
    elif e.stage == "totals":
        for n in range(BOOK.card_totals[0], BOOK.card_totals[1] + 1):
            yield A.EventChoice(who, number=n)


def _turn(state: CivState) -> Iterable[Action]:
    me = state.current
    if state.step == "roll":
        for dice in combinations_with_replacement(range(1, 7), state.dice_per_round):
            yield A.Roll(tuple(dice))
        return
    if state.step == "die":
        dice = sorted(set(available(state)))
        c = state.city(me)
        for d in dice:
            yield A.DrawCard(me, d)
            for to in (HOME,) + state.players:
                yield A.MoveArmy(me, d, to)
            for i in range(1, len(c.bridges) + 1):
                for to in state.players:
                    yield A.BuildBridge(me, d, i, to)
            for dep in DEPARTMENTS:
                yield A.Upgrade(me, d, dep)
            for t in state.players:
                yield A.Attack(me, t, "die", d)
            yield A.SaveDie(me, d)
            for token in BOOK.combos:
                yield A.Combo(me, d, token)
            yield A.RecruitDefenders(me, d)
            for kind in ("action", "ability"):
                yield A.DieCard(me, d, kind, False)
                yield A.DieCard(me, d, kind, True)
        for dep in decline_options(state, me):
            yield A.Decline(me, dep)
        yield A.DrawTwo(me)
        yield A.TurnInSavedDie(me)
        for p in state.players:
            yield A.StealTurn(p)
            for d in sorted(set(state.dice or ())):
                yield A.TakeFirstDie(p, d)
    if state.step in ("die", "cards"):
        for dep in DEPARTMENTS:
            yield A.DiscardToUpgrade(me, dep)
    if state.step == "cards":
        yield A.PlayCard(me, "action")
        for n in range(1, state.city(me).hand + 1):
            yield A.Discard(me, n)
        for t in state.players:
            yield A.Attack(me, t, "card")
        yield A.EndTurn(me, True)
        yield A.EndTurn(me, False)


def _anytime(state: CivState) -> Iterable[Action]:
    for p in state.players:
        for name in claimable(state, p):
            yield A.ClaimStatus(p, name)
            yield A.RenewStatus(p, name)
        if dict(state.fresh).get(p):
            for to in state.players:
                yield A.GiveRenewal(p, to)
        yield A.PlayCard(p, "anytime")
        for t in state.players:
            yield A.Attack(p, t, "token")
            yield A.Attack(p, t, "anytime-card")
        for event in BOOK.events:
            if in_deck(state, event) and dict(state.fresh).get(p):
                yield A.WorldEvent(p, event)
        if not state.effects:
            continue
        for dial, value in dial_values(state, p):
            yield A.SetDial(p, dial, value)
        for piece, to in piece_moves(state, p):
            yield A.MovePiece(p, piece, to)


# Kinds whose enumerated candidates differ only in values the enumeration already keeps in range
# (dice faces, card totals, a dial's other values, a piece's other places): whether one is legal
# depends only on the position, so one check answers for all of them.
UNIFORM = (A.Roll, A.BattleTotals, A.SetDial, A.MovePiece)


def legal(state: CivState, apply: Callable[[CivState, Action], CivState]) -> list[Action]:
    out = []
    verdict: dict[type, bool] = {}
    for action in candidates(state):
        kind = type(action)
        if kind in UNIFORM and kind in verdict:
            if verdict[kind]:
                out.append(action)
            continue
        try:
            apply(state, action)
            ok = True
        except RulesError:
            ok = False
        if kind in UNIFORM:
            verdict[kind] = ok
        if ok:
            out.append(action)
    return out
