"""A table's dice size, learned from its own reads: a camera low over the tray gets its frames read shrunk.

A camera lower over the tray than the real photos the detector learned from shows bigger dice, and the
detector then boxes parts of a die twice and misses dice (issue 14, bench/real_shifts.py's rows "dice at 1.5x /
2x size"). One frame's boxes cannot tell how big its dice are (issue 14 rounds 44-45: the estimate's spread on
one photo shrinks frames that read well as they are), but a camera does not move during a game: every read of
the table adds its sure boxes (peaks from `peaks_from`, scaled back to the frame) to a window of the last
`boxes`, and once `least` of them are in, the next frames are read shrunk by the window's median side over
`typical` of the width the network sees (at most `most`), as vision.die_size reads a frame. Reads made shrunk
box whole dice, so the estimate grows toward the true size over a few reads (issue 14 round 46).

Only a reader of one table's frames in turn learns (the dice camera, `python -m vision watch`): a batch of
photos from many tables reads each photo as it comes. Nothing is stored: after a restart the table is learned
again within a few rolls, and a table whose dice are not big is read exactly as without it.
Named in the detector's .json as "table_size": {"typical", "peaks_from", "most", "boxes", "least"}.
"""
from __future__ import annotations

from collections import deque
from pathlib import Path

import numpy as np

from .die_size import DiceAtSize
from .model import Detection, _check_keys, fitted_size

__all__ = ["TABLE_SIZE_KEYS", "DiceAtTableSize", "TableDiceSize", "table_size_settings"]

TABLE_SIZE_KEYS = {"typical": (int, float), "peaks_from": (int, float), "most": (int, float),
                   "boxes": int, "least": int}


class TableDiceSize:
    """The dice's size at one table: the sides of the last `boxes` sure boxes, as shares of the network's width."""

    def __init__(self, typical: float, peaks_from: float, most: float, boxes: int, least: int):
        self.typical, self.peaks_from, self.most = float(typical), float(peaks_from), float(most)
        self.least = int(least)
        self.sides: deque[float] = deque(maxlen=int(boxes))

    def observe(self, detections: list[Detection], frame_shape: tuple[int, ...], aspect: float) -> None:
        """Add a read's sure boxes (in the frame's pixels) to the window."""
        h, w = frame_shape[:2]
        width = fitted_size(w, h, aspect)[0]
        self.sides.extend(max(d.box[2] - d.box[0], d.box[3] - d.box[1]) / width
                          for d in detections if d.strength >= self.peaks_from)

    @property
    def ratio(self) -> float:
        """How much the table's frames are shrunk before they are read (1: not at all)."""
        if len(self.sides) < self.least:
            return 1.0
        return min(self.most, max(1.0, float(np.median(self.sides)) / self.typical))

    def forget(self) -> None:
        """Start again (the camera was moved, or another tray is under it)."""
        self.sides.clear()


class DiceAtTableSize(DiceAtSize):
    """A detector (DiceModel or TwoFinders) reading one table's frames at the size its TableDiceSize has learned;
    each detect() teaches it the frame's sure boxes. At ratio 1 it reads exactly as the inner detector."""

    def __init__(self, inner, table: TableDiceSize):
        super().__init__(inner, table.typical, table.peaks_from, table.most)
        object.__setattr__(self, "table", table)

    def shrink(self, frame_bgr: np.ndarray):
        return self.table.ratio, None

    def detect(self, frame_bgr: np.ndarray, find_from: float | None = None) -> list[Detection]:
        found = super().detect(frame_bgr, find_from)
        self.table.observe(found, frame_bgr.shape, self._first.input_w / self._first.input_h)
        return found


def table_size_settings(settings, model_path: Path) -> dict:
    """The .json's table_size checked at the edge, each key by name and type."""
    from .classify import ModelError
    where = f"{model_path.with_suffix('.json')}: table_size"
    _check_keys(settings, TABLE_SIZE_KEYS, set(), where, ", ".join(TABLE_SIZE_KEYS), model_path)
    for key in ("typical", "peaks_from"):
        if not 0.0 < settings[key] <= 1.0:
            raise ModelError(f"{where}'s {key} must lie above 0 and at most 1, not {settings[key]}.", model_path)
    if settings["most"] < 1.0:
        raise ModelError(f"{where}'s most must be at least 1 (no shrink), not {settings['most']}.", model_path)
    if not 1 <= settings["least"] <= settings["boxes"]:
        raise ModelError(f"{where}'s least must lie between 1 and boxes ({settings['boxes']}), "
                         f"not {settings['least']}.", model_path)
    return {key: settings[key] for key in TABLE_SIZE_KEYS}
