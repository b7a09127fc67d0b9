"""The turn tracker, like the paper sheet's: a score per turn, with the sum of each block of three
turns written above turns 3, 6 and 9, and the total."""
from __future__ import annotations

from kivy.uix.widget import Widget

from .. import theme
from .drawing import draw_box, draw_text


class TurnTracker(Widget):
    def __init__(self, **kwargs):
        self.scores: tuple[int, ...] = ()
        self.subtotals: tuple[int, ...] = ()
        self.turns = 9
        self.blocks = (3, 6, 9)
        self.current = 0
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, scores, subtotals, current: int, turns: int = 9, blocks=(3, 6, 9)) -> None:
        self.scores, self.subtotals, self.current = tuple(scores), tuple(subtotals), current
        self.turns, self.blocks = turns, tuple(blocks)
        self.redraw()

    def redraw(self, *_args) -> None:
        self.canvas.clear()
        if self.width < 10:
            return
        columns = self.turns + 1  # the turns, then the total
        cell = self.width / columns
        small = theme.scaled(16)  # the least a number is drawn at
        low_h = self.height * 0.6
        high_h = self.height - low_h
        y_low = self.y
        with self.canvas:
            draw_box(self.x, self.y, self.width, self.height, theme.PAPER, radius=6)
            start = 0
            for index, end in enumerate(self.blocks):
                x = self.x + start * cell
                w = (end - start) * cell
                done = index < len(self.subtotals)
                draw_box(x + 2, y_low + low_h + 1, w - 4, high_h - 3,
                         theme.PAPER_POINTS if done else theme.PAPER, radius=4)
                text = f"turns {start + 1}-{end}: {self.subtotals[index]}" if done else f"turns {start + 1}-{end}"
                draw_text(text, x + w / 2, y_low + low_h + high_h / 2, max(high_h * 0.55, small),
                          theme.INK if done else theme.INK_DIM, bold=done)
                start = end
            for turn in range(1, self.turns + 1):
                x = self.x + (turn - 1) * cell
                now = turn == self.current and len(self.scores) < turn
                if now:
                    draw_box(x + 1, y_low + 1, cell - 2, low_h - 2, theme.LEGAL, outline=theme.ACCENT, width=1.5)
                else:
                    draw_box(x + 1, y_low + 1, cell - 2, low_h - 2, (1, 1, 1, 0.6),
                             outline=theme.GRID_LINE, width=1)
                # A turn's box shows its score once scored, else the turn's number (dim): one
                # number a box, so each can be 16 px in a 35 px box.
                if turn <= len(self.scores):
                    draw_text(str(self.scores[turn - 1]), x + cell / 2, y_low + low_h / 2, max(low_h * 0.5, small),
                              theme.INK, bold=True)
                else:
                    draw_text(str(turn), x + cell / 2, y_low + low_h / 2, small, theme.INK_DIM)
            x = self.x + self.turns * cell
            draw_box(x + 1, y_low + 1, cell - 2, self.height - 2, theme.INK, radius=4)
            draw_text("total", x + cell / 2, y_low + self.height * 0.75, max(self.height * 0.2, small), theme.PAPER)
            draw_text(str(sum(self.scores)), x + cell / 2, y_low + self.height * 0.32, max(self.height * 0.38, small),
                      theme.PAPER, bold=True)
