"""The advisor's value function: how many points a Village Grid is expected to bring.

    V = (10 - turn) * E + lookahead * G * sum(10 - k for the turns k still to build)
        + the Bonus Projects still to come

E is the expected score of one Activation roll on the grid (Avenue odds from the 2d6 sums,
the best Avenue on 2 or 12); every Project already built keeps scoring on every later turn,
so E counts once per Activation left. G is what one future building roll is expected to add
to E, each rolled Project going to the best empty square of its Street (or anywhere once the
Street is full): it rewards grids whose Networks can still grow onto points and across
Avenues. The advisor (advisor.py) uses V to shortlist candidates, then plays them out.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

from .scoring import avenue_odds
from .sheet import Legend, Sheet
from .state import BONUS_TURNS, TURNS

LOOKAHEAD = 0.5  # weight of future builds' expected gain (tuned with bench/rolling_village_advisor.py)


@dataclass(frozen=True)
class Model:
    """A sheet and legend flattened for speed: cell i = (row - 1) * streets + (street - 1)."""

    rows: int
    streets: int
    points: tuple[int, ...]
    row_of: tuple[int, ...]
    neighbours: tuple[tuple[int, ...], ...]
    row_odds: tuple[float, ...]
    choice_odds: float
    types: tuple[str, ...]
    face_type: tuple[int, ...]  # face_type[d - 1]: type index (1-based) of die face d
    street_cells: tuple[tuple[int, ...], ...]
    mask_odds: tuple[float, ...]  # mask_odds[set of Avenues as bits]: chance the dice pick one
    mask_rows: tuple[tuple[int, ...], ...]  # mask_rows[set of Avenues as bits]: their indexes


@functools.lru_cache(maxsize=16)
def model_for(sheet: Sheet, legend: Legend) -> Model:
    rows, streets = sheet.avenues, sheet.streets
    cells = rows * streets
    nbrs = []
    for i in range(cells):
        r, s = divmod(i, streets)
        out = []
        if r > 0:
            out.append(i - streets)
        if r < rows - 1:
            out.append(i + streets)
        if s > 0:
            out.append(i - 1)
        if s < streets - 1:
            out.append(i + 1)
        nbrs.append(tuple(out))
    row_odds, choice = avenue_odds(sheet)
    return Model(
        rows, streets, tuple(p for line in sheet.points for p in line),
        tuple(i // streets for i in range(cells)), tuple(nbrs), row_odds, choice, legend.names,
        tuple(legend.names.index(legend.project_for_die(d)) + 1 for d in range(1, 7)),
        tuple(tuple(r * streets + s for r in range(rows)) for s in range(streets)),
        tuple(sum(p for r, p in enumerate(row_odds) if mask >> r & 1) for mask in range(1 << rows)),
        tuple(tuple(r for r in range(rows) if mask >> r & 1) for mask in range(1 << rows)),
    )


class Evaluation:
    """A grid's Networks and Avenue scores; the change in E from adding one Project (`gain`);
    `place` adds it, updating the Networks in place (playouts build on a `copy`)."""

    __slots__ = ("m", "grid", "comp", "vals", "masks", "members", "scores", "top", "e")

    def __init__(self, m: Model, grid: list[int]):
        self.m, self.grid = m, grid
        comp = [-1] * len(grid)
        vals, masks, members = [], [], []
        pts, row_of, nbrs = m.points, m.row_of, m.neighbours
        for start, kind in enumerate(grid):
            if not kind or comp[start] >= 0:
                continue
            ident = len(vals)
            comp[start] = ident
            todo, cells, value, mask = [start], [], 0, 0
            while todo:
                c = todo.pop()
                cells.append(c)
                value += pts[c]
                mask |= 1 << row_of[c]
                for n in nbrs[c]:
                    if comp[n] < 0 and grid[n] == kind:
                        comp[n] = ident
                        todo.append(n)
            vals.append(value)
            masks.append(mask)
            members.append(cells)
        scores = [0] * m.rows
        for value, mask in zip(vals, masks):
            if value:
                for r in range(m.rows):
                    if mask >> r & 1:
                        scores[r] += value
        self.comp, self.vals, self.masks, self.members = comp, vals, masks, members
        self._rescore(scores)

    def _rescore(self, scores: list[int]) -> None:
        self.scores = scores
        self.top = max(scores)
        self.e = _expect(self.m, scores)

    def copy(self) -> "Evaluation":
        other = object.__new__(Evaluation)
        other.m, other.grid, other.comp = self.m, list(self.grid), list(self.comp)
        other.vals, other.masks, other.members = list(self.vals), list(self.masks), list(self.members)
        other.scores, other.top, other.e = self.scores, self.top, self.e
        return other

    def _joined(self, kind: int, cell: int) -> list[int]:
        grid, comp, joined = self.grid, self.comp, []
        for n in self.m.neighbours[cell]:
            if grid[n] == kind and comp[n] not in joined:
                joined.append(comp[n])
        return joined

    def gain(self, kind: int, cell: int) -> float:
        """How much E grows if a Project of type `kind` is built on the empty `cell`."""
        m, vals, masks = self.m, self.vals, self.masks
        joined = self._joined(kind, cell)
        value, mask = m.points[cell], 1 << m.row_of[cell]
        for j in joined:
            value += vals[j]
            mask |= masks[j]
        if not value:
            return 0.0
        odds = m.mask_odds
        delta = value * odds[mask]
        for j in joined:
            delta -= vals[j] * odds[masks[j]]
        if m.choice_odds and not joined:
            # Nothing is taken away: the best Avenue is the old best or one this one reaches.
            best, scores = self.top, self.scores
            for r in m.mask_rows[mask]:
                if scores[r] + value > best:
                    best = scores[r] + value
            delta += m.choice_odds * (best - self.top)
        elif m.choice_odds:
            best = 0
            for r, x in enumerate(self.scores):
                if mask >> r & 1:
                    x += value
                for j in joined:
                    if masks[j] >> r & 1:
                        x -= vals[j]
                if x > best:
                    best = x
            delta += m.choice_odds * (best - self.top)
        return delta

    def place(self, kind: int, cell: int) -> None:
        """Build a Project of type `kind` on the empty `cell` (the Networks it joins merge)."""
        m, vals, masks, members, comp = self.m, self.vals, self.masks, self.members, self.comp
        joined = self._joined(kind, cell)
        value, mask, cells = m.points[cell], 1 << m.row_of[cell], [cell]
        scores = list(self.scores)
        for j in joined:
            value += vals[j]
            mask |= masks[j]
            cells += members[j]
            for r in range(m.rows):
                if masks[j] >> r & 1:
                    scores[r] -= vals[j]
            vals[j], masks[j], members[j] = 0, 0, []
        ident = len(vals)
        vals.append(value)
        masks.append(mask)
        members.append(cells)
        for c in cells:
            comp[c] = ident
        for r in range(m.rows):
            if mask >> r & 1:
                scores[r] += value
        self.grid[cell] = kind
        self._rescore(scores)


def _expect(m: Model, scores: list[int]) -> float:
    total = m.choice_odds * max(scores)
    for p, v in zip(m.row_odds, scores):
        total += p * v
    return total


def best_gains(ev: Evaluation) -> list[list[float]]:
    """best[type][street]: the best E gain of a rolled Project of that type sent to that Street."""
    m, grid = ev.m, ev.grid
    empty = [c for c, k in enumerate(grid) if not k]
    best = [[0.0] * m.streets for _ in range(len(m.types) + 1)]
    for kind in range(1, len(m.types) + 1):
        gains = {c: ev.gain(kind, c) for c in empty}
        anywhere = max(gains.values(), default=0.0)
        for s, cells in enumerate(m.street_cells):
            open_cells = [gains[c] for c in cells if not grid[c]]
            best[kind][s] = max(open_cells) if open_cells else anywhere
    return best


def value(m: Model, grid: list[int], turn: int, bonus_left: tuple[int, ...], lookahead=LOOKAHEAD) -> float:
    """Expected points still to come from this grid, built up to (and including) `turn`."""
    ev = Evaluation(m, grid)
    total = ev.e * (TURNS + 1 - max(turn, 1))
    later = [k for k in range(turn + 1, TURNS + 1)]
    if not later or not any(not k for k in grid):
        return total
    best = best_gains(ev)
    per_roll = 0.0
    for face in range(6):
        row = best[m.face_type[face]]
        per_roll += sum(row) / 36.0
    per_roll *= 2  # both dice bring a Project
    total += lookahead * per_roll * sum(TURNS + 1 - k for k in later)
    # Bonus turns still to come: the best remaining types, earliest turn first.
    bonus_turns = [k for k in BONUS_TURNS if k > turn]
    if bonus_turns and bonus_left:
        anywhere = sorted((max(best[t]) for t in bonus_left), reverse=True)
        for k, g in zip(bonus_turns, anywhere):
            total += lookahead * g * (TURNS + 1 - k)
    return total
