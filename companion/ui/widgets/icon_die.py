"""Centerville's icon dice on screen: a die in its own colour showing an icon, with the icon's name
under it, so a face is found by picture, colour and word alike (a tap enters it)."""
from __future__ import annotations

import math

from kivy.graphics import Color, Ellipse, Line, Mesh, Rectangle, RoundedRectangle, Triangle
from kivy.properties import BooleanProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.core.text import Label as CoreLabel
from kivy.uix.label import Label

from .. import theme

# The dice's printed colours; the icon is drawn in the colour that stands out on each.
DIE_FILL = {
    "red": (0.80, 0.20, 0.18, 1), "yellow": (0.96, 0.80, 0.20, 1), "blue": (0.20, 0.42, 0.80, 1),
    "purple": (0.50, 0.28, 0.66, 1), "green": (0.20, 0.58, 0.30, 1), "black": (0.10, 0.10, 0.12, 1),
}
LIGHT_DICE = {"yellow"}
_EXTENTS: dict[tuple, tuple] = {}  # (font size, font, text) -> its (width, height) in px


def _extents(font_size: float, font_name: str, text: str) -> tuple:
    """Measured once per font and size: a slot is redrawn at every move of the board."""
    key = (font_size, font_name, text)
    if key not in _EXTENTS:
        _EXTENTS[key] = CoreLabel(font_size=font_size, font_name=font_name).get_extents(text)
    return _EXTENTS[key]
ICON_NAMES = {"vote": "vote", "fate": "fate", "contract": "contract", "education": "education",
              "tree": "tree", "bench": "bench", "hourglass": "hourglass"}


def icon_colour(colour: str) -> tuple:
    return theme.INK if colour in LIGHT_DICE else (1, 1, 1, 1)


def draw_icon(icon: str, cx: float, cy: float, r: float, width: float) -> None:
    """Draw `icon` centred on (cx, cy) within radius r, in the current colour."""
    if icon == "vote":  # a ballot box with a tick
        Line(rectangle=(cx - r * 0.8, cy - r * 0.8, r * 1.6, r * 1.1), width=width)
        Line(points=[cx - r * 0.45, cy + r * 0.15, cx - r * 0.1, cy - r * 0.25, cx + r * 0.6, cy + r * 0.85],
             width=width * 1.3)
    elif icon == "fate":  # a five-pointed star
        points = []
        for k in range(10):
            rad = r * (1.0 if k % 2 == 0 else 0.45)
            angle = math.pi / 2 + k * math.pi / 5
            points += [cx + rad * math.cos(angle), cy + rad * math.sin(angle)]
        vertices, indices = [cx, cy, 0, 0], []
        for k in range(10):
            vertices += [points[2 * k], points[2 * k + 1], 0, 0]
        for k in range(10):
            indices += [0, k + 1, (k + 1) % 10 + 1]
        Mesh(vertices=vertices, indices=indices, mode="triangles")
    elif icon == "contract":  # a sheet with written lines
        Line(rectangle=(cx - r * 0.6, cy - r * 0.85, r * 1.2, r * 1.7), width=width)
        for k in range(3):
            y = cy + r * (0.4 - k * 0.4)
            Line(points=[cx - r * 0.35, y, cx + r * 0.35, y], width=width)
    elif icon == "education":  # a mortarboard
        Triangle(points=[cx - r, cy + r * 0.3, cx + r, cy + r * 0.3, cx, cy + r * 0.8])
        Triangle(points=[cx - r, cy + r * 0.3, cx + r, cy + r * 0.3, cx, cy - r * 0.2])
        Rectangle(pos=(cx - r * 0.5, cy - r * 0.7), size=(r, r * 0.6))
    elif icon == "tree":  # a fir on its trunk
        Triangle(points=[cx - r * 0.8, cy - r * 0.4, cx + r * 0.8, cy - r * 0.4, cx, cy + r])
        Rectangle(pos=(cx - r * 0.15, cy - r * 0.95), size=(r * 0.3, r * 0.6))
    elif icon == "bench":  # a park bench: back, seat, legs
        Rectangle(pos=(cx - r * 0.9, cy + r * 0.2), size=(r * 1.8, r * 0.25))
        Rectangle(pos=(cx - r * 0.9, cy - r * 0.25), size=(r * 1.8, r * 0.25))
        Rectangle(pos=(cx - r * 0.75, cy - r * 0.85), size=(r * 0.2, r * 0.6))
        Rectangle(pos=(cx + r * 0.55, cy - r * 0.85), size=(r * 0.2, r * 0.6))
    elif icon == "hourglass":
        Triangle(points=[cx - r * 0.65, cy + r * 0.9, cx + r * 0.65, cy + r * 0.9, cx, cy])
        Triangle(points=[cx - r * 0.65, cy - r * 0.9, cx + r * 0.65, cy - r * 0.9, cx, cy])
    else:  # an icon the data names but no picture exists for: a plain disc, the name says it
        Ellipse(pos=(cx - r * 0.5, cy - r * 0.5), size=(r, r))


class IconFace(ButtonBehavior, Label):
    """One face of a Centerville die ("red-contract"), or an empty slot ("red" alone: not yet
    entered). `marked` outlines it (the die the pad is for); `picked` shows it lifted to reroll;
    `guess` on an empty slot shows the camera's unsure guess, faint and named with a "?", so the
    table can check it against the die before taking it."""

    face = StringProperty("")
    marked = BooleanProperty(False)
    picked = BooleanProperty(False)
    beside = BooleanProperty(False)  # the name beside the die, not under it (wide buttons)
    guess = StringProperty("")       # the camera's guess ("red-vote") for an empty slot

    def __init__(self, **kwargs):
        kwargs.setdefault("font_size", theme.scaled(18))
        kwargs.setdefault("halign", "center")
        kwargs.setdefault("valign", "bottom")
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, font_size=self.redraw, face=self.redraw, marked=self.redraw,
                  picked=self.redraw, state=self.redraw, disabled=self.redraw, beside=self.redraw,
                  guess=self.redraw)
        self.redraw()

    def _names_fit(self) -> bool:
        """Whether every icon's name (with a guess's "?") fits on one line under the die. Where the
        longest does not (six dice across an 800x480 screen), no die in the row is named: a word
        broken across lines ("contra / ct") reads worse than the picture alone, and the face pad,
        where faces are tapped, names them all."""
        longest = max(_extents(self.font_size, self.font_name, f"{n}?")[0] for n in ICON_NAMES.values())
        return longest <= self.width - 4

    def _badge_text(self, cx: float, cy: float, radius: float) -> None:
        """Align the label's "?" on the badge centred at (cx, cy): top-right alignment, padded in."""
        width, height = _extents(self.font_size, self.font_name, "?")
        self.halign, self.valign = "right", "top"
        self.color = theme.INK
        top = self.center_y + self.text_size[1] / 2   # the text box is centred in the widget
        self.padding = [0, max(0.0, top - cy - height / 2), max(0.0, self.right - cx - width / 2), 0]

    @property
    def colour(self) -> str:
        return self.face.split("-", 1)[0]

    @property
    def icon(self) -> str:
        return self.face.split("-", 1)[1] if "-" in self.face else ""

    def redraw(self, *_args) -> None:
        colour, icon = self.colour, self.icon
        guessed = "" if icon or "-" not in self.guess else self.guess.split("-", 1)[1]
        named = self.beside or self._names_fit()
        if not named:  # the picture alone; an empty slot keeps its "?"
            self.text = "" if icon else "?"
        elif icon:
            self.text = ICON_NAMES.get(icon, icon)
        else:  # an empty slot: the guess's name asked with a "?", or "?" alone
            self.text = f"{ICON_NAMES.get(guessed, guessed)}?" if guessed else "?"
        self.color = theme.TEXT
        self.canvas.before.clear()
        badge = None  # (x, y, radius) of the "?" badge of an unnamed guess
        if self.beside:
            side = max(0, min(self.height * 0.9, self.width * 0.45))
            x, y = self.x + self.height * 0.05, self.y + (self.height - side) / 2
            self.halign, self.valign = "left", "middle"
            self.padding = [side + self.height * 0.2, 0, 0, 0]
            self.text_size = (self.width, self.height)
        else:
            self.text_size = (self.width, self.height - 4)
            name_room = self.font_size * 1.35 if named else 0
            side = max(0, min(self.width * 0.92, self.height - name_room))
            x = self.x + (self.width - side) / 2
            y = self.y + name_room
            self.halign, self.valign = ("center", "bottom") if named else ("center", "middle")
            self.padding = [0, 0, 0, 0]
            if guessed and not named:  # the "?" on a badge in the die's corner, the guess under it
                radius = max(11.0, side * 0.2)
                badge = (x + side - radius * 0.8, y + side - radius * 0.8, radius)
                self._badge_text(*badge)
        with self.canvas.before:
            fill = DIE_FILL.get(colour, theme.PANEL_LIGHT)
            Color(*(fill if icon else theme.PANEL_LIGHT))
            if self.state == "down":
                Color(*[c * 0.8 for c in fill[:3]], 1)
            RoundedRectangle(pos=(x, y + (side * 0.12 if self.picked else 0)), size=(side, side),
                             radius=[side * 0.18])
            if not icon:
                Color(*fill)
                Line(rounded_rectangle=(x, y, side, side, side * 0.18), width=2, dash_length=6, dash_offset=4)
            if colour == "black" and icon:  # the black die's edge, so it shows on the dark panel
                Color(*theme.TEXT_DIM)
                Line(rounded_rectangle=(x, y, side, side, side * 0.18), width=1.2)
            if self.marked:
                Color(*theme.ACCENT)
                Line(rounded_rectangle=(x - 3, y - 3, side + 6, side + 6, side * 0.2), width=2.5)
            if icon:
                Color(*icon_colour(colour))
                lift = side * 0.12 if self.picked else 0
                draw_icon(icon, x + side / 2, y + side / 2 + lift, side * 0.32, max(1.5, side * 0.045))
            elif guessed:  # faint on the empty slot: a guess to check, not a face entered
                Color(*fill[:3], 0.75)
                draw_icon(guessed, x + side / 2, y + side / 2, side * 0.32, max(1.5, side * 0.045))
            if badge is not None:
                cx, cy, radius = badge
                Color(*theme.ACCENT)
                Ellipse(pos=(cx - radius, cy - radius), size=(2 * radius, 2 * radius))
            if self.disabled:
                Color(*theme.BACKGROUND[:3], 0.55)
                Rectangle(pos=self.pos, size=self.size)
