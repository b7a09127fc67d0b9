"""A die face you can tap: pips drawn on a rounded square (0 = an empty slot)."""
from __future__ import annotations

from kivy.graphics import Color, Ellipse, Line, RoundedRectangle
from kivy.properties import BooleanProperty, NumericProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.widget import Widget

from .. import theme

# Pip positions on a 3x3 lattice, per face.
PIPS = {
    1: [(1, 1)],
    2: [(0, 2), (2, 0)],
    3: [(0, 2), (1, 1), (2, 0)],
    4: [(0, 0), (0, 2), (2, 0), (2, 2)],
    5: [(0, 0), (0, 2), (1, 1), (2, 0), (2, 2)],
    6: [(0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)],
}


class DieFace(ButtonBehavior, Widget):
    """One die: `value` 1-6, or 0 for a slot still to fill. `marked` outlines it."""

    value = NumericProperty(0)
    marked = BooleanProperty(False)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw, value=self.redraw, marked=self.redraw,
                  state=self.redraw)
        self.redraw()

    def redraw(self, *_args) -> None:
        self.canvas.clear()
        side = min(self.width, self.height) * 0.9
        x = self.x + (self.width - side) / 2
        y = self.y + (self.height - side) / 2
        radius = side * 0.18
        with self.canvas:
            if self.value:
                Color(*((0.85, 0.85, 0.82, 1) if self.state == "down" else (0.99, 0.98, 0.95, 1)))
            else:
                Color(*theme.PANEL_LIGHT)
            RoundedRectangle(pos=(x, y), size=(side, side), radius=[radius])
            if self.marked:
                Color(*theme.ACCENT)
                Line(rounded_rectangle=(x, y, side, side, radius), width=2.5)
            elif not self.value:
                Color(*theme.TEXT_DIM)
                Line(rounded_rectangle=(x, y, side, side, radius), width=1.2, dash_length=6, dash_offset=4)
            pip = side * 0.17
            step = side * 0.28
            cx, cy = x + side / 2, y + side / 2
            Color(*theme.INK)
            for col, row in PIPS.get(int(self.value), []):
                px = cx + (col - 1) * step - pip / 2
                py = cy + (1 - row) * step - pip / 2
                Ellipse(pos=(px, py), size=(pip, pip))


def fill_dice_pad(container, on_die) -> list[DieFace]:
    """Put the six faces in `container`; tapping one calls `on_die(value)`. Returns the faces."""
    faces = []
    for value in range(1, 7):
        die = DieFace(value=value)
        die.bind(on_release=lambda _d, v=value: on_die(v))
        container.add_widget(die)
        faces.append(die)
    return faces
