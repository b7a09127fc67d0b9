"""The dice check: when the camera is unsure of a die, or boxed more dice than are rolled, each
die's crop is shown with the face read, 1-6 buttons to correct it and "Not a die" to drop a box on
something else; "Confirm dice" makes the (corrected) reading the dice of the draft. Opened and
closed from the table's `dice_check` (see `follow`); taps only post events.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
from kivy.app import App
from kivy.graphics.texture import Texture
from kivy.lang import Builder
from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.modalview import ModalView

from companion.events import Command

from .common import TouchButton  # noqa: F401  (used by dice_check.kv)
from .dice import DieFace

_KV = str(Path(__file__).with_suffix(".kv"))
if _KV not in Builder.files:
    Builder.load_file(_KV)


def crop_texture(crop: np.ndarray | None) -> Texture | None:
    """An RGB crop (rows top-down, as OpenCV gives them) as a Kivy texture (rows bottom-up)."""
    if crop is None or crop.ndim != 3 or crop.shape[2] != 3:
        return None
    rows = np.ascontiguousarray(crop[::-1], dtype=np.uint8)
    texture = Texture.create(size=(rows.shape[1], rows.shape[0]), colorfmt="rgb")
    texture.mag_filter = "nearest"   # a 48-pixel crop blown up: sharp pips, not mush
    texture.blit_buffer(rows.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
    return texture


class CheckedDie(BoxLayout):
    """One die of the reading: its crop, what was read, and the six faces to pick from."""

    uncertain = BooleanProperty(False)

    def __init__(self, index: int, post, **kwargs):
        super().__init__(**kwargs)
        self.index = index
        self.faces = []
        for value in range(1, 7):
            face = DieFace(value=value)
            face.bind(on_release=lambda _f, v=value: post("tap", ("correct_die", self.index, v)))
            self.ids.faces.add_widget(face)
            self.faces.append(face)
        self.ids.no_die.bind(on_release=lambda _b: post("tap", ("drop_die", self.index)))

    def show(self, die) -> None:
        self.uncertain = bool(die.uncertain)
        self.ids.crop.texture = crop_texture(die.crop)
        read = "?" if die.face is None else str(die.face)
        self.ids.read.text = (f"read {read}\n{die.confidence:.0%} sure" if die.uncertain
                              else f"{read}\nchecked" if die.confidence >= 1.0 else f"read {read}")
        for face in self.faces:
            face.marked = face.value == die.face


class DiceCheck(ModalView):
    """The confirm/correct dialog for a reading with uncertain dice."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.reading = None
        self.rows: list[CheckedDie] = []
        self.showing = False

    def post(self, kind: str, value) -> None:
        if kind == "command":
            value = Command(value)
        App.get_running_app().post(kind, value)

    def show(self, reading) -> None:
        """Show `reading` (a vision DiceReading); opens the dialog if it is closed."""
        dice = tuple(reading.dice)
        if len(self.rows) != len(dice):
            self.ids.dice.clear_widgets()
            self.rows = [CheckedDie(i, self.post) for i in range(len(dice))]
            for row in self.rows:
                self.ids.dice.add_widget(row)
        for row, die in zip(self.rows, dice):
            row.show(die)
        self.ids.confirm.disabled = any(d.face is None for d in dice)
        self.reading = reading
        if not self.showing:
            self.showing = True
            self.open(animation=False)

    def follow(self, table) -> None:
        """Open for the table's reading being checked; close once it is settled."""
        if table.dice_check is not None:
            self.show(table.dice_check)
        elif self.showing:
            self.showing, self.reading = False, None
            self.dismiss(animation=False)
