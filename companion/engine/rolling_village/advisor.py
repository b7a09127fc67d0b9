"""The Rolling Village advisor: where to build this turn's Projects (and Bonus) to score most.

For the Projects the player owes now it lists every legal way to build them (both orders,
every square; on Bonus turns, the Bonus too), shortlists the best by the value function of
evaluation.py (plus the greedy choice: the best expected score this turn), then plays each shortlisted grid to the end of the game many times with the
same simulated dice (common random numbers: the candidates differ by the placement, not by
luck), building greedily in those playouts, and counts the expected score of every
Activation left. The candidate with the highest mean wins; equal means go to the one the
value function ranked first. Deterministic: the playout dice come from a `random.Random`
seeded from the position unless one is handed in.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, replace
from typing import Iterator

from .evaluation import LOOKAHEAD, Evaluation, Model, model_for, value
from .scoring import best_avenue
from .state import BONUS_TURNS, TURNS, Bonus, Build, VillageState

# Measured with bench/rolling_village_advisor.py (300 games, mean gain over greedy): 8 x 24
# playouts +2.8, 6 x 40 +3.2, 5 x 80 +3.1, 4 x 64 +3.4 (standard error about 0.75 each).
SHORTLIST = 4        # candidates played out (besides the greedy choice)
PLAYOUTS = 64        # simulated games per candidate
BUILD_SHORTLIST = 6  # on Bonus turns: build pairs whose Bonus options are considered
BONUS_SHORTLIST = 8  # ... and the Bonus options (by immediate gain) tried with each


# ---------------------------------------------------------------------------------------------
# Candidates: every way to build what the player owes, as (cell, type, is_bonus) steps.
# ---------------------------------------------------------------------------------------------
def _flat(state: VillageState, player: str, m: Model) -> list[int]:
    grid = state.village(player).grid
    return [0 if k is None else m.types.index(k) + 1 for line in grid for k in line]


def _street_open(m: Model, grid: list[int], street: int) -> list[int]:
    cells = [c for c in m.street_cells[street - 1] if not grid[c]]
    return cells or [c for c, k in enumerate(grid) if not k]


def _build_sequences(m: Model, grid: list[int], owed) -> Iterator[list[tuple[int, int]]]:
    """Every order and square for the rolled (or start) Projects still owed: [(cell, type)]."""
    if not owed:
        yield []
        return
    seen = set()
    for index, o in enumerate(owed):
        if index and (o.kind, o.street, o.project, o.not_project) in seen:
            continue
        seen.add((o.kind, o.street, o.project, o.not_project))
        rest = owed[:index] + owed[index + 1:]
        kinds = ([m.types.index(o.project) + 1] if o.kind == "build" else
                 [t for t in range(1, len(m.types) + 1) if m.types[t - 1] != o.not_project])
        for kind in kinds:
            if o.kind == "start":
                rest_now = tuple(replace(r, not_project=m.types[kind - 1]) for r in rest)
            else:
                rest_now = rest
            for cell in _street_open(m, grid, o.street):
                grid[cell] = kind
                for tail in _build_sequences(m, grid, rest_now):
                    yield [(cell, kind)] + tail
                grid[cell] = 0


def _to_actions(m: Model, player: str, steps, bonus) -> tuple:
    out = [Build(player, m.types[k - 1], c // m.streets + 1, c % m.streets + 1) for c, k in steps]
    if bonus is not None:
        c, k = bonus
        out.append(Bonus(player, m.types[k - 1], c // m.streets + 1, c % m.streets + 1))
    return tuple(out)


TIE_BREAK = 0.01  # playouts: among equal gains, prefer squares that can grow a Network later


def _greedy_cell(ev: Evaluation, kind: int, cells) -> int:
    m, grid = ev.m, ev.grid
    best, best_gain = cells[0], -1.0
    for c in cells:
        g = ev.gain(kind, c)
        if TIE_BREAK:
            for n in m.neighbours[c]:
                if grid[n] == kind or (not grid[n] and m.points[n]):
                    g += TIE_BREAK
        if g > best_gain:
            best, best_gain = c, g
    return best


def playout(base: Evaluation, turn: int, left: tuple[int, ...], rolls) -> float:
    """Expected points of every Activation from `turn` on, building greedily on `rolls`."""
    m = base.m
    ev = base.copy()
    g = ev.grid
    total = ev.e if turn >= 1 else 0.0
    left = list(left)
    for k, (a, b) in zip(range(turn + 1, TURNS + 1), rolls):
        for face, street in ((a, b), (b, a)):
            cells = _street_open(m, g, street)
            if cells:
                kind = m.face_type[face - 1]
                ev.place(kind, _greedy_cell(ev, kind, cells))
        if k in BONUS_TURNS and left:
            empty = [c for c, x in enumerate(g) if not x]
            if empty:
                options = [(ev.gain(kind, c), -i, kind, c) for i, kind in enumerate(left) for c in empty]
                _, _, kind, cell = max(options)
                ev.place(kind, cell)
                left.remove(kind)
        total += ev.e
    return total


@dataclass(frozen=True)
class Advice:
    actions: tuple          # Build / Bonus actions to apply, in this order
    expected_final: float   # score so far + expected points still to come after these builds


def _candidates(m, grid, turn, builds, bonus_owed, left, lookahead):
    """[(value, steps, bonus)] best first: every build sequence (and Bonus, shortlisted)."""
    scored = []
    for steps in _build_sequences(m, grid, builds):
        for c, k in steps:
            grid[c] = k
        scored.append((value(m, grid, turn, left, lookahead), len(scored), steps, None))
        for c, _ in steps:
            grid[c] = 0
    scored.sort(key=lambda item: (-item[0], item[1]))
    if not bonus_owed:
        return scored
    with_bonus = []
    for _, _, steps, _ in scored[:BUILD_SHORTLIST]:
        for c, k in steps:
            grid[c] = k
        ev = Evaluation(m, grid)
        options = sorted(((ev.gain(kind, c), -kind, -c) for kind in left
                          for c, x in enumerate(grid) if not x), reverse=True)
        for _, kind, cell in options[:BONUS_SHORTLIST]:
            kind, cell = -kind, -cell
            grid[cell] = kind
            rest = tuple(t for t in left if t != kind)
            with_bonus.append((value(m, grid, turn, rest, lookahead), len(with_bonus), steps, (cell, kind)))
            grid[cell] = 0
        for c, _ in steps:
            grid[c] = 0
    with_bonus.sort(key=lambda item: (-item[0], item[1]))
    return with_bonus


def advise(state: VillageState, player: str, greedy: bool = False, lookahead: float = LOOKAHEAD,
           playouts: int = PLAYOUTS, shortlist: int = SHORTLIST, rng: random.Random | None = None) -> Advice:
    """The builds (and Bonus, when due) for what `player` owes now that maximise the expected
    final score. `greedy=True` instead maximises this turn's expected score only (a baseline
    for the benchmark)."""
    village = state.village(player)
    if not village.owed:
        return Advice((), float(village.score))
    m = model_for(state.sheet, state.legend)
    turn = state.turn
    grid = _flat(state, player, m)
    builds = tuple(o for o in village.owed if o.kind != "bonus")
    bonus_owed = any(o.kind == "bonus" for o in village.owed)
    left = tuple(t for t in range(1, len(m.types) + 1) if m.types[t - 1] not in village.bonus_used)
    e, steps, bonus = _greedy(m, grid, builds, bonus_owed, left)
    if greedy or turn == TURNS:
        # On the last turn the final score is the score so far plus this Activation: the
        # greedy search over every placement is then exact.
        return Advice(_to_actions(m, player, steps, bonus), village.score + e)
    ranked = [(s, b) for _, _, s, b in _candidates(m, grid, turn, builds, bonus_owed, left, lookahead)]
    ranked = ranked[:shortlist]
    if (steps, bonus) not in ranked:
        ranked.append((steps, bonus))  # the playouts also weigh the greedy choice
    if rng is None:
        rng = random.Random(repr((turn, grid, left)))
    rolls = [[(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(TURNS - turn)] for _ in range(playouts)]
    best = None
    for steps, bonus in ranked:
        placed = steps + ([bonus] if bonus else [])
        for c, k in placed:
            grid[c] = k
        rest = tuple(t for t in left if not bonus or t != bonus[1])
        base = Evaluation(m, grid)
        mean = sum(playout(base, turn, rest, r) for r in rolls) / playouts
        for c, _ in placed:
            grid[c] = 0
        if best is None or mean > best[0]:
            best = (mean, steps, bonus)
    mean, steps, bonus = best
    return Advice(_to_actions(m, player, steps, bonus), village.score + mean)


def _greedy(m, grid, builds, bonus_owed, left):
    """(E, steps, bonus): the placement with the best expected score at this turn's Activation."""
    best = None
    for steps in _build_sequences(m, grid, builds):
        for c, k in steps:
            grid[c] = k
        ev = Evaluation(m, grid)
        bonus_options = [None]
        if bonus_owed:
            bonus_options = [(c, kind) for kind in left for c, x in enumerate(grid) if not x]
        for bonus in bonus_options:
            e = ev.e if bonus is None else ev.e + ev.gain(bonus[1], bonus[0])
            if best is None or e > best[0]:
                best = (e, steps, bonus)
        for c, _ in steps:
            grid[c] = 0
    return best


def choose_avenue(state: VillageState, player: str) -> int:
    """On a sum of 2 or 12: the Avenue to Activate (the one scoring most now)."""
    return best_avenue(state.village(player).grid, state.sheet)
