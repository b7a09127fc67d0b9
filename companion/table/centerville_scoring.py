"""A Centerville scoring round step by step, with each player's reason and the markers to move,
and for the final round the winner by the rulebook's tie-breaks (Winning the Game). Pure."""
from __future__ import annotations

from dataclasses import dataclass

from companion.engine.centerville.scoring import ranking
from companion.engine.centerville.state import State, Step, rank

from .centerville_names import legacy_name, ordinal, plural, river_space, series, vocation

TITLES = {
    "town": "Score the Town", "river": "Score the River", "offices": "Score the Political Offices",
    "status": "Score Status", "reset": "Reset", "vocations": "Score the Vocations",
    "villas": "Score the Villas", "legacy": "Score Legacy",
}


@dataclass(frozen=True)
class StepView:
    """One scoring step as the table shows it: a title, a reason per player, the moves to make."""

    title: str
    lines: tuple[str, ...]
    moves: tuple[str, ...]


def scoring_steps(s: State, round_index: int) -> list[StepView]:
    """Every step of `s.rounds[round_index]`; the final round ends with the winner."""
    r = s.rounds[round_index]
    wealth = list(r.wealth_before) if r.wealth_before else None
    prestige = list(r.prestige_before) if r.prestige_before else None
    out = []
    for st in r.steps:
        title, lines, pieces = _WORDS[st.name](s, st)
        if wealth is not None:
            moves = _markers(s, st, wealth, prestige)
        else:
            moves = [f"{s.names[p]}: {_gain(st, p)}" for p in range(s.players) if st.wealth[p] or st.prestige[p]]
        moves += pieces  # the markers first: the river pays, then its cubes slide to the villas
        out.append(StepView(f"Step {st.step}: {title}", tuple(lines), tuple(moves)))
    if r.number == 3 and s.winner:
        out.append(winner_view(s))
    return out


def _markers(s: State, st: Step, wealth: list[int], prestige: list[int]) -> list[str]:
    out = []
    for kind, totals, deltas in (("wealth", wealth, st.wealth), ("prestige", prestige, st.prestige)):
        for p in range(s.players):
            if deltas[p]:
                out.append(f"Move {s.names[p]}'s {kind} marker from {totals[p]} to {totals[p] + deltas[p]}")
                totals[p] += deltas[p]
    return out


def _gain(st: Step, p: int) -> str:
    """"+6 wealth", "-3 prestige", "+4 wealth and prestige", "+2 wealth, +1 prestige", "no change"."""
    w, pr = st.wealth[p], st.prestige[p]
    if not w and not pr:
        return "no change"
    if w == pr:
        return f"{w:+d} wealth and prestige"
    parts = [f"{w:+d} wealth"] if w else []
    return ", ".join(parts + ([f"{pr:+d} prestige"] if pr else []))


def _who(s: State, p: int) -> str:
    return f"{s.names[p]} ({s.colours[p]})"


def _most_fewest(s: State, st: Step, what: str, count) -> list[str]:
    """"Ana (gray): most X (5), +6 wealth" for each seat, from the step's values."""
    top, low = max(st.values), min(st.values)
    out = []
    for p, v in enumerate(st.values):
        place = "most and fewest" if top == low else "most" if v == top else "fewest" if v == low else ""
        head = f"{place} {what}" if place else what
        out.append(f"{_who(s, p)}: {head} ({count(p, v)}), {_gain(st, p)}")
    return out


def _town(s: State, st: Step):
    def count(p, v):
        park = st.items[p] if st.items else 0
        return f"value {v}, with {plural(park, 'park cube')}" if park else f"value {v}"

    kind = "wealth" if st.subject in s.board.wealth_zones else "prestige"
    return f"Score the Town, {st.subject} zone ({kind})", _most_fewest(s, st, f"in the {st.subject} zone", count), []


def _river(s: State, st: Step):
    lines, moves = [], []
    for space, owner, villa in st.items:
        g = st.values[owner]
        pays = {"north": "wealth", "south": "prestige"}.get(space.split("-")[0], "wealth and prestige")
        lines.append(f"{_who(s, owner)}: cube on {river_space(space)}, greenbelt {g}: +{g} {pays}")
        if villa:
            moves.append(f"Slide {s.names[owner]}'s cube from {river_space(space)} along its road to the {villa} villa")
        else:
            moves.append(f"{s.names[owner]}'s cube on {river_space(space)} goes home (its road is full)")
    return TITLES["river"], lines or ["No cubes on the river"], moves


def _offices(s: State, st: Step):
    lines = [f"{_who(s, p)}: {plural(n, 'office')}, {_gain(st, p)}" for p, n in enumerate(st.values)]
    return TITLES["offices"], lines, []


def _status(s: State, st: Step):
    lines = []
    for p, place in enumerate(st.values):
        stars = "two stars" if st.items and st.items[p] == 2 else "one star"
        lines.append(f"{_who(s, p)}: {ordinal(place)} with {stars}, {_gain(st, p)}")
    return TITLES["status"], lines, []


def _reset(s: State, st: Step):
    offices = s.board.offices
    moves = [f"{offices[i].name}: {n - 1} of {s.names[p]}'s cubes {'goes' if n == 2 else 'go'} home (1 left)"
             for i, p, n in st.items]
    moves.append("Time marker: back to its start space")
    return TITLES["reset"], ["Each office keeps one cube; the time marker goes back to its start space"], moves


def _vocations(s: State, st: Step):
    b = s.board
    lines = []
    if st.subject and s.media is not None:
        lines.append(f"{s.names[s.media]} names the Media: it counts as {vocation(b, int(st.subject))}")
    for p, tiles in enumerate(st.items):
        sets = [f"{n} {vocation(b, v)}" for v, n in enumerate(tiles, start=1) if n >= 3]
        kinds = st.values[p] if st.values else sum(1 for t in tiles if t)
        why = f"{plural(kinds, 'type')} (+{st.prestige[p]} prestige)"
        if sets:
            why += f", sets of {series(sets)} (+{st.wealth[p]} wealth)"
        lines.append(f"{_who(s, p)}: {why}")
    return TITLES["vocations"], lines, []


def _villas(s: State, st: Step):
    b = s.board
    lines = []
    for space, owner, value in st.items:
        if space == "bridge":
            lines.append(f"{_who(s, owner)}: a villa on the bridge's road, +{b.bridge_wealth} wealth and +{b.bridge_prestige} prestige")
        else:
            pays = "wealth" if space.startswith("north") else "prestige"
            lines.append(f"{_who(s, owner)}: the {value} villa on the {river_space(space)} road, +{value} {pays}")
    return TITLES["villas"], lines or ["No villas claimed"], []


_LEGACY_COUNT = {"greenbelt": "greenbelt space", "vocations": "vocation tile", "offices": "vote cube"}


def _legacy(s: State, st: Step):
    seat = st.items[0] if st.items else -1
    whose = "the open Legacy" if seat < 0 else f"{s.names[seat]}'s Legacy"
    counted = _LEGACY_COUNT.get(st.subject, "building cube")
    where = f" in the {st.subject.replace('-', ' ')}" if st.subject.endswith("-zone") else ""

    lines = _most_fewest(s, st, f"{counted}s{where}", lambda p, v: str(v))
    return f"Score Legacy, {whose}: {legacy_name(st.subject)}", lines, []


_WORDS = {
    "town": _town, "river": _river, "offices": _offices, "status": _status, "reset": _reset,
    "vocations": _vocations, "villas": _villas, "legacy": _legacy,
}


def winner_view(s: State) -> StepView:
    """Winning the Game: final scores (the lower marker), tie-breaks in order, the winner."""
    order = ranking(s)
    lines = []
    for place, p in enumerate(order, start=1):
        low = min(s.wealth[p], s.prestige[p])
        lines.append(f"{place}. {_who(s, p)}: final score {low} (wealth {s.wealth[p]}, prestige {s.prestige[p]})")
    for a, b in zip(order, order[1:]):
        low_a, low_b = min(s.wealth[a], s.prestige[a]), min(s.wealth[b], s.prestige[b])
        if low_a != low_b:
            continue
        high_a, high_b = max(s.wealth[a], s.prestige[a]), max(s.wealth[b], s.prestige[b])
        if high_a != high_b:
            lines.append(f"{s.names[a]} and {s.names[b]} tie at {low_a}: {s.names[a]}'s other marker is higher ({high_a} to {high_b})")
        else:
            lines.append(f"{s.names[a]} and {s.names[b]} tie at {low_a} and {high_a}: {s.names[a]} is higher in status "
                         f"({ordinal(rank(s, a))} to {ordinal(rank(s, b))})")
    w = s.winner[0] if s.winner else order[0]
    lines.append(f"{s.names[w]} wins")
    return StepView("Winning the Game", tuple(lines), ())
