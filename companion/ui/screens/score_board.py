"""Score our board: a Welcome to Centerville table that played on paper (or lost track) enters
the board as it stands, without tracking the game: the players (2 and the bot, 3 or 4; names,
colours), then the pieces, by tapping areas of the same board picture as in play (each opens a
small editor), and the scoring round. The round is then walked through page by page, the same
pages as in play, to a summary of the new wealth and prestige.

What is entered is the board-state file of `companion score` (table.centerville_board_entry),
so the screen and the command score a board the one same way.
"""
from __future__ import annotations

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import Screen

from companion.engine.centerville.statefile import StateFileError
from companion.table.centerville_board_entry import MODES, ROUNDS, BoardEntry

from .. import theme
from ..widgets.centerville_area_editor import AreaEditor, button
from ..widgets.centerville_board import CentervilleBoard  # noqa: F401  (used by score_board.kv)
from ..widgets.centerville_setup import ink_on, piece_colour
from ..widgets.common import Banner, TouchButton, shown  # noqa: F401  (Banner, TouchButton: score_board.kv)
from . import load_kv

load_kv(__file__)

MODE_TEXT = {"2+bot": "2 players + bot", "3": "3 players", "4": "4 players"}


class ScoreBoardScreen(Screen):
    typing = BooleanProperty(False)  # a name field has the keyboard: keys are not the table's

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.entry = BoardEntry()
        self.editor: AreaEditor | None = None
        self.result = None  # centerville_board_entry.Scored, once a round is scored
        self.page = 0
        self.changes = 0  # every accepted or refused tap in an editor (tests wait on it)
        self.name_fields: list = []
        self.colour_chips: list[TouchButton] = []
        self.mode_buttons: dict[str, TouchButton] = {}
        self.round_buttons: dict[int, TouchButton] = {}

    @property
    def banner(self):
        return self.ids.message  # the app says this screen's messages here

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def start_over(self) -> None:
        """A fresh entry (Home's button): nothing of an earlier board."""
        self.entry = BoardEntry()
        self.result = None
        self.ids.stages.current = "players"

    def refresh(self) -> None:
        """Redraw the stage in front (also after the window's scale changed)."""
        stage = self.ids.stages.current
        if stage == "players":
            self._players()
        elif stage == "board":
            self._board()
        else:
            self._scoring()

    def say(self, message: str, error: bool = True) -> None:
        App.get_running_app().say(message, error=error)

    # -- players ---------------------------------------------------------------------------------
    def _players(self) -> None:
        s, e = theme.scaled, self.entry
        modes = self.ids.modes
        modes.clear_widgets()
        self.mode_buttons = {}
        for mode in MODES:
            made = button(MODE_TEXT[mode], chosen=mode == e.mode, color=theme.INK if mode == e.mode else theme.TEXT)
            made.bind(on_release=lambda _b, m=mode: self.choose_mode(m))
            modes.add_widget(made)
            self.mode_buttons[mode] = made
        seats = self.ids.seats
        seats.clear_widgets()
        self.name_fields, self.colour_chips = [], []
        for seat in range(e.seats):
            row = BoxLayout(size_hint_y=None, height=s(54), spacing=s(8))
            field = Factory.NameField(text=e.names[seat])  # the set-up screen's name field
            field.bind(text=lambda f, text, k=seat: e.rename(k, text), focus=self._focus)
            row.add_widget(field)
            colour = piece_colour(e.colours[seat])
            chip = button(e.colours[seat] + ("  (the bot)" if seat == e.bot else ""), fill=colour,
                          color=ink_on(colour), size_hint_x=None, width=s(200))
            chip.bind(on_release=lambda _b, k=seat: self.next_colour(k))
            row.add_widget(chip)
            seats.add_widget(row)
            self.name_fields.append(field)
            self.colour_chips.append(chip)

    def _focus(self, _field, focused: bool) -> None:
        self.typing = any(f.focus for f in self.name_fields)

    def choose_mode(self, mode: str) -> None:
        if mode != self.entry.mode:
            self.entry.set_mode(mode)
        self._players()

    def next_colour(self, seat: int) -> None:
        self.entry.next_colour(seat)
        self._players()

    def to_board(self) -> None:
        for field in self.name_fields:
            field.focus = False
        names = [n.strip() for n in self.entry.names]
        if not all(names) or len({n.casefold() for n in names}) != len(names):
            self.say("Every seat needs a name of its own.")
            return
        for seat, name in enumerate(names):
            self.entry.rename(seat, name)
        self.ids.stages.current = "board"
        self._board()

    def to_players(self) -> None:
        self.ids.stages.current = "players"
        self._players()

    # -- the board -------------------------------------------------------------------------------
    def _board(self) -> None:
        s, e = theme.scaled, self.entry
        self.ids.board.show(e.picture())
        cubes = "\n".join(f"{e.names[p]}: {e.cubes_left(p)} of {e.board.cubes} cubes left"
                          for p in range(e.seats))
        self.ids.board_help.text = f"[b]Tap an area of the board to enter its pieces.[/b]\n{cubes}"
        rounds = self.ids.rounds
        rounds.clear_widgets()
        self.round_buttons = {}
        for number in ROUNDS:
            made = button(str(number), 20, chosen=number == e.round,
                          color=theme.INK if number == e.round else theme.TEXT)
            made.bind(on_release=lambda _b, n=number: self.choose_round(n))
            rounds.add_widget(made)
            self.round_buttons[number] = made
        shown(self.ids.final, e.round == 3, s(52))
        self.ids.score.text = f"Score round {e.round}  \u203a"

    def choose_round(self, number: int) -> None:
        self.entry.set_round(number)
        self._board()

    def open_area(self, area: str) -> bool:
        """A tap on a board area (or the final scoring's button): its editor."""
        self.editor = AreaEditor(self.entry, area, self._changed)
        self.editor.bind(on_dismiss=lambda *_: self._board())
        self.editor.open(animation=False)
        return True  # the board's own area view stays closed

    def _changed(self, message: str | None) -> None:
        self.changes += 1
        self.say(message or "", error=bool(message))  # a done change clears the last refusal
        self.ids.board.show(self.entry.picture())

    def score(self) -> None:
        problem = self.entry.missing()
        if problem:
            self.say(problem)
            return
        try:
            self.result = self.entry.score()
        except StateFileError as exc:  # every limit is kept while entering; the file has the last word
            self.say(str(exc))
            return
        self.page = 0
        self.say("", error=False)
        self.ids.stages.current = "scoring"
        self.ids.scored_board.show(self.entry.picture(), self.result.areas[0])
        self._scoring()

    # -- the round walked through ----------------------------------------------------------------
    def _scoring(self) -> None:
        if self.result is None:
            return
        pages = self.result.pages
        page = pages[self.page]
        self.ids.headline.title = f"Round {self.entry.round}  \u00b7  page {self.page + 1} of {len(pages)}"
        self.ids.page_title.text = page.title
        body = list(page.lines)
        if page.moves:
            body.append("[b]On the board:[/b]")
            body += [f"\u2022 {move}" for move in page.moves]
        self.ids.page.text = "\n".join(body)
        self.ids.page_scroll.scroll_y = 1
        self.ids.scored_board.show(self.ids.scored_board.state, self.result.areas[self.page])
        last = self.page == len(pages) - 1
        self.ids.next_page.text = "Back to the board" if last else "Done, next"
        self.ids.previous.disabled = self.page == 0

    def turn_page(self, step: int) -> None:
        if self.result is None:
            return
        if step > 0 and self.page == len(self.result.pages) - 1:
            self.ids.stages.current = "board"
            self._board()
            return
        self.page = max(0, min(self.page + step, len(self.result.pages) - 1))
        self._scoring()
