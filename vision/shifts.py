"""The changes a new table brings, made from the shared real photos with their labels (issue 14).

The shared real sets are two tables. A table the reader has never seen differs from them in ways that can be made
from their own photos, labels and all: the camera turned (mounted upside down, a portrait phone photo), a 16:9
frame, smaller dice (a camera higher up: mosaics of 4 or 9 photos in one frame), bigger dice (a camera lower
down: the photo's middle enlarged), another light, blur, sensor noise, strong JPEG. Each change takes a photo and
its labels and gives (image, labels kept, partial boxes: dice a cut left less than vision.realdata.INSIDE in the
frame, which count neither as a die nor as a box on no die). bench/real_shifts.py reads them; the calibration
chooses the reader's ask_below over them (vision.train.calibrate --ask-for-new-tables).
"""
from __future__ import annotations

import cv2
import numpy as np

from .realdata import closer, cut_labels, photos

__all__ = ["MOSAICS", "SHIFTS", "TURNED", "changes", "frames", "mosaics"]


def _moved(dice, fn):
    return tuple((face, fn(box)) for face, box in dice)


def turned_180(img, dice):
    h, w = img.shape[:2]
    return img[::-1, ::-1].copy(), _moved(dice, lambda b: (w - b[2], h - b[3], w - b[0], h - b[1])), ()


def turned_90(img, dice):
    h = img.shape[0]
    return cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE), _moved(dice, lambda b: (h - b[3], b[0], h - b[1], b[2])), ()


def wide(where: float):
    """A 16:9 band of the photo, from its top (0), middle (0.5) or bottom (1)."""
    def cut(img, dice):
        h, w = img.shape[:2]
        nh = round(w * 9 / 16)
        oy = int((h - nh) * where)
        return (img[oy:oy + nh].copy(), *cut_labels(dice, 0, oy, w, nh))
    return cut


def light(gains):
    """Each BGR channel times its gain: a warmer or cooler lamp."""
    g = np.array(gains, np.float32)
    return lambda img, dice: (np.clip(img * g, 0, 255).astype(np.uint8), dice, ())


def tone(gamma: float, gain: float = 1.0):
    return lambda img, dice: (np.clip(255 * gain * (img / 255.0) ** gamma, 0, 255).astype(np.uint8), dice, ())


def blur(sigma: float):
    return lambda img, dice: (cv2.GaussianBlur(img, (0, 0), sigma), dice, ())


def noise(sigma: float):
    rng = np.random.default_rng(0)
    return lambda img, dice: (np.clip(img + rng.normal(0, sigma, img.shape), 0, 255).astype(np.uint8), dice, ())


def jpeg(quality: int):
    def squeeze(img, dice):
        ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return cv2.imdecode(data, cv2.IMREAD_COLOR), dice, ()
    return squeeze


def changes() -> dict:
    """The changes by name, made afresh: the noise's generator starts again at its seed, so that
    two readers measured in one process (bench/detector_rule.py) read the same noisy photos."""
    return {
        "as taken": lambda img, dice: (img, dice, ()),
        "turned 180 (camera upside down)": turned_180,
        "turned 90 (portrait)": turned_90,
        "16:9, top band": wide(0.0),
        "16:9, middle band": wide(0.5),
        "16:9, bottom band": wide(1.0),
        "warm lamp (B x0.65, G x0.9, R x1.1)": light((0.65, 0.9, 1.1)),
        "cool light (B x1.1, R x0.7)": light((1.1, 1.0, 0.7)),
        "dim (gamma 1.8, x0.8)": tone(1.8, 0.8),
        "bright (gamma 0.6)": tone(0.6),
        "blur (sigma 1.5)": blur(1.5),
        "noise (sigma 10)": noise(10),
        "JPEG quality 25": jpeg(25),
        "dice at 1.5x size (the middle enlarged)": closer(1.5),
        "dice at 2x size (the middle enlarged)": closer(2.0),
    }


SHIFTS = changes()
# The camera turned: its misreads are the classifier's cue that side faces lie below the top face, which a table
# sets right by its camera's turn ([camera] rotation), not by asking (models/DETECTOR_ROUNDS.md, round 51).
TURNED = ("turned 180 (camera upside down)", "turned 90 (portrait)")
MOSAICS = {"dice at 1/2 size (mosaics of 4 photos)": 2, "dice at 1/3 size (mosaics of 9 photos)": 3}


def mosaics(shots, k: int):
    """Frames of k x k photos each shrunk to 1/k, with their labels: dice 1/k the size, as seen by a
    camera k times higher (photos in name order, k * k to a frame; a short last group is left out)."""
    for i in range(0, len(shots) - k * k + 1, k * k):
        group = shots[i:i + k * k]
        images = [cv2.imread(str(shot.path), cv2.IMREAD_COLOR) for shot in group]
        h, w = images[0].shape[:2]
        th, tw = h // k, w // k
        canvas = np.zeros((th * k, tw * k, 3), np.uint8)
        dice = []
        for j, (shot, img) in enumerate(zip(group, images)):
            sy, sx = th / img.shape[0], tw / img.shape[1]
            oy, ox = (j // k) * th, (j % k) * tw
            canvas[oy:oy + th, ox:ox + tw] = cv2.resize(img, (tw, th), interpolation=cv2.INTER_AREA)
            dice += [(face, (b[0] * sx + ox, b[1] * sy + oy, b[2] * sx + ox, b[3] * sy + oy)) for face, b in shot.dice]
        yield canvas, tuple(dice), ()


def frames(name: str, split: str, shift: str, made: dict | None = None):
    """The split's photos of set name so changed (made: a changes() of the caller's, else SHIFTS)."""
    shots = photos(name, split)
    if shift in MOSAICS:
        yield from mosaics(shots, MOSAICS[shift])
        return
    for shot in shots:
        yield (made or SHIFTS)[shift](cv2.imread(str(shot.path), cv2.IMREAD_COLOR), shot.dice)
