"""The battle under way: each side's base level (what it is made of), the modifier chosen (half a
die, or battle cards and what they add), the battle levels, and the result with the tie rule."""
from __future__ import annotations

from kivy.uix.widget import Widget

from companion.engine.civility.battle import attack_base, defence_base, levels

from .. import theme
from .drawing import draw_box, draw_text


def battle_rows(state) -> tuple[list[tuple[str, str, str]], str]:
    """([(row title, attacker's cell, defender's cell)], result line) for the battle in `state`."""
    b = state.battle
    att, dfn = state.city(b.attacker), state.city(b.defender)
    doubled = " x2" if att.pacifist == "army-health-doubled" else ""
    d_doubled = " x2" if dfn.pacifist == "army-health-doubled" else ""
    army_home = (f" + Army {dfn.level('army')}{d_doubled}" if b.defender_army_home else " (army away)")
    rows = [("", b.attacker, b.defender),
            ("Base", f"Army {att.level('army')} + Health {att.level('health')}{doubled} = {attack_base(att)}",
             f"Defenders {dfn.defenders}{army_home} = {defence_base(dfn, b.defender_army_home)}")]

    def modifier(roll: int, cards: int, total: int, chosen: bool, side: str) -> str:
        if not chosen:
            return "choosing..." if b.stage == side else "waiting"
        if cards:
            played = f"{cards} card{'s' if cards > 1 else ''}"
            return f"{played}: {total:+d}" if b.stage == "reward" else f"{played}, face down"
        return f"die: half = +{roll}" if roll else "+0"

    defender_chose = b.stage != "defender"
    attacker_chose = b.stage in ("reveal", "reward")
    rows.append(("Modifier", modifier(b.attacker_roll, b.attacker_cards, b.attacker_total, attacker_chose, "attacker"),
                 modifier(b.defender_roll, b.defender_cards, b.defender_total, defender_chose, "defender")))
    if b.stage == "reward":
        a_level, d_level = levels(state, b)
        rows.append(("Battle level", str(a_level), str(d_level)))
        if a_level == d_level:
            why = "a tie goes to the attacker when the defender's army was home" if b.defender_army_home else \
                "a tie goes to the defender when its army was away"
            result = f"Tie {a_level}-{d_level}: {why}. {b.winner} wins."
        else:
            result = f"{b.winner} wins {max(a_level, d_level)} to {min(a_level, d_level)}."
    else:
        result = {"defender": f"{b.defender} defends: a die or battle cards.",
                  "attacker": f"{b.attacker} attacks: a die, battle cards, or retreat.",
                  "reveal": "Turn the battle cards up and enter what they add."}[b.stage]
    return rows, result


class BattleBoard(Widget):
    def __init__(self, **kwargs):
        self.state = None
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, state) -> None:
        self.state = state
        self.redraw()

    def redraw(self, *_args) -> None:
        self.canvas.clear()
        s = self.state
        if s is None or s.battle is None or self.width < 60:
            return
        rows, result = battle_rows(s)
        x, y, w, h = self.x, self.y, self.width, self.height
        u = min(h / 11, w / 22)
        title_w = 5.2 * u
        col_w = (w - title_w) / 2
        seats = (s.index(s.battle.attacker), s.index(s.battle.defender))
        with self.canvas:
            draw_box(x, y, w, h, theme.PANEL, radius=8)
            draw_text("Battle", x + w / 2, y + h - 0.9 * u, 1.2 * u, theme.ACCENT, bold=True)
            for i, (title, left, right) in enumerate(rows):
                ry = y + h - (2.6 + i * 1.9) * u
                if i == 0:
                    for k, (name, role) in enumerate(((left, "attacker"), (right, "defender"))):
                        cx = x + title_w + k * col_w
                        draw_box(cx + 3, ry - 0.8 * u, col_w - 6, 1.6 * u, theme.player_colour(seats[k]), radius=6)
                        draw_text(f"{name} ({role})", cx + col_w / 2, ry, 0.95 * u, theme.INK, bold=True)
                    continue
                draw_text(title, x + 0.5 * u, ry, 0.85 * u, theme.TEXT_DIM, anchor="left")
                for k, cell in enumerate((left, right)):
                    cx = x + title_w + k * col_w + col_w / 2
                    big = title == "Battle level"
                    draw_text(cell, cx, ry, (1.5 if big else 0.82) * u, theme.TEXT, bold=big)
            won = s.battle.stage == "reward"
            draw_box(x + 0.4 * u, y + 0.4 * u, w - 0.8 * u, 2.0 * u, theme.GOOD if won else theme.PANEL_LIGHT,
                     radius=6)
            draw_text(result, x + w / 2, y + 1.4 * u, 0.82 * u, theme.TEXT, bold=won)
