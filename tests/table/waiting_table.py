"""A table as the app makes it beside games.db, keeping photos, and a camera roll entered on it
(tests of companion.waiting_rolls, in this process and in the app's)."""
from __future__ import annotations

from pathlib import Path

import companion.table.rolling_village  # noqa: F401  (registers the wiring)
from companion.checked_photos import CheckedPhotos, HeldPhotos
from companion.events import Command, InputEvent
from companion.pip_checks import PipChecks
from companion.table import Table
from companion.waiting_rolls import WaitingRolls
from vision.reader import DiceReading, DieRead

PHOTO = b"\xff\xd8 a frame \xff\xd9"


def reading(*faces_colours, photo=None) -> InputEvent:
    dice = tuple(DieRead(face, f"pip{face}", 0.99999, (10 + 50 * i, 10, 50 + 50 * i, 50), colour, False)
                 for i, (face, colour) in enumerate(faces_colours))
    return InputEvent("dice", DiceReading(dice, photo=photo), "camera")


def table_on(data: Path, store) -> Table:
    """The table as the app makes it beside games.db, keeping photos."""
    table = Table()
    table.pip_checks = PipChecks(data)
    table.pip_checks.photos = CheckedPhotos(data / "checked-photos")
    table.icon_photos = HeldPhotos(CheckedPhotos(data / "checked-icon-photos", icons=True))
    table.waiting = WaitingRolls(data)
    return table


def roll_once(table) -> None:
    """A roll read by the camera and entered: it waits, as no later roll has been entered."""
    table.handle(reading((4, "white"), (2, "red"), photo=PHOTO))
    table.handle(InputEvent.command(Command.CONFIRM, "gpio"))
    assert table.state.dice == (4, 2)
