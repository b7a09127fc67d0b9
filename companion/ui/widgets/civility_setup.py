"""Civility's set-up: each player's city and its starting dials (most cities' levels are not known
to us, so players copy them from their City Board). Gives the game header's "cities" and "levels"."""
from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.engine.civility.cities import CITIES
from companion.engine.civility.tables import BOOK, DEPARTMENTS

from .. import theme
from companion.table.civility import DIAL_TITLES
from .common import TouchButton

DIALS = DEPARTMENTS + ("defenders",)
BASE_PLAYERS = 4  # 5-6 players need the expansion's cities


class Seat:
    """One player's city and dials as set so far."""

    def __init__(self, city: str):
        self.city = city
        self.dials = starting_dials(city)


def starting_dials(city: str) -> dict[str, int]:
    facts = CITIES[city]
    return {**dict(zip(DEPARTMENTS, facts.levels)), "defenders": facts.defenders}


class CivilitySetup:
    """The seats' choices (no widgets): kept while players are added and removed."""

    def __init__(self):
        self.seats: list[Seat] = []

    def fit(self, count: int) -> None:
        """One seat per player: new seats take the first city nobody has."""
        del self.seats[count:]
        while len(self.seats) < count:
            taken = {s.city for s in self.seats}
            self.seats.append(Seat(next(name for name in CITIES if name not in taken)))

    def choose_city(self, index: int, city: str) -> None:
        """`city` for seat `index`; a player who had it swaps with them."""
        other = next((s for s in self.seats if s.city == city), None)
        seat = self.seats[index]
        if other is seat:
            return
        if other is not None:
            other.city, other.dials, seat.city, seat.dials = seat.city, seat.dials, city, other.dials
        else:
            seat.city, seat.dials = city, starting_dials(city)

    def step(self, index: int, dial: str, by: int) -> None:
        top = BOOK.defenders_max if dial == "defenders" else BOOK.level_max
        dials = self.seats[index].dials
        dials[dial] = max(0, min(top, dials[dial] + by))

    def options(self, names: list[str]) -> dict:
        """The game header's options: a city and every starting dial per player."""
        return {"cities": {n: s.city for n, s in zip(names, self.seats)},
                "levels": {n: dict(s.dials) for n, s in zip(names, self.seats)}}

    def summary(self) -> str:
        return "Cities: " + ", ".join(s.city for s in self.seats)


class CitySetupView(ModalView):
    """Full-screen editor: the seats on the left; the chosen seat's city and dials on the right."""

    def __init__(self, setup: CivilitySetup, names: list[str], on_done, **kwargs):
        super().__init__(size_hint=(1, 1), auto_dismiss=False, background="", background_color=theme.BACKGROUND,
                         **kwargs)
        self.setup, self.names, self.on_done, self.index = setup, names, on_done, 0
        s = theme.scaled
        root = BoxLayout(orientation="vertical", padding=s(8), spacing=s(6))
        top = BoxLayout(size_hint_y=None, height=s(52), spacing=s(8))
        top.add_widget(Label(text="Cities and starting dials", bold=True, font_size=s(20), color=theme.ACCENT,
                             halign="left", valign="middle", text_size=(None, None)))
        self.done = TouchButton(text="Done", bold=True, fill=theme.CONFIRM, size_hint_x=None, width=s(120))
        self.done.bind(on_release=lambda *_: self.finish())
        top.add_widget(self.done)
        root.add_widget(top)
        body = BoxLayout(spacing=s(8))
        self.seat_list = BoxLayout(orientation="vertical", size_hint_x=0.27, spacing=s(4))
        body.add_widget(self.seat_list)
        right = BoxLayout(orientation="vertical", spacing=s(2))
        self.cities = GridLayout(cols=3, spacing=s(3), size_hint_y=None, height=s(3 * 48 + 6))
        right.add_widget(self.cities)
        self.note = Label(font_size=s(16), color=theme.TEXT_DIM, size_hint_y=None, height=s(42),
                          halign="left", valign="middle")
        self.note.bind(size=lambda lab, size: setattr(lab, "text_size", size))
        right.add_widget(self.note)
        self.dials = GridLayout(cols=2, spacing=s(3), size_hint_y=None, height=s(4 * 48 + 9))
        right.add_widget(self.dials)
        right.add_widget(BoxLayout())
        body.add_widget(right)
        root.add_widget(body)
        self.add_widget(root)
        self.city_buttons: dict[str, TouchButton] = {}
        self.dial_values: dict[str, Label] = {}
        self.seat_buttons: list[TouchButton] = []
        self._build()
        self.refresh()

    def _build(self) -> None:
        s = theme.scaled
        for i, name in enumerate(self.names):
            button = TouchButton(margin=s(8))
            button.bind(on_release=lambda _b, k=i: self.choose_seat(k))
            self.seat_list.add_widget(button)
            self.seat_buttons.append(button)
        self.seat_list.add_widget(BoxLayout())
        for city, facts in CITIES.items():
            button = TouchButton(text=city + (" (exp.)" if facts.expansion else ""),
                                 margin=s(8), chosen_fill=theme.ACCENT)
            button.bind(on_release=lambda _b, c=city: self.choose_city(c))
            self.cities.add_widget(button)
            self.city_buttons[city] = button
        for dial in DIALS:
            row = BoxLayout(spacing=s(4))
            row.add_widget(Label(text=DIAL_TITLES[dial], font_size=s(16), color=theme.TEXT, halign="left",
                                 valign="middle", size_hint_x=0.45))
            row.children[0].bind(size=lambda lab, size: setattr(lab, "text_size", size))
            minus = TouchButton(text="-", bold=True, size_hint_x=None, width=s(48))
            minus.bind(on_release=lambda _b, d=dial: self.step(d, -1))
            value = Label(font_size=s(18), bold=True, color=theme.TEXT, size_hint_x=None, width=s(30))
            plus = TouchButton(text="+", bold=True, size_hint_x=None, width=s(48))
            plus.bind(on_release=lambda _b, d=dial: self.step(d, 1))
            for widget in (minus, value, plus):
                row.add_widget(widget)
            self.dials.add_widget(row)
            self.dial_values[dial] = value

    def refresh(self) -> None:
        seats = self.setup.seats
        for i, (button, name) in enumerate(zip(self.seat_buttons, self.names)):
            button.text = f"{name}\n{seats[i].city}"
            button.chosen = i == self.index
            button.color = theme.INK if button.chosen else theme.TEXT
            button.chosen_fill = theme.player_colour(i)
        seat = seats[self.index]
        for city, button in self.city_buttons.items():
            button.chosen = city == seat.city
            button.color = theme.INK if button.chosen else theme.TEXT
        for dial, label in self.dial_values.items():
            label.text = str(seat.dials[dial])
        known = CITIES[seat.city].known
        note = (f"{self.names[self.index]} plays {seat.city}. "
                + (f"Known from the rulebook: {', '.join(known)}; set the rest from the City Board."
                   if known else "Its levels are not known here: set them from the City Board."))
        if len(seats) > BASE_PLAYERS:
            note += " 5-6 players: with the 5-6 player expansion (its cities: exp.)."
        self.note.text = note

    def choose_seat(self, index: int) -> None:
        self.index = index
        self.refresh()

    def choose_city(self, city: str) -> None:
        self.setup.choose_city(self.index, city)
        self.refresh()

    def step(self, dial: str, by: int) -> None:
        self.setup.step(self.index, dial, by)
        self.refresh()

    def finish(self) -> None:
        self.dismiss()
        self.on_done()
