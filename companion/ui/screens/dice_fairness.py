"""Are our dice fair? One die at a time (each colour; each Centerville die): its faces as the
camera read them against a fair die's, and the chi-square test's verdict in words."""
from __future__ import annotations

from kivy.app import App
from kivy.uix.screenmanager import Screen

from companion.fairness import BIASED_BELOW, EXPECTED_PER_FACE, Verdict, verdicts

from .. import theme
from ..widgets.common import TouchButton
from .box_photos import count_to_box
from ..widgets.stats_charts import FaceCounts  # noqa: F401  (dice_fairness.kv)
from . import load_kv

load_kv(__file__)

HOW = (f"The camera keeps every die it reads. A verdict needs at least {EXPECTED_PER_FACE} expected "
       f"rolls of every face (30 for a six-sided die); a small bias shows only after hundreds. "
       f"A die is called biased when chance alone would give its counts less than "
       f"{BIASED_BELOW:.0%} of the time.")


class DiceFairnessScreen(Screen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.found: list[Verdict] = []
        self.die: str | None = None

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def refresh(self) -> None:
        app = App.get_running_app()
        self.found = verdicts(app.store)
        waiting = count_to_box(app)    # kept photos the camera boxed wrongly ([camera] keep_photos)
        self.ids.to_box.text = f"Photos to box: {waiting}" if waiting else ""
        if self.die not in {v.die for v in self.found}:
            self.die = self.found[0].die if self.found else None
        box = self.ids.dice
        box.clear_widgets()
        for v in self.found:
            button = TouchButton(text=f"{v.die}: {v.rolls}", chosen=v.die == self.die, size_hint_y=None,
                                 height=theme.scaled(56), color=theme.INK if v.die == self.die else theme.TEXT)
            button.bind(on_release=lambda _b, die=v.die: self.choose(die))
            box.add_widget(button)
        self._show()

    def choose(self, die: str) -> None:
        self.die = die
        self.refresh()

    def _show(self) -> None:
        verdict = next((v for v in self.found if v.die == self.die), None)
        if verdict is None:
            self.ids.verdict.text = "No dice read by the camera yet."
            self.ids.faces.show(None)
        else:
            self.ids.verdict.text = f"{verdict.die.capitalize()} die: {verdict.words}"
            self.ids.faces.show((verdict.counts, verdict.expected))
        self.ids.how.text = HOW
