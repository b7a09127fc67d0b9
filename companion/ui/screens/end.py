"""The end of a game: the ranking (ties shown as ties) and each player's score turn by turn."""
from __future__ import annotations

from kivy.app import App
from kivy.properties import ColorProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.widget import Widget

from companion.events import Command

from .. import theme
from ..results import blocks, places
from ..widgets.chart import ScoreChart  # noqa: F401  (used by end.kv)
from . import TableScreen, load_kv


class RankRow(BoxLayout):
    """One line of the ranking: place, name (with "tie"), the block subtotals, the score."""

    place = StringProperty("")
    name = StringProperty("")
    score = StringProperty("")
    detail = StringProperty("")
    colour = ColorProperty(theme.ACCENT)


load_kv(__file__)


class EndScreen(TableScreen):
    def render(self, table) -> None:
        session = table.session
        if session is None:
            return
        summary = session.summary()
        self.ids.title.text = f"Final scores  ·  {session.game.title}"
        self.ids.undo.disabled = not session.can_undo
        players = {p["name"]: p for p in summary["players"]}
        seat = {p["name"]: i for i, p in enumerate(summary["players"])}
        ranking = self.ids.ranking
        ranking.clear_widgets()
        for place, name, tied in places(summary):
            player = players[name]
            # A tie is said on the detail line: the name's line is narrow at 800x480.
            row = RankRow(place=place, name=name, score=str(player["score"]),
                          detail=("tied  \u00b7  " if tied else "") + blocks(player["turn_scores"]),
                                  colour=theme.player_colour(seat[name]))
            ranking.add_widget(row)
        self.ids.chart.show([(p["name"], tuple(p["turn_scores"])) for p in summary["players"]])
        legend = self.ids.legend
        legend.clear_widgets()
        legend.add_widget(Widget())
        for index, p in enumerate(summary["players"]):
            label = Label(text=f"\u2014 {p['name']}", color=theme.player_colour(index), bold=True,
                          font_size=theme.scaled(16), size_hint_x=None)
            label.bind(texture_size=lambda lab, size: setattr(lab, "width", size[0] + theme.scaled(12)))
            legend.add_widget(label)
        legend.add_widget(Widget())

    def undo(self) -> None:
        App.get_running_app().post("command", Command.UNDO)

    def play_again(self) -> None:
        app = App.get_running_app()
        players = list(app.table.session.header.players) if app.table.session else None
        app.go_setup(players)
