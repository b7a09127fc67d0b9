"""Player set-up: which game, the players' names (1-6 for Rolling Village), and each game's own
choices (Civility's cities, Rolling Village's sheet, Centerville's seats, colours and Legacies)."""
from __future__ import annotations

import re
from pathlib import Path

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion.engine.core import all_games
from companion.engine.rolling_village import SheetError

from .. import theme
from ..game_screens import PLAY_SCREENS
from ..widgets.centerville_setup import CentervilleSetup, SeatsView
from ..widgets.civility_setup import CivilitySetup, CitySetupView
from ..village_sheets import DEFAULT_LEGEND, DEFAULT_SHEET, Choice, village_options
from ..widgets.common import TouchButton, shown
from ..widgets.sheet_choice import SheetChoiceView
from . import load_kv

load_kv(__file__)

SCREEN_MAX_PLAYERS = 6  # six sheets is what fits on the screen as tabs
RECENT_CHIPS = 5  # recent players offered as chips: what fits in a row at 800x480
PLACEHOLDER = re.compile(r"Player \d+")  # the names a new seat starts with


class SetupScreen(Screen):
    game_name = StringProperty("rolling-village")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.fields = []
        self.civility = CivilitySetup()  # Civility's cities and starting dials, per seat
        self.centerville = CentervilleSetup()  # Centerville's colours and secret Legacies, per seat
        # Rolling Village: the printed sheet and legend, or a player's own files (village_sheets.py)
        self.village_sheet, self.village_legend = Choice(DEFAULT_SHEET), Choice(DEFAULT_LEGEND)

    def prepare(self, players=None) -> None:
        """Fresh fields: the given names (play again), else two default names."""
        self._game_buttons()
        self.ids.names.clear_widgets()
        self.fields = []
        for name in (players or ["Player 1", "Player 2"]):
            self.add_player(name)

    def playable(self):
        return [g for g in all_games() if g.name in PLAY_SCREENS]

    def _game_buttons(self) -> None:
        box = self.ids.games
        box.clear_widgets()
        for game in self.playable():
            button = TouchButton(text=game.title, chosen=game.name == self.game_name, bold=True,
                                 color=theme.INK if game.name == self.game_name else theme.TEXT)
            button.bind(on_release=lambda _b, g=game.name: self.choose_game(g))
            box.add_widget(button)

    def choose_game(self, name: str) -> None:
        self.game_name = name
        self._game_buttons()
        self._limits()

    def _max(self) -> int:
        game = next((g for g in self.playable() if g.name == self.game_name), None)
        return min(game.max_players if game else SCREEN_MAX_PLAYERS, SCREEN_MAX_PLAYERS)

    def _min(self) -> int:
        game = next((g for g in self.playable() if g.name == self.game_name), None)
        return game.min_players if game else 1

    def _limits(self) -> None:
        self.ids.add.disabled = len(self.fields) >= self._max()
        self.ids.drop.disabled = len(self.fields) <= self._min()
        title = f"Players ({self._min()}-{self._max()}): tap a name to change it"
        if self.game_name == "centerville" and len(self.fields) == 2:
            title = "2 players and the bot (2-player rules): tap a name to change it"
        self.ids.players_title.text = title
        self._civility_cities()
        self._village_sheets()
        self._centerville_seats()

    @staticmethod
    def _game_button(button, on: bool, text: str) -> None:
        """A game's own set-up button: shown (with `text`) only while that game is chosen."""
        button.size_hint_x = 1 if on else None
        button.width = 0 if not on else button.width
        button.opacity, button.disabled = (1, False) if on else (0, True)
        button.text = text if on else ""

    def _civility_cities(self) -> None:
        """Civility only: a button to choose each player's city and starting dials."""
        self.civility.fit(len(self.fields))
        self._game_button(self.ids.cities, self.game_name == "civility", "Cities and\nstarting dials  \u203a")

    def _village_sheets(self) -> None:
        """Rolling Village only: a button to choose the Village Sheet and Projects! legend."""
        button, on = self.ids.sheets, self.game_name == "rolling-village"
        custom = self.village_sheet.path is not None or self.village_legend.path is not None
        sheet = self.village_sheet.title if self.village_sheet.path is not None else "printed"
        self._game_button(button, on, f"Village Sheet:\n{sheet}"
                          + (" +legend" if self.village_legend.path else "") + "  \u203a")
        button.chosen = on and custom  # a player's own file: marked, so nobody plays it unawares
        button.color = theme.INK if button.chosen else theme.TEXT

    def _centerville_seats(self) -> None:
        """Centerville only: seating order, colours and each player's secret Legacy."""
        on = self.game_name == "centerville"
        if on:
            self.centerville.fit(len(self.fields))
        missing = len(self.centerville.missing_legacies(self.names()))
        self._game_button(self.ids.seats, on,
                          "Seats and\nLegacies  \u203a" if not missing else
                          f"Legacies:\n{missing} to enter  \u203a")

    def edit_seats(self) -> None:
        SeatsView(self.centerville, self.names(), on_done=self._seats_chosen).open()

    def _seats_chosen(self, names: list[str]) -> None:
        for field, name in zip(self.fields, names):
            field.text = name
        self._centerville_seats()

    def data_dir(self) -> Path:
        """The app's data folder: the one holding games.db (sheets/ and legends/ live beside it)."""
        return Path(App.get_running_app().store.path).parent

    def edit_sheets(self) -> None:
        SheetChoiceView(self.data_dir(), self.village_sheet, self.village_legend,
                        on_done=self._sheets_chosen).open()

    def _sheets_chosen(self, sheet: Choice, legend: Choice, problem: str | None) -> None:
        self.village_sheet, self.village_legend = sheet, legend
        self._village_sheets()
        if problem:
            App.get_running_app().say(problem, error=True)

    def edit_cities(self) -> None:
        CitySetupView(self.civility, self.names(), on_done=self._civility_cities).open()

    def add_player(self, name: str | None = None) -> None:
        if len(self.fields) >= self._max():
            return
        field = Factory.NameField(text=name or f"Player {len(self.fields) + 1}")
        field.bind(on_text_validate=lambda *_: self.start() if field is self.fields[-1] else None)
        field.bind(focus=lambda *_: self._recent_players())
        self.fields.append(field)
        self.ids.names.add_widget(field)
        self._limits()
        self._recent_players()

    def remove_player(self) -> None:
        if len(self.fields) > self._min():
            self.ids.names.remove_widget(self.fields.pop())
        self._limits()
        self._recent_players()

    def _recent_players(self) -> None:
        """Chips of the people who played lately, in their usual colour; one tap seats them."""
        from companion.history import recent_people

        row, names = self.ids.recent, set(self.names())
        row.clear_widgets()
        people = [(n, c) for n, c in recent_people(App.get_running_app().store, limit=RECENT_CHIPS + 6)
                  if n not in names][:RECENT_CHIPS]
        # Shown while the names take two rows or fewer: a third row of names needs the room.
        shown(row, bool(people) and len(self.fields) <= 4 and len(self.fields) < self._max(), theme.scaled(52))
        for name, colour in people:
            # Black, not INK: on the red player colour INK gives 4.46:1, under the 4.5 asked.
            chip = TouchButton(text=f"+ {name}", fill=theme.player_colour(colour), color=(0, 0, 0, 1), bold=True)
            chip.bind(on_release=lambda _b, n=name, c=colour: self.seat_recent(n, c))
            row.add_widget(chip)

    def seat_recent(self, name: str, colour: int) -> None:
        """`name` takes their usual seat (a seat's colour is its place) if it still holds a
        default name, else the first seat that does, else a new seat."""
        free = [i for i, f in enumerate(self.fields) if PLACEHOLDER.fullmatch(f.text.strip() or "Player 0")]
        if free:
            self.fields[colour if colour in free else free[0]].text = name
        else:
            self.add_player(name)
        self._recent_players()

    def names(self) -> list[str]:
        return [f.text for f in self.fields]

    def start(self) -> None:
        options = self.civility.options(self.names()) if self.game_name == "civility" else None
        if self.game_name == "centerville":
            options = self.centerville.options(self.names())
        if self.game_name == "rolling-village":
            try:
                # Read now: the header carries the sheet itself, so the log and a resumed game have it.
                options = village_options(self.village_sheet, self.village_legend)
            except SheetError as exc:
                App.get_running_app().say(str(exc), error=True)  # names the file, key and line
                return
        App.get_running_app().start_game(self.game_name, self.names(), options)
