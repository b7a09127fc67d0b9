"""Drawing chance and random play from a `random.Random` handed in (simulations, tests, bench).

At the table chance is entered; here it is drawn with the real odds: tiles by their count in
the bag, each die face 1 in 6, Legacy tiles from those not yet face up.
"""
from __future__ import annotations

import random

from ..core import Action
from .actions import BotLoseVocations, Draw, OpenLegacy, RevealLegacy, Roll
from .dice import default_dice
from .options import legal_actions
from .state import DIE_ORDER, State

DICE = default_dice()
CHANCE_PHASES = ("setup-draw", "reseed", "setup-legacy", "roll")
CHANCE_PENDING = ("bot-lose-vocations", "reveal-legacy")


def awaits_chance(s: State) -> bool:
    if s.pending:
        return s.pending[0].kind in CHANCE_PENDING
    return s.phase in CHANCE_PHASES


def chance_action(s: State, rng: random.Random) -> Action:
    """What chance gives now, drawn with the game's odds."""
    if s.pending:
        p = s.pending[0]
        if p.kind == "reveal-legacy":
            used = {x for x in s.legacies if x} | {s.open_legacy}
            return RevealLegacy(s.names[p.subject], rng.choice([x for x in s.board.legacies if x not in used]))
        tiles = [v for v, n in enumerate(s.vocations[p.subject], start=1) for _ in range(n)]
        return BotLoseVocations(tuple(sorted(rng.sample(tiles, p.amount))))
    if s.phase == "setup-legacy":
        return OpenLegacy(rng.choice(s.board.legacies))
    if s.phase in ("roll", "masters"):
        faces = []
        for die in s.to_roll:
            faces.append(f"{DIE_ORDER[die]}-{rng.choice(DICE.faces[die])}")
        return Roll(tuple(faces))
    # a tile from the bag, each tile equally likely
    total = sum(s.bag) + s.bag_disasters
    pick = rng.randrange(total)
    for v, n in enumerate(s.bag, start=1):
        if pick < n:
            return Draw(vocation=v)
        pick -= n
    hidden = [k for k in s.board.disasters if k not in s.disasters_drawn]
    return Draw(disaster=rng.choice(hidden))


def random_decision(s: State, rng: random.Random) -> Action:
    """A uniformly random legal decision (rolling, spending, choices); at most a few Keep/Done skews."""
    if s.phase == "masters" and not s.pending:
        # set a Master die, or roll now (the roll itself is chance)
        options = [a for a in legal_actions(s) if a.type == "set_master"]
        choice = rng.randrange(len(options) + 1)
        return options[choice] if choice < len(options) else chance_action(s, rng)
    options = list(legal_actions(s))
    return rng.choice(options)


def play(game, names, rng: random.Random, options=None, max_actions: int = 20_000, on_state=None):
    """A complete random game; returns (final state, actions). `on_state` sees every state."""
    s = game.new(tuple(names), options or {})
    actions = []
    for _ in range(max_actions):
        if game.finished(s):
            return s, actions
        a = chance_action(s, rng) if awaits_chance(s) else random_decision(s, rng)
        s = game.apply(s, a)
        actions.append(a)
        if on_state is not None:
            on_state(s)
    raise RuntimeError(f"a random game did not end within {max_actions} actions")

