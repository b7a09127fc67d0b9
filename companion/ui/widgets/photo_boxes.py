"""A photo with its dice boxed, for a finger to fix: tap a box to choose it, drag across the photo to
draw a box around a die the camera missed, from anywhere, a box of a touching die too
(companion.ui.screens.box_photos).

Boxes are kept in the photo's own pixels ((x0, y0, x1, y1), y down), as labels are; the widget shows
the photo fitted inside itself, its aspect kept.
"""
from __future__ import annotations

from kivy.core.text import Label as CoreLabel
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.widget import Widget

import numpy as np

from .. import theme

SMALLEST = 12      # a drag shorter than this many screen pixels each way is a tap, not a box


class PhotoBoxes(Widget):
    """`boxes`: [face or None, (x0, y0, x1, y1)] each; `chosen`: the index of the box chosen, or -1."""

    boxes = ListProperty([])
    chosen = NumericProperty(-1)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._texture: Texture | None = None
        self._drawing: tuple | None = None     # (touch uid, start and end in the photo's pixels)
        self.bind(pos=self.redraw, size=self.redraw, boxes=self.redraw, chosen=self.redraw)

    # -- the photo ----------------------------------------------------------------------------
    def show(self, image: np.ndarray | None, boxes=()) -> None:
        """An RGB image (rows top first) and its boxes; None for no photo."""
        self._texture = None
        if image is not None:
            h, w = image.shape[:2]
            self._texture = Texture.create(size=(w, h), colorfmt="rgb")
            self._texture.blit_buffer(np.ascontiguousarray(image[::-1]).tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self.chosen = -1
        self.boxes = [[face, tuple(box)] for face, box in boxes]
        self.redraw()

    def _fit(self) -> tuple[float, float, float, float, float] | None:
        """(scale, left, bottom, photo width, photo height) of the photo as shown."""
        if self._texture is None or self.width <= 0 or self.height <= 0:
            return None
        w, h = self._texture.size
        scale = min(self.width / w, self.height / h)
        return scale, self.x + (self.width - w * scale) / 2, self.y + (self.height - h * scale) / 2, w, h

    def to_photo(self, x: float, y: float) -> tuple[float, float] | None:
        """A point on the screen in the photo's pixels (None off the photo)."""
        fit = self._fit()
        if fit is None:
            return None
        scale, left, bottom, w, h = fit
        px, py = (x - left) / scale, h - (y - bottom) / scale
        return (px, py) if 0 <= px <= w and 0 <= py <= h else None

    def to_screen(self, px: float, py: float) -> tuple[float, float]:
        scale, left, bottom, _w, h = self._fit()
        return left + px * scale, bottom + (h - py) * scale

    # -- touches ------------------------------------------------------------------------------
    def on_touch_down(self, touch):
        point = self.to_photo(*touch.pos) if self.collide_point(*touch.pos) else None
        if point is None:
            return super().on_touch_down(touch)
        # A tap or a drag: which one is known when the finger lifts (a box may start on another
        # box: touching dice).
        touch.grab(self)
        self._drawing = (touch.uid, point, point)
        return True

    def on_touch_move(self, touch):
        if touch.grab_current is self and self._fit() is None:
            self._drawing = None      # the photo went while the finger was down
        if touch.grab_current is self and self._drawing and self._drawing[0] == touch.uid:
            self._drawing = (touch.uid, self._drawing[1], self._clamped(touch.pos))
            if self._dragged(*self._drawing[1:]):
                self.redraw()
            return True
        return super().on_touch_move(touch)

    def on_touch_up(self, touch):
        if touch.grab_current is not self:
            return super().on_touch_up(touch)
        touch.ungrab(self)
        drawing, self._drawing = self._drawing, None
        if drawing is None or drawing[0] != touch.uid or self._fit() is None:
            return True
        start, end = drawing[1], self._clamped(touch.pos)
        if not self._dragged(start, end):      # a tap: the smallest box under the finger, or none
            inside = [i for i, (_face, (x0, y0, x1, y1)) in enumerate(self.boxes)
                      if x0 <= start[0] <= x1 and y0 <= start[1] <= y1]
            self.chosen = min(inside, key=lambda i: _area(self.boxes[i][1])) if inside else -1
            self.redraw()
            return True
        box = (min(start[0], end[0]), min(start[1], end[1]), max(start[0], end[0]), max(start[1], end[1]))
        self.boxes = [*self.boxes, [None, tuple(round(v, 1) for v in box)]]
        self.chosen = len(self.boxes) - 1
        return True

    def _dragged(self, start, end) -> bool:
        """Whether the finger moved far enough each way to draw a box, not to tap."""
        scale = self._fit()[0]
        return abs(end[0] - start[0]) * scale >= SMALLEST and abs(end[1] - start[1]) * scale >= SMALLEST

    def _clamped(self, pos) -> tuple[float, float]:
        scale, left, bottom, w, h = self._fit()
        x = min(max(pos[0], left), left + w * scale)
        y = min(max(pos[1], bottom), bottom + h * scale)
        return self.to_photo(x, y)

    # -- drawing ------------------------------------------------------------------------------
    def redraw(self, *_args) -> None:
        self.canvas.clear()
        fit = self._fit()
        with self.canvas:
            Color(*theme.PANEL)
            Rectangle(pos=self.pos, size=self.size)
            if fit is None:
                return
            scale, left, bottom, w, h = fit
            Color(1, 1, 1, 1)
            Rectangle(texture=self._texture, pos=(left, bottom), size=(w * scale, h * scale))
            for i, (face, box) in enumerate(self.boxes):
                colour = theme.ACCENT if i == self.chosen else theme.GOOD if face is not None else theme.ERROR
                self._box(box, colour, theme.scaled(4 if i == self.chosen else 2),
                          "?" if face is None else str(face).replace("-", " "))
            if self._drawing is not None and self._dragged(*self._drawing[1:]):
                (x0, y0), (x1, y1) = self._drawing[1], self._drawing[2]
                self._box((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)), theme.ACCENT, theme.scaled(2), "")

    def _box(self, box, colour, width: float, text: str) -> None:
        x0, y0 = self.to_screen(box[0], box[3])      # bottom left on the screen
        x1, y1 = self.to_screen(box[2], box[1])
        Color(*colour)
        Line(rectangle=(x0, y0, x1 - x0, y1 - y0), width=width)
        if text:
            label = CoreLabel(text=text, font_size=theme.scaled(20), bold=True)
            label.refresh()
            tw, th = label.texture.size
            Rectangle(pos=(x0, y1), size=(tw + theme.scaled(8), th))       # a tab above the box's corner
            Color(*theme.INK)
            Rectangle(texture=label.texture, pos=(x0 + theme.scaled(4), y1), size=(tw, th))


def _area(box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])
