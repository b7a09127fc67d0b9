"""Die outlines from sharp edges: for dice whose body hardly differs from the tray.

A white die on white paper or a grey die on grey card barely changes the colour, but its
outline is sharp: the crease to its shaded side, its rim against the tray, its pips. A shadow's
or a lighting gradient's edge is soft. So strong local brightness steps, closed and filled,
outline such dice; the detector keeps a filled outline only when it is one die's shape and
size and carries pips (vision.pips.has_pips), as it does for faintly contrasting blobs.
"""
from __future__ import annotations

import cv2
import numpy as np

__all__ = ["edge_mask"]


def edge_mask(lab: np.ndarray, min_step: float = 12.0) -> np.ndarray:
    """Filled regions (uint8 0/255) bounded by sharp brightness or colour steps (lab: the frame
    in Lab at the working size)."""
    # The morphological gradient (3x3 max minus min) is a step's height across two pixels,
    # taken on all three channels at once; colour steps count more, as in the detector.
    grad = cv2.morphologyEx(lab, cv2.MORPH_GRADIENT, _SQUARE)
    light, a, b = cv2.split(grad)
    colour = cv2.max(a, b)
    step = cv2.max(light, cv2.addWeighted(colour, 1.6, colour, 0, 0))
    # Felt fibres and wood grain raise the floor of steps everywhere; stay well above it.
    level = max(min_step, 4.0 * float(np.median(step[::4, ::4])))
    edges = (step > level).astype(np.uint8) * 255
    # Square kernels: separable, so cheap (this runs on every frame).
    edges = cv2.morphologyEx(edges, cv2.MORPH_CLOSE, _SQUARE5)
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(edges)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    return cv2.morphologyEx(filled, cv2.MORPH_OPEN, _SQUARE)


_SQUARE = np.ones((3, 3), np.uint8)
_SQUARE5 = np.ones((5, 5), np.uint8)
