"""Where each area of the Centerville board lies (design units, 470 x 380, y up) and how it is
painted from an engine State. The board paints every area in its plan rectangle; the area view
paints one of them again, larger, with the same function.

    greenbelt 0-12                                       | time track, clock towers
    campus  | yellow zone  | blue zone   | river | villas | Mayor      | Urban Planning
    + Media |        park (centre)       | north |        | Police&Fire| Public Works
            | purple zone  | red zone    | south |        | Finance    | City Council
    status  | players: wealth, prestige  | Masters | Favors | Safe
            |                            | Disasters still on the board, Disasters in the bag
"""
from __future__ import annotations

from companion.engine.centerville.state import time_start

from .. import theme
from .centerville_paint import BOARD, DARK, DIE_RGB, GREEN_DARK, LIGHT, SLOT, WATER, Painter, mix

# Town zones clockwise around the park from the top left (the engine's zone order).
ZONE_CORNERS = ((60, 212), (164, 212), (164, 100), (60, 100))
ZONE_W, ZONE_H = 100, 108
PARK = (136, 184, 52, 52)
OFFICE_AREAS = ("mayor", "urban-planning", "police-fire", "public-works", "finance", "city-council")

PLAN: dict[str, tuple[float, float, float, float]] = {
    "greenbelt": (0, 324, 300, 56),
    "time": (304, 324, 166, 56),
    "campus": (0, 152, 56, 168),
    "media": (0, 100, 56, 48),
    "zone-yellow": (*ZONE_CORNERS[0], ZONE_W, ZONE_H),
    "zone-blue": (*ZONE_CORNERS[1], ZONE_W, ZONE_H),
    "zone-red": (*ZONE_CORNERS[2], ZONE_W, ZONE_H),
    "zone-purple": (*ZONE_CORNERS[3], ZONE_W, ZONE_H),
    "park": PARK,  # drawn (and tapped) over the zones' inner corners
    "river": (268, 100, 48, 220),
    "villas": (318, 100, 48, 220),
    **{f"office-{name}": (370 + 50 * (i % 2), 100 + 220 * (2 - i // 2) / 3, 50, 220 / 3)
       for i, name in enumerate(OFFICE_AREAS)},
    "status": (0, 0, 56, 96),
    "victory": (60, 0, 150, 96),
    "masters": (214, 48, 120, 48),
    "favors": (338, 48, 64, 48),
    "safe": (406, 48, 64, 48),
    "disasters": (214, 0, 256, 48),
}
TOP_FIRST = ("park",)  # areas a tap finds before the ones under them


def zone_area(state, zone: int) -> str:
    return f"zone-{state.board.zones[zone]}"


# -- the painters: paint(p, state, x, y, w, h) -------------------------------------------------
def paint_greenbelt(p: Painter, s, x, y, w, h) -> None:
    top = s.board.greenbelt_top
    pitch = w / (top + 1)
    for pos in range(top + 1):
        cx = x + pitch * (pos + 0.5)
        fill = mix(GREEN_DARK, DIE_RGB["green"], 0.12 * (pos % 2))
        p.box(x + pitch * pos + 0.5, y, pitch - 1, h, fill)
        if pos == top and "greenbelt" in s.disaster_sites:
            p.disaster_tile(cx, y + h - 12, 9)
        p.text(str(pos), cx, y + 10, fill)
        here = [seat for seat in range(s.players) if s.greenbelt[seat] == pos]
        size = 12 if len(here) < 2 else 10.5
        for k, seat in enumerate(here):  # up to four, in a 2 x 2 block above the number
            dx = 0 if len(here) == 1 else (-5.5 if k % 2 == 0 else 5.5)
            p.marker(s, seat, cx + dx, y + 28 + 13 * (k // 2), size)


def paint_time(p: Painter, s, x, y, w, h) -> None:
    towers = s.board.clock_towers
    start = time_start(s)
    spaces = start + towers
    pitch = w / spaces
    for i in range(spaces):
        tower = i >= start
        fill = mix(BOARD, LIGHT, 0.12 if tower else 0.06)
        p.box(x + pitch * i + 0.5, y + 14, pitch - 1, h - 14, fill)
        cx = x + pitch * (i + 0.5)
        if tower:
            p.tower(cx, y + 34, 9, fill=(0.80, 0.74, 0.62, 1))
        if i == start and "clock-tower" in s.disaster_sites:
            p.disaster_tile(cx, y + 34, 7)
        if i == s.time:
            p.disc(cx, y + 34, 7.5, LIGHT, outline=DARK, width=1.5)
    for r in range(3):  # scoring rounds played: three pips along the bottom edge
        played = r < len(s.rounds)
        p.disc(x + 8 + 14 * r, y + 6, 4.5, theme.ACCENT if played else SLOT, outline=LIGHT, width=0.6)


def paint_campus(p: Painter, s, x, y, w, h) -> None:
    spaces = s.board.campus
    pitch = h / spaces
    for i in range(spaces):  # bottom (cost 3) to top (cost 1)
        cost = s.board.sections[i]
        sy = y + pitch * i
        p.box(x, sy + 0.5, w, pitch - 1, mix(BOARD, DIE_RGB["blue"], 0.10 * (4 - cost)))
        for k in range(cost):  # education pips: the cost of this section
            p.disc(x + 6, sy + pitch / 2 + (k - (cost - 1) / 2) * 7, 2.6, LIGHT)
        vocation = s.campus[i]
        if vocation is not None:
            p.box(x + 14, sy + 3, w - 18, pitch - 6, theme.PAPER, radius=4)
            p.text(str(vocation), x + 14 + (w - 18) / 2, sy + pitch / 2, theme.PAPER, colour=theme.INK)


def paint_media(p: Painter, s, x, y, w, h) -> None:
    p.box(x, y, w, h, mix(BOARD, LIGHT, 0.08), radius=6)
    cx, cy = x + w / 2, y + h / 2
    # a television with an antenna: the News space
    p.box(cx - 16, cy - 13, 32, 22, SLOT, radius=3, outline=LIGHT, width=1.2)
    p.box(cx - 12, cy - 13, 24, 2, LIGHT)
    if s.media is None:
        p.box(cx - 11, cy - 8, 22, 14, DIE_RGB["blue"], radius=2)
    else:
        p.chip(s, s.media, cx, cy - 2, 22)


def paint_zone(p: Painter, s, zone: int, x, y, w, h) -> None:
    colour = DIE_RGB[s.board.zones[zone]]
    top = zone < 2  # top zones have level 1 at the bottom (nearest the park)
    left = zone in (0, 3)
    p.box(x, y, w, h, mix(BOARD, colour, 0.28), radius=5, outline=colour, width=2)
    empty = mix(colour, DARK, 0.25)
    band = h / 4
    for level in range(1, 5):
        by = y + band * (level - 1) if top else y + h - band * level  # the band's bottom edge
        if level > 1:
            edge = by if top else by + band
            p.box(x + 2, edge - 0.75, w - 4, 1.5, DARK)
        spaces = s.board.spaces[level - 1]
        owners = s.town[zone * 4 + level - 1]
        room = w - 6 - (14 if p.detail else 0)  # shown large: the level's number on the inner side
        pitch = min(13.5, room / spaces)
        if p.detail:
            p.text(str(level), x + w - 8 if left else x + 8, by + band / 2, mix(BOARD, colour, 0.28), px=9)
        for i in range(spaces):
            cx = x + 3 + pitch * (i + 0.5) if left else x + w - 3 - pitch * (i + 0.5)
            cy = by + band / 2
            if i < len(owners):
                p.marker(s, owners[i], cx, cy, pitch * 0.82)
            else:
                p.outline(cx - pitch * 0.38, cy - pitch * 0.38, pitch * 0.76, pitch * 0.76, empty, width=0.8)


def paint_park(p: Painter, s, x, y, w, h) -> None:
    cx, cy, r = x + w / 2, y + h / 2, w / 2
    p.disc(cx, cy, r, mix(GREEN_DARK, DIE_RGB["green"], 0.35), outline=LIGHT, width=1.2)
    cubes = [seat for seat in range(s.players) for _ in range(s.park[seat])]
    if len(cubes) > 9:  # a crowded park: one marker and a count per player
        present = [seat for seat in range(s.players) if s.park[seat]]
        for k, seat in enumerate(present):
            p.chip(s, seat, cx + (k % 2 - 0.5) * 24, cy + (0.5 - k // 2) * 24, 20)
        return
    step = 13
    for k, seat in enumerate(cubes):
        row, col = divmod(k, 3)
        rows = (len(cubes) + 2) // 3
        in_row = min(3, len(cubes) - row * 3)
        p.marker(s, seat, cx + (col - (in_row - 1) / 2) * step, cy + ((rows - 1) / 2 - row) * step, 11)


def _river_rows(s, y, h):
    """(index into s.river, bottom, height) top to bottom: north furthest first, bridge, south."""
    north, south = s.board.river_north, s.board.river_south
    bridge_h = 40 * h / 220
    other = (h - bridge_h) / (north + south)
    order = list(range(north - 1, -1, -1)) + [north] + [north + 1 + i for i in range(south)]
    rows, top = [], y + h
    for index in order:
        height = bridge_h if index == north else other
        top -= height
        rows.append((index, top, height))
    return rows


def paint_river(p: Painter, s, x, y, w, h) -> None:
    p.box(x, y, w, h, WATER, radius=4)
    for index, by, bh in _river_rows(s, y, h):
        cx, cy = x + w / 2, by + bh / 2
        if index == s.board.river_north:  # the bridge: planks across the water
            p.box(x - 2, by + 4, w + 4, bh - 8, (0.50, 0.36, 0.22, 1), radius=3, outline=DARK, width=1)
        else:
            p.box(cx - 10, cy - 10, 20, 20, mix(WATER, LIGHT, 0.18), radius=3)
        owner = s.river[index]
        if owner is not None:
            p.marker(s, owner, cx, cy, 16)


def paint_villas(p: Painter, s, x, y, w, h) -> None:
    north = s.board.river_north
    for index, by, bh in _river_rows(s, y, h):
        road = s.board.villas[index]
        side = "bridge" if index == north else ("north" if index < north else "south")
        tint = {"north": (0.40, 0.34, 0.14, 1), "south": (0.22, 0.28, 0.42, 1), "bridge": (0.36, 0.28, 0.20, 1)}[side]
        p.box(x, by + 1, w, bh - 2, tint, radius=3)
        pitch = w / len(road)
        for i, value in enumerate(road):  # from the river outward (left to right)
            cx, cy = x + pitch * (i + 0.5), by + bh / 2
            owner = s.villas[index][i]
            if owner is not None:
                p.marker(s, owner, cx, cy, min(pitch * 0.8, 13))
                continue
            p.text(str(value), cx, cy, tint, colour=LIGHT)


_OFFICE_GLYPH = {
    "mayor": lambda p, cx, cy: p.star(cx, cy, 9),
    "urban-planning": lambda p, cx, cy: p.turn_again(cx, cy, 7),
    "police-fire": lambda p, cx, cy: p.safe(cx, cy, 7),
    "public-works": lambda p, cx, cy: p.arrow_up(cx, cy, 8),
    "finance": lambda p, cx, cy: p.coin(cx, cy, 6),
    "city-council": lambda p, cx, cy: p.medal(cx, cy - 2, 6),
}


def paint_office(p: Painter, s, index: int, x, y, w, h) -> None:
    office = s.board.offices[index]
    colour = DIE_RGB[office.colour]
    p.box(x + 1, y + 1, w - 2, h - 2, mix(BOARD, colour, 0.22), radius=5, outline=colour, width=1.5)
    p.box(x + 3, y + h - 24, w - 6, 20, colour, radius=4)
    _OFFICE_GLYPH[office.bonus](p, x + w / 2, y + h - 14)
    held = s.offices[index]
    if held is not None:
        owner, votes = held
        p.chip(s, owner, x + 15, y + 20, 22)
        p.text(str(votes), x + w - 13, y + 20, mix(BOARD, colour, 0.22), colour=LIGHT)


def paint_status(p: Painter, s, x, y, w, h) -> None:
    p.box(x, y, w, h, mix(BOARD, LIGHT, 0.06), radius=5)
    rows = max(4, s.players)
    pitch = h / rows
    for place, seat in enumerate(s.status):
        cy = y + h - pitch * (place + 0.5)
        p.text(str(place + 1), x + 11, cy, mix(BOARD, LIGHT, 0.06), colour=LIGHT)
        for k in range(s.stars[seat]):
            p.star(x + 30 + 14 * k, cy, 7)


def paint_victory(p: Painter, s, x, y, w, h) -> None:
    bg = mix(BOARD, LIGHT, 0.06)
    p.box(x, y, w, h, bg, radius=5)
    rows = max(4, s.players)
    pitch = h / rows
    for place, seat in enumerate(s.status):
        cy = y + h - pitch * (place + 0.5)
        p.chip(s, seat, x + 13, cy, 21)
        p.marker(s, seat, x + 33, cy, 11)
        low = min(s.wealth[seat], s.prestige[seat])
        p.coin(x + 50, cy, 5.5)
        p.text(str(s.wealth[seat]), x + 86, cy, bg, colour=theme.ACCENT if s.wealth[seat] == low else LIGHT,
               anchor="right")
        p.medal(x + 100, cy - 1, 5.5)
        p.text(str(s.prestige[seat]), x + 138, cy, bg, colour=theme.ACCENT if s.prestige[seat] == low else LIGHT,
               anchor="right")


def paint_masters(p: Painter, s, x, y, w, h) -> None:
    p.box(x, y, w, h, mix(BOARD, LIGHT, 0.06), radius=5)
    n = len(s.board.masters)
    pitch = w / n
    for i, colour in enumerate(s.board.masters):
        cx = x + pitch * (i + 0.5)
        fill = DIE_RGB[colour]
        p.box(cx - pitch / 2 + 2, y + 3, pitch - 4, h - 6, mix(BOARD, fill, 0.55), radius=4, outline=fill, width=1.2)
        holder = s.masters[i]
        if holder is not None:  # a bare tile is still in the Airport
            p.chip(s, holder, cx, y + h / 2, 22)


def paint_favors(p: Painter, s, x, y, w, h) -> None:
    bg = mix(BOARD, LIGHT, 0.06)
    p.box(x, y, w, h, bg, radius=5)
    for k in range(3):  # a stack of tiles
        p.box(x + 8 + k * 2, y + 12 + k * 4, 20, 16, theme.ACCENT if s.favor_supply else SLOT, radius=2,
              outline=DARK, width=0.8)
    p.text(str(s.favor_supply), x + w - 16, y + h / 2, bg, colour=LIGHT)


def paint_safe(p: Painter, s, x, y, w, h) -> None:
    bg = mix(BOARD, LIGHT, 0.06)
    p.box(x, y, w, h, bg, radius=5)
    p.safe(x + 18, y + h / 2, 10)
    if s.safe is None:  # still in the Police & Fire office: its colour
        p.box(x + 36, y + h / 2 - 11, 22, 22, mix(BOARD, DIE_RGB[_office_colour(s, "police-fire")], 0.6),
              radius=4, outline=DIE_RGB[_office_colour(s, "police-fire")], width=1.2)
    else:
        p.chip(s, s.safe, x + 47, y + h / 2, 22)


def _office_colour(s, bonus: str) -> str:
    return next(o.colour for o in s.board.offices if o.bonus == bonus)


def paint_disasters(p: Painter, s, x, y, w, h) -> None:
    bg = mix(BOARD, LIGHT, 0.06)
    p.box(x, y, w, h, bg, radius=5)
    sites = ["clock-tower", "greenbelt"] + [f"victory-{n}" for n in s.board.disaster_victory_spaces]
    pitch = 46
    for i, site in enumerate(sites):
        cx = x + 24 + pitch * i
        there = site in s.disaster_sites
        if there:
            p.disaster_tile(cx - 8, y + h / 2, 9)
        else:
            p.box(cx - 17, y + h / 2 - 9, 18, 18, bg, radius=3, outline=SLOT, width=1.2)
        if site == "clock-tower":
            p.tower(cx + 12, y + h / 2, 9)
        elif site == "greenbelt":
            p.tree(cx + 12, y + h / 2, 10)
        else:
            p.text(site.split("-")[1], cx + 14, y + h / 2, bg, colour=LIGHT)
    # in the bag, waiting to be drawn: a bag and the count
    bx = x + w - 34
    p.box(bx - 10, y + 10, 20, 22, (0.55, 0.45, 0.32, 1), radius=6)
    p.box(bx - 6, y + 30, 12, 5, (0.55, 0.45, 0.32, 1), radius=2)
    p.text(str(s.bag_disasters), bx + 22, y + h / 2, bg, colour=LIGHT)


def painter_for(name: str):
    """The function painting area `name`: paint(p, state, x, y, w, h)."""
    if name.startswith("zone-"):
        colour = name[5:]
        return lambda p, s, *r: paint_zone(p, s, s.board.zones.index(colour), *r)
    if name.startswith("office-"):
        bonus = name[7:]
        return lambda p, s, *r: paint_office(p, s, [o.bonus for o in s.board.offices].index(bonus), *r)
    return globals()[f"paint_{name}"]


def paint_order() -> list[str]:
    """Areas in painting order: the park last, over the zones' inner corners."""
    return [n for n in PLAN if n not in TOP_FIRST] + list(TOP_FIRST)
