"""The top-face locator at read time (issue 14 round 16; default off: only a classifier file whose
.crop.json names a "top_locator" uses it, see vision.classify).

A die's crop (vision.crops.die_crop at CROP_MARGIN, 48 px) -> the box of its top face in that
crop, (cx, cy, w, h) 0..1 -> the box in frame pixels. A top-face classifier then reads a crop cut
around that box (vision.crops.die_crop at its own margin), not around the whole die, so that a side
face showing more pips than the top is not what it reads.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .crops import CROP_MARGIN, crop_square, die_crop

__all__ = ["Locator", "box_in_crop", "box_from_crop"]


def box_in_crop(frame_box, crop_box, margin: float = CROP_MARGIN) -> np.ndarray:
    """frame_box (x0, y0, x1, y1, frame pixels) in the coordinates of the square die_crop cuts
    for crop_box at margin, normalised 0..1: (cx, cy, w, h) float32."""
    sx, sy, side = crop_square(crop_box, margin)
    x0, y0, x1, y1 = frame_box
    return np.array([((x0 + x1) / 2 - sx) / side, ((y0 + y1) / 2 - sy) / side,
                     (x1 - x0) / side, (y1 - y0) / side], np.float32)


def box_from_crop(norm, crop_box, margin: float = CROP_MARGIN) -> tuple[float, float, float, float]:
    """The inverse of box_in_crop: a normalised (cx, cy, w, h) in crop_box's crop -> frame pixels."""
    sx, sy, side = crop_square(crop_box, margin)
    cx, cy, w, h = (float(v) for v in norm)
    w, h = max(w, 1e-3), max(h, 1e-3)
    return (sx + (cx - w / 2) * side, sy + (cy - h / 2) * side, sx + (cx + w / 2) * side, sy + (cy + h / 2) * side)


class Locator:
    """The top-face locator file through the TFLite interpreter: die crops -> (cx, cy, w, h) 0..1."""

    def __init__(self, path: Path | str, num_threads: int = 1):
        from .classify import ModelError
        from .model import interpreter_class
        self.path = Path(path)
        if not self.path.is_file():
            raise ModelError(f"The top-face locator {self.path} does not exist.", self.path)
        self._it = interpreter_class()(model_path=str(self.path), num_threads=num_threads)
        self._it.allocate_tensors()
        inp = self._it.get_input_details()[0]
        self._in = inp["index"]
        self._out = self._it.get_output_details()[0]["index"]
        self._batch = int(inp["shape"][0])
        self.input_size = int(inp["shape"][1])

    def boxes(self, crops: np.ndarray) -> np.ndarray:
        x = np.asarray(crops, np.float32)
        if x.ndim == 3:
            x = x[None]
        if len(x) == 0:
            return np.zeros((0, 4), np.float32)
        if len(x) != self._batch:
            self._it.resize_tensor_input(self._in, list(x.shape))
            self._it.allocate_tensors()
            self._batch = len(x)
        self._it.set_tensor(self._in, x)
        self._it.invoke()
        return self._it.get_tensor(self._out).astype(np.float32)

    def top_boxes(self, image_bgr: np.ndarray, boxes, crops: np.ndarray | None = None) -> list:
        """Each die box's top face in frame pixels (located in its die crop at CROP_MARGIN; crops:
        those crops, when the caller has cut them already)."""
        if not len(boxes):
            return []
        if crops is None:
            crops = np.stack([die_crop(image_bgr, b, self.input_size) for b in boxes])
        return [box_from_crop(p, b, CROP_MARGIN) for p, b in zip(self.boxes(crops), boxes)]
