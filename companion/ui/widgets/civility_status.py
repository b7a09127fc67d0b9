"""The status track (0 to 5, a dot per city in its player's colour); the face-up Status cards and
who holds the Perks as text beside it."""
from __future__ import annotations

from kivy.graphics import Color, Ellipse

from companion.engine.civility.tables import BOOK

from .. import theme
from companion.table.civility import SHORT
from .drawing import StateCanvas, draw_box, draw_text


class StatusTrack(StateCanvas):
    def draw(self, s) -> None:
        x, y, w, h = self.x, self.y, self.width, self.height
        track_w = w
        cells = BOOK.status_max + 1
        cell = (track_w - 4) / cells
        with self.canvas:
            draw_box(x, y, w, h, theme.PANEL, radius=8)
            for k in range(cells):
                cx = x + 2 + k * cell
                goal = k == BOOK.status_max
                draw_box(cx + 1, y + 3, cell - 2, h - 6, theme.ACCENT if goal else theme.PANEL_LIGHT, radius=5)
                draw_text(str(k), cx + cell / 2, y + h - 0.22 * h, 0.28 * h, theme.INK if goal else theme.TEXT_DIM,
                          bold=True)
                here = [i for i, c in enumerate(s.cities) if c.status == k]
                dot = min(cell / max(2, min(len(here), 3) + 0.4), h * 0.3)
                for j, i in enumerate(here):
                    row, col = divmod(j, 3)
                    per_row = min(3, len(here) - row * 3)
                    dx = cx + cell / 2 + (col - (per_row - 1) / 2) * dot * 1.1 - dot / 2
                    dy = y + h * 0.4 - row * dot * 1.05 - dot / 2
                    Color(*theme.player_colour(i))
                    Ellipse(pos=(dx, dy), size=(dot, dot))


def status_text(state) -> str:
    """The face-up Status cards (battle cards in red), the Perk holders and Pacifist, as markup."""
    cards = [f"[color=#f08080]{c.name}[/color]" if c.kind == "battle" else c.name for c in state.display]
    perks = [f"{c.player} {', '.join(SHORT[p] for p in c.perks)}" for c in state.cities if c.perks]
    pacifist = [c.player for c in state.cities if c.pacifist]
    lines = ["[b]Face up:[/b] " + ("\n".join(cards) if cards else "none"),
             "[b]Perks:[/b] " + (" \u00b7 ".join(perks) if perks else "none held")
             + (f" \u00b7 Pacifist {', '.join(pacifist)}" if pacifist else "")]
    return "\n".join(lines)
