"""Painting the Centerville board with Kivy graphics: the look (colours, player shapes) and a
Painter that maps a fixed design plan (470 x 380 units, y up) onto any rectangle and records every
text it draws (with its size and background) and every tap area, so tests can check them."""
from __future__ import annotations

import functools
from dataclasses import dataclass

from kivy.graphics import Color, Ellipse, Line, Quad, Rectangle, RoundedRectangle, Triangle

from .. import theme
from .drawing import text_texture

DESIGN = (470.0, 380.0)  # the plan's units: 1 unit = 1 px in a 470 x 380 rectangle at 800x480
TEXT_PX = 18  # every text at least this tall at 800x480 (the rectangle above) ...
TEXT_PX_FLOOR = 16  # ... and never below this, whatever the rectangle

PLAYER_RGB = {
    "gray": (0.62, 0.63, 0.66, 1),
    "white": (0.97, 0.97, 0.95, 1),
    "brown": (0.56, 0.35, 0.20, 1),
    "orange": (0.98, 0.58, 0.16, 1),
}
DIE_RGB = {
    "yellow": (0.95, 0.80, 0.22, 1),
    "blue": (0.30, 0.55, 0.95, 1),
    "red": (0.90, 0.30, 0.26, 1),
    "purple": (0.66, 0.42, 0.86, 1),
    "green": (0.32, 0.70, 0.38, 1),
    "black": (0.05, 0.05, 0.06, 1),
}
SHAPES = ("square", "circle", "triangle", "diamond")  # by seat: players told apart without colour
BOARD = (0.15, 0.18, 0.22, 1)
SLOT = (0.24, 0.28, 0.33, 1)
DARK = (0.07, 0.07, 0.09, 1)
LIGHT = (0.96, 0.96, 0.94, 1)
COIN = (0.96, 0.78, 0.25, 1)
MEDAL = (0.75, 0.80, 0.90, 1)
GREEN_DARK = (0.13, 0.30, 0.18, 1)
WATER = (0.16, 0.34, 0.55, 1)
DISASTER = (0.55, 0.12, 0.12, 1)


def mix(a, b, t: float):
    """Colour a blended toward b by t (0: a, 1: b)."""
    return tuple(a[i] * (1 - t) + b[i] * t for i in range(3)) + (1,)


def luminance(rgb) -> float:
    def channel(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a, b) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@functools.lru_cache(maxsize=256)
def ink_on(fill):
    """DARK or LIGHT, whichever reads better on `fill`."""
    return DARK if contrast(DARK, fill) >= contrast(LIGHT, fill) else LIGHT


def player_rgb(state, seat: int):
    return PLAYER_RGB.get(state.colours[seat], theme.player_colour(seat))


def tags(names) -> tuple[str, ...]:
    """One short tag per player: the initial, or two letters where two names share it."""
    firsts = [n[:1].upper() or "?" for n in names]
    return tuple(f if firsts.count(f) == 1 else (n[:2].title() or f) for f, n in zip(firsts, names))


@dataclass(frozen=True)
class TextMark:
    """One text as drawn: its pixel font size, texture size, colours and where it lies."""

    text: str
    px: int
    size: tuple[int, int]
    colour: tuple
    background: tuple
    pos: tuple[float, float]


class Painter:
    """Draws in design units: (x, y) maps to (ox + (x - rx) * u, oy + (y - ry) * u)."""

    def __init__(self, ox: float, oy: float, u: float, rx: float = 0.0, ry: float = 0.0, tags_=()):
        self.ox, self.oy, self.u, self.rx, self.ry = ox, oy, u, rx, ry
        self.texts: list[TextMark] = []
        self.tags = tags_
        self.detail = False  # True when one area is shown large: room for level and villa numbers
        self._colour = None

    def colour(self, *rgba) -> None:
        """Set the drawing colour (no new instruction when it is already set)."""
        if rgba != self._colour:
            Color(*rgba)
            self._colour = rgba

    def X(self, x: float) -> float:
        return self.ox + (x - self.rx) * self.u

    def Y(self, y: float) -> float:
        return self.oy + (y - self.ry) * self.u

    def rect(self, x, y, w, h) -> tuple[float, float, float, float]:
        return self.X(x), self.Y(y), w * self.u, h * self.u

    # -- primitives --------------------------------------------------------------------------
    def box(self, x, y, w, h, fill, radius=0.0, outline=None, width=1.0) -> None:
        X, Y, W, H = self.rect(x, y, w, h)
        self.colour(*fill)
        if radius:
            RoundedRectangle(pos=(X, Y), size=(W, H), radius=[radius * self.u])
        else:
            Rectangle(pos=(X, Y), size=(W, H))
        if outline is not None:
            self.colour(*outline)
            if radius:
                Line(rounded_rectangle=(X, Y, W, H, radius * self.u), width=width * self.u)
            else:
                Line(rectangle=(X, Y, W, H), width=width * self.u)

    def disc(self, cx, cy, r, fill, outline=None, width=1.0) -> None:
        self.colour(*fill)
        Ellipse(pos=(self.X(cx - r), self.Y(cy - r)), size=(2 * r * self.u, 2 * r * self.u))
        if outline is not None:
            self.colour(*outline)
            Line(circle=(self.X(cx), self.Y(cy), r * self.u), width=width * self.u)

    def text(self, text: str, x, y, background, colour=None, px: float = TEXT_PX, bold=True,
             anchor="center") -> TextMark:
        """`text` at least TEXT_PX tall (in units), centred at (x, y) or its left edge there."""
        colour = colour or ink_on(background)
        size = max(TEXT_PX_FLOOR, round(px * self.u))
        texture = text_texture(text, size, bold)
        w, h = texture.size
        X, Y = self.X(x), self.Y(y) - h / 2
        X = X - w / 2 if anchor == "center" else (X - w if anchor == "right" else X)
        self.colour(*colour)
        Rectangle(texture=texture, pos=(round(X), round(Y)), size=(w, h))
        mark = TextMark(text, size, (w, h), tuple(colour), tuple(background), (X, Y))
        self.texts.append(mark)
        return mark

    def outline(self, x, y, w, h, colour, width=1.0) -> None:
        self.colour(*colour)
        Line(rectangle=(*self.rect(x, y, w, h),), width=width * self.u)

    def highlight(self, x, y, w, h) -> None:
        """Mark an area (where the offered action puts a piece): a white wash and a white ring
        over a dark one, seen on every zone and office colour."""
        X, Y, W, H = self.rect(x, y, w, h)
        self.colour(1, 1, 1, 0.16)
        RoundedRectangle(pos=(X, Y), size=(W, H), radius=[6 * self.u])
        ring = max(2.0, 2.0 * self.u)
        self.colour(*DARK)
        Line(rounded_rectangle=(X + ring, Y + ring, W - 2 * ring, H - 2 * ring, 6 * self.u), width=ring * 1.6)
        self.colour(*LIGHT)
        Line(rounded_rectangle=(X + ring, Y + ring, W - 2 * ring, H - 2 * ring, 6 * self.u), width=ring)

    # -- pieces ------------------------------------------------------------------------------
    def marker(self, state, seat: int, cx, cy, size) -> None:
        """A player's cube: their colour, and their seat's shape (so colour is never alone)."""
        fill = player_rgb(state, seat)
        edge = ink_on(fill)
        shape = SHAPES[seat % len(SHAPES)]
        r = size / 2
        X, Y, R = self.X(cx), self.Y(cy), r * self.u
        width = max(1.0, 0.1 * size * self.u)
        if shape == "square":
            R *= 0.86
            points = [X - R, Y - R, X + R, Y - R, X + R, Y + R, X - R, Y + R]
        elif shape == "triangle":
            points = [X - R * 1.05, Y - R * 0.85, X + R * 1.05, Y - R * 0.85, X, Y + R * 1.0]
        elif shape == "diamond":
            points = [X, Y - R * 1.1, X + R * 1.1, Y, X, Y + R * 1.1, X - R * 1.1, Y]
        else:
            points = None
        self.colour(*fill)
        if points is None:
            Ellipse(pos=(X - R, Y - R), size=(2 * R, 2 * R))
            self.colour(*edge)
            Line(circle=(X, Y, R), width=width)
            return
        if len(points) == 6:
            Triangle(points=points)
        else:
            Quad(points=points)
        self.colour(*edge)
        Line(points=points, close=True, width=width)

    def chip(self, state, seat: int, cx, cy, size=24) -> None:
        """A player's tag on their colour: for markers big enough to carry a letter (wider for two)."""
        fill = player_rgb(state, seat)
        tag = self.tags[seat]
        w = size if len(tag) < 2 else size + 9
        self.box(cx - w / 2, cy - size / 2, w, size, fill, radius=size * 0.25, outline=ink_on(fill), width=1.2)
        self.text(tag, cx, cy, fill, px=TEXT_PX)

    # -- icons (no words on the board) -------------------------------------------------------
    def coin(self, cx, cy, r=6) -> None:
        for dy in (-r * 0.5, 0, r * 0.5):
            self.disc(cx, cy + dy, r, COIN, outline=DARK, width=0.8)

    def medal(self, cx, cy, r=6) -> None:
        X, Y, R = self.X(cx), self.Y(cy), r * self.u
        self.colour(*DIE_RGB["blue"])
        Triangle(points=[X - R, Y + R * 1.9, X + R, Y + R * 1.9, X, Y])
        self.disc(cx, cy - r * 0.3, r, MEDAL, outline=DARK, width=0.8)

    def star(self, cx, cy, r, fill=theme.ACCENT) -> None:
        import math

        X, Y, R = self.X(cx), self.Y(cy), r * self.u
        outer = [(X + R * math.cos(math.pi / 2 + k * 2 * math.pi / 5),
                  Y + R * math.sin(math.pi / 2 + k * 2 * math.pi / 5)) for k in range(5)]
        inner = [(X + R * 0.42 * math.cos(math.pi / 2 + (k + 0.5) * 2 * math.pi / 5),
                  Y + R * 0.42 * math.sin(math.pi / 2 + (k + 0.5) * 2 * math.pi / 5)) for k in range(5)]
        self.colour(*fill)
        for k in range(5):
            a, b, c = outer[k], inner[k], inner[k - 1]
            Triangle(points=[a[0], a[1], b[0], b[1], c[0], c[1]])
            Triangle(points=[X, Y, b[0], b[1], c[0], c[1]])

    def tree(self, cx, cy, r, fill=DIE_RGB["green"]) -> None:
        X, Y, R = self.X(cx), self.Y(cy), r * self.u
        self.colour(0.45, 0.30, 0.18, 1)
        Rectangle(pos=(X - R * 0.15, Y - R), size=(R * 0.3, R * 0.6))
        self.colour(*fill)
        Triangle(points=[X - R * 0.9, Y - R * 0.5, X + R * 0.9, Y - R * 0.5, X, Y + R])

    def tower(self, cx, cy, r, fill=LIGHT) -> None:
        X, Y, R = self.X(cx), self.Y(cy), r * self.u
        self.colour(*fill)
        Rectangle(pos=(X - R * 0.45, Y - R), size=(R * 0.9, R * 1.4))
        Triangle(points=[X - R * 0.6, Y + R * 0.4, X + R * 0.6, Y + R * 0.4, X, Y + R * 1.1])
        self.colour(*DARK)
        Line(circle=(X, Y - R * 0.05, R * 0.3), width=max(1.0, R * 0.08))

    def safe(self, cx, cy, r) -> None:
        X, Y, R = self.X(cx), self.Y(cy), r * self.u
        self.colour(*MEDAL)
        Rectangle(pos=(X - R, Y - R), size=(2 * R, 2 * R))
        self.colour(*DARK)
        Line(rectangle=(X - R, Y - R, 2 * R, 2 * R), width=max(1.0, R * 0.1))
        Line(circle=(X, Y, R * 0.5), width=max(1.0, R * 0.12))
        Line(points=[X, Y, X + R * 0.35, Y + R * 0.35], width=max(1.0, R * 0.1))

    def arrow_up(self, cx, cy, r, fill=LIGHT) -> None:
        X, Y, R = self.X(cx), self.Y(cy), r * self.u
        self.colour(*fill)
        Triangle(points=[X - R, Y, X + R, Y, X, Y + R])
        Rectangle(pos=(X - R * 0.35, Y - R), size=(R * 0.7, R))

    def turn_again(self, cx, cy, r, fill=LIGHT) -> None:
        X, Y, R = self.X(cx), self.Y(cy), r * self.u
        self.colour(*fill)
        Line(ellipse=(X - R, Y - R, 2 * R, 2 * R, 30, 330), width=max(1.2, R * 0.18))
        Triangle(points=[X - R * 0.1, Y + R * 0.55, X - R * 0.1, Y + R * 1.45, X + R * 0.6, Y + R])

    def disaster_tile(self, cx, cy, r) -> None:
        self.box(cx - r, cy - r, 2 * r, 2 * r, DISASTER, radius=r * 0.25, outline=LIGHT, width=1)
        X, Y, R = self.X(cx), self.Y(cy), r * self.u
        self.colour(*LIGHT)  # a lightning bolt: the face-down tile's back
        Line(points=[X + R * 0.25, Y + R * 0.7, X - R * 0.25, Y, X + R * 0.25, Y, X - R * 0.25, Y - R * 0.7],
             width=max(1.2, R * 0.12))
