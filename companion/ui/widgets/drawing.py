"""Canvas helpers: text as textures, the Project glyphs of a Village sheet, and StateCanvas."""
from __future__ import annotations

import functools

from kivy.core.text import Label as CoreLabel
from kivy.uix.widget import Widget
from kivy.graphics import Color, Ellipse, Line, Rectangle, RoundedRectangle, Triangle

from .. import theme


@functools.lru_cache(maxsize=512)
def text_texture(text: str, size: int, bold: bool = False):
    """A texture of `text` (cached: the sheet redraws often, its labels rarely change)."""
    label = CoreLabel(text=text, font_size=size, bold=bold)
    label.refresh()
    return label.texture


# While a list (the screen audit's), every drawn text is noted in it: (text, px, colour).
drawn: list | None = None


def draw_text(text: str, x: float, y: float, size: float, colour, bold=False, anchor="center"):
    """Draw `text` with its centre (or its left/top-left corner) at x, y."""
    texture = text_texture(text, max(6, int(size)), bold)
    if drawn is not None:
        drawn.append((text, max(6, int(size)), colour))
    w, h = texture.size
    if anchor == "center":
        x, y = x - w / 2, y - h / 2
    elif anchor == "topleft":
        y = y - h
    elif anchor == "left":
        y = y - h / 2
    elif anchor == "right":
        x, y = x - w, y - h / 2
    Color(*colour)
    Rectangle(texture=texture, pos=(round(x), round(y)), size=(w, h))


def draw_project(name: str, x: float, y: float, s: float, names=(), alpha: float = 1.0) -> None:
    """A Project glyph filling the square (x, y, s): a House, a Forest, a Lake, or a disc."""
    r, g, b, _ = theme.project_colour(name, names)
    pad = s * 0.16
    x0, y0, w = x + pad, y + pad, s - 2 * pad
    if name == "house":
        Color(r, g, b, alpha)
        Rectangle(pos=(x0 + w * 0.12, y0), size=(w * 0.76, w * 0.55))
        Triangle(points=[x0, y0 + w * 0.52, x0 + w, y0 + w * 0.52, x0 + w / 2, y0 + w])
        Color(1, 0.95, 0.85, alpha)
        Rectangle(pos=(x0 + w * 0.42, y0), size=(w * 0.16, w * 0.3))
    elif name == "forest":
        Color(0.45, 0.30, 0.18, alpha)
        Rectangle(pos=(x0 + w * 0.45, y0), size=(w * 0.1, w * 0.25))
        Color(r, g, b, alpha)
        Triangle(points=[x0 + w * 0.08, y0 + w * 0.2, x0 + w * 0.92, y0 + w * 0.2, x0 + w / 2, y0 + w * 0.7])
        Triangle(points=[x0 + w * 0.2, y0 + w * 0.48, x0 + w * 0.8, y0 + w * 0.48, x0 + w / 2, y0 + w])
    elif name == "lake":
        Color(r, g, b, alpha)
        Ellipse(pos=(x0, y0 + w * 0.15), size=(w, w * 0.7))
        Color(0.85, 0.93, 1, alpha)
        Line(points=[x0 + w * 0.25, y0 + w * 0.5, x0 + w * 0.4, y0 + w * 0.58, x0 + w * 0.55, y0 + w * 0.5,
                     x0 + w * 0.7, y0 + w * 0.58], width=max(1.0, s * 0.025))
    else:
        Color(r, g, b, alpha)
        Ellipse(pos=(x0, y0), size=(w, w))
        draw_text(name[:1].upper(), x + s / 2, y + s / 2, s * 0.4, (1, 1, 1, alpha), bold=True)


def draw_box(x, y, w, h, colour, radius=0.0, outline=None, width=1.0) -> None:
    Color(*colour)
    if radius:
        RoundedRectangle(pos=(x, y), size=(w, h), radius=[radius])
    else:
        Rectangle(pos=(x, y), size=(w, h))
    if outline is not None:
        Color(*outline)
        if radius:
            Line(rounded_rectangle=(x, y, w, h, radius), width=width)
        else:
            Line(rectangle=(x, y, w, h), width=width)


class StateCanvas(Widget):
    """A widget that draws one game state on its canvas, again whenever it moves or resizes."""

    min_width = 60  # narrower than this (while a layout settles), nothing is drawn

    def __init__(self, **kwargs):
        self.state = None
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, state) -> None:
        self.state = state
        self.redraw()

    def redraw(self, *_args) -> None:
        self.canvas.clear()
        if self.state is not None and self.width >= self.min_width:
            self.draw(self.state)

    def draw(self, state) -> None:
        """Draw `state`; subclasses paint with the helpers above."""
