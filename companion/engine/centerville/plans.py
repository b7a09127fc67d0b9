"""Every legal way to spend a roll: complete spending plans, for the app's hints and for search.

A plan is the set of spends (and the decisions they raise, like Public Works) that ends the
turn's spending. Orders that give the same set are listed once.
"""
from __future__ import annotations

from ..core import RulesError
from .game import Centerville
from .options import legal_actions
from .state import State

_GAME = Centerville()


def spend_plans(state: State, limit: int = 100_000) -> list[tuple]:
    """Every complete plan from a state in the spending phase (hourglasses always included)."""
    if state.phase != "spend":
        raise RulesError("Plans are made once rolling is finished (rule: Spending the Dice).", rule="Spending the Dice")
    plans: list[tuple] = []
    seen: set[frozenset] = set()
    turn = state.turn

    def walk(s: State, path: tuple) -> None:
        for action in legal_actions(s):
            key = frozenset(path + (action,))
            if key in seen:
                continue
            seen.add(key)
            after = _GAME.apply(s, action)
            if after.turn != turn or after.phase != "spend":
                plans.append(path + (action,))
                if len(plans) >= limit:
                    raise _Enough
            else:
                walk(after, path + (action,))

    try:
        walk(state, ())
    except _Enough:
        pass
    return plans


class _Enough(Exception):
    pass
