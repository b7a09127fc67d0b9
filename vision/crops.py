"""The crop convention shared by training and classification.

A die is classified from a square crop centred on its box: the side is CROP_MARGIN times the
box's longer side (a little context, so a detector box that clips the die still shows all pips),
padded by edge replication where it leaves the frame, resized to INPUT_SIZE x INPUT_SIZE, RGB.
Training renders go through this very function, so the classifier sees what the reader gives it.

CROP_MARGIN and INPUT_SIZE are the convention of models/dice_faces.tflite; a classifier file
trained on another (a wider crop that keeps the die's base, side faces and shadow) says so in a
<name>.crop.json beside it (vision.classify.crop_convention), and everything that crops for that
file passes its margin and size here.
"""
from __future__ import annotations

import cv2
import numpy as np

INPUT_SIZE = 48
CROP_MARGIN = 1.15
# The largest square cut at full size (pixels a side): a die filling a third of an 8192-pixel photo is 2,700.
LARGEST_SIDE = 4096


def crop_square(box, margin: float = CROP_MARGIN) -> tuple[int, int, int]:
    """The integer square (x0, y0, side) that die_crop cuts for box (x0, y0, x1, y1)."""
    x0, y0, x1, y1 = (float(v) for v in box)
    w, h = x1 - x0, y1 - y0
    if not (w > 0 and h > 0):
        raise ValueError(f"A die box needs a positive width and height, not {tuple(box)}.")
    side = max(1, int(round(margin * max(w, h))))
    cx, cy = (x0 + x1) / 2.0, (y0 + y1) / 2.0
    return int(round(cx - side / 2.0)), int(round(cy - side / 2.0)), side


def die_crop(image_bgr: np.ndarray, box, size: int = INPUT_SIZE, margin: float = CROP_MARGIN) -> np.ndarray:
    """Square RGB uint8 crop (size x size, INPUT_SIZE unless asked) around box (x0, y0, x1, y1) in
    pixels, its side margin (CROP_MARGIN unless asked) times the box's longer side."""
    if image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
        raise ValueError(f"die_crop wants a BGR image of shape (h, w, 3), not {image_bgr.shape}.")
    h, w = image_bgr.shape[:2]
    sx, sy, side = crop_square(box, margin)
    # Cut what lies inside the frame, then replicate its edges out to the full square.
    ix0, iy0 = max(sx, 0), max(sy, 0)
    ix1, iy1 = min(sx + side, w), min(sy + side, h)
    if ix1 <= ix0 or iy1 <= iy0:
        raise ValueError(f"The die box {tuple(box)} lies outside the {w}x{h} frame.")
    part = image_bgr[iy0:iy1, ix0:ix1]
    pads = (iy0 - sy, sy + side - iy1, ix0 - sx, sx + side - ix1)
    if side > LARGEST_SIDE:
        # A box far bigger than a die (a detector's box on a 65,535-pixel strip of a photo): what lies
        # inside is shrunk first, or its padded square would take gigabytes. No real die comes near.
        f = LARGEST_SIDE / side
        part = cv2.resize(part, (max(1, round(part.shape[1] * f)), max(1, round(part.shape[0] * f))),
                          interpolation=cv2.INTER_AREA)
        pads = tuple(round(pad * f) for pad in pads)
    if any(pads):
        part = cv2.copyMakeBorder(part, *pads, cv2.BORDER_REPLICATE)
    interp = cv2.INTER_AREA if side > size else cv2.INTER_LINEAR
    square = cv2.resize(part, (size, size), interpolation=interp)
    return cv2.cvtColor(square, cv2.COLOR_BGR2RGB)
