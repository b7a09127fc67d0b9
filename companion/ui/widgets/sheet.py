"""A player's Village Sheet: Avenue labels down the left, Streets 1-6 across, the Projects built,
the points printed on squares, and what to look at now (legal squares, lit Networks, advice)."""
from __future__ import annotations

from dataclasses import dataclass, field

from kivy.graphics import Color, Line
from kivy.uix.widget import Widget

from .. import theme
from .drawing import draw_box, draw_project, draw_text


@dataclass(frozen=True)
class SheetView:
    """Everything the sheet draws, computed from the game state by the screen."""

    labels: tuple[str, ...]                       # Avenue labels, top to bottom
    points: tuple[tuple[int, ...], ...]
    grid: tuple[tuple[str | None, ...], ...]
    names: tuple[str, ...] = ()                   # the legend's Project names (glyph colours)
    legal: frozenset = frozenset()                # (row, street) where the picked Project may go
    lit: frozenset = frozenset()                  # squares of the Networks the last Activation lit
    activated: int | None = None                  # the Avenue Activated last
    choosing: bool = False                        # a 2 or 12: the Avenue labels are buttons
    chosen: int | None = None
    avenue_scores: tuple[int, ...] = ()           # what each Avenue would score (shown when choosing)
    advice: tuple = ()                            # (row, street, project) suggested by the advisor
    advice_avenue: int | None = None
    highlight: tuple = field(default=theme.ACCENT)


def small_px() -> float:
    """The least a word or number is drawn at: 16 px at 800x480, grown with the window."""
    return theme.scaled(16)


class VillageSheet(Widget):
    """Draws a SheetView; a tap on a square fires on_square(row, street), on a label on_avenue(row)."""

    __events__ = ("on_square", "on_avenue")

    def __init__(self, **kwargs):
        self.view: SheetView | None = None
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, view: SheetView) -> None:
        self.view = view
        self.redraw()

    # -- geometry ----------------------------------------------------------------------------
    def geometry(self):
        """(left, top, cell, label width, header height): squares are `cell` px on a side."""
        rows, cols = len(self.view.points), len(self.view.points[0])
        # The label column holds "[10-11]" and the header the Streets' numbers at 16 px or more.
        label_w_ratio, head_ratio = 1.35, 0.45
        cell = min(self.width / (cols + label_w_ratio), self.height / (rows + head_ratio))
        label_w, head_h = cell * label_w_ratio, cell * head_ratio
        total_w, total_h = label_w + cols * cell, head_h + rows * cell
        left = self.x + (self.width - total_w) / 2
        top = self.y + (self.height + total_h) / 2
        return left, top, cell, label_w, head_h

    def square_rect(self, row: int, street: int):
        """(x, y, side) of a square in window coordinates (also used by the UI test to tap it)."""
        left, top, cell, label_w, head_h = self.geometry()
        return left + label_w + (street - 1) * cell, top - head_h - row * cell, cell

    def label_rect(self, row: int):
        left, top, cell, label_w, head_h = self.geometry()
        return left, top - head_h - row * cell, label_w, cell

    # -- drawing -----------------------------------------------------------------------------
    def redraw(self, *_args) -> None:
        self.canvas.clear()
        view = self.view
        if view is None or self.width < 10:
            return
        left, top, cell, label_w, head_h = self.geometry()
        rows, cols = len(view.points), len(view.points[0])
        with self.canvas:
            draw_box(left - 4, top - head_h - rows * cell - 4, label_w + cols * cell + 8,
                     head_h + rows * cell + 8, theme.PAPER, radius=8)
            for street in range(1, cols + 1):
                x = left + label_w + (street - 1) * cell
                draw_text(str(street), x + cell / 2, top - head_h / 2, max(head_h * 0.62, small_px()), theme.INK, bold=True)
            for row in range(1, rows + 1):
                self._draw_label(view, row, left, top - head_h - row * cell, label_w, cell)
                for street in range(1, cols + 1):
                    self._draw_square(view, row, street, *self.square_rect(row, street))
            Color(*theme.GRID_LINE)
            x0, y0 = left + label_w, top - head_h - rows * cell
            for c in range(cols + 1):
                Line(points=[x0 + c * cell, y0, x0 + c * cell, top - head_h], width=1)
            for r in range(rows + 1):
                Line(points=[left, y0 + r * cell, x0 + cols * cell, y0 + r * cell], width=1)

    def _draw_label(self, view: SheetView, row, x, y, w, h) -> None:
        active = view.activated == row and not view.choosing
        chosen = view.choosing and view.chosen == row
        if chosen:
            draw_box(x + 2, y + 2, w - 4, h - 4, theme.ACCENT, radius=6, outline=theme.INK, width=2.5)
        elif active:
            draw_box(x + 2, y + 2, w - 4, h - 4, theme.LIT, radius=6)
        elif view.choosing:
            draw_box(x + 3, y + 3, w - 6, h - 6, theme.LEGAL, radius=6, outline=theme.ACCENT, width=2)
        if view.choosing and view.advice_avenue == row:
            draw_box(x + 2, y + 2, w - 4, h - 4, (0, 0, 0, 0), radius=6, outline=theme.ADVICE, width=3)
        label = f"[{view.labels[row - 1]}]"
        if view.choosing and view.avenue_scores:
            draw_text(label, x + w / 2, y + h * 0.66, max(h * 0.28, small_px()), theme.INK, bold=True)
            draw_text(f"{view.avenue_scores[row - 1]} pts", x + w / 2, y + h * 0.28, max(h * 0.24, small_px()), theme.INK)
        else:
            draw_text(label, x + w / 2, y + h / 2, max(h * 0.3, small_px()), theme.INK, bold=True)

    def _draw_square(self, view: SheetView, row, street, x, y, s) -> None:
        points = view.points[row - 1][street - 1]
        project = view.grid[row - 1][street - 1]
        square = (row, street)
        background = theme.PAPER_POINTS if points else theme.PAPER
        if square in view.lit:
            background = theme.LIT
        elif square in view.legal:
            background = theme.LEGAL
        draw_box(x, y, s, s, background)
        if view.activated == row and not view.choosing and not square in view.lit:
            draw_box(x, y, s, s, (1.0, 0.85, 0.4, 0.35))
        if square in view.legal:
            draw_box(x + 3, y + 3, s - 6, s - 6, (0, 0, 0, 0), outline=view.highlight, width=2.5)
        if points:
            draw_text(str(points), x + s * 0.08, y + s * 0.96, max(s * 0.28, small_px()), theme.INK, bold=True, anchor="topleft")
        if project is not None:
            draw_project(project, x, y, s, view.names)
        for advised_row, advised_street, advised_project in view.advice:
            if (advised_row, advised_street) == square:
                if project is None:
                    draw_project(advised_project, x, y, s, view.names, alpha=0.45)
                draw_box(x + 2, y + 2, s - 4, s - 4, (0, 0, 0, 0), outline=theme.ADVICE, width=3)

    # -- touch -------------------------------------------------------------------------------
    def on_touch_down(self, touch):
        if self.view is None or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        left, top, cell, label_w, head_h = self.geometry()
        rows, cols = len(self.view.points), len(self.view.points[0])
        row = int((top - head_h - touch.y) // cell) + 1
        if not 1 <= row <= rows:
            return super().on_touch_down(touch)
        if left <= touch.x < left + label_w:
            self.dispatch("on_avenue", row)
            return True
        street = int((touch.x - left - label_w) // cell) + 1
        if 1 <= street <= cols:
            self.dispatch("on_square", row, street)
            return True
        return super().on_touch_down(touch)

    def on_square(self, row: int, street: int) -> None:
        pass

    def on_avenue(self, row: int) -> None:
        pass
