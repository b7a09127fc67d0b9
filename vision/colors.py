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
    hsv = cv2.cvtColor(inner_region(image_bgr, box, 0.25), cv2.COLOR_BGR2HSV).reshape(-1, 3)
    val = hsv[:, 2]
    # The body is the bulk of the face: drop the darkest and brightest fifth (pips, glare). The
    # levels are whole numbers: v >= lo is v >= ceil(lo), with lo as float32 as it was compared before.
    lo, hi = (np.float32(q) for q in _percentiles(np.sort(val), (0.2, 0.8)))
    body = hsv[(val >= int(np.ceil(lo))) & (val <= int(np.floor(hi)))]
    if len(body) == 0:
        body = hsv
    s = _median(body[:, 1])
    v = _median(body[:, 2])
    # Dark pixels have unreliable saturation (a few levels of noise make a big ratio).
    if v < 60 or (v < 100 and s < 120):
        return "black"
    # Hue is circular: take the median of the hue where it is saturated enough to mean something.
    hue = body[:, 0][body[:, 1] >= 60]
    hue = _median(hue) if len(hue) else _median(body[:, 0])
    # Cream and ivory dice (bright, weakly saturated, warm) are what players call white.
    if (s < 60 and v > 165) or (s < 135 and v > 190 and 10 <= hue <= 35):
        return "white"
    if s < 60:
        return "grey"
    for upper, name in _HUE_BANDS:
        if hue < upper:
            return name
    return "red"


# np.percentile and np.median, whose wrappers cost more than the sorting on a die's few hundred pixels:
# the same figures from one sort each (0.55 -> 0.35 ms a die of rendered trays, 2026-12-07; the same name
# for all 4,182 die boxes of the shared real photos, their crops and 300 rendered trays: build/r47/colour_ref.py).
def _percentiles(ordered: np.ndarray, quantiles) -> list[float]:
    """np.percentile's default ("linear") of sorted values, each quantile in 0..1."""
    top = len(ordered) - 1
    out = []
    for q in quantiles:
        at = q * top
        i = int(at)
        a, b, t = float(ordered[i]), float(ordered[min(i + 1, top)]), at - i
        out.append(b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t)   # numpy's own two-sided lerp
    return out


def _median(values: np.ndarray) -> float:
    ordered = np.sort(values)
    mid = len(ordered) // 2
    return float(ordered[mid]) if len(ordered) % 2 else (float(ordered[mid - 1]) + float(ordered[mid])) / 2
