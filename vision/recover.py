"""A second look for dice the detector's boxes left out, with the classifier as the judge.

The detector cuts a cluster of touching dice by its outline; where the cut goes wrong a die is
lost inside a neighbour's box or beside it. What the kept boxes leave of the frame's foreground
(pixels that differ from the tray) is looked at again: die-sized windows stepped across each
such patch are classified in one batch, and a window the model calls a die with high
confidence (its NOT_A_DIE probability low, one face clearly ahead) becomes a die, best first,
never on top of a die already kept. The model judges every window as it judges the detector's
boxes: a box beside a die, between two or on bare tray was trained as NOT_A_DIE.
"""
from __future__ import annotations

import cv2
import numpy as np

from .crops import die_crop

__all__ = ["look_again"]

# A window counts as a die when its NOT_A_DIE probability is below this and its best face's
# probability above FACE_AT_LEAST.
NONE_BELOW = 0.02
FACE_AT_LEAST = 0.9
# Windows step a quarter of a die: a window is then within an eighth of a die of any die's middle.
STEP = 0.25
# Two dice's middles lie at least this far apart (in die sides; touching dice about one side,
# a box's middle may lie off its die's by a side face): a window nearer a die is on that die.
# Up to a side apart, the window halfway between tells one die from two.
APART = 0.55
# A frame gets at most this many windows (the grid is made coarser where it would get more).
MAX_WINDOWS = 160


def look_again(frame_bgr: np.ndarray, kept: list[tuple], doubtful: list[bool], foreground: np.ndarray,
               marks: np.ndarray | None, scale: float, side: float, classifier
               ) -> tuple[list[tuple[tuple, np.ndarray, np.ndarray]], set[int]]:
    """Dice found in the foreground the kept boxes do not explain, as (box, probabilities, crop),
    and the kept boxes to drop for them.

    kept: boxes (x0, y0, x1, y1) in the frame's pixels; doubtful: those that may hold two dice or
    none (far bigger than the roll's dice, or judged possibly no die): they explain nothing, and
    one that holds the middle of a die found again is dropped for it. foreground: the detector's
    mask at its working size, the frame's size times scale; side: the roll's die side in pixels;
    classifier: a FaceClassifier whose model has the NOT_A_DIE label.
    """
    h, w = frame_bgr.shape[:2]
    sure = [b for b, d in zip(kept, doubtful) if not d]
    windows = _windows(sure, foreground, marks, scale, side)
    if not windows:
        return [], set()
    boxes = [(cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2) for cx, cy in windows]
    crops = np.stack([die_crop(frame_bgr, b) for b in boxes])
    probs = classifier.probabilities(crops)
    none = classifier.none_index
    good = (probs[:, none] < NONE_BELOW) & (classifier.faces(probs)[1] > FACE_AT_LEAST)
    centres = [((b[0] + b[2]) / 2, (b[1] + b[3]) / 2) for b in sure]
    found, dropped = [], set()
    for i in sorted(np.flatnonzero(good), key=lambda i: probs[i, none]):
        cx, cy = windows[i]
        near = [(x, y) for x, y in centres if np.hypot(cx - x, cy - y) < side]
        if any(np.hypot(cx - x, cy - y) < APART * side for x, y in near):
            continue  # a die already kept, or a window on the same die as a better one
        if near and _one_die(frame_bgr, (cx, cy), near, side, classifier):
            continue
        centres.append((cx, cy))
        x0, y0, x1, y1 = boxes[i]
        box = (max(0, int(round(x0))), max(0, int(round(y0))), min(w, int(round(x1))), min(h, int(round(y1))))
        found.append((box, probs[i], crops[i]))
        dropped |= {k for k, (b, d) in enumerate(zip(kept, doubtful))
                    if d and b[0] <= cx <= b[2] and b[1] <= cy <= b[3]}
    return found, dropped


def _one_die(frame_bgr, centre, near, side: float, classifier) -> bool:
    """Whether a window a little apart from a die's middle is on that same die: a window halfway
    between the two middles is a die too (halfway between two dice lies their seam, no die)."""
    cx, cy = centre
    halfway = [((cx + x) / 2, (cy + y) / 2) for x, y in near]
    crops = np.stack([die_crop(frame_bgr, (x - side / 2, y - side / 2, x + side / 2, y + side / 2))
                      for x, y in halfway])
    return bool((classifier.probabilities(crops)[:, classifier.none_index] < 0.5).any())


def _windows(kept, foreground: np.ndarray, marks: np.ndarray | None, scale: float, side: float
             ) -> list[tuple[float, float]]:
    """Window middles (frame pixels) around foreground the kept dice leave out: patches at
    least a third of a die's area, after an opening that drops the slivers left around them.
    A kept box explains one die's square about its middle only: a box grown over two touching
    dice hides the second one otherwise. Windows are a quarter die apart, fewer where the frame
    would get more than MAX_WINDOWS."""
    s = side * scale
    if marks is not None:
        # Pips a few pixels apart merge into one patch: a die whose body does not show.
        size = max(3, int(0.3 * s) | 1)
        pips = cv2.dilate(marks, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
        foreground = cv2.bitwise_or(foreground, pips)
    left = foreground.copy()
    for x0, y0, x1, y1 in kept:
        cx, cy = (x0 + x1) / 2 * scale, (y0 + y1) / 2 * scale
        half_w, half_h = min((x1 - x0) * scale, 1.2 * s) / 2, min((y1 - y0) * scale, 1.2 * s) / 2
        left[max(0, int(cy - half_h)):int(np.ceil(cy + half_h)), max(0, int(cx - half_w)):int(np.ceil(cx + half_w))] = 0
    size = max(3, int(0.35 * s) | 1)
    left = cv2.morphologyEx(left, cv2.MORPH_OPEN, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
    n, _, stats, _ = cv2.connectedComponentsWithStats(left)
    patches = [stats[k] for k in range(1, n) if stats[k][4] >= s * s / 3]
    step = max(1.0, STEP * s)
    while True:
        points = _grid(patches, foreground, s, step)
        if len(points) <= MAX_WINDOWS:
            return [(x / scale, y / scale) for x, y in sorted(points, key=lambda p: (p[1], p[0]))]
        step *= float(np.sqrt(len(points) / MAX_WINDOWS)) * 1.05  # a coarser grid over a crowded frame


def _grid(patches, foreground: np.ndarray, s: float, step: float) -> set[tuple[float, float]]:
    """Points of one grid over the whole frame (patches near each other share their windows)
    within half a die of a patch and on the foreground. What is left may be the edge of a die
    whose middle a neighbour's box covers: the windows reach beyond the patch."""
    fh, fw = foreground.shape[:2]
    points = set()
    for x, y, bw, bh, _ in patches:
        rows = range(int(max(0.0, y - s / 2) // step), int(min(fh - 1, y + bh + s / 2) // step) + 1)
        cols = range(int(max(0.0, x - s / 2) // step), int(min(fw - 1, x + bw + s / 2) // step) + 1)
        points |= {(c * step, r * step) for r in rows for c in cols if foreground[int(r * step), int(c * step)]}
    return points
