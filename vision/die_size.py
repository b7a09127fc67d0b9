"""Big dice read at the size the detector reads best: a frame whose dice are big is read shrunk.

A camera lower over the tray shows bigger dice than the real photos the detector learned from; the
detector then boxes parts of a die twice, misses dice and boxes nothing (issue 14, bench/real_shifts.py's
rows "dice at 1.5x / 2x size"). Here the first file's own pass over the frame (the pass a read makes
anyway) gives its boxes; where the typical one (the median side) is wider than `typical` of the frame as the
network sees it (fit_aspect's padded frame), the frame is read again shrunk by that ratio (at most `most`), in the
top-left corner of a canvas of its own size padded by repeating its last row and column (as fit_aspect
pads), and the boxes are scaled back. Everything after the finder (the face classifier's crops, colour,
the hand check) reads the frame as it came. Named in the detector's .json as "die_size": {"typical": a
share of the width, "peaks_from": the least peak of a box that counts, "most": the largest shrink}.
The median, not the largest box (issue 14 round 44b): one big box among a crowd of tiny dice shrank a
calib mosaic of 9 photos, and the mosaics row read 20 dice fewer right (round 44, models/DETECTOR_ROUNDS.md).
Not shipped: rounds 44-44c failed their calib lines, so no shipped .json names a die_size.
"""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np

from .model import Detection, _check_keys, _check_shares, fitted_size

__all__ = ["DIE_SIZE_KEYS", "DiceAtSize", "die_size_settings", "shrunk"]

DIE_SIZE_KEYS = {"typical": (int, float), "peaks_from": (int, float), "most": (int, float)}


class DiceAtSize:
    """A detector (DiceModel or TwoFinders) whose frames of big dice are read shrunk. Otherwise the detector
    itself: its settings and .json are the inner one's, and so are settings set on it."""

    def __init__(self, inner, typical: float, peaks_from: float, most: float):
        object.__setattr__(self, "inner", inner)
        object.__setattr__(self, "typical", float(typical))
        object.__setattr__(self, "peaks_from", float(peaks_from))
        object.__setattr__(self, "most", float(most))

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def __setattr__(self, name, value):
        # calibrate sets find_from, flip and the pair's settings on the detector it holds
        if name in ("typical", "peaks_from", "most"):
            object.__setattr__(self, name, float(value))
        else:
            setattr(self.inner, name, value)

    @property
    def _first(self):
        return getattr(self.inner, "first", self.inner)

    def shrink(self, frame_bgr: np.ndarray):
        """How much the frame is shrunk before it is read (1: not at all), and the first file's own pass over
        it (its maps: a frame read as it came reuses them)."""
        first = self._first
        plain, _ = first.passes(frame_bgr, mirror=False)
        boxes = [d.box for d in first.decoded(frame_bgr, plain, self.peaks_from)]
        side = float(np.median([max(b[2] - b[0], b[3] - b[1]) for b in boxes])) if boxes else 0.0
        h, w = frame_bgr.shape[:2]
        width = fitted_size(w, h, first.input_w / first.input_h)[0]
        return min(self.most, max(1.0, side / (self.typical * width))), plain

    def detect(self, frame_bgr: np.ndarray, find_from: float | None = None) -> list[Detection]:
        return self._at_size(frame_bgr, lambda frame, plain: self.inner.detect(frame, find_from, plain=plain))

    def candidates(self, frame_bgr: np.ndarray, find_from: float | None = None) -> list[Detection]:
        """The inner detector's candidates at the size detect() reads the frame (the shrink does not depend on
        find_from, so the looks give detect() at any find_from, as the inner detector's do)."""
        return self._at_size(frame_bgr, lambda frame, plain: self.inner.candidates(frame, find_from, plain=plain))

    def _at_size(self, frame_bgr, read) -> list[Detection]:
        ratio, plain = self.shrink(frame_bgr)
        if ratio == 1.0:
            return read(frame_bgr, plain)
        canvas, (sw, sh) = shrunk(frame_bgr, ratio)
        h, w = frame_bgr.shape[:2]
        out = []
        for d in read(canvas, None):
            b = d.box
            if (b[0] + b[2]) / 2 >= sw or (b[1] + b[3]) / 2 >= sh:
                continue   # centred in the padding: nothing of the frame is there
            out.append(replace(d, box=(round(b[0] * w / sw), round(b[1] * h / sh),
                                       min(w, round(b[2] * w / sw)), min(h, round(b[3] * h / sh)))))
        return out


def shrunk(frame_bgr: np.ndarray, ratio: float):
    """The frame shrunk by ratio into the top-left of a canvas of its own size, the rest its last row and
    column repeated; and the shrunk frame's size (width, height)."""
    h, w = frame_bgr.shape[:2]
    sw, sh = max(1, round(w / ratio)), max(1, round(h / ratio))
    small = cv2.resize(frame_bgr, (sw, sh), interpolation=cv2.INTER_AREA)
    return cv2.copyMakeBorder(small, 0, h - sh, 0, w - sw, cv2.BORDER_REPLICATE), (sw, sh)


def die_size_settings(settings, model_path: Path) -> dict:
    """The .json's die_size (vision.die_size) checked at the edge, each key by name and type."""
    from .classify import ModelError
    where = f"{model_path.with_suffix('.json')}: die_size"
    _check_keys(settings, DIE_SIZE_KEYS, set(), where, ", ".join(DIE_SIZE_KEYS), model_path)
    _check_shares(settings, ("typical", "peaks_from"), where, model_path)
    if settings["most"] < 1.0:
        raise ModelError(f"{where}'s most must be at least 1 (no shrink), not {settings['most']}.", model_path)
    return {key: float(settings[key]) for key in DIE_SIZE_KEYS}
