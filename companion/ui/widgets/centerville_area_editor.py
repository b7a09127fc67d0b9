"""The small editor a tap on a board area opens in Score our board: the rows of that area
(table.centerville_board_entry.BoardEntry.rows): a number per seat with - and +, a choice per
space, the status order; each tap changes the entry at once and the editor redraws."""
from __future__ import annotations

from kivy.graphics import Color, Rectangle
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.table.centerville_names import ordinal

from .. import theme
from .centerville_areas import areas
from .centerville_setup import ink_on, piece_colour
from .common import TapScrollView, TouchButton

FINAL_TITLE = "Final scoring: every Legacy, the Media's vocation"


def button(text: str, size: float = 18, **kwargs) -> TouchButton:
    """A TouchButton whose text is `size` px at 800x480 (TouchButton's own rule sets 17: the rule
    is applied after the keyword arguments, so the size is set once the button is made)."""
    made = TouchButton(text=text, **kwargs)
    made.font_size = theme.scaled(size)
    return made


def _label(text: str, size: float = 18, **kwargs) -> Label:
    kwargs = {"color": theme.TEXT, "halign": "left", "valign": "middle", **kwargs}
    label = Label(text=text, font_size=theme.scaled(size), **kwargs)
    # Wrapped to the width, never clipped to the height: text too long for its row shows as
    # such (and the layout check catches it) instead of being cut silently.
    label.bind(width=lambda lab, value: setattr(lab, "text_size", (value, None)))
    return label


class AreaEditor(ModalView):
    """The rows of one area; `on_change(message or None)` after every tap (a refusal's sentence)."""

    def __init__(self, entry, area: str, on_change, **kwargs):
        super().__init__(size_hint=(0.98, 0.96), auto_dismiss=False, background_color=(0, 0, 0, 0),
                         overlay_color=(0, 0, 0, 0.6), **kwargs)
        self.entry, self.area, self.on_change = entry, area, on_change
        self.buttons: dict[tuple, TouchButton] = {}  # what a tap does -> its button (for tests)
        s = theme.scaled
        root = BoxLayout(orientation="vertical", padding=s(8), spacing=s(6))
        with root.canvas.before:
            Color(*theme.PANEL)
            self._bg = Rectangle()
        root.bind(pos=lambda w, v: setattr(self._bg, "pos", v), size=lambda w, v: setattr(self._bg, "size", v))
        top = BoxLayout(size_hint_y=None, height=s(52), spacing=s(8))
        title = FINAL_TITLE if area == "final" else areas()[area].title
        top.add_widget(_label(title, 22, bold=True, color=theme.ACCENT, shorten=True))
        self.done = button("Done", 20, bold=True, fill=theme.CONFIRM_DEEP, size_hint_x=None, width=s(110))
        self.done.bind(on_release=lambda *_: self.dismiss(animation=False))
        top.add_widget(self.done)
        root.add_widget(top)
        self.header = BoxLayout(orientation="vertical", size_hint_y=None, height=0)  # the seats, above the scroll
        root.add_widget(self.header)
        self.scroll = TapScrollView(do_scroll_x=False)
        self.rows = GridLayout(cols=1, spacing=s(4), size_hint_y=None)
        self.rows.bind(minimum_height=self.rows.setter("height"))
        self.scroll.add_widget(self.rows)
        root.add_widget(self.scroll)
        self.add_widget(root)
        self.refresh()

    # -- drawing -------------------------------------------------------------------------------
    def refresh(self) -> None:
        s, e = theme.scaled, self.entry
        self.rows.clear_widgets()
        self.header.clear_widgets()
        self.buttons = {}
        rows = e.rows(self.area)
        if not rows:
            from companion.table.centerville_board_entry import NOT_NEEDED

            self.rows.add_widget(_label(NOT_NEEDED.get(self.area, ""), size_hint_y=None, height=s(52)))
            return
        counts = any(r.kind == "count" for r in rows)
        self.header.height = s(54) if counts else 0
        if counts:
            self.header.add_widget(self._seat_header())
        for row in rows:
            self.rows.add_widget(getattr(self, f"_{row.kind}")(row))

    def _line(self) -> BoxLayout:
        return BoxLayout(size_hint_y=None, height=theme.scaled(54), spacing=theme.scaled(4))

    def _name_width(self) -> float:
        return theme.scaled(150)

    def _seat_header(self) -> BoxLayout:
        line = self._line()
        line.add_widget(_label(""))
        for seat in range(self.entry.seats):
            chip = _label(self.entry.names[seat], bold=True, halign="center", shorten=True,
                          size_hint_x=None, width=self._name_width())
            colour = piece_colour(self.entry.colours[seat])
            chip.color = ink_on(colour)
            with chip.canvas.before:
                Color(*colour)
                rect = Rectangle()
            chip.bind(pos=lambda w, v, r=rect: setattr(r, "pos", v), size=lambda w, v, r=rect: setattr(r, "size", v))
            line.add_widget(chip)
        return line

    def _button(self, text: str, key: tuple, do, **kwargs) -> TouchButton:
        made = button(text, margin=theme.scaled(6), shorten=True, **kwargs)
        made.bind(on_release=lambda _b: self._do(do))
        self.buttons[key] = made
        return made

    def _do(self, do) -> None:
        message = do()
        self.refresh()
        self.on_change(message)

    def _pm(self, line, row, key_of, value: int, seat=None) -> None:
        """- value + (in steps of row.step), in a cell as wide as a seat's name."""
        s = theme.scaled
        cell = BoxLayout(size_hint_x=None, width=self._name_width(), spacing=s(2))
        e, step = self.entry, row.step
        sign = f"{step}" if step > 1 else ""
        cell.add_widget(self._button(f"\u2212{sign}", key_of(-step), lambda: e.change(row.key, -step, seat),
                                     size_hint_x=None, width=s(48 if step == 1 else 52)))
        cell.add_widget(_label(str(value), 20, bold=True, halign="center"))
        cell.add_widget(self._button(f"+{sign}", key_of(step), lambda: e.change(row.key, step, seat),
                                     size_hint_x=None, width=s(48 if step == 1 else 52)))
        line.add_widget(cell)

    def _count(self, row) -> BoxLayout:
        line = self._line()
        line.add_widget(_label(row.label))
        values = self.entry.value(row.key)
        for seat in range(self.entry.seats):
            self._pm(line, row, lambda d, p=seat: (row.key, p, d), values[seat], seat)
        return line

    def _number(self, row) -> BoxLayout:
        line = self._line()
        line.add_widget(_label(row.label))
        self._pm(line, row, lambda d: (row.key, None, d), self.entry.value(row.key))
        return line

    def _choice(self, row) -> BoxLayout:
        s = theme.scaled
        cols = len(row.options) if len(row.options) <= 5 else 4
        lines = (len(row.options) + cols - 1) // cols
        box = BoxLayout(size_hint_y=None, height=lines * s(54), spacing=s(4))
        box.add_widget(_label(row.label, size_hint_x=0.3))
        grid = GridLayout(cols=cols, spacing=s(4))
        current = self.entry.value(row.key)
        for value, text in row.options:
            chosen = value == current
            made = self._button(text, (row.key, value), lambda v=value: self.entry.choose(row.key, v),
                                chosen=chosen)
            if isinstance(value, int) and row.key[0] not in ("media-vocation",):
                fill = piece_colour(self.entry.colours[value])
                made.fill, made.chosen_fill, made.ring = fill, fill, True
                made.color = ink_on(fill)
            elif chosen:
                made.color = theme.INK
            grid.add_widget(made)
        box.add_widget(grid)
        return box

    def _order(self, row) -> BoxLayout:
        box = BoxLayout(orientation="vertical", size_hint_y=None, height=theme.scaled(54) * 2)
        box.add_widget(_label(row.label))
        line = self._line()
        box.add_widget(line)
        for place, seat in enumerate(self.entry.value(row.key), start=1):
            fill = piece_colour(self.entry.colours[seat])
            line.add_widget(self._button(f"{ordinal(place)} {self.entry.names[seat]}", (row.key, seat),
                                         lambda p=seat: self.entry.move_up(p), fill=fill, color=ink_on(fill)))
        return box
