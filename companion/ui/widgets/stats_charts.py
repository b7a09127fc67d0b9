"""The statistics' charts, drawn with Kivy graphics at the play screens' text sizes (16 px and up):
each player's score over time, the share of wins, a game's score distribution, a die's faces."""
from __future__ import annotations

from kivy.graphics import Color, Ellipse, Line, Rectangle

from .. import theme
from .drawing import StateCanvas, draw_box, draw_text


class Chart(StateCanvas):
    """A chart on a panel, drawn from what `show` was given (nothing while it is empty).

    Each chart below is a subclass with its own plot(data, font), called inside the canvas."""

    min_width = 80

    def draw(self, data) -> None:
        if not data or self.height < 80:
            return
        with self.canvas:
            draw_box(self.x, self.y, self.width, self.height, theme.PANEL, radius=8)
            self.plot(data, theme.scaled(16))


def _nice_top(value: float) -> int:
    step = 5 if value <= 40 else 10 if value <= 100 else 50
    return max(step, int(-(-value // step) * step))


class ScoreTimeline(Chart):
    """data: [(player, [score of each of their plays, oldest first])], up to six players."""

    def plot(self, data, font: float) -> None:
        series = data[:6]
        top = _nice_top(max(max(s) for _, s in series if s))
        longest = max(len(s) for _, s in series)
        x0, y0 = self.x + font * 3, self.y + font * 3.4
        w, h = self.width - font * 4, self.height - font * 4.4
        for value in (0, top // 2, top):
            y = y0 + h * value / top
            Color(1, 1, 1, 0.12)
            Line(points=[x0, y, x0 + w, y], width=1)
            draw_text(str(value), x0 - font / 2, y, font, theme.TEXT_DIM, anchor="right")
        draw_text(f"each one's last {longest} plays, oldest to newest", x0 + w / 2, self.y + font * 2.3, font,
                  theme.TEXT_DIM)
        for index, (name, scores) in enumerate(series):
            Color(*theme.player_colour(index))
            step = w / max(1, len(scores) - 1)
            points = []
            for n, score in enumerate(scores):
                points += [x0 + step * n, y0 + h * score / top]
            if len(points) >= 4:
                Line(points=points, width=1.6)
            for px, py in zip(points[::2], points[1::2]):  # each play a dot: one play is a point
                Ellipse(pos=(px - 3, py - 3), size=(6, 6))
        legend_x = self.x + font
        for index, (name, _) in enumerate(series):
            draw_text(f"\u2014 {name}", legend_x, self.y + font * 0.9, font, theme.player_colour(index),
                      bold=True, anchor="left")
            legend_x += (len(name) + 3) * font * 0.62


class WinShares(Chart):
    """data: [(player, wins)], most wins first: one bar split by share, names and counts below."""

    def plot(self, data, font: float) -> None:
        total = sum(n for _, n in data) or 1
        pad = font
        x, y, w, h = self.x + pad, self.y + self.height * 0.55, self.width - 2 * pad, self.height * 0.3
        for index, (name, wins) in enumerate(data):
            part = w * wins / total
            Color(*theme.player_colour(index))
            Rectangle(pos=(x, y), size=(max(1, part - 2), h))
            x += part
        rows = data[:6]
        column = (self.width - 2 * pad) / 2
        for index, (name, wins) in enumerate(rows):
            cx = self.x + pad + column * (index % 2)
            cy = self.y + self.height * 0.45 - font * 1.4 * (index // 2 + 0.5)
            draw_text(f"{name}: {wins} ({100 * wins / total:.0f}%)", cx, cy, font,
                      theme.player_colour(index), bold=True, anchor="left")


class ScoreDistribution(Chart):
    """data: [(low, high, how many)]: a bar per range of scores."""

    def plot(self, data, font: float) -> None:
        most = max(n for _, _, n in data) or 1
        x0, y0 = self.x + font, self.y + font * 2.6
        w, h = self.width - font * 2, self.height - font * 4.2
        bar = w / len(data)
        for index, (low, high, n) in enumerate(data):
            Color(*theme.ACCENT)
            Rectangle(pos=(x0 + bar * index + 2, y0), size=(bar - 4, h * n / most))
            if n:
                draw_text(str(n), x0 + bar * (index + 0.5), y0 + h * n / most + font * 0.7, font, theme.TEXT)
            if index % max(1, len(data) // 4) == 0:
                draw_text(str(low), x0 + bar * index + 2, y0 - font * 0.8, font, theme.TEXT_DIM, anchor="left")
        draw_text(f"up to {data[-1][1]}", x0 + w, y0 - font * 0.8, font, theme.TEXT_DIM, anchor="right")


class FaceCounts(Chart):
    """data: (counts, expected) of one die: a bar per face, the expected count as a line."""

    def plot(self, data, font: float) -> None:
        counts, expected = data
        faces = list(counts)
        most = max(max(counts.values()), max(expected.values()), 1)
        x0, y0 = self.x + font, self.y + font * 2.4
        w, h = self.width - font * 2, self.height - font * 4
        bar = w / max(1, len(faces))
        for index, face in enumerate(faces):
            left = x0 + bar * index
            Color(*theme.INFO)
            Rectangle(pos=(left + 3, y0), size=(bar - 6, h * counts[face] / most))
            Color(*theme.ACCENT)
            line_y = y0 + h * expected.get(face, 0) / most
            Line(points=[left + 1, line_y, left + bar - 1, line_y], width=2)
            draw_text(str(counts[face]), left + bar / 2, y0 + h * counts[face] / most + font * 0.7, font,
                      theme.TEXT)
            draw_text(face, left + bar / 2, y0 - font * 0.9, font, theme.TEXT_DIM)
