"""What the players move on the physical Centerville board to make it match a new state.

`changes(before, after)` compares two engine states and gives one instruction per line, in the
order of a turn (reseed, Disasters, Masters, time, spending, scoring, passing the dice). Pure.
"""
from __future__ import annotations

from collections import Counter

from companion.engine.centerville.state import State, time_start

from .centerville_names import (
    disaster_site, disaster_text, legacy_name, ordinal, plural, river_space, series, vocation,
)


def who(s: State, p: int) -> str:
    """A seat with its colour: "Ana (gray)"."""
    return f"{s.names[p]} ({s.colours[p]})"


def changes(before: State, after: State) -> list[str]:
    """The moves that turn the board of `before` into that of `after`, one instruction a line."""
    out: list[str] = []
    for part in _PARTS:
        out += part(before, after)
    return out


# -- set-up, reseed, Disasters, Masters --------------------------------------------------------
def _open_legacy(b: State, a: State) -> list[str]:
    if a.open_legacy and a.open_legacy != b.open_legacy:
        return [f"Lay the {legacy_name(a.open_legacy)} Legacy face up on the board"]
    return []


def _campus(b: State, a: State) -> list[str]:
    """Tiles drawn into the campus, and the campus rearranged lowest (bottom) to highest."""
    if a.campus == b.campus:
        return []
    old = Counter(v for v in b.campus if v is not None)
    new = Counter(v for v in a.campus if v is not None)
    kept = old & new
    shifted = any(v is not None and kept[v] and a.campus[i] != v for i, v in enumerate(b.campus))
    if sum(a.bag) < sum(b.bag):
        out = [f"Draw {vocation(a.board, v)} from the bag: put it on campus space {a.campus.index(v) + 1}"
               for v in (new - old).elements()]
        if shifted and len(out) == 1:
            out[0] += ", moving the tiles above it up one"
            return out
    else:
        out = []
    if shifted:
        tiles = ", ".join(f"{i + 1} {vocation(a.board, v)}" for i, v in enumerate(a.campus) if v is not None)
        out.append(f"Arrange the campus, lowest at the bottom (space: tile): {tiles}")
    return out


def _disaster_drawn(b: State, a: State) -> list[str]:
    out = []
    for kind in a.disasters_drawn[len(b.disasters_drawn):]:
        safe = f"; {a.names[a.safe]} holds the Safe and is spared" if a.safe is not None else ""
        out.append(
            f"Disaster drawn: {disaster_text(a.board, kind)}, for each player in turn order from "
            f"{a.names[a.active]}{safe}; then put the tile back in the box"
        )
    return out


def _master_dice(b: State, a: State) -> list[str]:
    out = []
    for die in a.masters_set:
        if die not in b.masters_set or b.dice[die] != a.dice[die]:
            colour, icon = a.dice[die].split("-", 1)
            out.append(f"Set the {colour} die to {icon} (the {colour} Master): it stays for the turn")
    return out


def _time_forward(b: State, a: State) -> list[str]:
    if len(a.rounds) > len(b.rounds) and b.time < time_start(b):  # it reached a clock tower, then went back
        return [f"Time marker: forward {plural(time_start(b) - b.time, 'space')} (on the first clock tower)"]
    if a.time <= b.time:
        return []
    return [f"Time marker: forward {plural(a.time - b.time, 'space')} ({_time_where(a)})"]


def _time_where(s: State) -> str:
    start = time_start(s)
    if s.time >= start:
        return f"on the {'first' if s.time == start else 'second'} clock tower: a scoring round after this turn"
    return f"{start - s.time} before the clock tower"


# -- spending ------------------------------------------------------------------------------------
def _greenbelt(b: State, a: State) -> list[str]:
    return [
        f"Move {a.names[p]}'s greenbelt disc from {b.greenbelt[p]} to {a.greenbelt[p]}"
        for p in range(a.players) if a.greenbelt[p] != b.greenbelt[p]
    ]


def _river_placed(b: State, a: State) -> list[str]:
    out = []
    for i, (old, new) in enumerate(zip(b.river, a.river)):
        if new is not None and new != old:
            space = river_space(a.board.river_spaces[i])
            line = f"{who(a, new)}: put a cube on {'' if space == 'the bridge' else 'river space '}{space}"
            if old is not None:
                line += f"; {a.names[old]}'s cube goes home"
            out.append(line)
    return out


def _town(b: State, a: State) -> list[str]:
    """Cubes built, replaced, moved up a level (Public Works, the bot) or lost from town."""
    out = []
    board = a.board
    for z, zone in enumerate(board.zones):
        gains = {lv: Counter(a.town[z * 4 + lv - 1]) - Counter(b.town[z * 4 + lv - 1]) for lv in range(1, 5)}
        losses = {lv: Counter(b.town[z * 4 + lv - 1]) - Counter(a.town[z * 4 + lv - 1]) for lv in range(1, 5)}
        filled = {lv: len(b.town[z * 4 + lv - 1]) for lv in range(1, 5)}
        for lv in range(1, 4):  # a cube moved up one level
            for p in list(losses[lv]):
                while losses[lv][p] and gains[lv + 1][p]:
                    losses[lv][p] -= 1
                    gains[lv + 1][p] -= 1
                    filled[lv + 1] += 1
                    out.append(
                        f"{who(a, p)}: move a cube in the {zone} zone from level {lv} up to level {lv + 1}, "
                        f"{_space(board, lv + 1, filled[lv + 1])}"
                    )
        for lv in range(1, 5):
            for p in list(gains[lv].elements()):
                victim = next((q for q in losses[lv] if losses[lv][q] > 0), None)
                if victim is not None:
                    losses[lv][victim] -= 1
                    out.append(
                        f"{who(a, p)}: replace {a.names[victim]}'s cube on the {zone} zone, level {lv}; "
                        f"{a.names[victim]}'s cube goes home"
                    )
                    continue
                filled[lv] += 1
                out.append(f"{who(a, p)}: put a cube on the {zone} zone, level {lv}, {_space(board, lv, filled[lv])}")
            for p in losses[lv].elements():
                out.append(f"{a.names[p]}'s cube on the {zone} zone, level {lv} goes home")
    return out


def _space(board, level: int, n: int) -> str:
    return "its only space" if board.spaces[level - 1] == 1 else f"{ordinal(n)} space"


def _per_seat(field: str, gained, lost):
    """A part for a per-seat count (park cubes, Favors): one line per seat that gained or lost."""
    def part(b: State, a: State) -> list[str]:
        out = []
        for p, (old, new) in enumerate(zip(getattr(b, field), getattr(a, field))):
            if new != old:
                out.append(gained(a, p, new - old) if new > old else lost(a, p, old - new))
        return out
    return part


_park = _per_seat(
    "park",
    lambda a, p, n: f"{who(a, p)}: put {plural(n, 'cube')} in the central park",
    lambda a, p, n: f"{plural(n, 'cube')} of {a.names[p]} in the park {_go(n)} home",
)
_favors = _per_seat(
    "favors",
    lambda a, p, n: f"{a.names[p]} takes {plural(n, 'Favor tile')} ({a.favor_supply} left in the stack)",
    lambda a, p, n: f"{a.names[p]} discards {plural(n, 'Favor tile')} to the box",
)


def _stars(b: State, a: State) -> list[str]:
    return [
        f"{who(a, p)}: flip your status disc to its two-star side"
        for p in range(a.players) if a.stars[p] > b.stars[p]
    ]


def _vocations(b: State, a: State) -> list[str]:
    """Vocations taken from the campus or another player, or lost to the box (a Disaster)."""
    out = []
    board = a.board
    from_campus = Counter()
    if sum(a.bag) == sum(b.bag):  # a reseed only adds tiles to the campus
        from_campus = Counter(v for v in b.campus if v is not None) - Counter(v for v in a.campus if v is not None)
    for v in range(1, board.vocation_types + 1):
        deltas = [a.vocations[p][v - 1] - b.vocations[p][v - 1] for p in range(a.players)]
        givers = [p for p in range(a.players) for _ in range(-deltas[p])]
        for p in range(a.players):
            for _ in range(max(0, deltas[p])):
                if from_campus[v]:
                    from_campus[v] -= 1
                    out.append(f"{a.names[p]} takes {vocation(board, v)} from campus space {b.campus.index(v) + 1}")
                elif givers:
                    out.append(f"{a.names[p]} takes {vocation(board, v)} from {a.names[givers.pop(0)]}")
        for p in givers:
            out.append(f"{a.names[p]} puts {vocation(board, v)} back in the box")
    return out


def _tile(name: str, source: str):
    def part(b: State, a: State) -> list[str]:
        old, new = getattr(b, name), getattr(a, name)
        if new is None or new == old:
            return []
        where = source if old is None else a.names[old]
        return [f"{a.names[new]} takes the {name.capitalize()} tile from {where}"]
    return part


def _masters(b: State, a: State) -> list[str]:
    return [
        f"{a.names[new]} takes the {m} Master from the Airport"
        for m, old, new in zip(a.board.masters, b.masters, a.masters) if new is not None and new != old
    ]


def _offices_taken(b: State, a: State) -> list[str]:
    out = []
    for office, old, new in zip(a.board.offices, b.offices, a.offices):
        if new is None or old == new or (old is not None and old[0] == new[0] and new[1] <= old[1]):
            continue
        p, n = new
        if old is None:
            out.append(f"{who(a, p)}: put {plural(n, 'cube')} in {office.name}")
        elif old[0] == p:
            out.append(f"{who(a, p)}: put {n - old[1]} more {'cube' if n - old[1] == 1 else 'cubes'} in {office.name} ({n} in all)")
        else:
            out.append(f"{a.names[old[0]]}'s {plural(old[1], 'cube')} in {office.name} {_go(old[1])} home; "
                       f"{who(a, p)} puts {plural(n, 'cube')} there")
    return out


def _status(b: State, a: State) -> list[str]:
    if a.status == b.status:
        return []
    up = [p for p in a.status if a.status.index(p) < b.status.index(p)]
    order = ", ".join(a.names[p] for p in a.status)
    if len(up) == 1:
        p = up[0]
        old, new = b.status.index(p) + 1, a.status.index(p) + 1
        passed = [a.names[q] for q in b.status[new - 1:old - 1]]
        slide = f"{series(passed)} {'slides' if len(passed) == 1 else 'slide'} down one"
        return [f"Move {a.names[p]}'s status disc up from {ordinal(old)} to {ordinal(new)}; {slide} "
                f"(top to bottom: {order})"]
    return [f"Status track, top to bottom: {order}"]


def _extra_turn(b: State, a: State) -> list[str]:
    if a.extra_turn and not b.extra_turn:
        return [f"{a.names[a.active]} takes another turn after this one, without the green die"]
    return []


# -- scoring and the end of a turn -----------------------------------------------------------------
def _scoring(b: State, a: State) -> list[str]:
    return [f"Scoring round {r.number}" for r in a.rounds[len(b.rounds):]]


def _villas(b: State, a: State) -> list[str]:
    out = []
    board = a.board
    for i, (old, new) in enumerate(zip(b.river, a.river)):
        if old is None or new is not None:
            continue
        space = river_space(board.river_spaces[i])
        claimed = [j for j, (x, y) in enumerate(zip(b.villas[i], a.villas[i])) if x is None and y == old]
        if claimed:
            j = claimed[0]
            out.append(f"Slide {a.names[old]}'s cube from {space} along its road to the "
                       f"{board.villas[i][j]} villa ({ordinal(j + 1)} from the river)")
        else:
            out.append(f"{a.names[old]}'s cube on {space} goes home (its road is full)")
    return out


def _victory(kind: str):
    def part(b: State, a: State) -> list[str]:
        lap = a.board.victory_lap
        out = []
        for p in range(a.players):
            old, new = getattr(b, kind)[p], getattr(a, kind)[p]
            if old == new:
                continue
            line = f"Move {a.names[p]}'s {kind} marker from {old} to {new}"
            if max(old, new) > lap:
                flip = "flip it to " if (old - 1) // lap != (new - 1) // lap else ""
                side = f"its +{lap} side" if new > lap else "its plain side"
                line += f" ({flip}{side}, space {(new - 1) % lap + 1})"
            out.append(line)
        return out
    return part


def _offices_reduced(b: State, a: State) -> list[str]:
    out = []
    for office, old, new in zip(a.board.offices, b.offices, a.offices):
        if old is None or old == new:
            continue
        p, n = old
        if new is None:
            out.append(f"{a.names[p]}'s {plural(n, 'cube')} in {office.name} {_go(n)} home: it is empty")
        elif new[0] == p and new[1] < n:
            gone = n - new[1]
            out.append(f"{office.name}: {gone} of {a.names[p]}'s cubes {_go(gone)} home ({new[1]} left)")
    return out


def _go(n: int) -> str:
    return "goes" if n == 1 else "go"


def _time_back(b: State, a: State) -> list[str]:
    if a.time < b.time:
        return [f"Time marker: back to its start space ({time_start(a) - a.time} before the clock tower)"]
    return []


def _disaster_sites(b: State, a: State) -> list[str]:
    return [
        f"Put the face-down Disaster from {disaster_site(a.board, site)} into the bag"
        for site in b.disaster_sites if site not in a.disaster_sites
    ]


def _final_tiles(b: State, a: State) -> list[str]:
    out = []
    if a.media_vocation is not None and b.media_vocation is None:
        out.append(f"{a.names[a.media]} names the Media: it counts as {vocation(a.board, a.media_vocation)}")
    for p in range(a.players):
        if a.legacies[p] and not b.legacies[p]:
            out.append(f"{a.names[p]} turns their Legacy face up: {legacy_name(a.legacies[p])}")
    return out


def _pass(b: State, a: State) -> list[str]:
    if a.winner and not b.winner:
        p = a.winner[0]
        return [f"{a.names[p]} wins with a final score of {min(a.wealth[p], a.prestige[p])}"]
    if a.turn != b.turn and a.phase != "over":
        if a.active == b.active and a.no_green:
            return [f"{a.names[a.active]} keeps the dice and goes again, without the green die"]
        if a.active != b.active:
            return [f"Pass the dice to {who(a, a.active)}"]
    return []


_PARTS = (
    _open_legacy, _campus, _disaster_drawn, _master_dice, _time_forward, _greenbelt, _river_placed,
    _town, _park, _stars, _vocations, _tile("media", "the News space"), _masters, _offices_taken,
    _tile("safe", "the Police & Fire office"), _status, _favors, _extra_turn, _final_tiles, _scoring,
    _villas, _victory("wealth"), _victory("prestige"), _offices_reduced, _time_back, _disaster_sites,
    _pass,
)
