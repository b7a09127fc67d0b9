"""Scoring Rounds: steps 1-5 in rounds 1 and 2; steps 1-4 and 6-8 in round 3 (rule: Scoring Rounds).

Each step is recorded with every player's actual wealth and prestige change (after the "never
below 1" floor), so the table can show the round step by step.
"""
from __future__ import annotations

from ..core import IllegalAction, OutOfTurn
from .actions import NameMedia, RevealLegacy
from .state import Pending, ScoringRound, Step, Work, offices_held, rank


class _Round:
    def __init__(self, w: Work, number: int):
        self.w = w
        self.number = number
        self.steps: list[Step] = []

    def record(self, step: int, name: str, detail: str, changes, subject: str = "", values=(), items=()) -> None:
        """Apply (player, wealth, prestige) changes in order; keep the actual ones."""
        from .state import gain

        n = self.w.players
        dw, dp = [0] * n, [0] * n
        for player, wealth, prestige in changes:
            got_w, got_p = gain(self.w, player, wealth, prestige)
            dw[player] += got_w
            dp[player] += got_p
        self.steps.append(Step(step, name, detail, tuple(dw), tuple(dp), subject, tuple(values), tuple(items)))


def _values_text(w, values) -> str:
    return ", ".join(f"{w.names[p]} {v}" for p, v in enumerate(values))


def _most_fewest(values, most: int, fewest: int, both: bool, wealth: bool = True):
    """Changes for "the highest gain, the lowest lose" (ties all share); `both`: wealth and prestige."""
    top, low = max(values), min(values)
    out = []
    for p, v in enumerate(values):
        if v == top:
            out.append((p, most if (wealth or both) else 0, most if (both or not wealth) else 0))
    for p, v in enumerate(values):
        if v == low:
            out.append((p, fewest if (wealth or both) else 0, fewest if (both or not wealth) else 0))
    return out


def score_town(r: _Round) -> None:
    w, b = r.w, r.w.board
    for z, zone in enumerate(b.zones):
        values = [w.park[p] for p in range(w.players)]
        for level in range(1, 5):
            for owner in w.town[z * 4 + level - 1]:
                values[owner] += level
        wealth = zone in b.wealth_zones
        changes = _most_fewest(values, b.town_most, b.town_fewest, both=False, wealth=wealth)
        kind = "wealth" if wealth else "prestige"
        r.record(1, "town", f"{zone} zone ({kind}), values with park cubes: {_values_text(w, values)}", changes,
                 zone, values, tuple(w.park))


def score_river(r: _Round) -> None:
    w, b = r.w, r.w.board
    changes = []
    cubes = []  # (river space, owner, villa value claimed or 0)
    for i, owner in enumerate(w.river):
        if owner is None:
            continue
        g = w.greenbelt[owner]
        side = b.river_side(i)
        changes.append((owner, g if side in ("north", "bridge") else 0, g if side in ("south", "bridge") else 0))
    claims = []
    for i, owner in enumerate(w.river):
        if owner is None:
            continue
        road = w.villas[i]
        empty = [j for j, o in enumerate(road) if o is None]
        if empty:
            j = empty[-1]  # the furthest empty villa on the road
            road[j] = owner
            claims.append(f"{w.names[owner]} claims the {b.villas[i][j]} villa of {b.river_spaces[i]}")
            cubes.append((b.river_spaces[i], owner, b.villas[i][j]))
        else:
            claims.append(f"{w.names[owner]}'s cube on {b.river_spaces[i]} goes home (road full)")
            cubes.append((b.river_spaces[i], owner, 0))
        w.river[i] = None
    greens = ", ".join(f"{w.names[p]} {w.greenbelt[p]}" for p in range(w.players))
    detail = f"greenbelt {greens}; " + ("; ".join(claims) if claims else "no cubes on the river")
    r.record(2, "river", detail, changes, "", tuple(w.greenbelt), tuple(cubes))


def score_offices(r: _Round) -> None:
    w, b = r.w, r.w.board
    counts = [offices_held(w, p) for p in range(w.players)]
    changes = [(p, b.offices_table[c], b.offices_table[c]) for p, c in enumerate(counts)]
    r.record(3, "offices", f"offices controlled: {_values_text(w, counts)}", changes, "", counts)


def score_status(r: _Round) -> None:
    w, b = r.w, r.w.board
    changes = []
    parts = []
    for p in range(w.players):
        table = b.status_two_stars if w.stars[p] == 2 else b.status_one_star
        value = table[rank(w, p) - 1]
        changes.append((p, value, value))
        parts.append(f"{w.names[p]} {rank(w, p)}{'**' if w.stars[p] == 2 else '*'}")
    ranks = [rank(w, p) for p in range(w.players)]
    r.record(4, "status", "rank and stars: " + ", ".join(parts), changes, "", ranks, tuple(w.stars))


def reset(r: _Round) -> None:
    w = r.w
    trimmed = tuple((i, o[0], o[1]) for i, o in enumerate(w.offices) if o is not None and o[1] > 1)
    w.offices = [(o[0], 1) if o is not None else None for o in w.offices]
    w.time = 0
    r.record(5, "reset", "each office keeps one cube; the time marker goes back to its start", [], "", (), trimmed)


def vocation_sets(w, player: int) -> list[int]:
    tiles = list(w.vocations[player])
    if w.media == player and w.media_vocation is not None:
        tiles[w.media_vocation - 1] += 1
    return tiles


def score_vocations(r: _Round) -> None:
    w, b = r.w, r.w.board
    changes, parts, sets_of = [], [], []
    for p in range(w.players):
        tiles = vocation_sets(w, p)
        sets_of.append(tuple(tiles))
        kinds = sum(1 for t in tiles if t)
        prestige = b.vocation_prestige[min(kinds, 9)]
        wealth = sum(b.vocation_wealth[min(t, 9)] for t in tiles)
        changes.append((p, wealth, prestige))
        sets = " ".join(f"{t}x{v}" for v, t in enumerate(tiles, start=1) if t) or "none"
        parts.append(f"{w.names[p]} {kinds} types ({sets})")
    media = ""
    if w.media is not None and w.media_vocation is not None:
        media = f"; Media counts as vocation {w.media_vocation}"
    kinds = [sum(1 for t in tiles if t) for tiles in sets_of]
    named = str(w.media_vocation) if w.media is not None and w.media_vocation is not None else ""
    r.record(6, "vocations", "; ".join(parts) + media, changes, named, kinds, tuple(sets_of))


def score_villas(r: _Round) -> None:
    w, b = r.w, r.w.board
    changes, villas = [], []  # villas: (road's river space, owner, value)
    for i, road in enumerate(w.villas):
        side = b.river_side(i)
        for j, owner in enumerate(road):
            if owner is None:
                continue
            value = b.villas[i][j]
            villas.append((b.river_spaces[i], owner, value))
            if side == "north":
                changes.append((owner, value, 0))
            elif side == "south":
                changes.append((owner, 0, value))
            else:
                changes.append((owner, b.bridge_wealth, b.bridge_prestige))
    r.record(7, "villas", "north villas pay wealth, south prestige, the bridge road both", changes, "", (), tuple(villas))


def legacy_values(w, legacy: str) -> list[int]:
    b = w.board
    if legacy.endswith("-zone"):
        z = b.zones.index(legacy[: -len("-zone")])
        return [sum(w.town[z * 4 + lv].count(p) for lv in range(4)) for p in range(w.players)]
    if legacy == "greenbelt":
        return list(w.greenbelt)
    if legacy == "vocations":
        return [sum(w.vocations[p]) + (1 if w.media == p else 0) for p in range(w.players)]
    return [sum(o[1] for o in w.offices if o is not None and o[0] == p) for p in range(w.players)]


def score_legacies(r: _Round) -> None:
    w, b = r.w, r.w.board
    order = [(w.active + i) % w.players for i in range(w.players)]
    tiles = [(w.names[p], w.legacies[p], p) for p in order if w.legacies[p] is not None]
    if w.open_legacy is not None:
        tiles.append(("the open Legacy", w.open_legacy, -1))
    for who, legacy, seat in tiles:  # seat -1: the open Legacy
        values = legacy_values(w, legacy)
        changes = _most_fewest(values, b.legacy_most, b.legacy_fewest, both=True)
        r.record(8, "legacy", f"{who}: {legacy}, counts {_values_text(w, values)}", changes, legacy, values, (seat,))


def run_round(w: Work, number: int) -> ScoringRound:
    """All steps of scoring round `number` on `w` (the time marker test is the caller's)."""
    r = _Round(w, number)
    before = (tuple(w.wealth), tuple(w.prestige))
    score_town(r)
    score_river(r)
    score_offices(r)
    score_status(r)
    if number < 3:
        reset(r)
    else:
        score_vocations(r)
        score_villas(r)
        score_legacies(r)
    result = ScoringRound(number, tuple(r.steps), *before)
    w.rounds.append(result)
    return result


def score_round(w: Work, number: int) -> None:
    run_round(w, number)


# ---------------------------------------------------------------------------------------------
# The final scoring waits for the Media's name and every Legacy tile turned face up.
# ---------------------------------------------------------------------------------------------
def begin_final(w: Work) -> None:
    w.phase = "final"
    if w.media is not None:
        w.pending.append(Pending("name-media", w.media, w.media))
    for i in range(w.players):
        p = (w.active + i) % w.players
        if p != w.bot or w.board.bot_legacy:
            w.pending.append(Pending("reveal-legacy", None, p))


def finish_final(w: Work) -> None:
    run_round(w, 3)
    w.phase = "over"
    w.winner = [ranking(w)[0]]


def apply_name_media(w: Work, a: NameMedia) -> None:
    if not w.pending or w.pending[0].kind != "name-media":
        raise OutOfTurn("The Media is named during the final scoring (rule: Score the Vocations).")
    if not 1 <= a.vocation <= w.board.vocation_types:
        raise IllegalAction(f"The Media names a vocation 1 to {w.board.vocation_types} (rule: Score the Vocations).")
    w.pending.pop(0)
    w.media_vocation = a.vocation


def apply_reveal_legacy(w: Work, a: RevealLegacy) -> None:
    if not w.pending or w.pending[0].kind != "reveal-legacy":
        raise OutOfTurn("Legacy tiles are revealed in the final scoring (rule: Score Legacy).")
    p = w.pending[0]
    if a.player != w.names[p.subject]:
        raise IllegalAction(f"{w.names[p.subject]} reveals their Legacy next (rule: Score Legacy, in player order).")
    if a.legacy not in w.board.legacies:
        raise IllegalAction(f'"{a.legacy}" is not a Legacy tile ({", ".join(w.board.legacies)}; rule: Legacy Tiles).')
    if a.legacy in w.legacies or a.legacy == w.open_legacy:
        raise IllegalAction(f'The "{a.legacy}" Legacy is already face up: each tile is dealt once (rule: Legacy Tiles).')
    w.pending.pop(0)
    w.legacies[p.subject] = a.legacy


def ranking(s) -> list[int]:
    """Seats best first: the lower of wealth and prestige, then the higher, then status."""
    def key(p):
        low, high = sorted((s.wealth[p], s.prestige[p]))
        return (-low, -high, rank(s, p))

    return sorted(range(len(s.names)), key=key)

