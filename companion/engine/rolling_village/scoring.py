"""Scoring a Village Grid: Networks, Avenue Activation, and the odds of each Avenue.

A grid is a tuple of Avenues (rows, top to bottom), each a tuple of Streets holding a Project
name or None. Squares are (row, street), both 1-based, as on the sheet and in the log.
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from .sheet import Sheet

Grid = tuple[tuple[str | None, ...], ...]
Square = tuple[int, int]


@dataclass(frozen=True)
class Activation:
    """One player's scoring: the Avenue Activated, the Networks it lit, the squares and points."""

    row: int
    networks: tuple[frozenset[Square], ...]
    squares: frozenset[Square]
    score: int
    chosen: bool = False  # True when the player picked the Avenue (a sum of 2 or 12)

    def to_json(self) -> dict:
        return {
            "row": self.row,
            "score": self.score,
            "chosen": self.chosen,
            "squares": sorted([list(sq) for sq in self.squares]),
            "networks": [sorted([list(sq) for sq in n]) for n in self.networks],
        }


def networks(grid: Grid) -> list[frozenset[Square]]:
    """Every Network: Projects of one type joined orthogonally (a lone Project is a Network)."""
    seen: set[Square] = set()
    found = []
    rows, streets = len(grid), len(grid[0])
    for r in range(1, rows + 1):
        for s in range(1, streets + 1):
            kind = grid[r - 1][s - 1]
            if kind is None or (r, s) in seen:
                continue
            component, todo = set(), [(r, s)]
            seen.add((r, s))
            while todo:
                cr, cs = todo.pop()
                component.add((cr, cs))
                for nr, ns in ((cr - 1, cs), (cr + 1, cs), (cr, cs - 1), (cr, cs + 1)):
                    if (1 <= nr <= rows and 1 <= ns <= streets and (nr, ns) not in seen
                            and grid[nr - 1][ns - 1] == kind):
                        seen.add((nr, ns))
                        todo.append((nr, ns))
            found.append(frozenset(component))
    return found


def activate(grid: Grid, sheet: Sheet, row: int, chosen: bool = False) -> Activation:
    """Activate Avenue `row`: every Network with a Project on it lights up as a whole."""
    lit = tuple(n for n in networks(grid) if any(r == row for r, _ in n))
    squares = frozenset().union(*lit) if lit else frozenset()
    score = sum(sheet.points[r - 1][s - 1] for r, s in squares)
    return Activation(row, lit, squares, score, chosen)


def avenue_scores(grid: Grid, sheet: Sheet) -> tuple[int, ...]:
    """The score each Avenue would give if Activated now (index 0 = Avenue 1)."""
    scores = [0] * sheet.avenues
    for network in networks(grid):
        value = sum(sheet.points[r - 1][s - 1] for r, s in network)
        for row in {r for r, _ in network}:
            scores[row - 1] += value
    return tuple(scores)


def best_avenue(grid: Grid, sheet: Sheet) -> int:
    """The Avenue that scores most (the topmost of equals): the default choice on 2 or 12."""
    scores = avenue_scores(grid, sheet)
    return scores.index(max(scores)) + 1


def sum_odds() -> dict[int, Fraction]:
    """The chance of each sum of two six-sided dice."""
    odds: dict[int, Fraction] = {}
    for a in range(1, 7):
        for b in range(1, 7):
            odds[a + b] = odds.get(a + b, Fraction(0)) + Fraction(1, 36)
    return odds


def avenue_odds(sheet: Sheet) -> tuple[tuple[float, ...], float]:
    """(chance each Avenue is Activated by the dice, chance the player chooses) for one roll."""
    odds = sum_odds()
    rows = tuple(float(sum(odds[s] for s in sums)) for sums in sheet.sums)
    return rows, float(sum(odds[s] for s in sheet.choice_sums))


def expected_score(grid: Grid, sheet: Sheet) -> float:
    """The expected score of one Activation roll on this grid (choosing the best on 2 or 12)."""
    scores = avenue_scores(grid, sheet)
    rows, choice = avenue_odds(sheet)
    return sum(p * v for p, v in zip(rows, scores)) + choice * max(scores)
