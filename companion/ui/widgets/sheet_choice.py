"""Rolling Village set-up: which Village Sheet and Projects! legend to play with (the printed ones,
or a player's own files from the data folder; see docs/village-sheets.md)."""
from __future__ import annotations

from pathlib import Path

from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView

from companion.engine.rolling_village import SheetError

from .. import theme
from ..village_sheets import LEGENDS, SHEETS, Choice, choices, load_legend, load_sheet
from .common import TouchButton


def _wrapped(label: Label) -> Label:
    label.bind(size=lambda lab, size: setattr(lab, "text_size", size))
    return label


class SheetChoiceView(ModalView):
    """Full screen: the sheets on the left, the legends on the right, a note on what was picked.
    A file is checked as soon as it is tapped, so a mistake shows before Start."""

    def __init__(self, data_dir: Path, sheet: Choice, legend: Choice, on_done, **kwargs):
        super().__init__(size_hint=(1, 1), auto_dismiss=False, background_color=theme.BACKGROUND, **kwargs)
        self.on_done = on_done
        self.picked = {SHEETS: sheet, LEGENDS: legend}
        self.problems: dict[str, str] = {}
        self.buttons: dict[str, dict[str, TouchButton]] = {SHEETS: {}, LEGENDS: {}}
        s = theme.scaled
        root = BoxLayout(orientation="vertical", padding=s(8), spacing=s(6))
        top = BoxLayout(size_hint_y=None, height=s(52), spacing=s(8))
        top.add_widget(_wrapped(Label(text="Village Sheet and Projects! legend", bold=True, font_size=s(20),
                                      color=theme.ACCENT, halign="left", valign="middle")))
        self.done = TouchButton(text="Done", bold=True, fill=theme.CONFIRM, size_hint_x=None, width=s(120))
        self.done.bind(on_release=lambda *_: self.finish())
        top.add_widget(self.done)
        root.add_widget(top)
        body = BoxLayout(spacing=s(12))
        for folder, title in ((SHEETS, "Village Sheet"), (LEGENDS, "Projects! legend")):
            body.add_widget(self._column(data_dir, folder, title))
        root.add_widget(body)
        self.note = _wrapped(Label(font_size=s(16), color=theme.TEXT, size_hint_y=None, height=s(72),
                                   halign="left", valign="middle"))
        root.add_widget(self.note)
        self.add_widget(root)
        for folder, choice in self.picked.items():
            self.pick(folder, choice)

    def _column(self, data_dir: Path, folder: str, title: str) -> BoxLayout:
        s = theme.scaled
        column = BoxLayout(orientation="vertical", spacing=s(4))
        column.add_widget(Label(text=f"{title}  (from {folder}/)", font_size=s(16), color=theme.TEXT_DIM,
                                size_hint_y=None, height=s(26)))
        items = BoxLayout(orientation="vertical", spacing=s(4), size_hint_y=None)
        items.bind(minimum_height=items.setter("height"))
        for choice in choices(data_dir, folder):
            button = TouchButton(text=choice.title, font_size=s(16), margin=s(8), size_hint_y=None, height=s(52))
            button.bind(on_release=lambda _b, f=folder, c=choice: self.pick(f, c))
            items.add_widget(button)
            self.buttons[folder][choice.title] = button
        scroll = ScrollView(do_scroll_x=False)
        scroll.add_widget(items)
        column.add_widget(scroll)
        return column

    def pick(self, folder: str, choice: Choice) -> None:
        """Choose `choice` and check its file now; a bad one stays chosen, with its error shown,
        and Start refuses it (the player may be about to fix the file)."""
        self.picked[folder] = choice
        self.problems.pop(folder, None)
        if choice.path is not None:
            try:
                (load_sheet if folder == SHEETS else load_legend)(choice.path)
            except SheetError as exc:
                self.problems[folder] = str(exc)
        for title, button in self.buttons[folder].items():
            button.chosen = title == choice.title
            button.color = theme.INK if button.chosen else theme.TEXT
        self._note()

    def _note(self) -> None:
        if self.problems:
            self.note.text = "\n".join(self.problems.values())
            self.note.color = (1, 0.62, 0.58, 1)  # theme.ERROR is a fill: too dark as text here
        else:
            sheet, legend = self.picked[SHEETS], self.picked[LEGENDS]
            self.note.text = f"Playing with: {sheet.title}; {legend.title}."
            self.note.color = theme.TEXT

    def problem(self) -> str | None:
        return "\n".join(self.problems.values()) or None

    def finish(self) -> None:
        self.dismiss()
        self.on_done(self.picked[SHEETS], self.picked[LEGENDS], self.problem())
