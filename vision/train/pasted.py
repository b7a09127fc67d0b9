"""Real dice in new places (`learn_detector --pasted K`): each of K images of a batch is a rendered
wild tray with a few dice cut from the real train split's photos pasted onto it, each with its
label.

Why: the renders vary the table far beyond the two real sets, but their dice are drawn; the real
photos show real dice, but on two tables only. Pasted (the "copy-paste" augmentation of
instance detection), the real dice meet the renders' wood, felt, carpet, paper, distractors and
light, so what a real die looks like is no longer tied to the table it was photographed on.

A die is cut with a margin of its own photo around its label box, the margin faded out (an alpha
that is 1 on the box and falls to 0 at the cut's edge), turned a quarter turn or mirrored (a face's
value survives both), scaled, and set down where it overlaps no die already there. A die whose
margin holds much of another labelled die is not cut: that neighbour would be pasted half and
unlabelled. Only the train split is cut (`trays.real_train`); calib and test are never trained on.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MARGIN = 0.12        # the cut's margin around the label box, a share of the box's longer side
SIDE = (9.0, 64.0)   # pasted dice span these sides in input pixels, as the wild trays' dice do
SCALE = (0.6, 1.6)   # each die drawn at this share of its photo's size (log-uniform), within SIDE
PER_IMAGE = (1, 8)   # dice pasted onto one tray
NEIGHBOUR = 0.1      # a cut holding more than this share of another die's box is not taken


@dataclass(frozen=True)
class Cut:
    """One real die: its photo's pixels around it (BGR uint8), where its label box lies in them
    (x0, y0, x1, y1) and its face."""

    pixels: np.ndarray
    box: tuple[float, float, float, float]
    face: int


def cuts(real) -> list[Cut]:
    """Every die of real = (images, dice) (trays.real_train) that can be cut cleanly."""
    images, dice = real
    out = []
    for image, boxes in zip(images, dice):
        h, w = image.shape[:2]
        for k, (x0, y0, x1, y1, face) in enumerate(boxes):
            m = MARGIN * max(x1 - x0, y1 - y0)
            cx0, cy0 = int(max(0, np.floor(x0 - m))), int(max(0, np.floor(y0 - m)))
            cx1, cy1 = int(min(w, np.ceil(x1 + m))), int(min(h, np.ceil(y1 + m)))
            if cx1 - cx0 < 4 or cy1 - cy0 < 4 or _holds_another(boxes, k, (cx0, cy0, cx1, cy1)):
                continue
            out.append(Cut(image[cy0:cy1, cx0:cx1].copy(), (x0 - cx0, y0 - cy0, x1 - cx0, y1 - cy0), int(face)))
    return out


def _holds_another(boxes, k: int, cut) -> bool:
    for j, (x0, y0, x1, y1, _face) in enumerate(boxes):
        if j == k:
            continue
        iw = min(x1, cut[2]) - max(x0, cut[0])
        ih = min(y1, cut[3]) - max(y0, cut[1])
        if iw > 0 and ih > 0 and iw * ih > NEIGHBOUR * (x1 - x0) * (y1 - y0):
            return True
    return False


def paste(rng: np.random.Generator, image: np.ndarray, dice: np.ndarray, pieces: list[Cut]):
    """image (H, W, 3 uint8) with dice (n, 5) and PER_IMAGE dice from pieces pasted where they
    overlap nothing: (new image, its dice (n + pasted, 5))."""
    out = image.copy()
    h, w = out.shape[:2]
    taken = [tuple(d[:4]) for d in dice]
    added = []
    for i in rng.integers(len(pieces), size=int(rng.integers(PER_IMAGE[0], PER_IMAGE[1] + 1))):
        pixels, box = _turned(rng, pieces[i])
        side = max(box[2] - box[0], box[3] - box[1])
        s = float(np.exp(rng.uniform(np.log(SCALE[0]), np.log(SCALE[1]))))
        s = float(np.clip(s * side, *SIDE)) / side
        ph, pw = max(2, round(pixels.shape[0] * s)), max(2, round(pixels.shape[1] * s))
        if pw >= w or ph >= h:
            continue
        spot = _free_spot(rng, (pw, ph), taken, (w, h))
        if spot is None:
            continue
        x, y = spot
        patch = cv2.resize(pixels, (pw, ph), interpolation=cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR)
        b = (x + box[0] * s, y + box[1] * s, x + box[2] * s, y + box[3] * s)
        alpha = _alpha((pw, ph), (b[0] - x, b[1] - y, b[2] - x, b[3] - y))[..., None]
        region = out[y:y + ph, x:x + pw].astype(np.float32)
        out[y:y + ph, x:x + pw] = np.round(alpha * patch + (1 - alpha) * region).astype(np.uint8)
        taken.append((x, y, x + pw, y + ph))
        added.append((*b, pieces[i].face))
    return out, np.concatenate([dice.reshape(-1, 5), np.array(added, np.float32).reshape(-1, 5)])


def _turned(rng: np.random.Generator, cut: Cut):
    """The cut a random quarter turn round, maybe mirrored, and its box moved with it."""
    pixels, (x0, y0, x1, y1) = cut.pixels, cut.box
    if rng.random() < 0.5:
        pixels = pixels[:, ::-1]
        x0, x1 = pixels.shape[1] - x1, pixels.shape[1] - x0
    for _ in range(int(rng.integers(4))):  # np.rot90: a quarter turn anticlockwise
        w = pixels.shape[1]
        pixels = np.rot90(pixels)
        x0, y0, x1, y1 = y0, w - x1, y1, w - x0
    return np.ascontiguousarray(pixels), (x0, y0, x1, y1)


def _free_spot(rng, size, taken, frame, tries: int = 20):
    """Top-left corner of a size (w, h) patch inside the frame that overlaps no box in taken."""
    pw, ph = size
    for _ in range(tries):
        x, y = int(rng.integers(0, frame[0] - pw + 1)), int(rng.integers(0, frame[1] - ph + 1))
        if all(x + pw <= t[0] or t[2] <= x or y + ph <= t[1] or t[3] <= y for t in taken):
            return x, y
    return None


def _alpha(size, box) -> np.ndarray:
    """(h, w) float32: 1 on the box, falling linearly to 0 at the patch's edge."""
    pw, ph = size
    xs, ys = np.arange(pw, dtype=np.float32) + 0.5, np.arange(ph, dtype=np.float32) + 0.5

    def ramp(v, lo, hi, end):
        fade = np.clip(np.minimum(v / max(lo, 1e-3), (end - v) / max(end - hi, 1e-3)), 0, 1)
        return np.where((v >= lo) & (v <= hi), 1.0, fade).astype(np.float32)

    return np.outer(ramp(ys, box[1], box[3], ph), ramp(xs, box[0], box[2], pw))
