"""Seeded random play for tests and benchmarks: decisions uniform among legal actions, chance
drawn from the `random.Random` handed in (the table's dice, Status cards and World Events)."""
from __future__ import annotations

import random
from dataclasses import dataclass

from ..core import Action
from . import actions as A
from .events import in_deck
from .rules import Civility
from .state import CivState
from .tables import BOOK

# Unlisted Status cards stand in for the 19 cards whose names we do not know.
UNLISTED = tuple(f"Status card {i}" for i in range(1, 20))
RENEWAL_ODDS = 1 / 101  # one such card among the 101 Civility cards
CHANCE_GROUPS = (A.Roll, A.BattleRoll, A.EventRoll, A.RevealStatus)


@dataclass(frozen=True)
class Played:
    state: CivState
    actions: tuple[Action, ...]


def chance(state: CivState, like: Action, rng: random.Random) -> Action:
    """What the table's dice or deck give, for an action of the same kind as `like`."""
    if isinstance(like, A.Roll):
        return A.Roll(tuple(sorted(rng.randint(1, 6) for _ in range(state.dice_per_round))))
    if isinstance(like, A.BattleRoll):
        return A.BattleRoll(like.player, rng.randint(1, 6))
    if isinstance(like, A.EventRoll):
        return A.EventRoll(like.player, rng.randint(1, 6))
    shown = {c.name for c in state.display}
    pool = [n for n in tuple(BOOK.status_cards) + UNLISTED if n not in shown]
    name = rng.choice(pool)
    facts = BOOK.status_cards.get(name)
    return A.RevealStatus(name, facts.kind if facts else ("battle" if rng.random() < 0.2 else "city"))


def step(game: Civility, state: CivState, rng: random.Random, event_odds: float = 0.1) -> Action:
    """One action for `state`: a World Event among fresh cards by chance, else a uniform pick."""
    if state.fresh and not (state.event or state.battle or state.claim or state.reveals or state.pacifist_choice):
        for player, n in state.fresh:
            n = min(n, state.city(player).hand)  # fresh cards already played or lost are not drawn now
            if rng.random() < 1 - (1 - event_odds) ** n:
                events = [e for e in BOOK.events if in_deck(state, e)]
                return A.WorldEvent(player, rng.choice(events))
            if rng.random() < 1 - (1 - RENEWAL_ODDS) ** n:
                lowest = min(c.status for c in state.cities)
                keep = state.city(player).status == lowest
                to = player if keep else rng.choice([c.player for c in state.cities if c.status == lowest])
                return A.GiveRenewal(player, to)
    legal = game.legal_actions(state)
    options: list[Action] = []
    seen: set = set()
    for a in legal:
        if isinstance(a, (A.WorldEvent, A.GiveRenewal)):
            continue  # what a drawn card was is chance, decided above
        if isinstance(a, CHANCE_GROUPS):
            key = (type(a), getattr(a, "player", None))
            if key in seen:
                continue
            seen.add(key)
        options.append(a)
    pick = rng.choice(options)
    return chance(state, pick, rng) if isinstance(pick, CHANCE_GROUPS) else pick


def play(players: tuple[str, ...], rng: random.Random, options: dict | None = None,
         max_actions: int = 20000) -> Played:
    game = Civility()
    state = game.new(players, options or {})
    done = []
    while not state.winner and len(done) < max_actions:
        action = step(game, state, rng)
        state = game.apply(state, action)
        done.append(action)
    return Played(state, tuple(done))
