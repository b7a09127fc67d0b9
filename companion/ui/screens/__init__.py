"""One module and one .kv file per screen."""
from pathlib import Path

from kivy.app import App
from kivy.lang import Builder
from kivy.uix.screenmanager import Screen


def load_kv(module_file: str) -> None:
    """Load the .kv file next to a screen's module (once)."""
    path = str(Path(module_file).with_suffix(".kv"))
    if path not in Builder.files:
        Builder.load_file(path)


class TableScreen(Screen):
    """A screen drawn from the table's game: redrawn from it each time it comes to the front."""

    def on_pre_enter(self, *_args) -> None:
        table = App.get_running_app().table
        if table.session is not None:
            self.render(table)

    def render(self, table) -> None:
        """Draw everything from `table` (its session's state and the wiring's input in progress)."""


def undo_text(table) -> str:
    """The Undo button's words: what it would take back ("Undo\nAna's House"), on two lines."""
    words = table.undo_words()
    return f"Undo\n{words}" if words else "Undo"
