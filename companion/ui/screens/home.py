"""Home: start a new game, resume the unfinished one (offered first), look back at past games."""
from __future__ import annotations

import time

from kivy.app import App
from kivy.properties import BooleanProperty
from kivy.uix.screenmanager import Screen

from companion.engine.core import RulesError, find_game
from companion.engine.log import replay_actions

from .. import theme
from ..widgets.common import TouchButton
from . import load_kv

load_kv(__file__)


def describe(record, title: str) -> str:
    """One line of the history: what, who, how it ended (or how far it got), when."""
    when = time.strftime("%d %b %H:%M", time.localtime(record.updated))
    if record.finished and record.result:
        # A Civility city has no score: its status tells how the game ended.
        scores = {p["name"]: p["score"] if "score" in p else f"status {p.get('status', '?')}"
                  for p in record.result.get("players", [])}
        ranking = record.result.get("ranking", list(scores))
        result = ", ".join(f"{name} {scores.get(name, '')}" for name in ranking)
        return f"{title}  ·  {result}\nfinished {when}"
    return f"{title}  ·  {', '.join(record.players)}\nunfinished, last played {when}"


def where(store, game_id: int) -> str:
    """How far a stored game got ("turn 4"), from a replay of its log; the store is not touched."""
    header, actions, _ = store.load(game_id)
    try:
        game = find_game(header.game)
        state = replay_actions(game, header, [game.action_from_json(a) for a in actions])
        return f"turn {game.summary(state)['turn']}, {len(actions)} entries"
    except (RulesError, ValueError) as exc:  # resuming will say which entry and why
        return f"{len(actions)} entries (the last ones may not replay: {exc})"


class HomeScreen(Screen):
    has_resume = BooleanProperty(False)

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.unfinished = None

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        store = app.store
        self.unfinished = store.unfinished()
        self.has_resume = self.unfinished is not None
        if self.unfinished is not None:
            self.ids.resume_text.text = (
                f"Unfinished: {app.game_title(self.unfinished.game)}\n"
                f"{', '.join(self.unfinished.players)}  ·  {where(store, self.unfinished.id)}")
        else:
            self.ids.resume_text.text = "No unfinished game."
        history = self.ids.history
        history.clear_widgets()
        records = store.games(limit=30)
        if not records:
            history.add_widget(TouchButton(text="No games yet: start one with New game.", disabled=True,
                                           size_hint_y=None, height=theme.scaled(56)))
        for record in records:
            button = TouchButton(text=describe(record, app.game_title(record.game)), size_hint_y=None,
                                 height=theme.scaled(64), halign="left",
                                 fill=theme.PANEL_LIGHT if record.finished else theme.BUTTON)
            button.bind(on_release=lambda _b, r=record: self.open_record(r))
            history.add_widget(button)

    def resume(self) -> None:
        if self.unfinished is not None:
            App.get_running_app().resume(self.unfinished.id)

    def open_record(self, record) -> None:
        app = App.get_running_app()
        if record.finished:
            app.show_result(record.id)
        else:
            app.resume(record.id)
