"""The Rolling Village table: dice entry, each player's sheet, the turn tracker, Avenue choices.

Everything on it is redrawn from the table (state + draft) in `render`; taps only post events.
"""
from __future__ import annotations

from kivy.app import App

from companion.engine.rolling_village import views
from companion.events import Command
from companion.table.rolling_village import RollingVillageInput as RV

from .. import theme, village_view
from ..widgets.common import TouchButton
from ..widgets.dice import DieFace, fill_dice_pad  # noqa: F401  (DieFace: village.kv)
from ..widgets.dice_check import DiceCheck
from ..widgets.tray_view import TrayView  # noqa: F401  (used by village.kv)
from ..widgets.sheet import VillageSheet  # noqa: F401  (used by village.kv)
from ..widgets.tracker import TurnTracker  # noqa: F401  (used by village.kv)
from ..widgets.common import shown
from . import TableScreen, load_kv, undo_text

load_kv(__file__)


class VillageScreen(TableScreen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.player: str | None = None
        self._tab_players: tuple = ()
        self._project_names: tuple = ()
        self.dice_check = DiceCheck()   # opens when the camera is unsure of a die
        self.pad = fill_dice_pad(self.ids.pad, lambda v: self.post("tap", ("pad_die", v)))

    @property
    def banner(self):
        return self.ids.message

    def post(self, kind: str, value) -> None:
        if kind == "command":
            value = Command(value)
        App.get_running_app().post(kind, value)

    def on_slot(self) -> None:
        """A tap on the two dice slots: while building it corrects the roll, else clears them."""
        table = App.get_running_app().table
        building = table.state is not None and table.state.phase == "build" and not table.draft.correcting
        self.post("tap", ("correct",) if building else ("clear",))

    def on_square(self, row: int, street: int) -> None:
        if self.player is not None:
            self.post("tap", ("square", self.player, row, street))

    def on_avenue(self, row: int) -> None:
        if self.player is not None:
            self.post("tap", ("avenue", self.player, row))

    # -- rendering -----------------------------------------------------------------------------
    def render(self, table) -> None:
        session, state, draft = table.session, table.state, table.draft
        if state is None:
            return
        self.player = player = draft.player or state.players[0]
        phase = state.phase
        ids = self.ids
        ids.headline.text = village_view.headline(state)
        ids.undo.disabled = not session.can_undo
        ids.undo.text = undo_text(table)
        # While the advisor works (on the table's worker) its button says so and takes no tap.
        ids.advise.text = "Thinking\u2026" if table.thinking else "Advise"
        ids.advise.disabled = bool(table.thinking) or phase == "over"
        ids.redo.disabled = not session.can_redo
        self._tabs(state, player)
        ids.sheet.show(village_view.sheet_view(state, draft, player, table.advice))
        village = state.village(player)
        ids.tracker.show(village.turn_scores, views.subtotals(state, player), state.turn)

        # Dice are entered for a roll, or to correct the building roll (tap the rolled dice).
        dicing = phase in ("roll", "activate") or draft.correcting
        dice = draft.dice if dicing else (state.dice or ())
        ids.first.value = dice[0] if len(dice) > 0 else 0
        ids.second.value = dice[1] if len(dice) > 1 else 0
        ids.first.marked = dicing and len(dice) == 0
        ids.second.marked = dicing and len(dice) == 1
        ids.first.disabled = ids.second.disabled = phase not in ("roll", "activate", "build")
        ids.total.text = f"= {sum(dice)}" if len(dice) == 2 and phase == "activate" else ""
        shown(ids.entered, phase != "over", theme.scaled(64))
        shown(ids.pad, dicing, theme.scaled(56))
        for die in self.pad:
            die.disabled = not dicing
        self._projects(state, draft, player, phase == "build" and not draft.correcting)
        shown(ids.actions, dicing, theme.scaled(60))
        ids.confirm.disabled = len(draft.dice) != 2
        ids.confirm.text = ("Correct roll" if draft.correcting else
                            ("Start roll" if state.turn == 0 else "Roll") if phase == "roll" else "Activate")
        ids.clear_dice.text = "Cancel" if draft.correcting and not draft.dice else "Clear"
        ids.clear_dice.disabled = not (draft.dice or draft.correcting)

        if draft.correcting:
            ids.explain.text = (f"Correcting the roll {list(state.dice)}: "
                                + village_view.roll_meaning(state, draft.dice))
        elif dicing:
            ids.explain.text = village_view.roll_meaning(state, draft.dice)
        elif phase == "build":
            ids.explain.text = village_view.roll_meaning(state, state.dice)
        else:
            ids.explain.text = "The game is over."
        ids.status.text = self._status(state, draft, phase)
        self._camera(table, dicing)

    def _camera(self, table, dicing: bool) -> None:
        """The dice camera's live view beside the dice, its state, and the dice check."""
        tray = self.ids.tray
        tray.camera = table.camera
        shown_tray = table.camera is not None and dicing
        tray.opacity, tray.disabled = (1, False) if shown_tray else (0, True)
        tray.width = theme.scaled(96) if shown_tray else 0
        tray.note = "camera\nunavailable" if table.camera_status == "unavailable" else ""
        button = self.ids.camera_view
        button.width = theme.scaled(96) if shown_tray else 0
        button.opacity, button.disabled = (1, False) if shown_tray else (0, True)
        if dicing and table.camera_status == "unavailable":
            self.ids.explain.text += "\nCamera unavailable: enter the dice by hand."
        self.dice_check.follow(table)

    def open_camera(self) -> None:
        self.ids.tray.on_release()

    def _status(self, state, draft, phase) -> str:
        if phase == "build":
            lines = []
            for names, what in village_view.progress(state):
                mark = "[color=#6fcf7f]done[/color]" if what == "done" else what
                lines.append(f"[b]{names}[/b]: {mark}")
            return "\n".join(lines)
        if RV.choosing(state, draft):
            return village_view.choice_lines(state, draft)
        return village_view.scored_line(state)

    def _tabs(self, state, player: str) -> None:
        box = self.ids.tabs
        if self._tab_players != state.players:
            box.clear_widgets()
            for index, name in enumerate(state.players):
                tab = TouchButton(font_size=theme.scaled(15), line_height=0.95, margin=theme.scaled(4))
                tab.bind(on_release=lambda _b, n=name: self.post("tap", ("player", n)))
                tab.player_index = index
                box.add_widget(tab)
            self._tab_players = state.players
        for tab, village in zip(box.children[::-1], state.villages):
            # Two lines so six names fit: the name, then the score (a dot: still has to build).
            tab.text = f"{village.name}\n{village.score}" + ("  \u2022" if village.owed else "")
            tab.chosen = village.name == player
            tab.chosen_fill = theme.player_colour(tab.player_index)
            tab.color = theme.INK if tab.chosen else theme.TEXT

    def _projects(self, state, draft, player: str, building: bool) -> None:
        box = self.ids.projects
        shown(box, building, theme.scaled(56))
        if self._project_names != state.legend.names:
            box.clear_widgets()
            for name, title in zip(state.legend.names, state.legend.titles):
                colour = theme.project_colour(name, state.legend.names)
                chip = TouchButton(text=title, bold=True, ring=True, chosen_fill=colour,
                                   fill=[c * 0.55 + b * 0.45 for c, b in zip(colour[:3], theme.BACKGROUND[:3])] + [1])
                chip.project = name
                chip.bind(on_release=lambda _b, n=name: self.post("tap", ("project", n)))
                box.add_widget(chip)
            self._project_names = state.legend.names
        allowed = RV.projects_allowed(state, player) if building else ()
        for chip in box.children:
            chip.chosen = building and chip.project == draft.project
            chip.color = theme.TEXT if chip.chosen else theme.TEXT_DIM
            chip.disabled = not building
            chip.opacity = (1 if chip.project in allowed else 0.45) if building else 0
