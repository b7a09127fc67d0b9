"""The end of a Welcome to Centerville game: the ranking by final score (the lower of wealth and
prestige, ties broken as the rulebook says), the winner, and every scoring step of the three
rounds still there to read."""
from __future__ import annotations

from kivy.app import App

from companion.events import Command
from companion.table import centerville_words as words
from companion.table.centerville_names import legacy_name

from .. import theme
from . import TableScreen, load_kv
from .end import RankRow

load_kv(__file__)


class CentervilleEndScreen(TableScreen):
    def render(self, table) -> None:
        session = table.session
        if session is None:
            return
        state, summary = session.state, session.summary()
        winner = summary.get("winner") or "Nobody"
        self.ids.title.text = f"{winner} wins Welcome to Centerville!"
        self.ids.undo.disabled = not session.can_undo
        players = {p["name"]: p for p in summary["players"]}
        ranking = self.ids.ranking
        ranking.clear_widgets()
        for index, name in enumerate(summary["ranking"]):
            player = players[name]
            seat = state.names.index(name)
            legacy = f"  \u00b7  Legacy: {legacy_name(player['legacy'])}" if player.get("legacy") else ""
            ranking.add_widget(RankRow(
                place=f"{index + 1}.", name=name, score=str(player["score"]),
                detail=f"wealth {player['wealth']}, prestige {player['prestige']}{legacy}",
                colour=theme.player_colour(seat)))
        lines = []
        for index, round_ in enumerate(state.rounds):
            lines.append(f"[b][color=#f9b833]Scoring round {round_.number}[/color][/b]")
            for step in words.scoring_steps(state, index):
                lines.append(f"[b]{step.title}[/b]")
                lines += [f"  {line}" for line in step.lines]
        self.ids.steps.text = "\n".join(lines)

    def undo(self) -> None:
        App.get_running_app().post("command", Command.UNDO)

    def play_again(self) -> None:
        app = App.get_running_app()
        players = [n for n in app.table.session.header.players] if app.table.session else None
        app.go_setup(players)
