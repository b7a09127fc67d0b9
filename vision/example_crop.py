"""A taught picture cut as a read die is cut (issue 15: taught pictures "of any size, a little
background around the die").

The taught reader reads each die from the crop around the learned detector's box, and on icon dice
that box is often the top face only: on rendered Centerville set-up trays its side is a median 0.70
of the whole die's (models/EMBEDDING_ROUNDS.md, "The trays row taught as the app teaches"). A picture
cut by hand frames the whole die and some background, so its centred square shows the die at about
1.5 times the scale of the crops it must match. Such a picture is set on a plain frame of its
border's colour at a usual die size, and the die the detector finds at its centre is cut by the
reader's crop convention (vision.crops.die_crop). A reader's own crop (what the app's lesson files)
is used as it is, and a picture in which the detector finds no die at its centre falls back to
its centred square.
"""
from __future__ import annotations

import cv2
import numpy as np

from .crops import CROP_MARGIN, die_crop

FRAME = (640, 480)
# The picture's shorter side on the frame: a die of about 65 px, inside the rendered trays' range
# of die sizes (vision.synth.glyphs.place_dice: 20-110 px on a 640x480 frame).
PICTURE_SIDE = 80
# A box this much smaller than the picture is a mark on the die or a speck, not the die. A bound
# set by reasoning (a hand-cut picture shows one die filling most of it), not tuned on photos.
SMALLEST_DIE = 0.3


def centred_square(picture_bgr: np.ndarray, size: int) -> np.ndarray:
    """The crop convention for a picture that shows one die filling it: its centred square."""
    h, w = picture_bgr.shape[:2]
    s = min(w, h)
    x0, y0 = (w - s) // 2, (h - s) // 2
    # die_crop adds its margin around the box: a box the margin smaller keeps the whole picture.
    m = (s - s / CROP_MARGIN) / 2
    return die_crop(picture_bgr, (x0 + m, y0 + m, x0 + s - m, y0 + s - m), size)


def on_frame(picture_bgr: np.ndarray) -> tuple[np.ndarray, tuple[float, float], int, int]:
    """The picture scaled to PICTURE_SIDE (its shorter side) in the middle of a FRAME of its border's
    median colour; with its scale across and down (whole pixels make them differ a little) and its
    top-left corner on the frame."""
    h, w = picture_bgr.shape[:2]
    # A long thin picture is scaled down to fit the frame, never squashed.
    scale = min(PICTURE_SIDE / min(h, w), FRAME[0] / w, FRAME[1] / h)
    pw, ph = max(1, round(w * scale)), max(1, round(h * scale))
    small = cv2.resize(picture_bgr, (pw, ph), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    ring = np.concatenate([small[0], small[-1], small[:, 0], small[:, -1]])
    frame = np.empty((FRAME[1], FRAME[0], 3), np.uint8)
    frame[:] = np.median(ring, axis=0).astype(np.uint8)
    ox, oy = (FRAME[0] - pw) // 2, (FRAME[1] - ph) // 2
    frame[oy:oy + ph, ox:ox + pw] = small
    return frame, (pw / w, ph / h), ox, oy


def die_box(picture_bgr: np.ndarray, finder) -> tuple[float, float, float, float] | None:
    """The box (in the picture's pixels) of the die the finder sees at the picture's centre, the
    strongest if several hold it; None when none does or it is too small to be the die."""
    frame, (sx, sy), ox, oy = on_frame(picture_bgr)
    h, w = picture_bgr.shape[:2]
    cx, cy = ox + w * sx / 2, oy + h * sy / 2
    held = [d for d in finder.detect(frame) if d.box[0] <= cx <= d.box[2] and d.box[1] <= cy <= d.box[3]]
    if not held:
        return None
    # Any finder with detect(frame) -> [obj with .box] will do (docs/icon-dice.md); the strongest wins.
    x0, y0, x1, y1 = max(held, key=lambda d: getattr(d, "strength", 0.0)).box
    if max(x1 - x0, y1 - y0) < SMALLEST_DIE * PICTURE_SIDE:
        return None
    return ((x0 - ox) / sx, (y0 - oy) / sy, (x1 - ox) / sx, (y1 - oy) / sy)


def example_crop(picture_bgr: np.ndarray, size: int, finder=None) -> np.ndarray:
    """A taught picture (BGR) -> the RGB size x size crop it is embedded from: a reader's own crop
    as it is; else the crop around the die the finder sees at its centre; else its centred square."""
    h, w = picture_bgr.shape[:2]
    if finder is None or (h, w) == (size, size):
        return centred_square(picture_bgr, size)
    box = die_box(picture_bgr, finder)
    return centred_square(picture_bgr, size) if box is None else die_crop(picture_bgr, box, size)
