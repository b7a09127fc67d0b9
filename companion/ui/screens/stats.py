"""Statistics of one game's finished plays: each player's plays, wins and scores, the game's
records, and a chart (score over time, share of wins, the scores' distribution)."""
from __future__ import annotations

from kivy.app import App
from kivy.uix.screenmanager import Screen

from companion.engine.core import all_games
from companion.history import SCORE_WORD, plays
from companion.stats import GameStats, distribution, game_stats, win_shares

from .. import theme
from ..game_screens import PLAY_SCREENS
from ..widgets.common import TouchButton
from ..widgets.stats_charts import ScoreDistribution, ScoreTimeline, WinShares  # noqa: F401 (stats.kv)
from . import load_kv

load_kv(__file__)

TIMELINE = 20
CHARTS = (("timeline", "Over time"), ("wins", "Wins"), ("scores", "Scores"))


def _number(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def summary_text(stats: GameStats, unit: str) -> str:
    """The figures in words: the game's, its records, then each player's."""
    o = stats.overall
    if not o.plays:
        return "No finished game of this one yet."
    lines = [f"[b]{o.plays} plays[/b], {_number(o.average_minutes)} min on average",
             f"{unit}: average {_number(o.average, 1)}, best {_number(o.best)}, worst {_number(o.worst)}"]
    seats = o.seat_averages()
    if seats:
        lines.append("by seat: " + ", ".join(f"{seat + 1}: {avg:.1f}"
                                             for seat, avg in seats.items()))
    lines += [f"{r.what}: {r.value}, {r.who}" for r in stats.records]
    lines.append("")
    for name, t in sorted(stats.players.items(), key=lambda kv: (-kv[1].wins, kv[0])):
        lines.append(f"[b]{name}[/b]: {t.plays} plays, {t.wins} wins ({100 * t.win_rate:.0f}%)")
        if t.scores:
            lines.append(f"   average {_number(t.average, 1)}, best {t.best}, worst {t.worst}, "
                         f"{_number(t.average_minutes)} min")
            seats = t.seat_averages()
            if len(seats) > 1:
                lines.append("   by seat " + ", ".join(f"{seat + 1}: {avg:.1f}" for seat, avg in seats.items()))
    return "\n".join(lines)


class StatsScreen(Screen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.game = "rolling-village"
        self.chart = "timeline"
        self.stats: GameStats | None = None

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def refresh(self) -> None:
        games = [g for g in all_games() if g.name in PLAY_SCREENS]
        box = self.ids.games
        box.clear_widgets()
        for g in games:
            button = TouchButton(text=g.title, chosen=g.name == self.game,
                                 color=theme.INK if g.name == self.game else theme.TEXT)
            button.bind(on_release=lambda _b, name=g.name: self.choose_game(name))
            box.add_widget(button)
        unit = SCORE_WORD.get(self.game, "points")
        self.stats = game_stats(plays(App.get_running_app().store, game=self.game), self.game, unit)
        self.ids.figures.text = summary_text(self.stats, unit)
        self._chart()

    def choose_game(self, name: str) -> None:
        self.game = name
        self.refresh()

    def choose_chart(self, name: str) -> None:
        self.chart = name
        self._chart()

    def _chart(self) -> None:
        for name, _ in CHARTS:
            button = self.ids[f"chart_{name}"]
            button.chosen = name == self.chart
            button.color = theme.INK if button.chosen else theme.TEXT
        stats = self.stats
        per_player: dict[str, list[int]] = {}
        for _, scores in stats.timeline:
            for name, score in scores.items():
                per_player.setdefault(name, []).append(score)
        # The six who played most, each over their last TIMELINE plays: a line a reader can follow.
        busiest = [(name, scores[-TIMELINE:]) for name, scores in
                   sorted(per_player.items(), key=lambda kv: -len(kv[1]))[:6]]
        views = {"timeline": (self.ids.timeline, busiest),
                 "wins": (self.ids.wins, win_shares(stats)),
                 "scores": (self.ids.scores, distribution(stats.overall.scores))}
        for name, (widget, data) in views.items():
            on = name == self.chart
            widget.opacity = 1 if on else 0
            widget.size_hint_y = 1 if on else None
            widget.height = widget.height if on else 0
            widget.show(data if on else None)
