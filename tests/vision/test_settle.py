"""Settle detection and the settled reader: one reading per roll, none while dice move."""
import random

import cv2
import numpy as np
import pytest

from vision.settle import MOVING, SETTLED, SettleConfig, SettleDetector, SettledReader
from vision.sim import SimulatedTray
from vision.synth import render_roll

FPS = 15.0


def _noisy(image, rng):
    return np.clip(image.astype(np.int16) + rng.integers(-3, 4, image.shape), 0, 255).astype(np.uint8)


def test_still_tray_fires_once_after_the_still_time():
    rng = np.random.default_rng(0)
    tray = np.full((480, 640, 3), 90, np.uint8)
    detector = SettleDetector(SettleConfig(still_seconds=0.3))
    fired = [detector.update(_noisy(tray, rng), i / FPS) for i in range(20)]
    assert fired.count(True) == 1
    assert fired.index(True) == 5  # 5 frames at 15 fps = 0.33 s >= 0.3 s
    assert detector.state == SETTLED


def test_motion_rearms_and_delays():
    rng = np.random.default_rng(1)
    tray = np.full((240, 320, 3), 90, np.uint8)
    detector = SettleDetector(SettleConfig(still_seconds=0.2))
    fired = []
    for i in range(40):
        frame = _noisy(tray, rng)
        if 10 <= i < 20:  # a hand sweeps across the tray
            x = 20 * (i - 10)
            frame[60:180, x:x + 60] = 220
        fired.append(detector.update(frame, i / FPS))
        if 10 < i < 20:
            assert detector.state == MOVING
    # Still from frame 21 (frame 20 still differs from the last hand frame); 3 frames = 0.2 s.
    assert [i for i, f in enumerate(fired) if f] == [3, 24]


def test_timestamps_come_from_the_caller():
    detector = SettleDetector(SettleConfig(still_seconds=1.0))
    frame = np.zeros((60, 80, 3), np.uint8)
    assert not detector.update(frame, 100.0)
    assert not detector.update(frame, 100.5)
    assert detector.update(frame, 101.0)


def test_bad_settle_config_is_refused():
    with pytest.raises(ValueError, match="still_seconds"):
        SettleConfig(still_seconds=-1)


def _roll_frames(seed, n_dice, moving=8, still=10, faces=None):
    roll = render_roll(random.Random(seed), n_dice, moving, still, (640, 480), faces=faces, surface="felt")
    return roll


def test_rendered_roll_yields_exactly_one_reading(reader):
    roll = _roll_frames(5, 3, faces=[2, 5, 6])
    settled = SettledReader(reader, still_seconds=0.3)
    readings = [(i, r) for i, f in enumerate(roll.frames) if (r := settled.feed(f, i / FPS)) is not None]
    assert len(readings) == 1
    index, reading = readings[0]
    assert index >= roll.first_still
    assert (index - roll.first_still) / FPS <= 0.5  # settle-to-reading on the stream's own clock
    assert sorted(reading.faces) == [2, 5, 6]
    assert reading.frame_index == index and reading.time == pytest.approx(index / FPS)


def test_empty_tray_yields_no_reading(reader):
    tray = SimulatedTray(dice=2, seed=9)
    settled = SettledReader(reader)
    assert [r for _ in range(20) if (r := settled.feed(*tray.next_frame())) is not None] == []


def test_simulated_rolls_one_reading_each_and_none_for_a_passing_hand(reader):
    tray = SimulatedTray(dice=2, seed=11, moving=6)
    settled = SettledReader(reader)
    readings = []

    def run(n, hand=False):
        for i in range(n):
            image, t = tray.next_frame()
            if hand and i < 6:
                image = image.copy()
                image[:200, 100 * i:100 * i + 120] = (150, 170, 210)
            r = settled.feed(image, t)
            if r is not None:
                readings.append((r, [d.face for d in tray.truth]))

    run(5)
    tray.roll(faces=[3, 4])
    run(20)
    run(15, hand=True)  # a hand passes over the finished roll: no new reading
    tray.roll(faces=[1, 6])
    run(20)
    assert [sorted(r.faces) for r, _ in readings] == [[3, 4], [1, 6]]


def _with_hand(image):
    """A hand and forearm resting in the tray, coming in from the right edge."""
    hand = image.copy()
    cv2.ellipse(hand, (600, 240), (190, 110), 0, 0, 360, (120, 150, 205), -1)
    return hand


def test_no_reading_while_a_hand_rests_in_the_tray(reader):
    tray = SimulatedTray(dice=2, seed=13, moving=6)
    settled = SettledReader(reader)
    tray.roll(faces=[2, 5])
    readings = []
    for i in range(40):
        image, t = tray.next_frame()
        if i < 25:
            image = _with_hand(image)  # tumbling dice and then a still hand over the tray
        reading = settled.feed(image, t)
        if reading is not None:
            readings.append((i, reading))
    assert [i for i, _ in readings] and readings[0][0] >= 25
    assert len(readings) == 1 and sorted(readings[0][1].faces) == [2, 5]
