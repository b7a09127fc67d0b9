"""Teach the camera: the table shows the camera its Centerville dice, a die at a time.

The table rolls the dice into the tray; each settled reading's dice are shown one by one (its
picture, the colour and the face the camera reads); the player taps the face the die shows, or
confirms the camera's guess, and that picture becomes a taught example of that face. One picture
per face is enough to start (issue 15), so the lesson says which faces are still missing. A die
whose colour the camera got wrong is put right by tapping its colour first.

While a lesson is open (`table.teaching`), dice readings, the read-dice command, confirm and the
lesson's own taps are the lesson's (the game behind it, if any, is left as it is). No Kivy here.
"""
from __future__ import annotations

from companion.engine.centerville.dice import COLOURS
from companion.events import Command
from companion.taught_dice import faces_of

from .draft import Outcome


def die_colour(die) -> str | None:
    """The Centerville colour of a read die: its measured colour, else its face label's."""
    colour = getattr(die, "color", None)
    if colour in COLOURS:
        return colour
    label = str(getattr(die, "label", "") or "")
    head = label.partition("-")[0]
    return head if head in COLOURS else None


def die_label(die, colour: str | None) -> str | None:
    """The face the camera read, if it is a face of a die of `colour`."""
    label = getattr(die, "label", None)
    return label if colour is not None and label in faces_of(colour) else None


class Teaching:
    """One lesson: the reading being gone through, the die shown, what was taught so far."""

    def __init__(self, taught):
        self.taught = taught          # companion.taught_dice.TaughtDice
        self.reading = None
        self.index = 0
        self.colour: str | None = None  # the shown die's colour (the camera's, or the player's)
        self.learned: list[str] = []    # faces taught in this lesson, in order

    # -- what the view shows ----------------------------------------------------------------
    @property
    def die(self):
        """The die shown now (a vision DieRead), or None between readings."""
        if self.reading is None or self.index >= len(self.reading.dice):
            return None
        return self.reading.dice[self.index]

    @property
    def count(self) -> int:
        return 0 if self.reading is None else len(self.reading.dice)

    def guess(self) -> str | None:
        """The face the camera reads on the shown die (one of its colour's faces), if any."""
        die = self.die
        return None if die is None else die_label(die, self.colour)

    def choices(self) -> tuple[str, ...]:
        """The faces to tap for the shown die: its colour's."""
        return faces_of(self.colour) if self.die is not None and self.colour else ()

    # -- what happens --------------------------------------------------------------------------
    def handle(self, table, event) -> Outcome | None:
        """The lesson's meaning of `event`; None for an event that is not the lesson's."""
        if event.kind == "dice":
            table.reading = False
            return Outcome(info=self.on_reading(event.value))
        if event.kind == "command":
            if event.value in (Command.READ_DICE, Command.READ_DICE.value):
                return table.read_dice()
            if event.value in (Command.CONFIRM, Command.CONFIRM.value):
                return Outcome(info=self.confirm())
            return None
        value = event.value if isinstance(event.value, (tuple, list)) else (event.value,)
        if event.kind != "tap" or not value or not str(value[0]).startswith("teach"):
            return None
        kind, args = value[0], tuple(value[1:])
        handlers = {"teach": self.teach, "teach_colour": self.choose_colour,
                    "teach_skip": self.skip, "teach_clear": self.clear}
        if kind not in handlers:
            return Outcome(info=f'"{kind}" is not part of teaching the camera.')
        try:
            return Outcome(info=handlers[kind](*args))
        except TypeError:
            return Outcome(info=f"{tuple(value)!r} is not a complete instruction; nothing changed.")

    def on_reading(self, reading) -> str:
        dice = tuple(getattr(reading, "dice", ()) or ())
        if not dice:
            self.reading = None
            return "The camera found no dice: roll them into the tray, then read the dice."
        self.reading, self.index = reading, 0
        self._show()
        return f"The camera found {len(dice)} {'die' if len(dice) == 1 else 'dice'}: " \
               "tap the face each one shows."

    def _show(self) -> None:
        die = self.die
        self.colour = None if die is None else die_colour(die)

    def choose_colour(self, colour: str) -> str:
        if colour not in COLOURS:
            return f'"{colour}" is not a Centerville die colour ({", ".join(COLOURS)}).'
        if self.die is None:
            return "Read the dice first."
        self.colour = colour
        return f"The {colour} die: tap the face it shows."

    def teach(self, label: str) -> str:
        """The shown die shows `label`: its picture is taught, and the next die is shown."""
        die = self.die
        if die is None:
            return "Read the dice first: there is no die to teach."
        if label not in self.choices():
            return f'"{label}" is not a face of the {self.colour or "unknown"} die.'
        if getattr(die, "crop", None) is None:
            return "The camera kept no picture of this die: read the dice again."
        self.taught.add(label, die.crop)
        self.learned.append(label)
        self.index += 1
        self._show()
        return f"Taught: {label.replace('-', ' ')}." + ("" if self.die is not None else self._after_roll())

    def confirm(self) -> str:
        """Confirm: the camera's guess for the shown die is right."""
        guess = self.guess()
        if guess is None:
            return "Tap the face the die shows (the camera has no guess for it)."
        return self.teach(guess)

    def skip(self) -> str:
        if self.die is None:
            return "No die to skip."
        self.index += 1
        self._show()
        return "Skipped." + ("" if self.die is not None else self._after_roll())

    def clear(self) -> str:
        self.taught.clear()
        self.learned = []
        return "Every taught face is forgotten: teach the camera again before it reads the dice."

    def _after_roll(self) -> str:
        self.reading = None
        left = sum(len(faces) for faces in self.taught.missing().values())
        if not left:
            return " Every face is taught: roll again to teach more, or Done."
        return f" {left} {'face' if left == 1 else 'faces'} still to teach: roll again and read the dice."
