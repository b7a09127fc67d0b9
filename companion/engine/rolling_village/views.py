"""What the screens need to draw a village: its grid, where a Project may go, subtotals, and
the Networks the last Activation lit."""
from __future__ import annotations

from .scoring import Activation, Grid
from .state import BONUS_TURNS, VillageState, empty_squares
from .rules import legal_squares


def grid(state: VillageState, player: str) -> Grid:
    """`player`'s Village Grid: grid[row - 1][street - 1] is a Project name or None."""
    return state.village(player).grid


def bonus_squares(state: VillageState, player: str) -> list[tuple[int, int]]:
    """Where `player` may build their Bonus Project (every empty square), when one is owed."""
    village = state.village(player)
    if not any(o.kind == "bonus" for o in village.owed):
        return []
    return empty_squares(village.grid)


def subtotals(state: VillageState, player: str) -> list[int]:
    """The sums written above turns 3, 6 and 9 on the turn tracker (each of three turns),
    for every block already complete."""
    scores = state.village(player).turn_scores
    out, start = [], 0
    for end in BONUS_TURNS:
        if len(scores) >= end:
            out.append(sum(scores[start:end]))
        start = end
    return out


def last_activation(state: VillageState, player: str) -> Activation | None:
    """The Avenue `player` last Activated, the Networks it lit and the points (None before any)."""
    for name, result in zip(state.players, state.last_activation):
        if name == player:
            return result
    return None


__all__ = ["grid", "legal_squares", "bonus_squares", "subtotals", "last_activation"]
