"""Settle detection: is the tray still long enough to read the dice? And one reading per roll.

Frames are compared on a small blurred grey copy: sensor noise and JPEG artefacts vanish,
a tumbling die or a hand changes many pixels. The caller supplies each frame's timestamp
(seconds, any origin); nothing here reads a clock, so tests replay sequences exactly.

`SettledReader.feed(frame, timestamp)` watches a stream with a reader (vision.reader.DiceReader,
vision.taught.TaughtReader) and gives one reading per roll: only after the tray has been still for
a moment, never while dice tumble or a hand rests in the tray (vision.hand), and not again for the
same dice lying in the same places (a hand passing over a finished roll is not a new roll).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable, Iterator

import cv2
import numpy as np

if TYPE_CHECKING:
    from .reader import DiceReader, DiceReading

__all__ = ["SettleConfig", "SettleDetector", "SettledReader", "MOVING", "SETTLING", "SETTLED", "same_dice"]

MOVING, SETTLING, SETTLED = "moving", "settling", "settled"


@dataclass(frozen=True)
class SettleConfig:
    still_seconds: float = 0.3      # how long the tray must be still before a reading
    width: int = 96                 # frames are compared at this width (height keeps the aspect)
    pixel_change: int = 14          # grey-level change that counts as a moved pixel (0..255)
    moving_fraction: float = 0.004  # share of moved pixels above which the tray is moving

    def __post_init__(self):
        if self.still_seconds < 0:
            raise ValueError(f"still_seconds must be 0 or more, not {self.still_seconds}.")
        if not 0 < self.moving_fraction < 1:
            raise ValueError(f"moving_fraction must lie between 0 and 1, not {self.moving_fraction}.")


class SettleDetector:
    """Feed (frame, timestamp); `update` returns True exactly once per still period.

    The first frame after a period of motion starts the still timer; once the tray has been
    still for `still_seconds`, update returns True for that frame and then False until the tray
    moves again. The very first frames count as a still period too, so a tray that is already
    set up when the camera starts is read once.
    """

    def __init__(self, config: SettleConfig | None = None):
        self.config = config or SettleConfig()
        self._previous: np.ndarray | None = None
        self._still_since: float | None = None
        self._fired = False
        self.state = MOVING
        self.motion = 0.0  # share of moved pixels in the last frame

    def reset(self) -> None:
        """Forget the past: the next still period fires again."""
        self._previous = None
        self._still_since = None
        self._fired = False
        self.state = MOVING

    def update(self, frame_bgr: np.ndarray, timestamp: float) -> bool:
        small = self._small(frame_bgr)
        if self._previous is None or self._previous.shape != small.shape:
            self.motion = 0.0
            moving = False
        else:
            moved = cv2.absdiff(small, self._previous) > self.config.pixel_change
            self.motion = float(np.count_nonzero(moved)) / moved.size
            moving = self.motion > self.config.moving_fraction
        self._previous = small
        if moving:
            self._still_since = None
            self._fired = False
            self.state = MOVING
            return False
        if self._still_since is None or timestamp < self._still_since:
            self._still_since = timestamp
        if self._fired:
            self.state = SETTLED
            return False
        if timestamp - self._still_since >= self.config.still_seconds - 1e-9:
            self._fired = True
            self.state = SETTLED
            return True
        self.state = SETTLING
        return False

    def _small(self, frame_bgr: np.ndarray) -> np.ndarray:
        h, w = frame_bgr.shape[:2]
        width = min(self.config.width, w)
        height = max(1, round(h * width / w))
        grey = frame_bgr if frame_bgr.ndim == 2 else cv2.cvtColor(frame_bgr, cv2.COLOR_BGR2GRAY)
        small = cv2.resize(grey, (width, height), interpolation=cv2.INTER_AREA)
        return cv2.GaussianBlur(small, (3, 3), 0)


def same_dice(a: DiceReading, b: DiceReading) -> bool:
    """The same dice showing the same faces in (nearly) the same places."""
    if len(a.dice) != len(b.dice):
        return False
    unmatched = list(b.dice)
    for die in a.dice:
        cx, cy = (die.box[0] + die.box[2]) / 2, (die.box[1] + die.box[3]) / 2
        side = max(die.box[2] - die.box[0], die.box[3] - die.box[1])
        match = None
        for other in unmatched:
            ox, oy = (other.box[0] + other.box[2]) / 2, (other.box[1] + other.box[3]) / 2
            if other.label == die.label and abs(ox - cx) <= side / 3 and abs(oy - cy) <= side / 3:
                match = other
                break
        if match is None:
            return False
        unmatched.remove(match)
    return True


class SettledReader:
    """One reading per settled roll from a stream of (frame, timestamp).

    An empty tray gives no reading (and arms the next roll); the same dice in the same places
    as the last reading give none either, so a hand that passes over does not re-read a roll.
    While a hand rests in the tray (vision.hand: a big blob from the frame's edge) the reading waits.
    """

    def __init__(self, reader: DiceReader, settle: SettleConfig | None = None,
                 still_seconds: float | None = None):
        if still_seconds is not None:
            base = settle or SettleConfig()
            settle = SettleConfig(still_seconds, base.width, base.pixel_change, base.moving_fraction)
        self.reader = reader
        self.settle = SettleDetector(settle)
        self.last: DiceReading | None = None
        self.frame_index = -1
        self._pending = False  # the tray settled but the reading is still to be made

    @property
    def state(self) -> str:
        """'moving', 'settling' or 'settled' (for the table lights)."""
        return self.settle.state

    def reset(self) -> None:
        """Read the next still tray even if it shows the last reading's dice (e.g. 'read again')."""
        self.settle.reset()
        self.last = None
        self._pending = False

    def feed(self, frame_bgr: np.ndarray, timestamp: float,
             frame_index: int | None = None) -> DiceReading | None:
        self.frame_index = self.frame_index + 1 if frame_index is None else frame_index
        if self.settle.update(frame_bgr, timestamp):
            self._pending = True
        elif self.settle.state == MOVING:
            self._pending = False
        if not self._pending:
            return None
        reading = self.reader.read(frame_bgr, self.frame_index, timestamp)
        if reading.obstructed:
            return None  # a hand rests in the tray: read once it is gone (still frames follow)
        self._pending = False
        if not reading.dice:
            self.last = reading
            return None
        if self.last is not None and same_dice(reading, self.last):
            return None
        self.last = reading
        return reading

    def readings(self, frames: Iterable[tuple[np.ndarray, float]]) -> Iterator[DiceReading]:
        """Readings from an iterable of (frame, timestamp) pairs."""
        for frame, timestamp in frames:
            reading = self.feed(frame, timestamp)
            if reading is not None:
                yield reading
