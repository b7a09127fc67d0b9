"""Rendered Centerville trays and the die pictures a table would teach from them."""
from __future__ import annotations

import numpy as np

from vision.synth.centerville import render_centerville_tray


def picture(image: np.ndarray, box, margin: float = 0.1) -> np.ndarray:
    """The die of box cut out of image with a little background, as a person cuts a picture for
    `vision read --taught DIR` (the app files the reading's own crop instead)."""
    x0, y0, x1, y1 = (int(v) for v in box)
    m = int(margin * (x1 - x0))
    h, w = image.shape[:2]
    return np.ascontiguousarray(image[max(0, y0 - m):min(h, y1 + m), max(0, x0 - m):min(w, x1 + m)])


def teach_every_face(teach, seed: int, rounds: int = 1, colours=None) -> None:
    """teach(label, picture) each face of each die `rounds` times, from trays showing face value v
    on every die (v = 1..6; a repeated icon is taught once per tray that shows it)."""
    for k in range(rounds):
        for value in range(1, 7):
            scene = render_centerville_tray(np.random.default_rng([seed, k, value]), faces=[value] * 6)
            for d in scene.dice:
                if colours is None or d.color in colours:
                    teach(d.label, picture(scene.image, d.box))


def tray(seed: int):
    return render_centerville_tray(np.random.default_rng([seed, 99]))
