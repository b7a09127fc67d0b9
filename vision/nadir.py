"""Where the camera's foot lies in a frame: the nadir, the point straight under the camera.

A die seen from a camera that leans shows, beside its top face, the side faces that face the
camera, and they lie between the top face and the nadir in the picture. A face classifier that
reads a die turned so the nadir lies below it (vision.crops.turned_crop) can take "the upper face
is the top" as a rule for any lean (issue 14 round 14, models/DETECTOR_CARD.md).

The nadir is estimated from the dice themselves. Dice on a table look bigger toward the nadir, and
for a pinhole camera leaning by t the apparent size is linear in image position:
s = a + g . (p - centre), with tan(t) = f |g| / a, and the nadir lies f tan(t) from the centre
along g. So one least-squares plane through the dice's sizes gives it. The focal length f is
FOCAL_PER_WIDTH times the frame's width, set a priori (a 58 degree field of view, a webcam's or
a phone's), not fitted to photos.
"""
from __future__ import annotations

import numpy as np

__all__ = ["nadir", "FOCAL_PER_WIDTH", "MIN_DICE"]

FOCAL_PER_WIDTH = 0.9
# A plane through the sizes needs three dice; with fewer the camera is taken to look straight down
# (the table's own camera does), so the nadir is the frame's centre.
MIN_DICE = 3


def nadir(boxes, frame_shape) -> tuple[float, float]:
    """(x, y) in pixels of the nadir of a frame of frame_shape (h, w, ...) whose dice have these
    boxes (x0, y0, x1, y1); it may lie far outside the frame."""
    h, w = frame_shape[:2]
    cx, cy = w / 2.0, h / 2.0
    if len(boxes) < MIN_DICE:
        return cx, cy
    b = np.asarray(boxes, dtype=np.float64).reshape(-1, 4)
    x = (b[:, 0] + b[:, 2]) / 2.0 - cx
    y = (b[:, 1] + b[:, 3]) / 2.0 - cy
    size = np.sqrt(np.maximum(b[:, 2] - b[:, 0], 1.0) * np.maximum(b[:, 3] - b[:, 1], 1.0))
    (a, gx, gy), *_ = np.linalg.lstsq(np.column_stack([np.ones_like(x), x, y]), size, rcond=None)
    if not a > 0:
        return cx, cy
    f = FOCAL_PER_WIDTH * w
    return cx + f * f * gx / a, cy + f * f * gy / a
