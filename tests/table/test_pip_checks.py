"""The camera's pip reads as the players checked them (companion.pip_checks): what each roll adds
to the table's checked reads, and the threshold they earn. A real Table and Session (Rolling
Village, Civility), the real files beside the data directory, the shipped model's identity."""
from __future__ import annotations

import shutil
from dataclasses import replace

import cv2
import numpy as np
import pytest

import companion.table.civility  # noqa: F401  (registers the wiring)
import companion.table.rolling_village  # noqa: F401
from companion.events import Command, InputEvent
from companion.pending_rolls import entered_dice
from companion.pip_checks import EARNED, LOST, PipChecks, judged
from companion.session import Session
from companion.table import Table
from vision.earned import CheckedRead, CheckedReads
from vision.reader import DiceReading, DieRead
from vision.reader_files import reader_identity

SURE = 0.99999   # above every rung and the shipped ask_below


def die(face: int, confidence: float = SURE, uncertain: bool = False) -> DieRead:
    return DieRead(face, f"pip{face}", confidence, (10, 10, 50, 50), "white", uncertain)


def reading(*dice: DieRead) -> InputEvent:
    return InputEvent("dice", DiceReading(tuple(dice)), "camera")


@pytest.fixture
def table(tmp_path):
    t = Table()
    t.pip_checks = PipChecks(tmp_path)
    t.open(Session.new("rolling-village", ["Ann", "Bo"]))
    t.dice_reader = lambda: None
    return t


def kept(table) -> list[CheckedRead]:
    return CheckedReads(table.pip_checks.checked.path).records()


def confirm(table):
    return table.handle(InputEvent.command(Command.CONFIRM, "gpio"))


def build_to_next_roll(table):
    """Each player builds the advised square: the game waits for dice again (a building roll,
    or the scoring roll)."""
    while table.state.phase == "build":
        assert confirm(table).rejected is None   # first press: the advice
        confirm(table)                           # second: builds it
    assert table.state.phase in ("roll", "activate")


def test_a_face_read_twice_and_entered_once_counts_the_surer_read_wrong():
    got = judged(((5, 0.9999), (5, 0.999)), (6, 5))
    assert [(r.score, r.right, r.read, r.face) for r in got] == [(0.9999, False, "pip5", "pip6"),
                                                                 (0.999, True, "pip5", "pip5")]
    assert all(r.margin is None for r in got)
    assert [r.right for r in judged(((3, 0.9), (5, 0.8)), (5, 3))] == [True, True]   # any order


def test_the_dice_of_a_chance_entry():
    from companion.engine.civility import actions as civ
    from companion.engine.rolling_village import Activate, Roll

    assert entered_dice(Roll((3, 4))) == (3, 4)
    assert entered_dice(Activate((6, 6))) == (6, 6)
    assert entered_dice(civ.BattleRoll("Ann", 5)) == (5,)
    assert entered_dice(object()) is None


def test_a_sure_roll_let_stand_is_kept_right_once_the_next_roll_is_entered(table):
    table.handle(reading(die(4), die(2)))
    confirm(table)
    assert table.state.phase == "build" and table.state.dice == (4, 2)
    assert kept(table) == []                  # it could still be corrected while building
    build_to_next_roll(table)
    table.handle(reading(die(1), die(6)))
    assert kept(table) == []
    confirm(table)                            # the next roll entered: the first can no longer change
    assert [(r.score, r.right, r.read, r.face) for r in kept(table)] == [(SURE, True, "pip4", "pip4"),
                                                                         (SURE, True, "pip2", "pip2")]
    table.close()                             # the game set aside: the open roll is judged too
    assert [r.read for r in kept(table)] == ["pip4", "pip2", "pip1", "pip6"]


def test_a_roll_corrected_while_building_counts_the_sure_misread(table):
    table.handle(reading(die(4), die(2, 0.9996)))
    confirm(table)
    table.handle(InputEvent("tap", ("correct",), "touch"))
    assert table.draft.correcting
    table.handle(reading(die(4), die(3)))      # read again while correcting: the same roll
    outcome = confirm(table)
    assert outcome.rejected is None and table.state.dice == (4, 3)
    table.close()
    got = [(r.score, r.right, r.read, r.face) for r in kept(table)]
    assert got == [(SURE, True, "pip4", "pip4"), (0.9996, False, "pip2", "pip3"),   # the first reading
                   (SURE, True, "pip4", "pip4"), (SURE, True, "pip3", "pip3")]      # the second


def test_the_check_dialog_keeps_the_camera_s_own_confidence_of_a_corrected_die(table):
    table.handle(reading(die(4, 0.55, True), die(2)))
    assert table.dice_check is not None
    table.handle(InputEvent("tap", ("correct_die", 0, 5), "touch"))
    confirm(table)
    confirm(table)
    assert table.state.dice == (5, 2)
    table.close()
    assert [(r.score, r.right, r.read, r.face) for r in kept(table)] == [(0.55, False, "pip4", "pip5"),
                                                                         (SURE, True, "pip2", "pip2")]


def test_a_die_corrected_in_the_check_is_the_misread_even_beside_a_sure_die_read_the_same(table):
    # Both dice read 5; the unsure one was a 6. Face for face alone, the cautious match would call
    # the sure die the misread; the check says which die the players corrected.
    table.handle(reading(die(5), die(5, 0.55, True)))
    table.handle(InputEvent("tap", ("correct_die", 1, 6), "touch"))
    confirm(table)
    confirm(table)
    assert table.state.dice == (5, 6)
    table.close()
    assert [(r.score, r.right, r.face) for r in kept(table)] == [(SURE, True, "pip5"), (0.55, False, "pip6")]
    assert [r.right for r in judged(((5, SURE), (5, 0.55)), (5, 6))] == [False, True]   # without the check


def test_a_die_tapped_before_the_roll_is_confirmed_counts_as_corrected(table):
    table.handle(reading(die(4), die(2)))
    assert table.draft.dice == (4, 2)
    table.handle(InputEvent("key", "backspace", "keyboard"))   # clear, then the dice by hand
    table.handle(InputEvent("key", "4", "keyboard"))
    table.handle(InputEvent("key", "6", "keyboard"))
    confirm(table)
    assert table.state.dice == (4, 6)
    table.close()
    assert [r.right for r in kept(table)] == [True, False]


def test_rolls_with_nothing_to_compare_are_left_out(table):
    table.handle(reading(die(1), die(2), die(3)))   # three dice for a game of two: refused
    table.handle(reading(die(5), die(5)))           # replaced before anything was entered
    table.handle(reading(die(3), die(4)))
    confirm(table)
    table.handle(InputEvent.command(Command.UNDO, "gpio"))   # taken back, never entered again
    assert table.session.actions == ()
    table.close()
    assert kept(table) == [] and not table.pip_checks.checked.path.exists()


def test_civility_s_rolls_are_checked_without_a_dialog(tmp_path):
    from companion.engine.civility import actions as civ
    from companion.table.civility import dice_wanted

    table = Table()
    table.pip_checks = PipChecks(tmp_path)
    session = Session.new("civility", ["Ann", "Bo", "Cy"], {"cities": ["Medieval", "Modern", "Thief"]})
    assert session.submit(civ.RevealStatus("Trade in 5 Economy and 1 Government", "city")).ok
    table.open(session)
    assert dice_wanted(table.state) == (2, "Ann")
    table.handle(reading(die(5, 0.9), die(3)))   # unsure, yet Civility shows it on its own screen
    assert table.dice_check is None
    table.handle(InputEvent("key", "backspace", "keyboard"))
    table.handle(InputEvent("key", "6", "keyboard"))
    table.handle(InputEvent("key", "3", "keyboard"))
    confirm(table)
    assert table.session.actions[-1] == civ.Roll((3, 6))
    table.close()
    assert [(r.score, r.right, r.face) for r in kept(table)] == [(0.9, False, "pip6"), (SURE, True, "pip3")]


def fill(checks: PipChecks, right: int, score: float = SURE) -> None:
    checks.checked.add([CheckedRead(score, None, True, "pip3", "pip3")] * right)


def test_a_table_earns_fewer_questions_and_loses_them_after_a_sure_misread(table):
    checks = table.pip_checks
    fill(checks, 596)
    assert checks.ask_below() is None and checks.asking().step == 0   # the reader's own
    table.handle(reading(die(4), die(2)))
    confirm(table)
    build_to_next_roll(table)
    table.handle(reading(die(1), die(6)))
    confirm(table)                            # 598 checked reads, none wrong
    assert table.message == f"Building Phase, roll 1 + 6: each player builds. {EARNED}"
    assert checks.ask_below() == 0.99 and checks.asking().step == 5
    assert "0.99, step 5" in checks.asking().describe()
    table.handle(InputEvent("tap", ("correct",), "touch"))
    table.handle(InputEvent("key", "1", "keyboard"))
    table.handle(InputEvent("key", "5", "keyboard"))
    assert confirm(table).rejected is None                        # the 6 was a 5
    build_to_next_roll(table)
    table.handle(reading(die(2), die(2)))
    confirm(table)
    assert LOST in table.message and checks.ask_below() is None  # one sure misread: back to its own


def test_an_unreadable_file_costs_the_looser_threshold_never_the_roll(table):
    path = table.pip_checks.checked.path
    path.parent.mkdir(parents=True)
    path.write_text("score,margin,right,read,face\nnot a number,,1,pip3,pip3\n")
    table.handle(reading(die(4), die(2)))
    confirm(table)
    assert table.state.dice == (4, 2)
    build_to_next_roll(table)
    table.handle(reading(die(1), die(6)))
    confirm(table)
    assert table.state.dice == (1, 6)
    assert "line 2" in table.pip_checks.problem and "score" in table.pip_checks.problem
    assert table.pip_checks.ask_below() is None
    assert path.read_text().count("\n") == 2                      # the file is left as it was


def test_another_reader_keeps_its_own_checked_reads(tmp_path):
    from vision.model import DEFAULT_DETECTOR, detector_files

    shipped = reader_identity()
    copy = tmp_path / "models"
    copy.mkdir()
    for file in [*detector_files(), DEFAULT_DETECTOR.with_suffix(".json")]:
        shutil.copy(file, copy / file.name)
    detector = copy / DEFAULT_DETECTOR.name
    assert reader_identity(detector) == shipped                   # the same bytes: the same reader
    meta = detector.with_suffix(".json")
    meta.write_text(meta.read_text().replace('"ask_below": 0.9997488114', '"ask_below": 0.999'))
    other = reader_identity(detector)
    assert other.name != shipped.name and other.ask_below == 0.999
    ours, theirs = PipChecks(tmp_path / "data"), PipChecks(tmp_path / "data", str(detector))
    assert ours.checked.path != theirs.checked.path
    assert theirs.asking().ask_below == 0.999                     # rungs at or above its own skipped
    fill(theirs, 600)
    assert theirs.asking().step == 3 and theirs.ask_below() == 0.99   # 0.998, 0.995, 0.99: 3 rungs


def test_a_reader_whose_json_does_not_let_tables_earn_keeps_its_own_threshold(tmp_path):
    from vision.model import DEFAULT_DETECTOR, detector_files

    copy = tmp_path / "models"
    copy.mkdir()
    for file in [*detector_files(), DEFAULT_DETECTOR.with_suffix(".json")]:
        shutil.copy(file, copy / file.name)
    meta = (copy / DEFAULT_DETECTOR.name).with_suffix(".json")
    shipped = meta.read_text()
    assert '"earn_ask_below": true' in shipped                    # round 54 shipped it
    meta.write_text(shipped.replace('"earn_ask_below": true', '"earn_ask_below": false'))
    checks = PipChecks(tmp_path / "data", str(copy / DEFAULT_DETECTOR.name))
    fill(checks, 600)
    assert checks.asking().step == 5 and checks.ask_below() is None   # kept, not used
    meta.write_text(shipped.replace('"earn_ask_below": true', '"earn_ask_below": "yes"'))
    with pytest.raises(ValueError, match="earn_ask_below must be true or false, not 'yes'"):
        reader_identity(copy / DEFAULT_DETECTOR.name)


def test_what_the_players_are_told_of_the_camera_s_asking(tmp_path):
    checks = PipChecks(tmp_path)
    assert checks.said() == ("The camera asks about every die it is not sure of. 0 dice checked at this table so "
                             "far: after about 598 more read right, it asks about fewer.")
    fill(checks, 600)
    assert checks.said().startswith("This table's dice have been read right often enough (600 checked)")
    checks.checked.add([CheckedRead(SURE, None, False, "pip3", "pip5")] * 2)
    assert checks.said().startswith("The camera misread some of this table's dice lately")
    checks.checked.path.write_text("score,margin,right,read,face\nx,,1,pip3,pip3\n")
    assert PipChecks(tmp_path).said() == ""                        # unreadable: nothing said, nothing broken


def test_a_table_that_keeps_photos_keeps_each_checked_roll_labelled_as_entered(table, tmp_path):
    from companion.checked_photos import CheckedPhotos
    from companion.photos_to_box import PhotosToBox
    from vision.realdata import photos

    photo = cv2.imencode(".jpg", np.full((240, 320, 3), 70, np.uint8))[1].tobytes()
    table.pip_checks.photos = CheckedPhotos(tmp_path / "checked-photos")
    table.pip_checks.to_box = to_box = PhotosToBox(tmp_path / "checked-photos" / "to-box")

    def with_photo(*dice):
        event = reading(*dice)
        return InputEvent("dice", replace(event.value, photo=photo), "camera")

    first, second = die(4), replace(die(2), box=(60, 10, 100, 50))
    table.handle(with_photo(first, second))
    confirm(table)
    table.handle(InputEvent("tap", ("correct",), "touch"))    # the 2 was a 3: corrected by hand
    table.handle(InputEvent("key", "4", "keyboard"))
    table.handle(InputEvent("key", "3", "keyboard"))
    assert confirm(table).rejected is None
    build_to_next_roll(table)
    table.handle(with_photo(die(6)))                            # a die missed: no label can be guessed
    table.handle(InputEvent("key", "6", "keyboard"))
    table.handle(InputEvent("key", "1", "keyboard"))
    confirm(table)
    table.close()
    shots = photos("checked-photos", "all", root=tmp_path)
    assert [s.dice for s in shots] == [((4, (10.0, 10.0, 50.0, 50.0)), (3, (60.0, 10.0, 100.0, 50.0)))]
    assert shots[0].path.read_bytes() == photo
    # The roll the camera boxed wrongly waits for a person's boxes, with what was entered and read.
    (name,) = to_box.waiting()
    assert to_box.entries()[name] == {"entered": [6, 1], "camera": [{"face": 6, "box": [10.0, 10.0, 50.0, 50.0]}]}
    assert to_box.photo(name) == photo


def test_a_box_on_no_die_is_dropped_in_the_check_and_the_roll_kept_whole(table, tmp_path):
    from companion.checked_photos import CheckedPhotos
    from companion.photos_to_box import PhotosToBox
    from vision.realdata import photos

    photo = cv2.imencode(".jpg", np.full((240, 320, 3), 70, np.uint8))[1].tobytes()
    table.pip_checks.photos = CheckedPhotos(tmp_path / "checked-photos")
    table.pip_checks.to_box = PhotosToBox(tmp_path / "checked-photos" / "to-box")
    stray = replace(die(5), box=(200, 150, 240, 190))           # read surely, on a shadow
    dice = (die(4), stray, replace(die(2), box=(60, 10, 100, 50)))
    outcome = table.handle(InputEvent("dice", DiceReading(dice, photo=photo), "camera"))
    assert table.dice_check is not None                          # sure dice, but one more than are rolled
    assert outcome.info.startswith("The camera saw 3 dice, and 2 are rolled: tap Not a die")
    assert table.handle(InputEvent("tap", ("drop_die", 7), "touch")).info == "There is no die 7 to drop."
    table.handle(InputEvent("tap", ("drop_die", 1), "touch"))
    assert table.dice_check.faces == (4, 2)
    confirm(table)                                               # the check: the dice go to the roll
    assert confirm(table).rejected is None and table.state.dice == (4, 2)
    table.close()
    assert [(r.read, r.face, r.right) for r in kept(table)] == [("pip4", "pip4", True), ("pip2", "pip2", True)]
    (shot,) = photos("checked-photos", "all", root=tmp_path)
    assert shot.dice == ((4, (10.0, 10.0, 50.0, 50.0)), (2, (60.0, 10.0, 100.0, 50.0)))
    assert table.pip_checks.to_box.count() == 0


def test_the_last_die_is_not_dropped(table):
    table.handle(reading(die(4, 0.5, uncertain=True)))
    assert table.handle(InputEvent("tap", ("drop_die", 0), "touch")).info.startswith("The last die cannot be dropped")
    assert len(table.dice_check.dice) == 1
