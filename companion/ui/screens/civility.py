"""The Civility table: every city at a glance, the Action Ring dice, the status track and perks,
the battle board, World Event walkthroughs, and a menu of the choices the rules allow now.

Everything is redrawn from the table (state + the wiring's pick) in `render`; taps only post events.
"""
from __future__ import annotations

from kivy.app import App

from companion.events import Command

from companion.table import civility as cv
from .. import theme
from ..widgets.civility_battle import BattleBoard  # noqa: F401  (used by civility.kv)
from ..widgets.civility_city import CityBoard
from ..widgets.civility_status import StatusTrack, status_text  # noqa: F401  (StatusTrack: civility.kv)
from ..widgets.common import TouchButton
from ..widgets.dice import DieFace, fill_dice_pad
from ..widgets.common import shown
from . import TableScreen, load_kv, undo_text

load_kv(__file__)


class CivilityScreen(TableScreen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.boards: list[CityBoard] = []
        self.menu_buttons: dict[str, TouchButton] = {}
        self.ring: list[DieFace] = []
        self.pad = fill_dice_pad(self.ids.pad, lambda v: self.post("tap", ("die", v)))

    @property
    def banner(self):
        return self.ids.message

    @property
    def typing(self) -> bool:
        """A Status card's name is being typed: keys are letters, not table commands."""
        return self.ids.card_name.focus

    def post(self, kind: str, value) -> None:
        if kind == "command":
            value = Command(value)
        App.get_running_app().post(kind, value)

    def reveal_unlisted(self, kind: str) -> None:
        """A Status card the data file does not list: its name as typed, and its kind."""
        name = self.ids.card_name.text.strip()
        self.post("tap", ("action", {"type": "reveal-status", "name": name, "kind": kind}))

    def unlisted_ready(self, *_args) -> None:
        """The kind buttons take a tap once a name is typed."""
        off = self.ids.unlisted.disabled or not self.ids.card_name.text.strip()
        self.ids.reveal_city.disabled = self.ids.reveal_battle.disabled = off

    # -- rendering -----------------------------------------------------------------------------
    def render(self, table) -> None:
        session, state = table.session, table.state
        wiring = table.game_input
        if state is None or not isinstance(wiring, cv.CivilityInput):
            return
        pick = wiring.pick
        ids = self.ids
        ids.headline.text = cv.headline(state)
        ids.undo.disabled = not session.can_undo
        ids.undo.text = undo_text(table)
        ids.redo.disabled = not session.can_redo
        self._boards(state)
        ids.track.show(state)
        ids.status.text = status_text(state)
        ids.explain.text = cv.explain(state, session.prompt)
        if cv.ring_dice(state):
            small = int(theme.scaled(16))
            ids.explain.text += f"\n[size={small}][color=#b3bcc7]Ring: {cv.ring_legend()}[/color][/size]"
        self._dice(state, pick)
        revealing = bool(state.reveals) and not state.winner
        shown(ids.unlisted, revealing, theme.scaled(52))
        ids.card_name.disabled = not revealing
        self.unlisted_ready()
        self._menu(wiring.items(table), pick, state)
        wanted = cv.dice_wanted(state)
        entering = wanted is not None and bool(pick.dice)
        ids.confirm.text = "Enter the dice" if entering else "Choose"
        # Choose takes the highlighted button: none is until Next is pressed (a tap takes its own).
        ids.confirm.disabled = not (entering or (ids.menu.children and pick.cursor is not None))
        ids.back.disabled = not (pick.path or pick.dice)

    def _boards(self, state) -> None:
        grid, board = self.ids.boards, self.ids.battle
        battle = state.battle is not None
        # A battle takes the cities' place; the two cities' numbers are on the battle board.
        for widget, on in ((grid, not battle), (board, battle)):
            widget.size_hint_y, widget.opacity = (1, 1) if on else (None, 0)
            if not on:
                widget.height = 0
        board.show(state)
        count = len(state.players)
        grid.cols = 2 if count <= 4 else 3
        if len(self.boards) != count:
            grid.clear_widgets()
            self.boards = [CityBoard() for _ in range(count)]
            for board in self.boards:
                grid.add_widget(board)
        for seat, (board, city) in enumerate(zip(self.boards, state.cities)):
            board.show(city, seat, acting=city.player == state.actor and not state.winner,
                       diplomat=seat == state.diplomat)

    def _dice(self, state, pick) -> None:
        ids = self.ids
        wanted = cv.dice_wanted(state)
        row = ids.dice
        row.clear_widgets()
        self.ring = []
        if wanted is not None:
            count, who = wanted
            ids.dice_title.text = f"{who} rolls {count} {'die' if count == 1 else 'dice'}:"
            for k in range(count):
                die = DieFace(value=pick.dice[k] if k < len(pick.dice) else 0, marked=k == len(pick.dice),
                              size_hint_x=None, width=theme.scaled(52))
                die.bind(on_release=lambda _d: self.post("tap", ("clear",)))
                row.add_widget(die)
                self.ring.append(die)
        else:
            dice = cv.ring_dice(state)
            chosen = cv.chosen_die(state, pick)
            ids.dice_title.text = "Action Ring:" if dice else ""
            for value in dice:
                die = DieFace(value=value, marked=value == chosen, size_hint_x=None, width=theme.scaled(52))
                die.bind(on_release=lambda _d, v=value: self.post("tap", ("die", v)))
                row.add_widget(die)
                self.ring.append(die)
        # Five or six dice (6 players) need the title's room: the prompt above says who rolls.
        ids.dice_title.width = 0 if len(self.ring) > 3 else theme.scaled(104)
        ids.dice_title.opacity = 0 if len(self.ring) > 3 else 1
        shown(ids.dice_row, bool(self.ring), theme.scaled(56))
        shown(ids.pad, wanted is not None, theme.scaled(52))
        for die in self.pad:
            die.disabled = wanted is None

    def _menu(self, items, pick, state) -> None:
        box = self.ids.menu
        labels = [item.label for item in items]
        if labels != list(self.menu_buttons):
            box.parent.scroll_y = 1  # a new menu starts at its top
        box.clear_widgets()
        self.menu_buttons = {}
        longest = max((len(item.label) for item in items), default=0)
        box.cols = 1 if longest > 40 else 2 if longest > 12 or len(items) <= 4 else 3 if longest > 4 else 5
        self.ids.menu_title.text = " \u203a ".join(pick.path) if pick.path else ""
        for index, item in enumerate(items):
            seat = state.players.index(item.player) if item.player in state.players else None
            button = TouchButton(text=item.label + ("  \u203a" if item.action is None else ""),
                                 size_hint_y=None, height=theme.scaled(50), text_px=18,
                                 margin=theme.scaled(12), ring=True, chosen=index == pick.cursor,
                                 chosen_fill=theme.INFO)  # TEXT on it at 5.0:1
            if seat is not None and item.player != state.actor:
                button.fill = [c * 0.45 + b * 0.55 for c, b in zip(theme.player_colour(seat)[:3],
                                                                    theme.BUTTON[:3])] + [1]
            button.bind(on_release=lambda _b, label=item.label: self.post("tap", ("item", label)))
            box.add_widget(button)
            self.menu_buttons[item.label] = button
