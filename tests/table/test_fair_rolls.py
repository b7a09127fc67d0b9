"""The camera's rolls in the fairness statistics (companion.table.fair_rolls): each roll once, with
the faces the game took. A real Table, Session and SQLite store, Rolling Village's dice."""
from __future__ import annotations

import pytest

import companion.table.rolling_village  # noqa: F401  (registers the wiring)
from companion.engine.centerville.actions import Roll as CentervilleRoll
from companion.engine.rolling_village import Build, Roll
from companion.events import Command, InputEvent
from companion.session import Session
from companion.store import Store
from companion.table import Table
from companion.table.fair_rolls import taken_dice
from vision.reader import DiceReading, DieRead


def die(face: int, colour: str) -> DieRead:
    return DieRead(face, f"pip{face}", 0.99999, (10, 10, 50, 50), colour, False)


def reading(*dice: DieRead) -> InputEvent:
    return InputEvent("dice", DiceReading(tuple(dice)), "camera")


def confirm(table):
    return table.handle(InputEvent.command(Command.CONFIRM, "gpio"))


def build_to_next_roll(table):
    while table.state.phase == "build":
        assert confirm(table).rejected is None   # first press: the advice
        confirm(table)                           # second: builds it
    assert table.state.phase in ("roll", "activate")


@pytest.fixture
def table(tmp_path):
    with Store.open(tmp_path / "games.db") as store:
        t = Table()
        t.open(Session.new("rolling-village", ["Ann", "Bo"], store=store))
        t.store = store
        yield t


def stored(table) -> list[tuple[str, str]]:
    return sorted(table.store.rows("SELECT die, face FROM rolls"))


def test_the_entry_s_faces_go_to_the_dice_read_with_them_first():
    assert taken_dice([("white", "4"), ("red", "2")], Roll((2, 4))) == [("red", "2"), ("white", "4")]
    # The red die was misread as 2 and entered as 3: the face left goes to the die left.
    assert taken_dice([("white", "4"), ("red", "2")], Roll((4, 3))) == [("white", "4"), ("red", "3")]
    # One die fewer read than entered: the face no read die had is of no known colour.
    assert taken_dice([("white", "4")], Roll((4, 3))) == [("white", "4"), ("unknown colour", "3")]
    assert taken_dice([("red", "6")], Build("Ann", "market", 0, 0)) == []     # no dice in it
    assert taken_dice([("Centerville red", "vote")], CentervilleRoll(("red-tree", "black-bench"))) == [
        ("Centerville red", "tree"), ("Centerville black", "bench")]      # each die names itself


def test_a_tray_read_again_before_the_roll_is_entered_counts_once(table):
    table.handle(reading(die(4, "white"), die(2, "red")))
    table.handle(reading(die(4, "white"), die(5, "red")))    # a die knocked: read again
    confirm(table)
    assert table.state.dice == (4, 5)
    build_to_next_roll(table)
    table.handle(reading(die(1, "white"), die(1, "red")))
    confirm(table)                   # the next roll entered: the first is final
    assert stored(table) == [("red", "5"), ("white", "4")]
    table.close()
    assert stored(table) == [("red", "1"), ("red", "5"), ("white", "1"), ("white", "4")]


@pytest.mark.parametrize("how, dice", [("read again", (4, 3)), ("by hand", (4, 6))])
def test_a_roll_corrected_while_building_counts_once_as_corrected(table, how, dice):
    table.handle(reading(die(4, "white"), die(2, "red")))
    confirm(table)
    table.handle(InputEvent("tap", ("correct",), "touch"))
    if how == "read again":                  # the camera reads the corrected tray: still one roll
        table.handle(reading(die(4, "white"), die(dice[1], "red")))
    else:
        for face in dice:
            table.handle(InputEvent("key", str(face), "keyboard"))
    assert confirm(table).rejected is None and table.state.dice == dice
    table.close()
    assert stored(table) == [("red", str(dice[1])), ("white", "4")]


def test_an_undone_roll_and_dice_read_while_none_are_awaited_are_not_counted(table):
    table.handle(reading(die(4, "white"), die(2, "red")))
    confirm(table)
    table.handle(reading(die(6, "white"), die(6, "red")))    # the tray read while building
    table.handle(InputEvent.command(Command.UNDO, "gpio"))   # the roll taken back
    assert table.state.phase == "roll"
    table.close()
    assert stored(table) == []


def test_the_app_closing_keeps_the_open_game_s_last_roll(table):
    table.handle(reading(die(3, "white"), die(3, "red")))
    confirm(table)
    table.settle_rolls()      # what companion.ui.app.run does when the app's window closes
    assert stored(table) == [("red", "3"), ("white", "3")]
    table.close()
    assert len(stored(table)) == 2
