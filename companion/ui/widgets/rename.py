"""Renaming a player: one person under a new name, their past games still theirs."""
from __future__ import annotations

from kivy.factory import Factory
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from .. import theme
from .common import TouchButton


class RenameView(ModalView):
    """The name field at the top (above a docked keyboard), Rename and Cancel beside it.
    `on_rename(old, new)` returns None when done, else the sentence saying why not."""

    def __init__(self, name: str, on_rename, **kwargs):
        super().__init__(size_hint=(1, 1), auto_dismiss=False, background="",
                         background_color=theme.BACKGROUND, **kwargs)
        self.old, self.on_rename = name, on_rename
        box = BoxLayout(orientation="vertical", padding=theme.scaled(12), spacing=theme.scaled(8))
        title = Label(text=f"Rename {name}: their past games stay theirs", font_size=theme.scaled(20),
                      bold=True, color=theme.ACCENT, size_hint_y=None, height=theme.scaled(40),
                      halign="left", valign="middle")
        title.bind(size=lambda lab, size: setattr(lab, "text_size", size))
        box.add_widget(title)
        row = BoxLayout(size_hint_y=None, height=theme.scaled(56), spacing=theme.scaled(8))
        self.field = Factory.NameField(text=name)
        self.field.bind(on_text_validate=lambda *_: self.rename())
        row.add_widget(self.field)
        done = TouchButton(text="Rename", bold=True, fill=theme.CONFIRM, size_hint_x=None, width=theme.scaled(120))
        done.bind(on_release=lambda *_: self.rename())
        row.add_widget(done)
        cancel = TouchButton(text="Cancel", size_hint_x=None, width=theme.scaled(110))
        cancel.bind(on_release=lambda *_: self.dismiss())
        row.add_widget(cancel)
        box.add_widget(row)
        self.problem = Label(text="", font_size=theme.scaled(18), color=theme.TEXT, size_hint_y=None,
                             height=theme.scaled(56), halign="left", valign="top")
        self.problem.bind(size=lambda lab, size: setattr(lab, "text_size", size))
        box.add_widget(self.problem)
        box.add_widget(BoxLayout())
        self.add_widget(box)

    def rename(self) -> None:
        problem = self.on_rename(self.old, self.field.text)
        if problem:
            self.problem.text = problem  # said here, the dialog stays open with the name typed
        else:
            self.dismiss()
