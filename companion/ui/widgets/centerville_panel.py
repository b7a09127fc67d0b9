"""One Centerville player's own panel: cubes left, Favors, wealth, prestige, status place and
stars, greenbelt, Media, Safe, Master tiles and vocations by name. Never the player's Legacy.

Drawn like the board (a plan of 300 x 270 units scaled to the widget), so the same checks of text
size, contrast and fit apply to it.
"""
from __future__ import annotations

from kivy.uix.widget import Widget

from companion.engine.centerville.state import available_cubes, rank

from .. import theme
from .centerville_holdings import ORDINAL
from .centerville_paint import (BOARD, DARK, DIE_RGB, LIGHT, SLOT, TEXT_PX, TEXT_PX_FLOOR, Painter, mix,
                                tags)
from .drawing import text_texture

PANEL_DESIGN = (300.0, 270.0)


class CentervillePlayerPanel(Widget):
    """show(state, seat) draws that player's panel."""

    def __init__(self, **kwargs):
        self.state = None
        self.seat = 0
        self.texts = []
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, state, seat: int) -> None:
        if not 0 <= seat < state.players:
            raise IndexError(f"seat {seat}: this game has seats 0 to {state.players - 1}")
        self.state, self.seat = state, seat
        self.redraw()

    def scale(self):
        u = min(self.width / PANEL_DESIGN[0], self.height / PANEL_DESIGN[1])
        return (self.x + (self.width - PANEL_DESIGN[0] * u) / 2,
                self.y + (self.height - PANEL_DESIGN[1] * u) / 2, u)

    def redraw(self, *_args) -> None:
        self.canvas.clear()
        self.texts = []
        if self.state is None or self.width < 60 or self.height < 60:
            return
        s, seat = self.state, self.seat
        ox, oy, u = self.scale()
        p = Painter(ox, oy, u, tags_=tags(s.names))
        bg = mix(BOARD, LIGHT, 0.06)
        with self.canvas:
            p.box(0, 0, *PANEL_DESIGN, bg, radius=8)
            # name row: tag, shape, name
            p.chip(s, seat, 18, 252, 24)
            p.marker(s, seat, 44, 252, 14)
            p.text(s.names[seat], 58, 252, bg, colour=theme.ACCENT, px=20, anchor="left")
            # first row: cubes left of 32, Favors, wealth, prestige
            y1 = 214
            _cube(p, 14, y1)
            p.text(f"{available_cubes(s, seat)}/{s.board.cubes}", 26, y1, bg, colour=LIGHT, anchor="left")
            p.box(92, y1 - 8, 16, 14, theme.ACCENT if s.favors[seat] else SLOT, radius=2, outline=DARK, width=0.8)
            p.text(str(s.favors[seat]), 114, y1, bg, colour=LIGHT, anchor="left")
            p.coin(152, y1, 6)
            p.text(str(s.wealth[seat]), 164, y1, bg, colour=LIGHT, anchor="left")
            p.medal(218, y1 - 1, 6)
            p.text(str(s.prestige[seat]), 230, y1, bg, colour=LIGHT, anchor="left")
            # second row: status place and stars, greenbelt
            y2 = 178
            p.text(ORDINAL[rank(s, seat) - 1], 8, y2, bg, colour=LIGHT, anchor="left")
            for k in range(s.stars[seat]):
                p.star(52 + 15 * k, y2, 7)
            p.tree(98, y2, 10)
            p.text(str(s.greenbelt[seat]), 110, y2, bg, colour=LIGHT, anchor="left")
            # third row: the tiles held: Media, Safe (by name), Masters (their die colours)
            y3 = 142
            x3 = 8
            for held, word in ((s.media == seat, "Media"), (s.safe == seat, "Safe")):
                if held:
                    x3 = _pill(p, x3, y3, word) + 6
            for colour, holder in zip(s.board.masters, s.masters):
                if holder == seat:
                    p.box(x3, y3 - 13, 26, 26, DIE_RGB[colour], radius=4, outline=LIGHT, width=1)
                    x3 += 32
            # the vocations, by name, in two columns
            owned = [(n, c) for n, c in enumerate(s.vocations[seat], start=1) if c]
            for k, (number, count) in enumerate(owned):
                col, row = divmod(k, 5)
                name = s.board.vocation_names[number - 1]
                p.text(f"{name} x{count}", 8 + 148 * col, 110 - 23 * row, bg, colour=theme.TEXT, bold=False,
                       anchor="left")
            if not owned:
                _cross(p, 20, 110)
        self.texts = p.texts


def _cube(p: Painter, cx, cy) -> None:
    p.box(cx - 7, cy - 7, 14, 14, SLOT, radius=2, outline=LIGHT, width=1)


def _pill(p: Painter, x, cy, word: str) -> float:
    """`word` on a bright pill from x; returns the pill's right edge (in plan units)."""
    width = text_texture(word, max(TEXT_PX_FLOOR, round(TEXT_PX * p.u)), True).size[0] / p.u + 16
    p.box(x, cy - 13, width, 26, theme.ACCENT, radius=6)
    p.text(word, x + 8, cy, theme.ACCENT, colour=theme.INK, anchor="left")
    return x + width


def _cross(p: Painter, cx, cy) -> None:
    from kivy.graphics import Line

    p.colour(*theme.ERROR)
    r = 10
    Line(points=[p.X(cx - r), p.Y(cy - r), p.X(cx + r), p.Y(cy + r)], width=max(1.5, 2 * p.u))
    Line(points=[p.X(cx - r), p.Y(cy + r), p.X(cx + r), p.Y(cy - r)], width=max(1.5, 2 * p.u))
