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


UNDO_LINE = 17  # characters on the Undo button's second line (18 px text, 170 dp wide)


def undo_text(table) -> str:
    """The Undo button's words: what it would take back ("Undo\nAna's House"), on two lines:
    a longer phrase loses its player's name, then what follows its first clause."""
    words = table.undo_words()
    if len(words) > UNDO_LINE and "'s " in words:
        words = words.split("'s ", 1)[1]
    for cut in (":", ",", " (", " with ", " for ", " to "):
        if len(words) > UNDO_LINE:
            words = words.split(cut, 1)[0]
    if len(words) > UNDO_LINE:
        words = ""  # nothing shorter says it right: the banner said what the action was
    return f"Undo\n{words}" if words else "Undo"
