"""Welcome to Centerville's set-up: the seating order (clockwise; it is the status order's start),
each player's colour, and each player's secret Legacy tile, entered privately. Gives the game
header's "colours" and "legacies" options and the names in seating order."""
from __future__ import annotations

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.engine.centerville.board import default_board
from companion.table.centerville_names import legacy_name

from .. import theme
from .centerville_paint import PLAYER_RGB, ink_on
from .common import TouchButton
from .teach_camera import open_teaching

def piece_colour(name: str) -> tuple:
    """A player colour of the board file (gray, white, ...) as the pieces show it."""
    return PLAYER_RGB.get(name, theme.PANEL_LIGHT)


class CentervilleSetup:
    """The seats' choices (no widgets): kept while players are added, removed and reordered."""

    def __init__(self):
        board = default_board()
        self.colours_offered = tuple(board.player_colours)
        self.tiles = tuple(board.legacies)
        self.colours: list[str] = []
        self.legacies: dict[int, str] = {}  # seat -> tile, private

    def fit(self, count: int) -> None:
        count = min(count, len(self.colours_offered))  # more seats than colours: not Centerville
        del self.colours[count:]
        self.legacies = {k: v for k, v in self.legacies.items() if k < count}
        while len(self.colours) < count:
            self.colours.append(next(c for c in self.colours_offered if c not in self.colours))

    def next_colour(self, seat: int) -> None:
        """The seat's next colour; whoever had it takes this seat's old one."""
        order = self.colours_offered
        new = order[(order.index(self.colours[seat]) + 1) % len(order)]
        if new in self.colours:
            other = self.colours.index(new)
            self.colours[other] = self.colours[seat]
        self.colours[seat] = new

    def move_up(self, seat: int, names: list[str]) -> list[str]:
        """Seat `seat` one place earlier in the seating order, with its colour and Legacy."""
        if seat <= 0:
            return names
        names = list(names)
        names[seat - 1], names[seat] = names[seat], names[seat - 1]
        self.colours[seat - 1], self.colours[seat] = self.colours[seat], self.colours[seat - 1]
        a, b = self.legacies.get(seat - 1), self.legacies.get(seat)
        self.legacies = {k: v for k, v in self.legacies.items() if k not in (seat - 1, seat)}
        if a:
            self.legacies[seat] = a
        if b:
            self.legacies[seat - 1] = b
        return names

    def options(self, names: list[str]) -> dict:
        options = {"colours": list(self.colours[:len(names)])}
        legacies = {names[k]: v for k, v in self.legacies.items() if k < len(names)}
        if legacies:
            options["legacies"] = legacies
        return options

    def missing_legacies(self, names: list[str]) -> list[str]:
        return [n for k, n in enumerate(names) if k not in self.legacies]


class SeatsView(ModalView):
    """Full-screen: one row per seat (move up, colour, Legacy); the Legacy is entered behind a
    privacy step so nobody else sees it."""

    def __init__(self, setup: CentervilleSetup, names: list[str], on_done, **kwargs):
        super().__init__(size_hint=(1, 1), auto_dismiss=False, background="",
                         background_color=theme.BACKGROUND, **kwargs)
        self.setup, self.names, self.on_done = setup, list(names), on_done
        s = theme.scaled
        root = BoxLayout(orientation="vertical", padding=s(8), spacing=s(6))
        top = BoxLayout(size_hint_y=None, height=s(52), spacing=s(8))
        title = Label(text="Seats, colours and Legacies", bold=True, font_size=s(20), color=theme.ACCENT,
                      halign="left", valign="middle")
        title.bind(size=lambda lab, size: setattr(lab, "text_size", size))
        top.add_widget(title)
        # Optional: the camera learns the table's icon dice here, or later from the table.
        teach = TouchButton(text_px=18, text="Teach the camera", size_hint_x=None, width=s(190))
        teach.bind(on_release=lambda *_: open_teaching(App.get_running_app()))
        top.add_widget(teach)
        done = TouchButton(text_px=18, text="Done", bold=True, fill=theme.CONFIRM_DEEP,
                           size_hint_x=None, width=s(120))
        done.bind(on_release=lambda *_: self.finish())
        top.add_widget(done)
        root.add_widget(top)
        note = Label(text="Clockwise from the top. Each player takes a Legacy tile at random, "
                          "looks at it alone, and taps their Legacy button to enter it.",
                     font_size=s(18), color=theme.TEXT, size_hint_y=None, height=s(52),
                     halign="left", valign="middle")
        note.bind(size=lambda lab, size: setattr(lab, "text_size", size))
        root.add_widget(note)
        self.rows = GridLayout(cols=1, spacing=s(4), size_hint_y=None)
        self.rows.bind(minimum_height=self.rows.setter("height"))
        root.add_widget(self.rows)
        root.add_widget(BoxLayout())
        self.add_widget(root)
        self.refresh()

    def refresh(self) -> None:
        s = theme.scaled
        self.rows.clear_widgets()
        for seat, name in enumerate(self.names):
            row = BoxLayout(size_hint_y=None, height=s(54), spacing=s(6))
            up = TouchButton(text_px=18, text="Up", size_hint_x=None, width=s(64), disabled=seat == 0)
            up.bind(on_release=lambda _b, k=seat: self.move_up(k))
            row.add_widget(up)
            label = Label(text=f"{seat + 1}. {name}", font_size=s(18), color=theme.TEXT, halign="left",
                          valign="middle", shorten=True)
            label.bind(size=lambda lab, size: setattr(lab, "text_size", size))
            row.add_widget(label)
            colour = self.setup.colours[seat]
            chip = TouchButton(text_px=18, text=colour, fill=piece_colour(colour),
                               color=ink_on(piece_colour(colour)),
                               size_hint_x=None, width=s(110))
            chip.bind(on_release=lambda _b, k=seat: self.next_colour(k))
            row.add_widget(chip)
            entered = seat in self.setup.legacies
            legacy = TouchButton(text_px=18, text="Legacy: entered" if entered else "Legacy: enter",
                                 size_hint_x=None, width=s(190))
            legacy.bind(on_release=lambda _b, k=seat: self.enter_legacy(k))
            row.add_widget(legacy)
            self.rows.add_widget(row)

    def move_up(self, seat: int) -> None:
        self.names = self.setup.move_up(seat, self.names)
        self.refresh()

    def next_colour(self, seat: int) -> None:
        self.setup.next_colour(seat)
        self.refresh()

    def enter_legacy(self, seat: int) -> None:
        LegacyPrivately(self.names[seat], self.setup.tiles, self.setup.legacies.get(seat),
                        lambda tile: self._legacy(seat, tile)).open()

    def _legacy(self, seat: int, tile: str | None) -> None:
        if tile is None:
            self.setup.legacies.pop(seat, None)
        else:
            # Two players cannot hold one tile: whoever had it entered a mistake and enters again.
            self.setup.legacies = {k: v for k, v in self.setup.legacies.items() if v != tile}
            self.setup.legacies[seat] = tile
        self.refresh()

    def finish(self) -> None:
        self.dismiss()
        self.on_done(self.names)


def legacy_title(tile: str) -> str:
    """A Legacy tile's name on a button: "Red zone", "Political offices"."""
    return legacy_name(tile).capitalize()


class LegacyPrivately(ModalView):
    """A player's own Legacy, behind a first screen that only names them: the others look away,
    the player taps to show (or enter) it, and it hides again when they tap Hide."""

    def __init__(self, name: str, tiles=(), current: str | None = None, on_choose=None, **kwargs):
        super().__init__(size_hint=(1, 1), auto_dismiss=False, background="",
                         background_color=theme.BACKGROUND, **kwargs)
        self.name, self.tiles, self.current, self.on_choose = name, tuple(tiles), current, on_choose
        self.root_box = BoxLayout(orientation="vertical", padding=theme.scaled(12), spacing=theme.scaled(8))
        self.add_widget(self.root_box)
        self.cover()

    def _title(self, text: str) -> None:
        label = Label(text=text, font_size=theme.scaled(22), bold=True, color=theme.ACCENT,
                      size_hint_y=None, height=theme.scaled(60), halign="center", valign="middle")
        label.bind(size=lambda lab, size: setattr(lab, "text_size", size))
        self.root_box.add_widget(label)

    def cover(self) -> None:
        """Only the name: nothing secret on screen while the tablet is passed round."""
        box = self.root_box
        box.clear_widgets()
        self._title(f"{self.name}'s Legacy: only {self.name} looks")
        show = TouchButton(text_px=18, text=f"I am {self.name}: show", bold=True, size_hint_y=None,
                           height=theme.scaled(64))
        show.bind(on_release=lambda *_: self.reveal())
        box.add_widget(show)
        close = TouchButton(text_px=18, text="Close", size_hint_y=None, height=theme.scaled(56))
        close.bind(on_release=lambda *_: self.dismiss())
        box.add_widget(close)
        box.add_widget(BoxLayout())

    def reveal(self) -> None:
        box = self.root_box
        box.clear_widgets()
        if self.current:
            self._title(f"{self.name}: {legacy_title(self.current)}")
        else:
            self._title(f"{self.name}: tap the Legacy tile you drew")
        if self.on_choose is not None:
            grid = GridLayout(cols=2, spacing=theme.scaled(6), size_hint_y=None)
            grid.bind(minimum_height=grid.setter("height"))
            for tile in self.tiles:
                button = TouchButton(text_px=18, text=legacy_title(tile), size_hint_y=None,
                                     height=theme.scaled(52), chosen=tile == self.current)
                button.color = theme.INK if button.chosen else theme.TEXT
                button.bind(on_release=lambda _b, t=tile: self.choose(t))
                grid.add_widget(button)
            box.add_widget(grid)
        hide = TouchButton(text_px=18, text="Hide", bold=True, fill=theme.CONFIRM_DEEP, size_hint_y=None,
                           height=theme.scaled(56))
        hide.bind(on_release=lambda *_: self.dismiss())
        box.add_widget(hide)
        box.add_widget(BoxLayout())

    def choose(self, tile: str) -> None:
        self.current = tile
        if self.on_choose is not None:
            self.on_choose(tile)
        self.dismiss()
