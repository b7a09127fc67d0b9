"""Real die crops for the face classifier: cut from the TRAIN split's label boxes (vision.realdata).

Each labelled die gives `copies` crops through vision.crops.die_crop, its box jittered as the
detector's boxes are (centre off by a few hundredths of the side, each side 0.85-1.25 of the
label's, the first copy unjittered); each photo also gives boxes that hold no one die (NOT_A_DIE):
bare tray at a die's size, a box beside a die (its middle on the die's edge or beyond) and a box
between two dice lying close, and (when asked) the finder's own boxes on no die, mined from the
photos. Only the train split is ever cut here: calib chooses, test reports.
"""
from __future__ import annotations

import cv2
import numpy as np

from ..crops import CROP_MARGIN, INPUT_SIZE, die_crop
from ..realdata import REAL_DICE, SETS, photos

__all__ = ["real_crops", "jitter_box"]


def jitter_box(rng: np.random.Generator, box, shift: float = 0.08, scale=(0.85, 1.25)):
    """box (x0, y0, x1, y1) moved and grown or shrunk as a detector's box may be."""
    x0, y0, x1, y1 = (float(v) for v in box)
    w, h = x1 - x0, y1 - y0
    s = max(w, h)
    cx = (x0 + x1) / 2 + float(np.clip(rng.normal(0, shift), -2 * shift, 2 * shift)) * s
    cy = (y0 + y1) / 2 + float(np.clip(rng.normal(0, shift), -2 * shift, 2 * shift)) * s
    k = float(rng.uniform(*scale))
    w2 = w * k * float(rng.uniform(0.93, 1.07))
    h2 = h * k * float(rng.uniform(0.93, 1.07))
    return (cx - w2 / 2, cy - h2 / 2, cx + w2 / 2, cy + h2 / 2)


def _centre(box):
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _near_a_die(box, boxes) -> bool:
    """The box's middle lies well inside a labelled die (a die's box, not a box on no die)."""
    cx, cy = _centre(box)
    for b in boxes:
        w, h = b[2] - b[0], b[3] - b[1]
        bx, by = _centre(b)
        if abs(cx - bx) < 0.35 * w and abs(cy - by) < 0.35 * h:
            return True
    return False


def _no_die_boxes(rng: np.random.Generator, image_shape, boxes, count: int):
    """count boxes that hold no one die: bare tray, beside a die, or between two close dice."""
    h, w = image_shape[:2]
    out = []
    sides = [max(b[2] - b[0], b[3] - b[1]) for b in boxes]
    tries = 0
    while len(out) < count and tries < 50 * count:
        tries += 1
        i = int(rng.integers(len(boxes)))
        s = sides[i] * float(rng.uniform(0.8, 1.2))
        kind = rng.random()
        if kind < 0.4:     # bare tray anywhere
            cx, cy = rng.uniform(s / 2, w - s / 2), rng.uniform(s / 2, h - s / 2)
        elif kind < 0.75:  # beside a die: the middle on its edge or beyond
            bx, by = _centre(boxes[i])
            angle = rng.uniform(0, 2 * np.pi)
            r = sides[i] * float(rng.uniform(0.6, 1.0))
            cx, cy = bx + r * np.cos(angle), by + r * np.sin(angle)
        else:              # between two dice lying close
            j = int(rng.integers(len(boxes)))
            if j == i:
                continue
            (ax, ay), (bx, by) = _centre(boxes[i]), _centre(boxes[j])
            if np.hypot(ax - bx, ay - by) > 1.6 * max(sides[i], sides[j]):
                continue
            cx, cy = (ax + bx) / 2, (ay + by) / 2
        box = (cx - s / 2, cy - s / 2, cx + s / 2, cy + s / 2)
        if box[0] < 0 or box[1] < 0 or box[2] > w or box[3] > h or _near_a_die(box, boxes):
            continue
        out.append(box)
    return out


# Mining the finder's own boxes on no die (DETECTOR_ROUNDS round 19): its boxes from MINE_FROM up (under
# the shipped find_from, so near misses count too), kept only when weaker than MINE_BELOW and clear
# of a square CLEAR_OF times each labelled box's longer side about its centre. Why the square:
# tilted-webcam labels the top face only, often seen edge-on as a thin box, and the boxes the finder
# puts on that die's body or side faces lie around it; they are a die, not a thing that is no die,
# and this round is about things. Both bounds were set from a sheet of the train split's 190 boxes
# from 0.1 up (2026-12-05): the stronger ones and those next to a label were dice.
MINE_FROM = 0.1
CLEAR_OF = 4.0
MINE_BELOW = 0.3


def _grown(box, k: float):
    cx, cy = _centre(box)
    half = max(box[2] - box[0], box[3] - box[1]) * k / 2
    return cx - half, cy - half, cx + half, cy + half


def _overlaps(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def mined_no_die_boxes(finder, image, boxes) -> list:
    """The finder's boxes on this photo that hold no labelled die: finder(image) -> [(box, strength)]
    from MINE_FROM up; kept when weaker than MINE_BELOW and clear of every label's square (_grown)."""
    grown = [_grown(b, CLEAR_OF) for b in boxes]
    return [box for box, strength in finder(image)
            if strength < MINE_BELOW and not any(_overlaps(box, g) for g in grown)]


def real_crops(labels, split: str = "train", copies: int = 8, no_die_per_photo: int = 3, seed: int = 7,
               sets=SETS, root=None, log=print, size: int = INPUT_SIZE,
               margin: float = CROP_MARGIN, hold_out_fold: int | None = None,
               finder=None, mined_copies: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """(N, S, S, 3) uint8 RGB crops and label indices of the real photos of split (train only in
    training), copies jittered crops per labelled die and no_die_per_photo NOT_A_DIE boxes per photo.
    hold_out_fold: leave that fold of the train split out (vision.realdata.photos' exclude_fold), so
    that the fold can be read out of fold (DETECTOR_ROUNDS round 17). finder and mined_copies: the
    finder's own boxes on no die (mined_no_die_boxes), mined_copies jittered NOT_A_DIE crops each."""
    if split in ("calib", "test", "all"):
        raise ValueError(f"real crops for training come from the train split only, not {split!r}.")
    from ..classify import NOT_A_DIE
    rng = np.random.default_rng(seed)
    xs, ys = [], []
    none_index = labels.index(NOT_A_DIE) if NOT_A_DIE in labels else None
    dice = shots = mined = 0
    for name in sets:
        for shot in photos(name, split, root, exclude_fold=hold_out_fold):
            image = cv2.imread(str(shot.path), cv2.IMREAD_COLOR)
            if image is None or not shot.dice:
                continue
            shots += 1
            boxes = [b for _, b in shot.dice]
            for face, box in shot.dice:
                dice += 1
                k = labels.index(f"pip{face}")
                for c in range(copies):
                    xs.append(die_crop(image, box if c == 0 else jitter_box(rng, box), size, margin))
                    ys.append(k)
            if none_index is not None:
                for box in _no_die_boxes(rng, image.shape, boxes, no_die_per_photo):
                    xs.append(die_crop(image, box, size, margin))
                    ys.append(none_index)
                if finder is not None and mined_copies > 0:
                    for box in mined_no_die_boxes(finder, image, boxes):
                        mined += 1
                        for c in range(mined_copies):
                            xs.append(die_crop(image, box if c == 0 else jitter_box(rng, box), size, margin))
                            ys.append(none_index)
    if not dice:
        # Training on renders alone while the card says real crops were added would be a quiet lie.
        raise FileNotFoundError(f"no labelled die in the {split} split of {', '.join(map(str, sets))} under "
                                f"{root or REAL_DICE}: put the real sets there (COMPANION_REAL_DICE) "
                                f"or train on renders only with --real-copies 0.")
    held = "" if hold_out_fold is None else f", fold {hold_out_fold} held out"
    log(f"  real crops ({split}{held}): {dice} dice x {copies} and {len(ys) - dice * copies} boxes on no die "
        f"({mined} of them the finder's own, x {mined_copies}) from {shots} photos of {', '.join(map(str, sets))}")
    return np.stack(xs), np.asarray(ys, np.int64)
