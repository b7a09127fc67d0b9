"""A line chart of each player's running score, turn by turn (the end screen)."""
from __future__ import annotations

from kivy.graphics import Color, Ellipse, Line
from kivy.uix.widget import Widget

from .. import theme
from .drawing import draw_box, draw_text


class ScoreChart(Widget):
    def __init__(self, **kwargs):
        self.series: list[tuple[str, tuple[int, ...]]] = []
        self.turns = 9
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, series, turns: int = 9) -> None:
        """series: (player name, score of each turn) in seat order; drawn as running totals."""
        self.series, self.turns = list(series), turns
        self.redraw()

    def redraw(self, *_args) -> None:
        self.canvas.clear()
        if self.width < 40 or not self.series:
            return
        running = []
        for _, scores in self.series:
            total, line = 0, [0]
            for s in scores:
                total += s
                line.append(total)
            running.append(line)
        top_value = max(5, max(max(line) for line in running))
        step = 5 if top_value <= 40 else 10
        top_value = -(-top_value // step) * step
        font = theme.scaled(16)
        pad_l, pad_b, pad_t, pad_r = font * 3, font * 2.2, font, font
        x0, y0 = self.x + pad_l, self.y + pad_b
        w, h = self.width - pad_l - pad_r, self.height - pad_b - pad_t
        px = lambda turn: x0 + w * turn / self.turns  # noqa: E731
        py = lambda value: y0 + h * value / top_value  # noqa: E731
        with self.canvas:
            draw_box(self.x, self.y, self.width, self.height, theme.PANEL, radius=8)
            for value in range(0, top_value + 1, step):
                Color(1, 1, 1, 0.12)
                Line(points=[x0, py(value), x0 + w, py(value)], width=1)
                draw_text(str(value), x0 - font / 2, py(value), font, theme.TEXT_DIM, anchor="right")
            for turn in range(0, self.turns + 1):
                draw_text(str(turn), px(turn), y0 - font, font, theme.TEXT_DIM)
            for index, line in enumerate(running):
                Color(*theme.player_colour(index))
                points = []
                for turn, value in enumerate(line):
                    points += [px(turn), py(value)]
                Line(points=points, width=2.2)
                for turn, value in enumerate(line):
                    Ellipse(pos=(px(turn) - 4, py(value) - 4), size=(8, 8))
