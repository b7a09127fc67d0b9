"""The end of a Civility game: the winner (first to status 5) and every city as it ended."""
from __future__ import annotations

from kivy.app import App

from companion.engine.civility.tables import DEPARTMENTS
from companion.events import Command

from .. import theme
from companion.table.civility import SHORT
from . import TableScreen, load_kv
from .end import RankRow

load_kv(__file__)


def city_detail(player: dict) -> str:
    """One line per city: its dials and Defenders, as on the city board."""
    dials = "  ".join(f"{SHORT[d]} {player['departments'][d]}" for d in DEPARTMENTS)
    return f"{player['city']}  \u00b7  {dials}  Def {player['defenders']}"


class CivilityEndScreen(TableScreen):
    def render(self, table) -> None:
        session = table.session
        if session is None:
            return
        summary = session.summary()
        winner = summary.get("winner") or "Nobody"
        self.ids.title.text = f"{winner} wins Civility!"
        self.ids.subtitle.text = (f"First to status 5, in round {summary['round']}, after "
                                  f"{summary['battles']} battle{'s' if summary['battles'] != 1 else ''}.")
        self.ids.undo.disabled = not session.can_undo
        players = {p["name"]: p for p in summary["players"]}
        seat = {p["name"]: i for i, p in enumerate(summary["players"])}
        ranking = self.ids.ranking
        ranking.clear_widgets()
        # No shared places: the engine's ranking breaks ties (levels, then Defenders, then seat).
        for index, name in enumerate(summary["ranking"]):
            player = players[name]
            ranking.add_widget(RankRow(place=f"{index + 1}.", name=name, score=str(player["status"]),
                                       detail=city_detail(player), colour=theme.player_colour(seat[name])))

    def undo(self) -> None:
        App.get_running_app().post("command", Command.UNDO)

    def play_again(self) -> None:
        app = App.get_running_app()
        players = list(app.table.session.header.players) if app.table.session else None
        app.go_setup(players)
