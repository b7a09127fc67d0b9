"""The end of a game: the ranking (ties shown as ties) and each player's score turn by turn."""
from __future__ import annotations

from kivy.app import App
from kivy.properties import ColorProperty, StringProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.screenmanager import Screen

from companion.events import Command

from .. import theme
from ..widgets.chart import ScoreChart  # noqa: F401  (used by end.kv)
from . import load_kv

class RankRow(BoxLayout):
    place = StringProperty("")
    name = StringProperty("")
    score = StringProperty("")
    detail = StringProperty("")
    colour = ColorProperty(theme.ACCENT)


load_kv(__file__)

ORDINALS = {1: "1st", 2: "2nd", 3: "3rd"}


def places(summary: dict) -> list[tuple[str, str, bool]]:
    """(place text, name, tied) in ranking order; equal scores share a place."""
    scores = {p["name"]: p["score"] for p in summary["players"]}
    ranking = summary["ranking"]
    out, place = [], 0
    for index, name in enumerate(ranking):
        if index == 0 or scores[name] != scores[ranking[index - 1]]:
            place = index + 1
        tied = sum(1 for n in ranking if scores[n] == scores[name]) > 1
        out.append((ORDINALS.get(place, f"{place}th"), name, tied))
    return out


def blocks(turn_scores, ends=(3, 6, 9)) -> str:
    """The subtotals of the paper sheet's turn tracker, e.g. "12 + 15 + 22" (turns 1-3, 4-6, 7-9)."""
    parts, start = [], 0
    for end in ends:
        if len(turn_scores) >= end:
            parts.append(str(sum(turn_scores[start:end])))
        start = end
    return "turns 1-3, 4-6, 7-9: " + " + ".join(parts) if parts else ""


class EndScreen(Screen):
    def on_pre_enter(self, *_args) -> None:
        table = App.get_running_app().table
        if table.session is not None:
            self.render(table)

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
            row = RankRow(place=place, name=name + ("  (tie)" if tied else ""),
                                  score=str(player["score"]), detail=blocks(player["turn_scores"]),
                                  colour=theme.player_colour(seat[name]))
            ranking.add_widget(row)
        self.ids.chart.show([(p["name"], tuple(p["turn_scores"])) for p in summary["players"]])
        legend = self.ids.legend
        legend.clear_widgets()
        for index, p in enumerate(summary["players"]):
            legend.add_widget(Label(text=p["name"], color=theme.player_colour(index), bold=True,
                                    font_size=theme.scaled(15)))

    def undo(self) -> None:
        App.get_running_app().post("command", Command.UNDO)

    def play_again(self) -> None:
        app = App.get_running_app()
        players = list(app.table.session.header.players) if app.table.session else None
        app.go_setup(players)
