"""The dice check on the real window with real touches: a box on no die dropped with "Not a die",
a misread die corrected, the roll confirmed (Rolling Village, its two dice)."""
from __future__ import annotations

import pytest

from companion.events import InputEvent
from vision.reader import DiceReading, DieRead

pytestmark = pytest.mark.ui


def test_a_box_on_no_die_is_dropped_and_the_roll_entered(drv):
    drv.app.go_setup(["Ana", "Ben"])
    setup = drv.screen
    setup.choose_game("rolling-village")
    drv.frames(2)
    setup.start()
    drv.frames(3)
    assert drv.table.session is not None and drv.table.state.phase == "roll", drv.table.message
    dice = (DieRead(4, "pip4", 0.99999, (10, 10, 50, 50), "white", False),
            DieRead(5, "pip5", 0.99999, (200, 150, 240, 190), "white", False),     # a shadow, read surely
            DieRead(1, "pip1", 0.55, (60, 10, 100, 50), "red", True))              # a 2 the camera was unsure of
    drv.table.post(InputEvent("dice", DiceReading(dice), "camera"))
    drv.frames(3)
    check = drv.screen.dice_check
    assert check.showing and len(check.rows) == 3
    assert drv.table.message.startswith("The camera saw 3 dice, and 2 are rolled")
    drv.tap(check.rows[1].ids.no_die)
    assert len(check.rows) == 2 and drv.table.dice_check.faces == (4, 1)
    drv.tap(check.rows[1].faces[1])                          # the unsure die shows a 2
    assert drv.table.dice_check.faces == (4, 2)
    drv.tap(check.ids.confirm)
    assert not check.showing and drv.table.draft.dice == (4, 2)
    drv.tap(drv.screen.ids.confirm)
    assert drv.table.state.dice == (4, 2), drv.table.message
