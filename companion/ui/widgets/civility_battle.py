"""The battle under way: each side's base level (what it is made of), the modifier chosen (half a
die, or battle cards and what they add), the battle levels, and the result with the tie rule."""
from __future__ import annotations


from companion.engine.civility.battle import attack_base, defence_base, levels

from .. import theme
from .drawing import StateCanvas, draw_box, draw_text


def battle_rows(state) -> tuple[list[tuple[str, str, str, str, str]], list[str]]:
    """Rows (title, attacker's value, defender's value, attacker's note, defender's note) and the
    result lines for the battle in `state`."""
    b = state.battle
    att, dfn = state.city(b.attacker), state.city(b.defender)
    doubled = " x2" if att.pacifist == "army-health-doubled" else ""
    d_doubled = " x2" if dfn.pacifist == "army-health-doubled" else ""
    army = f" + Army {dfn.level('army')}{d_doubled}" if b.defender_army_home else " (army away)"
    rows = [("Base", str(attack_base(att)), str(defence_base(dfn, b.defender_army_home)),
             f"Army {att.level('army')} + Health {att.level('health')}{doubled}", f"Defenders {dfn.defenders}{army}")]

    def modifier(roll: int, cards: int, total: int, chosen: bool, side: str) -> tuple[str, str]:
        if not chosen:
            return ("...", "choosing now") if b.stage == side else ("...", "waits")
        if cards:
            played = f"{cards} battle card{'s' if cards > 1 else ''}"
            return (f"{total:+d}", played) if b.stage == "reward" else ("?", played + ", face down")
        return (f"+{roll}", "half the die") if roll else ("+0", "no modifier")

    a_mod = modifier(b.attacker_roll, b.attacker_cards, b.attacker_total, b.stage in ("reveal", "reward"),
                     "attacker")
    d_mod = modifier(b.defender_roll, b.defender_cards, b.defender_total, b.stage != "defender", "defender")
    rows.append(("Modifier", a_mod[0], d_mod[0], a_mod[1], d_mod[1]))
    if b.stage == "reward":
        a_level, d_level = levels(state, b)
        rows.append(("Battle level", str(a_level), str(d_level), "", ""))
        if a_level == d_level:
            why = ("a tie goes to the attacker when the defender's army is home" if b.defender_army_home else
                   "a tie goes to the defender when its army is away")
            result = [f"Tie at {a_level}: {b.winner} wins.", f"({why})"]
        else:
            result = [f"{b.winner} wins, {max(a_level, d_level)} to {min(a_level, d_level)}."]
        loser = b.defender if b.winner == b.attacker else b.attacker
        result.append(f"{b.winner} chooses the war reward; {loser} pays.")
    else:
        result = [{"defender": f"{b.defender} defends first: a die or battle cards.",
                   "attacker": f"{b.attacker} attacks: a die, battle cards, or retreat.",
                   "reveal": "Turn the battle cards up: enter what they add."}[b.stage]]
    rows.append(("Cards in hand", str(att.hand), str(dfn.hand), "", ""))
    return rows, result


class BattleBoard(StateCanvas):
    def draw(self, s) -> None:
        if s.battle is None:
            return
        rows, result = battle_rows(s)
        b = s.battle
        x, y, w, h = self.x, self.y, self.width, self.height
        u = min(h / 15, w / 22)
        title_w = 5.6 * u
        col_w = (w - title_w) / 2
        seats = (s.index(b.attacker), s.index(b.defender))
        with self.canvas:
            draw_box(x, y, w, h, theme.PANEL, radius=8)
            top = y + h - 0.3 * u
            draw_text("Battle", x + 0.5 * u, top - 0.9 * u, 1.2 * u, theme.ACCENT, bold=True, anchor="left")
            for k, (name, role) in enumerate(((b.attacker, "attacker"), (b.defender, "defender"))):
                cx = x + title_w + k * col_w
                draw_box(cx + 3, top - 1.7 * u, col_w - 6, 1.6 * u, theme.player_colour(seats[k]), radius=6)
                draw_text(f"{name} ({role})", cx + col_w / 2, top - 0.9 * u, 0.9 * u, theme.INK, bold=True)
            ry = top - 2.3 * u
            for title, left, right, left_note, right_note in rows:
                big = title in ("Base", "Modifier", "Battle level")
                step = (2.9 if left_note or right_note else 2.0) * u if big else 1.4 * u
                mid = ry - (1.0 * u if big else 0.6 * u)
                draw_text(title, x + 0.5 * u, mid, 0.85 * u, theme.TEXT_DIM, anchor="left")
                for k, (value, note) in enumerate(((left, left_note), (right, right_note))):
                    cx = x + title_w + k * col_w + col_w / 2
                    size = (1.7 if title == "Battle level" else 1.3) * u if big else 0.85 * u
                    draw_text(value, cx, mid, size, theme.TEXT, bold=big)
                    if note:
                        draw_text(note, cx, mid - 1.35 * u, 0.72 * u, theme.TEXT_DIM)
                ry -= step
            won = b.stage == "reward"
            box_h = (len(result) * 1.15 + 0.6) * u
            draw_box(x + 0.4 * u, y + 0.4 * u, w - 0.8 * u, box_h, theme.GOOD if won else theme.PANEL_LIGHT,
                     radius=6)
            for i, line in enumerate(result):
                draw_text(line, x + w / 2, y + 0.4 * u + box_h - (0.85 + i * 1.15) * u, (0.85 if i == 0 else 0.72) * u,
                          theme.TEXT, bold=won and i == 0)
