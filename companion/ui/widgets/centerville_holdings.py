"""Who holds what in one area of the Centerville board, as short lines for the area view
(plain text from the engine State: no Kivy). A player's secret Legacy is never named."""
from __future__ import annotations

from companion.engine.centerville.state import time_start

ORDINAL = ("1st", "2nd", "3rd", "4th", "5th")


def who(s, seat: int | None) -> str:
    return "nobody" if seat is None else f"{s.names[seat]} ({s.colours[seat]})"


def holdings(s, area: str) -> list[str]:
    """Lines saying who holds what in `area` (an area name of the board's plan)."""
    if area.startswith("zone-"):
        return _zone(s, s.board.zones.index(area[5:]))
    if area.startswith("office-"):
        return _office(s, [o.bonus for o in s.board.offices].index(area[7:]))
    return _LINES[area](s)


def _zone(s, zone: int) -> list[str]:
    lines = []
    for level in range(4, 0, -1):
        owners = s.town[zone * 4 + level - 1]
        empty = s.board.spaces[level - 1] - len(owners)
        names = [s.names[o] for o in owners] + ([f"{empty} empty"] if empty else [])
        lines.append(f"Level {level}: {', '.join(names)}")
    values = []
    for seat in range(s.players):
        built = sum(s.town[zone * 4 + level - 1].count(seat) * level for level in range(1, 5))
        values.append((built + s.park[seat], s.names[seat]))
    ranked = ", ".join(f"{name} {value}" for value, name in sorted(values, reverse=True))
    lines.append(f"Value (buildings + park cubes): {ranked}")
    return lines


def _office(s, index: int) -> list[str]:
    office = s.board.offices[index]
    held = s.offices[index]
    lines = [f"{office.name} ({office.colour} vote needed)"]
    if held is None:
        lines.append("Empty: 2 votes take it")
    else:
        lines.append(f"{who(s, held[0])} with {held[1]} vote cube{'s' * (held[1] != 1)}")
        lines.append(f"Takeover: {held[1] + 1} votes (or {held[1]} and a Favor)")
    if office.bonus == "police-fire" and s.safe is None:
        lines.append("The Safe tile is still here")
    return lines


def _greenbelt(s):
    lines = [f"{who(s, seat)}: space {s.greenbelt[seat]}" for seat in range(s.players)]
    if "greenbelt" in s.disaster_sites:
        lines.append(f"A Disaster lies on space {s.board.greenbelt_top}")
    return lines


def _time(s):
    start = time_start(s)
    return [f"Time marker: {s.time} of {start} spaces to the first clock tower",
            f"Scoring rounds played: {len(s.rounds)} of 3"]


def _campus(s):
    names = s.board.vocation_names
    lines = []
    for i in reversed(range(s.board.campus)):
        v = s.campus[i]
        tile = "empty" if v is None else f"{v} {names[v - 1]}"
        lines.append(f"{s.board.sections[i]} education: {tile}")
    return lines


def _media(s):
    return ["In the News space" if s.media is None else f"Held by {who(s, s.media)}"]


def _park(s):
    return [f"{who(s, seat)}: {s.park[seat]} cube{'s' * (s.park[seat] != 1)}" for seat in range(s.players)]


def _river(s):
    lines = []
    for i, space in enumerate(s.board.river_spaces):
        lines.append(f"{space.replace('-', ' ').capitalize()}: {who(s, s.river[i])}")
    return lines


def _villas(s):
    lines = []
    for i, space in enumerate(s.board.river_spaces):
        road = ", ".join(f"{value} {'free' if owner is None else s.names[owner]}"
                         for value, owner in zip(s.board.villas[i], s.villas[i]))
        lines.append(f"{space.replace('-', ' ').capitalize()} road: {road}")
    return lines


def _status(s):
    return [f"{ORDINAL[place]}: {who(s, seat)}, {s.stars[seat]} star{'s' * (s.stars[seat] != 1)}"
            for place, seat in enumerate(s.status)]


def _victory(s):
    return [f"{who(s, seat)}: wealth {s.wealth[seat]}, prestige {s.prestige[seat]}, "
            f"score {min(s.wealth[seat], s.prestige[seat])}" for seat in range(s.players)]


def _masters(s):
    return [f"{colour.capitalize()}: {'in the Airport' if holder is None else who(s, holder)}"
            for colour, holder in zip(s.board.masters, s.masters)]


def _favors(s):
    held = ", ".join(f"{s.names[seat]} {s.favors[seat]}" for seat in range(s.players))
    return [f"Left in the stack: {s.favor_supply} of {s.board.favors}", f"Held: {held}"]


def _safe(s):
    return ["In the Police & Fire office" if s.safe is None else f"Held by {who(s, s.safe)}"]


_SITE = {"clock-tower": "the first clock tower", "greenbelt": "greenbelt space 12"}


def _disasters(s):
    sites = [_SITE.get(site, f"victory track space {site[8:]}") for site in s.disaster_sites]
    return [f"Still on the board: {', '.join(sites) or 'none'}",
            f"In the bag: {s.bag_disasters}; drawn so far: {len(s.disasters_drawn)}"]


_LINES = {
    "greenbelt": _greenbelt, "time": _time, "campus": _campus, "media": _media, "park": _park,
    "river": _river, "villas": _villas, "status": _status, "victory": _victory,
    "masters": _masters, "favors": _favors, "safe": _safe, "disasters": _disasters,
}
