"""The app with the dice camera attached (the simulator and an image file as cameras, the real
model): a settled roll fills the two dice; an unsure reading opens the dice check; a lost
camera turns into manual entry and comes back.

One Kivy app for the module (Kivy's window is one per process); each test starts a new game
and attaches its own camera.
"""
from __future__ import annotations

import pytest

from .app_driver import Driver, until  # sets Kivy's environment before kivy is imported

import cv2  # noqa: E402

from companion.dice_camera import DiceCamera  # noqa: E402
from companion.events import Command, InputEvent, TableLight  # noqa: E402
from companion.peripherals import attach  # noqa: E402
from hardware.config import parse_config  # noqa: E402

pytestmark = pytest.mark.ui

# No GPIO and no panel here (tests/e2e/test_buttons_game.py has them): only the camera.
CONFIG = parse_config({"gpio": {"enabled": False}})


@pytest.fixture(scope="module")
def drv(tmp_path_factory):
    driver = Driver(tmp_path_factory.mktemp("data"))
    yield driver
    driver.close()


@pytest.fixture
def game(drv):
    assert drv.app.start_game("rolling-village", ["Ann", "Bo"])
    drv.frames(2)
    yield drv
    drv.app.go_home()
    drv.frames(1)


def with_camera(drv, camera: DiceCamera):
    attached = attach(drv.table, CONFIG, camera=camera)
    until(drv, lambda: drv.table.camera_status == "connected", what="the camera")
    return attached


def press_read_dice(drv):
    drv.table.post(InputEvent("key", "r", "keyboard"))   # the read-dice key, as a button would
    drv.frames(1)


def test_a_settled_roll_fills_the_two_dice(game):
    drv = game
    lights = []
    drv.table.on_light(lights.append)
    # Noise-free frames: which frame settles depends on the machine's load, and on some noisy
    # frames of this tray the detector boxes a faint ghost die (confidence 0.47, so it is asked),
    # which opens the dice check this test is not about (the next test is).
    camera = DiceCamera("sim:?seed=21&noise=0", drv.table.post)
    with with_camera(drv, camera):
        screen = drv.screen
        assert screen.ids.tray.opacity == 1   # the live view sits beside the dice
        press_read_dice(drv)
        assert drv.table.light is TableLight.READING
        until(drv, lambda: len(drv.table.draft.dice) == 2, what="the camera's dice")
        truth = sorted(d.face for d in camera.source.tray.truth)
        assert sorted(drv.table.draft.dice) == truth
        assert (screen.ids.first.value, screen.ids.second.value) == drv.table.draft.dice
        assert drv.table.light is TableLight.NEEDS_CONFIRMATION
        until(drv, lambda: screen.ids.tray.frame_index >= 0, what="the live view")
        drv.screenshot("village-camera")
        from layout_check import problems   # tests/ui, put on the path by app_driver

        assert not problems(drv.app.root, drv.window)
        drv.tap(screen.ids.confirm)
        assert drv.table.state.phase == "build"
        assert sorted(drv.table.state.dice) == truth
    assert lights[:2] == [TableLight.READING, TableLight.NEEDS_CONFIRMATION]


def test_an_unsure_reading_opens_the_check_and_a_correction_becomes_the_dice(game):
    from vision.reader import DiceReader
    from vision.settle import SettledReader

    drv = game
    drv.table.pip_checks.checked.clear()   # the earlier tests' rolls
    # A threshold no die reaches: every die is "unsure", so the players are asked.
    camera = DiceCamera("sim:?seed=7", drv.table.post,
                        make_reader=lambda: SettledReader(DiceReader(threshold=1.0)))
    with with_camera(drv, camera):
        press_read_dice(drv)
        check = drv.screen.dice_check
        until(drv, lambda: check.showing, what="the dice check")
        assert drv.table.draft.dice == ()          # nothing entered before the players look
        assert drv.table.light is TableLight.NEEDS_CONFIRMATION
        assert len(check.rows) == 2
        read = tuple((d.face, d.confidence) for d in drv.table.dice_check.dice)
        for row, die in zip(check.rows, drv.table.dice_check.dice):
            assert row.ids.crop.texture is not None and row.ids.crop.texture.size == (48, 48)
            assert row.uncertain and f"read {die.face}" in row.ids.read.text
        # The first die corrected to a 6, the second to a 1 (whatever the camera said).
        drv.tap(check.rows[0].faces[5])
        drv.tap(check.rows[1].faces[0])
        drv.screenshot("village-dice-check")
        from layout_check import problems

        assert not problems(check, drv.window)
        assert check.rows[0].faces[5].marked and not check.rows[1].uncertain
        drv.tap(check.ids.confirm)
        assert drv.table.draft.dice == (6, 1)
        assert not check.showing and drv.table.dice_check is None
        assert (drv.screen.ids.first.value, drv.screen.ids.second.value) == (6, 1)
        drv.tap(drv.screen.ids.confirm)
        assert drv.table.state.dice == (6, 1)
    # The game set aside: the roll is final, and the camera's reads are kept as the players checked
    # them, each die with the confidence the camera read it at (companion.pip_checks).
    drv.app.go_home()
    from companion.pip_checks import judged

    checked = drv.table.pip_checks.checked
    assert checked.records() == judged(read, (6, 1), (6, 1)) and checked.path.is_file()
    assert [r.face for r in checked.records()] == ["pip6", "pip1"]   # die by die, as the check said
    checked.clear()


def test_a_lost_camera_turns_into_manual_entry_and_comes_back(game, tmp_path):
    from vision.sim import SimulatedTray

    drv = game
    tray = SimulatedTray(seed=3, noise=0.0)
    tray.roll()
    still = tray.next_frame()[0]
    for _ in range(20):
        still = tray.next_frame()[0]               # past the tumbling: the dice at rest
    picture = tmp_path / "tray.png"
    assert cv2.imwrite(str(picture), still)
    camera = DiceCamera(f"file:{picture}", drv.table.post, backoff=(0.1, 0.4))
    with with_camera(drv, camera):
        until(drv, lambda: len(drv.table.draft.dice) == 2, what="the still tray read")
        drv.tap(drv.screen.ids.clear_dice)
        picture.rename(tmp_path / "away.png")      # the camera is unplugged
        until(drv, lambda: drv.table.camera_status == "unavailable", what="the camera to be missed")
        screen = drv.screen
        assert "Camera unavailable: enter the dice by hand." in screen.ids.explain.text
        assert drv.table.message_is_error and "enter the dice by hand" in drv.table.message
        assert "unavailable" in screen.ids.tray.note
        drv.screenshot("village-camera-lost")
        press_read_dice(drv)
        assert "unavailable" in drv.table.message and drv.table.light is not TableLight.READING
        drv.tap(screen.pad[2])
        assert drv.table.draft.dice == (3,)        # entered by hand meanwhile
        (tmp_path / "away.png").rename(picture)    # plugged back in
        until(drv, lambda: drv.table.camera_status == "connected", what="the camera to come back")
        assert drv.table.message == "The dice camera is back."
        assert "Camera unavailable" not in screen.ids.explain.text
        press_read_dice(drv)
        until(drv, lambda: drv.table.draft.dice != (3,), what="a fresh reading")
        assert sorted(drv.table.draft.dice) == sorted(d.face for d in tray.truth)


def test_a_table_that_earned_fewer_questions_reads_by_its_earned_threshold(game):
    from vision.earned import CheckedRead
    from vision.reader import DiceReader
    from vision.settle import SettledReader

    drv = game
    checked = drv.table.pip_checks.checked
    checked.clear()
    readers = []

    def reader():
        readers.append(DiceReader())
        return SettledReader(readers[-1])

    camera = DiceCamera("sim:?seed=21&noise=0", drv.table.post, make_reader=reader)
    try:
        checked.add([CheckedRead(0.99999, None, True, "pip3", "pip3")] * 598)   # none read wrong
        with with_camera(drv, camera):
            until(drv, lambda: readers and readers[0].threshold == 0.99, what="the earned threshold")
            drv.tap(drv.screen.ids.camera_view)     # the tray's large view says why it asks less
            from kivy.uix.modalview import ModalView

            popup = next(w for w in drv.window.children if isinstance(w, ModalView))
            assert "read right often enough (598 checked)" in popup.asking.text
            popup.dismiss(animation=False)
            drv.frames(1)
            press_read_dice(drv)
            until(drv, lambda: len(drv.table.draft.dice) == 2, what="the camera's dice")
            drv.tap(drv.screen.ids.confirm)
            assert drv.table.state.phase == "build"
            # A sure die found misread while building: the roll corrected by tap, then the next roll.
            truth = drv.table.state.dice
            wrong = (truth[0] % 6 + 1, truth[1])
            drv.table.post(InputEvent("tap", ("correct",), "touch"))
            drv.frames(1)
            drv.tap(drv.screen.pad[wrong[0] - 1])
            drv.tap(drv.screen.pad[wrong[1] - 1])
            drv.tap(drv.screen.ids.confirm)
            assert drv.table.state.dice == wrong
        drv.app.go_home()
        records = checked.records()
        assert len(records) == 600 and [r.right for r in records[-2:]] == [False, True]
        assert drv.table.pip_checks.ask_below() is None          # a sure misread: the reader's own again
    finally:
        checked.clear()


def test_a_table_that_keeps_photos_keeps_each_roll_it_entered_with_its_faces(drv):
    # [camera] keep_photos = true: the roll's frame and the faces entered go to checked-photos.
    from vision.realdata import photos

    assert drv.app.start_game("rolling-village", ["Ann", "Bo"])
    drv.frames(2)
    camera = DiceCamera("sim:?seed=21&noise=0", drv.table.post, keep_photos=True)
    folder = drv.table.pip_checks.data_dir / "checked-photos"
    try:
        with attach(drv.table, parse_config({"gpio": {"enabled": False}, "camera": {"keep_photos": True}}),
                    camera=camera):
            until(drv, lambda: drv.table.camera_status == "connected", what="the camera")
            press_read_dice(drv)
            until(drv, lambda: len(drv.table.draft.dice) == 2, what="the camera's dice")
            truth = sorted(d.face for d in camera.source.tray.truth)
            drv.tap(drv.screen.ids.confirm)
            assert sorted(drv.table.state.dice) == truth
            assert not folder.exists()                 # it could still be corrected while building
            drv.app.go_home()                          # the game set aside: its roll is final
            drv.frames(1)
    finally:
        drv.table.pip_checks.photos = None             # the module's other tests keep none
    shots = photos("checked-photos", "all", root=folder.parent)
    assert len(shots) == 1 and sorted(face for face, _box in shots[0].dice) == truth
    assert cv2.imread(str(shots[0].path)).shape == (480, 640, 3)
