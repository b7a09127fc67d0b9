"""A Civility city board at a glance: status, the six department dials and Defenders, cards,
the saved die, tokens, and where the army and bridges stand. Drawn, not tapped."""
from __future__ import annotations

from kivy.graphics import Color, Line, RoundedRectangle
from kivy.uix.widget import Widget

from companion.engine.civility.state import HOME
from companion.engine.civility.tables import BOOK, DEPARTMENTS

from .. import theme
from companion.table.civility import SHORT, TOKEN_TITLES
from .drawing import draw_box, draw_text, text_texture

DIAL_FILL = {
    "education": (0.40, 0.62, 0.95, 1), "health": (0.90, 0.40, 0.45, 1), "technology": (0.55, 0.80, 0.85, 1),
    "army": (0.75, 0.55, 0.35, 1), "government": (0.78, 0.55, 0.95, 1), "economy": (0.95, 0.78, 0.30, 1),
    "defenders": (0.55, 0.80, 0.45, 1),
}


TOKEN_SHORT = {"attack-anytime": "AA token", "steal-a-turn": "ST token"}


def where(at: str) -> str:
    return "home" if at == HOME else at


def fitting(variants: list[str], size: float, width: float, bold: bool = False) -> str:
    """The first of `variants` that fits in `width` (six boards side by side are narrow)."""
    for text in variants:
        if text_texture(text, max(6, int(size)), bold).size[0] <= width:
            return text
    return variants[-1]


class CityBoard(Widget):
    """One city: `show(city, seat, acting)`; `seat` picks the player's colour."""

    def __init__(self, **kwargs):
        self.city = None
        self.seat = 0
        self.acting = False
        self.diplomat = False
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, city, seat: int, acting: bool = False, diplomat: bool = False) -> None:
        self.city, self.seat, self.acting, self.diplomat = city, seat, acting, diplomat
        self.redraw()

    def redraw(self, *_args) -> None:
        self.canvas.clear()
        c = self.city
        if c is None or self.width < 40 or self.height < 40:
            return
        colour = theme.player_colour(self.seat)
        x, y, w, h = self.x + 2, self.y + 2, self.width - 4, self.height - 4
        u = min(h / 10.5, w / 11.5)  # one text line
        # No text under 16 px at 800x480 (grown with the window), however narrow the board.
        floor = theme.scaled(16)
        small, line, head = max(0.8 * u, floor), max(0.9 * u, floor), max(0.95 * u, floor)
        with self.canvas:
            draw_box(x, y, w, h, theme.PANEL, radius=8)
            if self.acting:
                Color(*colour)
                Line(rounded_rectangle=(x + 1, y + 1, w - 2, h - 2, 8), width=2.2)
            top = y + h
            # the header: name, city, status
            Color(*colour)
            RoundedRectangle(pos=(x, top - 1.6 * u), size=(w, 1.6 * u), radius=[8, 8, 0, 0])
            status = fitting([f"status {c.status}", f"st. {c.status}"], line, w * 0.3, bold=True)
            status_w = text_texture(status, max(6, int(line)), True).size[0]
            room = w - status_w - 1.2 * u
            names = [f"{c.player}  (Diplomat)", f"{c.player} (D)", c.player] if self.diplomat else [c.player]
            draw_text(fitting(names, head, room, bold=True), x + 0.4 * u, top - 0.8 * u, head, theme.INK,
                      bold=True, anchor="left")
            draw_text(status, x + w - 0.4 * u, top - 0.8 * u, line, theme.INK, bold=True, anchor="right")
            draw_text(c.city + ("  \u00b7  Perk: " + ", ".join(SHORT[p] for p in c.perks) if c.perks else ""),
                      x + 0.4 * u, top - 2.25 * u, small, theme.TEXT_DIM, anchor="left")
            # the dials: two columns of bars
            dials = [(d, c.level(d), BOOK.level_max) for d in DEPARTMENTS]
            dials.append(("defenders", c.defenders, BOOK.defenders_max))
            col_w = (w - 0.8 * u) / 2
            row_h = min(2 * u, (h - 5.8 * u) / 3.6)  # the four rows share what header and footer leave
            for i, (dial, value, top_value) in enumerate(dials):
                col, row = (i % 2, i // 2)
                dx = x + 0.4 * u + col * col_w
                dy = top - 3.3 * u - row * row_h
                draw_text(SHORT[dial], dx, dy, small, theme.TEXT_DIM, anchor="left")
                bar_x = dx + 2.1 * u
                bar_w = col_w - 3.6 * u
                seg = bar_w / top_value
                for k in range(top_value):
                    filled = k < value
                    draw_box(bar_x + k * seg + 1, dy - 0.35 * u, seg - 2, 0.7 * u,
                             DIAL_FILL[dial] if filled else theme.PANEL_LIGHT, radius=2)
                draw_text(str(value), bar_x + bar_w + 0.7 * u, dy, line, theme.TEXT, bold=True)
            # cards, saved die, tokens; army and bridges
            room = w - 0.8 * u
            base = [f"{c.hand} card{'s' if c.hand != 1 else ''}"]
            if c.saved_die is not None:
                base.append(f"saved {c.saved_die}")
            tail = ["Pacifist"] if c.pacifist else []
            extras = fitting(["  \u00b7  ".join(base + [TOKEN_TITLES[t] for t in c.tokens] + tail),
                              " \u00b7 ".join(base + [TOKEN_SHORT[t] for t in c.tokens] + tail)], small, room)
            draw_text(extras, x + 0.4 * u, y + 1.85 * u, small, theme.TEXT, anchor="left")
            bridges = ", ".join(where(b) for b in c.bridges)
            pieces = fitting([f"army {where(c.army)}  \u00b7  bridges {bridges}",
                              f"army {where(c.army)} \u00b7 br. {bridges}",
                              f"A {where(c.army)} \u00b7 B {bridges}"], small, room)
            away = c.army != HOME or any(b != HOME for b in c.bridges)
            draw_text(pieces, x + 0.4 * u, y + 0.8 * u, small, theme.ACCENT if away else theme.TEXT_DIM,
                      anchor="left")
