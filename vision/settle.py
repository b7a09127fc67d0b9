"""Settle detection: is the tray still long enough to read the dice?

Frames are compared on a small blurred grey copy: sensor noise and JPEG artefacts vanish,
a tumbling die or a hand changes many pixels. The caller supplies each frame's timestamp
(seconds, any origin); nothing here reads a clock, so tests replay sequences exactly.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["SettleConfig", "SettleDetector", "MOVING", "SETTLING", "SETTLED"]

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
