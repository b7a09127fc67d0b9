"""The dice camera thread without a window: what it posts when the camera or the model is
missing, when the camera comes back, and when asked to read an empty tray."""
from __future__ import annotations

import time

import cv2
import numpy as np
import pytest

from companion.dice_camera import CONNECTED, UNAVAILABLE, DiceCamera
from companion.events import EventQueue
from vision.sim import SimulatedTray

WAIT = 30.0


def next_event(events: EventQueue, kind: str):
    """The next event of `kind` (the camera may post others first)."""
    deadline = time.monotonic() + WAIT
    while True:
        event = events.get(timeout=max(0.0, deadline - time.monotonic()))
        if event.kind == kind:
            return event


def tray_picture(path, dice: int, seed: int = 3):
    tray = SimulatedTray(dice=dice, seed=seed, noise=0.0)
    if dice:
        tray.roll()
    for _ in range(20):
        image = tray.next_frame()[0]   # past the tumbling: the tray at rest
    assert cv2.imwrite(str(path), image)
    return tray


def test_a_missing_camera_means_manual_entry_until_it_is_plugged_in(tmp_path):
    picture = tmp_path / "camera.png"   # a still camera: the same picture on every read
    events = EventQueue()
    with_camera = DiceCamera(f"file:{picture}", events.put, backoff=(0.05, 0.2))
    try:
        with_camera.start()
        status = next_event(events, "status").value
        assert status["camera"] == UNAVAILABLE
        assert status["message"].startswith("Camera unavailable: enter the dice by hand.")
        assert str(picture) in status["message"]         # the reason, for whoever sets it up
        tray = tray_picture(tmp_path / "new.png", dice=2)
        (tmp_path / "new.png").rename(picture)           # whole, never half-written
        status = next_event(events, "status").value
        assert status == {"camera": CONNECTED, "message": "The dice camera is back."}
        reading = next_event(events, "dice").value
        assert sorted(reading.faces) == sorted(d.face for d in tray.truth)
    finally:
        with_camera.close()
    assert not with_camera._thread.is_alive()


def test_a_missing_model_says_so_and_never_retries(tmp_path):
    events = EventQueue()
    camera = DiceCamera("sim:", events.put, model=str(tmp_path / "nowhere.tflite")).start()
    status = next_event(events, "status").value
    camera.close()
    assert status["camera"] == UNAVAILABLE and "dice reader cannot start" in status["message"]
    assert "nowhere.tflite" in status["message"]
    assert camera.frames == 0


def test_reading_an_empty_tray_on_request_gives_no_dice(tmp_path):
    picture = tmp_path / "empty.png"
    tray_picture(picture, dice=0)
    events = EventQueue()
    camera = DiceCamera(f"file:{picture}", events.put).start()
    try:
        assert next_event(events, "status").value == {"camera": CONNECTED, "message": ""}
        camera.read_now()
        reading = next_event(events, "dice").value
        assert reading.faces == ()                    # the table says "the camera saw 0 dice"
        picture_now = camera.picture(160)
        assert picture_now.image.shape == (120, 160, 3) and picture_now.state == "settled"
    finally:
        camera.close()


def test_a_camera_mounted_upside_down_is_read_the_right_way_up(tmp_path):
    """[camera] rotation = 180: the frames are turned before the reader, the settle logic and the
    live view see them, so the dice are read (and shown) as an upright camera would."""
    picture = tmp_path / "upside-down.png"
    tray = tray_picture(tmp_path / "upright.png", dice=3, seed=5)
    upright = cv2.imread(str(tmp_path / "upright.png"))
    assert cv2.imwrite(str(picture), cv2.rotate(upright, cv2.ROTATE_180))
    events = EventQueue()
    camera = DiceCamera(f"file:{picture}", events.put, rotation=180).start()
    try:
        camera.read_now()
        reading = next_event(events, "dice").value
        assert sorted(reading.faces) == sorted(d.face for d in tray.truth)
        truth_boxes = sorted(d.box for d in tray.truth)      # the upright frame's pixels
        read_boxes = sorted(d.box for d in reading.dice)
        assert all(abs(a - b) <= 6 for t, r in zip(truth_boxes, read_boxes) for a, b in zip(t, r))
        shown = camera.picture(640).image                   # RGB, the upright frame's size
        assert abs(shown.astype(int) - cv2.cvtColor(upright, cv2.COLOR_BGR2RGB)).mean() < 3
    finally:
        camera.close()


def test_a_camera_rotation_other_than_quarter_turns_is_refused():
    with pytest.raises(ValueError, match="rotation is one of 0, 90, 180, 270 degrees, not 45"):
        DiceCamera("sim:", EventQueue().put, rotation=45)


@pytest.mark.parametrize("spec", ["nonsense:1", "sim:?dice=99"])
def test_a_bad_camera_source_is_a_message_not_a_crash(spec):
    events = EventQueue()
    camera = DiceCamera(spec, events.put, backoff=(0.05, 0.1)).start()
    status = next_event(events, "status").value
    camera.close()
    assert status["camera"] == UNAVAILABLE and status["message"]


# -- the table's side: what a camera's events do to the game ----------------------------------

def die(face: int, confidence: float, uncertain: bool):
    from vision.reader import DieRead

    return DieRead(face, f"pip{face}", confidence, (10, 10, 50, 50), "white", uncertain)


@pytest.fixture
def table():
    import companion.table.rolling_village  # noqa: F401  (registers the wiring)
    from companion.session import Session
    from companion.table import Table

    t = Table()
    t.open(Session.new("rolling-village", ["Ann", "Bo"]))
    t.dice_reader = lambda: None
    return t


def test_an_unsure_reading_waits_for_the_check_and_confirm_takes_it(table):
    from companion.events import Command, InputEvent, TableLight
    from vision.reader import DiceReading

    unsure = DiceReading((die(4, 0.55, True), die(2, 0.97, False)))
    table.handle(InputEvent("dice", unsure, "camera"))
    assert table.draft.dice == () and table.dice_check == unsure
    assert table.light is TableLight.NEEDS_CONFIRMATION
    table.handle(InputEvent("tap", ("correct_die", 0, 5), "touch"))
    assert table.dice_check.faces == (5, 2) and not table.dice_check.uncertain
    bad = table.handle(InputEvent("tap", ("correct_die", 0, 7), "touch"))
    assert "1 to 6" in bad.info and table.dice_check.faces == (5, 2)
    table.handle(InputEvent.command(Command.CONFIRM, "gpio"))      # a button confirms the check
    assert table.dice_check is None and table.draft.dice == (5, 2)
    assert len(table.session.actions) == 0                         # the roll is a second confirm
    table.handle(InputEvent.command(Command.CONFIRM, "gpio"))
    assert table.session.actions[-1].dice == (5, 2)


def test_an_unsure_reading_while_building_asks_nothing(table):
    from companion.events import InputEvent
    from vision.reader import DiceReading

    table.handle(InputEvent("dice", (3, 4), "camera"))
    table.handle(InputEvent("key", "enter", "keyboard"))
    assert table.state.phase == "build"
    outcome = table.handle(InputEvent("dice", DiceReading((die(1, 0.5, True), die(6, 0.5, True))), "camera"))
    assert table.dice_check is None and "build first" in outcome.info


def test_while_the_camera_is_away_read_dice_says_enter_them_by_hand(table):
    from companion.events import Command, InputEvent, TableLight

    table.handle(InputEvent.command(Command.READ_DICE, "panel"))
    assert table.reading and table.light is TableLight.READING
    lost = {"camera": "unavailable", "message": "Camera unavailable: enter the dice by hand. unplugged"}
    table.handle(InputEvent("status", lost, "camera"))
    assert not table.reading and table.message_is_error and table.camera_status == "unavailable"
    outcome = table.handle(InputEvent.command(Command.READ_DICE, "panel"))
    assert "enter the dice by hand" in outcome.info and not table.reading
    table.handle(InputEvent("key", "3", "keyboard"))
    table.handle(InputEvent("key", "4", "keyboard"))
    assert table.draft.dice == (3, 4)
    table.handle(InputEvent("status", {"camera": "connected", "message": "The dice camera is back."}, "camera"))
    assert table.camera_status == "connected" and table.message == "The dice camera is back."
    odd = table.handle(InputEvent("status", "garbled", "camera"))
    assert "means nothing here" in odd.info


def test_the_camera_asks_by_the_threshold_the_table_earned_and_goes_back_to_its_own(tmp_path):
    from vision.reader import DiceReader
    from vision.settle import SettledReader

    tray_picture(tmp_path / "tray.png", dice=2)
    events = EventQueue()
    pips = DiceReader()
    own = pips.threshold
    camera = DiceCamera(f"file:{tmp_path / 'tray.png'}", events.put, make_reader=lambda: SettledReader(pips))
    frames = lambda n: until_frames(camera, n)  # noqa: E731
    try:
        camera.start()
        frames(1)
        assert pips.threshold == own                 # nothing earned: the reader's own
        camera.ask_below(0.99)
        frames(camera.frames + 2)
        assert pips.threshold == 0.99
        camera.ask_below(None)                       # earned no more (a misread came to light)
        frames(camera.frames + 2)
        assert pips.threshold == own
    finally:
        camera.close()


def until_frames(camera: DiceCamera, n: int) -> None:
    deadline = time.monotonic() + WAIT
    while camera.frames < n:
        assert time.monotonic() < deadline, f"the camera read {camera.frames} frames of {n}"
        time.sleep(0.02)


def test_a_camera_that_keeps_photos_sends_each_pip_reading_with_its_frame(tmp_path):
    picture = tmp_path / "tray.png"
    tray = tray_picture(picture, dice=3, seed=7)
    events = EventQueue()
    camera = DiceCamera(f"file:{picture}", events.put, keep_photos=True).start()
    try:
        camera.read_now()
        reading = next_event(events, "dice").value
    finally:
        camera.close()
    assert sorted(reading.faces) == sorted(d.face for d in tray.truth)
    shown = cv2.imdecode(np.frombuffer(reading.photo, np.uint8), cv2.IMREAD_COLOR)
    assert abs(shown.astype(int) - cv2.imread(str(picture)).astype(int)).mean() < 2   # JPEG at quality 92
    quiet = DiceCamera(f"file:{picture}", EventQueue().put)
    assert quiet.keep_photos is False                                                  # off by default
