"""Naming the body colour of a die, for icon dice (whose colour matters) and for the screen."""
from __future__ import annotations

import cv2
import numpy as np

COLOR_NAMES = ("white", "black", "red", "blue", "green", "yellow", "purple", "orange", "grey", "clear")

# OpenCV hue runs 0..179; bands chosen from the renderer's palette and from real photos.
_HUE_BANDS = (
    (8, "red"), (21, "orange"), (36, "yellow"), (86, "green"), (127, "blue"), (165, "purple"), (180, "red"),
)


def inner_region(image_bgr: np.ndarray, box, margin: float) -> np.ndarray:
    """The part of box (x0, y0, x1, y1) inside `margin` of its width and height on every side,
    clipped to the frame; ValueError when nothing of it lies in the frame."""
    x0, y0, x1, y1 = (float(v) for v in box)
    h, w = image_bgr.shape[:2]
    mx, my = (x1 - x0) * margin, (y1 - y0) * margin
    ix0, iy0 = max(int(x0 + mx), 0), max(int(y0 + my), 0)
    ix1, iy1 = min(int(np.ceil(x1 - mx)), w), min(int(np.ceil(y1 - my)), h)
    if ix1 <= ix0 or iy1 <= iy0:
        raise ValueError(f"The die box {tuple(box)} lies outside the {w}x{h} frame.")
    return image_bgr[iy0:iy1, ix0:ix1]


def dominant_color(image_bgr: np.ndarray, box) -> str:
    """The colour name of the die body inside box (x0, y0, x1, y1).

    Reads the middle of the box (the top face, away from the table) and takes the median so
    pips and glare, a minority of pixels, do not sway it. A translucent die is named by its
    tint; a colourless translucent die cannot be told from the table through it by colour
    alone, so it reads as white or grey ("clear" stays a name the renderer gives, not one
    this function returns).
    """
    hsv = cv2.cvtColor(inner_region(image_bgr, box, 0.25), cv2.COLOR_BGR2HSV).reshape(-1, 3).astype(np.float32)
    val = hsv[:, 2]
    # The body is the bulk of the face: drop the darkest and brightest fifth (pips, glare).
    lo, hi = np.percentile(val, [20, 80])
    body = hsv[(val >= lo) & (val <= hi)]
    if len(body) == 0:
        body = hsv
    s = float(np.median(body[:, 1]))
    v = float(np.median(body[:, 2]))
    # Dark pixels have unreliable saturation (a few levels of noise make a big ratio).
    if v < 60 or (v < 100 and s < 120):
        return "black"
    # Hue is circular: take the median of the hue where it is saturated enough to mean something.
    hue = body[:, 0][body[:, 1] >= 60]
    hue = float(np.median(hue)) if len(hue) else float(np.median(body[:, 0]))
    # Cream and ivory dice (bright, weakly saturated, warm) are what players call white.
    if (s < 60 and v > 165) or (s < 135 and v > 190 and 10 <= hue <= 35):
        return "white"
    if s < 60:
        return "grey"
    for upper, name in _HUE_BANDS:
        if hue < upper:
            return name
    return "red"
