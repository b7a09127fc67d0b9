"""Training samples for reading the top face only (issue 14 round 16, models/DETECTOR_CARD.md).

One rendered die gives, from one scene:
- its die crop, cut as render_die_crop cuts it (the detector box's jitter, sometimes the frame's
  edge cutting the die, vision.crops.die_crop at 48 px and CROP_MARGIN): the top-face locator's input;
- the top face's axis-aligned box in that crop's coordinates, normalised 0..1 (cx, cy, w, h):
  from the sprite's top_quad, moved by the die's placement and the crop's square
  (vision.crops.crop_square): the locator's target;
- a top-face crop: die_crop around the true top-face box, jittered as a locator's box may be,
  at TOP_MARGIN: the top-face classifier's input.

render_die_crop itself is not changed (its crops are cached and pinned by digest); this module
draws its own scenes from its own seeds.
"""
from __future__ import annotations

import numpy as np

from ..crops import CROP_MARGIN, INPUT_SIZE, crop_square, die_crop
from ..topface import box_from_crop, box_in_crop  # noqa: F401 (here for the tests and trainer)
from .scene import as_generator, detector_box, die_scene

# The top-face crop's side / the top face's box's longer side.
TOP_MARGIN = 1.3


def quad_box(quad) -> tuple[float, float, float, float]:
    """The axis-aligned box (x0, y0, x1, y1) of a 4x2 quad."""
    q = np.asarray(quad, np.float64)
    x0, y0 = q.min(0)
    x1, y1 = q.max(0)
    return float(x0), float(y0), float(x1), float(y1)


def jitter_top(g: np.random.Generator, box, shift: float = 0.06, scale=(0.85, 1.2)):
    """A top-face box moved and grown or shrunk as a locator's prediction may be."""
    x0, y0, x1, y1 = box
    w, h = x1 - x0, y1 - y0
    s = max(w, h)
    cx = (x0 + x1) / 2 + float(np.clip(g.normal(0, shift), -2.5 * shift, 2.5 * shift)) * s
    cy = (y0 + y1) / 2 + float(np.clip(g.normal(0, shift), -2.5 * shift, 2.5 * shift)) * s
    k = float(g.uniform(*scale))
    w2, h2 = w * k * float(g.uniform(0.92, 1.08)), h * k * float(g.uniform(0.92, 1.08))
    return (cx - w2 / 2, cy - h2 / 2, cx + w2 / 2, cy + h2 / 2)


def render_top_sample(rng, face: int, *, steep=False, edge: float | None = None, tilt_max: float = 42.0,
                      size: int = INPUT_SIZE, margin: float = CROP_MARGIN, top_margin: float = TOP_MARGIN):
    """(die crop, top box in it (cx, cy, w, h) 0..1, top-face crop, top quad in the die crop (4x2, 0..1))
    of one die showing face; None when its top face is not in view (the caller draws another)."""
    g = as_generator(rng)
    image, placed, _ = die_scene(g, face, edge, tilt_max, steep=steep)
    target = placed[0]
    if target.sprite.top_quad is None:
        return None
    quad = target.sprite.top_quad + np.array([target.x, target.y], np.float32)
    side = image.shape[0]
    box = detector_box(g, target.box, target.sprite.top_quad, (target.x, target.y))
    if g.random() < 0.25:  # the frame's edge cuts the die, as render_die_crop
        bx0, by0, bx1, by1 = (int(round(v)) for v in target.box)
        cut = [int(g.integers(0, max(1, bx0) + 1)) if g.random() < 0.5 else 0,
               int(g.integers(0, max(1, by0) + 1)) if g.random() < 0.5 else 0]
        end = [side - int(g.integers(0, max(1, side - bx1) + 1)) if g.random() < 0.5 else side,
               side - int(g.integers(0, max(1, side - by1) + 1)) if g.random() < 0.5 else side]
        image = image[cut[1]:end[1], cut[0]:end[0]]
        box = (box[0] - cut[0], box[1] - cut[1], box[2] - cut[0], box[3] - cut[1])
        quad = quad - np.array(cut, np.float32)
        h, w = image.shape[:2]
        box = (max(box[0], 0.0), max(box[1], 0.0), min(box[2], w), min(box[3], h))
    crop = die_crop(image, box, size, margin)
    top = quad_box(quad)
    target_box = box_in_crop(top, box, margin)
    sx, sy, sq = crop_square(box, margin)
    quad_norm = ((quad - np.array([sx, sy], np.float32)) / sq).astype(np.float32)
    top_crop = die_crop(image, jitter_top(g, top), size, top_margin)
    return crop, target_box, top_crop, quad_norm


def not_a_die_box(rng, *, steep=False, clutter: float = 0.25):
    """(image, box, the dice's boxes) of a box that holds no one die, drawn as vision.synth.nodie draws them (beside
    a die, between two, around two, bare tray, a piece of a die; or, with chance clutter, a thing
    that is not a die): for the top-face classifier's NOT_A_DIE cut through the locator, as the
    reader cuts it (the box's die crop -> the locator's top face -> a crop around that)."""
    import cv2
    from .nodie import _box, _like_a_die, _square
    from .scene import CROP_EDGE_MAX, EDGE_RANGE, composite, random_light
    from .style import camera_effects
    g = as_generator(rng)
    if g.random() < clutter:
        from .clutter import DISTRACTORS, add_distractors, surface
        edge = float(np.exp(g.uniform(np.log(EDGE_RANGE[0] - 2), np.log(CROP_EDGE_MAX))))
        kind = "cable" if g.random() < 1 / 3 else str(g.choice([k for k in DISTRACTORS if k != "cable"]))
        side = int(6 * edge)
        for _ in range(20):
            bg = surface(g, (side, side))
            mask = add_distractors(g, bg, 1, edge * float(g.uniform(0.8, 1.6)), kind=kind)
            ys, xs = np.nonzero(mask > 0.5)
            if len(xs):
                break
        else:
            return not_a_die_box(g, steep=steep, clutter=0.0)
        image = camera_effects(g, composite(bg, [], random_light(g), 0.4),
                               strength=float(np.clip(edge / 40.0, 0.5, 1.0)))
        bulk = cv2.GaussianBlur(mask, (0, 0), max(1.0, edge / 3))[ys, xs] ** 4
        k = int(g.choice(len(xs), p=bulk / bulk.sum()))
        return image, _square(float(xs[k]), float(ys[k]), edge * float(g.uniform(0.8, 1.4))), []
    kinds, weights = ("aside", "between", "pair", "tray", "piece"), np.array([0.3, 0.22, 0.15, 0.15, 0.18])
    kind = str(g.choice(kinds, p=weights / weights.sum()))
    neighbours = int(g.integers(1, 5)) if kind in ("between", "pair") else None
    image, placed, _ = die_scene(g, int(g.integers(1, 7)), None, 42.0, neighbours, steep=steep)
    frame = image.shape[0]
    for _ in range(20):
        box = _box(g, kind, placed, frame)
        middle_inside = 0 <= (box[0] + box[2]) / 2 < frame and 0 <= (box[1] + box[3]) / 2 < frame
        if middle_inside and not _like_a_die(box, placed):
            return image, box, [p.box for p in placed]
        kind = "aside"
    x0, y0, x1, y1 = placed[0].box
    return image, _square(0, 0, float(np.sqrt((x1 - x0) * (y1 - y0)))), [p.box for p in placed]
