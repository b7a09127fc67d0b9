"""The dice camera thread without a window: what it posts when the camera or the model is
missing, when the camera comes back, and when asked to read an empty tray."""
from __future__ import annotations

import time

import cv2
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


@pytest.mark.parametrize("spec", ["nonsense:1", "sim:?dice=99"])
def test_a_bad_camera_source_is_a_message_not_a_crash(spec):
    events = EventQueue()
    camera = DiceCamera(spec, events.put, backoff=(0.05, 0.1)).start()
    status = next_event(events, "status").value
    camera.close()
    assert status["camera"] == UNAVAILABLE and status["message"]
