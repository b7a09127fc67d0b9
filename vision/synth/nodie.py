"""Crops that hold no one die: what a detector's wrong box shows (the classifier's NOT_A_DIE).

A detector's box can be wrong in a few ways, each drawn here from the same dice and trays as
the die crops: a box off to the side of a die (its middle on the die's edge or beyond), a box
between two touching dice (half of each), a box around two dice at once, a box of bare tray
(wood grain, felt, a shadow, the edge of a die at most), a box on the tray's likeliest pip (a
wood grain's ring), and a box around a pip or a corner of a big die whose body hardly shows.
A box whose middle is near a die's middle and about its size is a die's box (the die crops
cover that, shifted and grown as a detector's are) and is never drawn here.
render_side_face_crop draws one more kind, kept apart (the trainer's --side-faces): a box on a
tipped die's side face, beside its top face (render_side_face_crop_any_way: turned any way round).
"""
from __future__ import annotations

import cv2
import numpy as np

from ..crops import CROP_MARGIN, INPUT_SIZE, die_crop
from .scene import CROP_EDGE_MAX, EDGE_RANGE, Placed, as_generator, composite, die_scene, random_light
from .style import background, camera_effects

KINDS = ("aside", "between", "pair", "tray", "grain", "piece")
WEIGHTS = (0.25, 0.18, 0.12, 0.12, 0.18, 0.15)


def _size(p: Placed) -> float:
    x0, y0, x1, y1 = p.box
    return float(np.sqrt((x1 - x0) * (y1 - y0)))


def _like_a_die(box, placed: list[Placed]) -> bool:
    """The box is some die's box, as a detector may give it: near its middle and about its size."""
    bx, by = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    bs = float(np.sqrt((box[2] - box[0]) * (box[3] - box[1])))
    for p in placed:
        s = _size(p)
        cx, cy = p.centre
        if np.hypot(bx - cx, by - cy) < 0.3 * s and 0.55 <= bs / s <= 1.8:
            return True
    return False


def _square(cx: float, cy: float, side: float) -> tuple[float, float, float, float]:
    return (cx - side / 2, cy - side / 2, cx + side / 2, cy + side / 2)


def _grain_crop(g: np.random.Generator, edge: float | None, size: int = INPUT_SIZE,
                margin: float = CROP_MARGIN) -> np.ndarray:
    """Bare tray boxed where it looks most like a pip (a wood grain's ring, a felt's fleck): the
    strongest response of a blob filter a pip wide, one of the few strongest picked at random.
    A whole tray is drawn, as its grain swirls over distances of many dice."""
    if edge is None:
        edge = float(np.exp(g.uniform(np.log(EDGE_RANGE[0] - 2), np.log(CROP_EDGE_MAX))))
    w, h = 320, 240
    # Mostly wood: its grain's rings are what passes for a pip with a face around it.
    surface = "wood" if g.random() < 0.6 else None
    tray = composite(background(g, (w, h), surface), [], random_light(g), 0.4)
    image = camera_effects(g, tray, strength=float(np.clip(edge / 40.0, 0.5, 1.0)))
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    sigma = max(1.0, 0.1 * edge)
    response = np.abs(cv2.GaussianBlur(grey, (0, 0), sigma) - cv2.GaussianBlur(grey, (0, 0), 3 * sigma))
    m = int(edge)
    inner = response[m:h - m, m:w - m]
    best = np.argsort(inner, axis=None)[-8:]
    y, x = np.unravel_index(best[int(g.integers(0, len(best)))], inner.shape)
    return die_crop(image, _square(x + m, y + m, 1.2 * edge * g.uniform(0.7, 1.3)), size, margin)


def _box(g: np.random.Generator, kind: str, placed: list[Placed], frame: int):
    target = placed[0]
    s = _size(target)
    cx, cy = target.centre
    if kind in ("between", "pair") and len(placed) > 1:
        other = placed[1 + int(g.integers(0, len(placed) - 1))]
        ox, oy = other.centre
        if kind == "between":
            t = g.uniform(0.35, 0.65)
            return _square(cx + t * (ox - cx), cy + t * (oy - cy), s * g.uniform(0.8, 1.2))
        x0, y0 = min(target.box[0], other.box[0]), min(target.box[1], other.box[1])
        x1, y1 = max(target.box[2], other.box[2]), max(target.box[3], other.box[3])
        grow = g.uniform(0.95, 1.1)
        mx, my, w, h = (x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) * grow, (y1 - y0) * grow
        return (mx - w / 2, my - h / 2, mx + w / 2, my + h / 2)
    if kind == "tray":
        return _square(g.uniform(0, frame), g.uniform(0, frame), s * g.uniform(0.7, 1.3))
    if kind == "piece":
        # A pip or a corner of the face boxed alone, as a big pale die's pips are.
        return _square(cx + g.uniform(-0.3, 0.3) * s, cy + g.uniform(-0.3, 0.3) * s, s * g.uniform(0.15, 0.45))
    angle, away = g.uniform(0, 2 * np.pi), g.uniform(0.45, 0.9) * s  # "aside"
    return _square(cx + away * np.cos(angle), cy + away * np.sin(angle), s * g.uniform(0.8, 1.2))


def render_not_a_die_crop(rng, *, edge: float | None = None, tilt_max: float = 42.0,
                          size: int = INPUT_SIZE, margin: float = CROP_MARGIN, steep: bool = False) -> np.ndarray:
    """A crop, by the crop convention (at size and margin), of a box that holds no one die (see
    the module's account); steep: among dice seen as die_scene's steep views."""
    g = as_generator(rng)
    kind = str(g.choice(KINDS, p=WEIGHTS))
    if kind == "grain":
        return _grain_crop(g, edge, size, margin)
    neighbours = int(g.integers(1, 5)) if kind in ("between", "pair") else None
    image, placed, _ = die_scene(g, int(g.integers(1, 7)), edge, tilt_max, neighbours, steep=steep)
    frame = image.shape[0]
    for _ in range(20):
        box = _box(g, kind, placed, frame)
        middle_inside = 0 <= (box[0] + box[2]) / 2 < frame and 0 <= (box[1] + box[3]) / 2 < frame
        if middle_inside and not _like_a_die(box, placed):
            return die_crop(image, box, size, margin)
        kind = "aside"  # no neighbour was placed, or the box fell on a die: look beside the die
    return die_crop(image, _square(0, 0, _size(placed[0])), size, margin)  # the patch's corner: bare tray


def render_clutter_crop(rng, *, edge: float | None = None, size: int = INPUT_SIZE,
                        margin: float = CROP_MARGIN) -> np.ndarray:
    """A crop, by the crop convention, of a die-sized box on a thing that is not a die (a coin,
    a token, a pencil, a card, printed spots, a knot, cloth, a smudge, a cable's plug) lying on
    any surface: the classifier's NOT_A_DIE for the things the detector's trays hold, which
    render_not_a_die_crop's boxes (around dice on a bare tray) never show."""
    # Imported here: the simulator imports this module, and needs no distractor data at start-up.
    from .clutter import DISTRACTORS, add_distractors, surface
    g = as_generator(rng)
    if edge is None:
        edge = float(np.exp(g.uniform(np.log(EDGE_RANGE[0] - 2), np.log(CROP_EDGE_MAX))))
    # Any distractor vision.synth.clutter draws; a third of them the cable's plug, the failure that
    # asked for these crops (boxed as a die in tilted-webcam calib photos; DETECTOR_ROUNDS round 12).
    kind = "cable" if g.random() < 1 / 3 else str(g.choice([k for k in DISTRACTORS if k != "cable"]))
    side = int(6 * edge)
    for _ in range(20):
        bg = surface(g, (side, side))
        mask = add_distractors(g, bg, 1, edge * float(g.uniform(0.8, 1.6)), kind=kind)
        ys, xs = np.nonzero(mask > 0.5)
        if len(xs):
            break
    else:
        raise RuntimeError(f"the {kind} distractor never landed in a {side} px tray")
    image = camera_effects(g, composite(bg, [], random_light(g), 0.4),
                           strength=float(np.clip(edge / 40.0, 0.5, 1.0)))
    # A detector's wrong box: die-sized, its middle somewhere on the thing, mostly on its bulk (a
    # plug's body, a coin's face) rather than a thin stretch of it (a cable, a pencil's end).
    bulk = cv2.GaussianBlur(mask, (0, 0), max(1.0, edge / 3))[ys, xs] ** 4
    k = int(g.choice(len(xs), p=bulk / bulk.sum()))
    return die_crop(image, _square(float(xs[k]), float(ys[k]), edge * float(g.uniform(0.8, 1.4))), size, margin)


# A side face is boxed only where it shows at least this share of the top face's area in view (a
# sliver of side face is no box a detector draws), and SIDE_STEEP of the scenes are die_scene's steep
# views (the side faces toward the camera as big as the top face or bigger). The box's middle keeps
# SIDE_CLEAR of the die's side (the square root of its box's area) from the die box's middle and
# from the top face's, so that it is never one of the die crops' boxes (shifted by 5 % of a side).
SIDE_SHARE = 0.35
SIDE_STEEP = 0.3
SIDE_CLEAR = 0.2


def side_face_box(g: np.random.Generator, target: Placed):
    """A detector's box on the target die's biggest side face in view (shifted and grown or shrunk
    as vision.synth.scene.detector_box does a die's), or None where no side face is big enough or
    the box would sit where the die's own box does."""
    sprite = target.sprite
    top = sprite.areas.get("top", 0.0)
    sides = [n for n in sprite.quads if n != "top" and sprite.areas[n] >= SIDE_SHARE * top]
    if top <= 0 or not sides:
        return None
    quad = sprite.quads[max(sides, key=sprite.areas.get)] + np.array([target.x, target.y], np.float32)
    (x0, y0), (x1, y1) = quad.min(0), quad.max(0)
    w, h = (x1 - x0) * g.uniform(0.85, 1.2), (y1 - y0) * g.uniform(0.85, 1.2)
    cx, cy = (x0 + x1) / 2 + g.normal(0, 0.05) * w, (y0 + y1) / 2 + g.normal(0, 0.05) * h
    s = _size(target)
    top_centre = (sprite.top_quad + np.array([target.x, target.y], np.float32)).mean(0)
    for mx, my in (target.centre, top_centre):
        if np.hypot(cx - mx, cy - my) < SIDE_CLEAR * s:
            return None
    return (cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2)


def render_side_face_crop(rng, *, edge: float | None = None, size: int = INPUT_SIZE,
                          margin: float = CROP_MARGIN) -> np.ndarray:
    """A crop, by the crop convention, of a box on a tipped die's side face: what the reader kept as
    a die of its own beside a steep die's top face (tilted-webcam calib valid_6 and valid_74, read
    at 0.96-0.99; models/DETECTOR_ROUNDS.md, round 30). Mostly dice tipped toward the camera's foot, as
    die_scene draws tilts past 22 degrees and its steep views."""
    g = as_generator(rng)
    for _ in range(100):
        image, placed, _ = die_scene(g, int(g.integers(1, 7)), edge, steep=bool(g.random() < SIDE_STEEP))
        box = side_face_box(g, placed[0])
        if box is not None:
            return die_crop(image, box, size, margin)
    raise RuntimeError("no die scene in 100 showed a side face big enough to box")


def render_side_face_crop_any_way(rng, *, edge: float | None = None, size: int = INPUT_SIZE,
                                  margin: float = CROP_MARGIN) -> np.ndarray:
    """render_side_face_crop turned a random quarter turn: the side face above, beside or below its top
    face, as a camera held any way round shows it (round 30's side faces lay mostly below their top face,
    and the classifier taught on them read a camera turned 180 degrees 5 dice worse; DETECTOR_ROUNDS round 31)."""
    g = as_generator(rng)
    crop = render_side_face_crop(g, edge=edge, size=size, margin=margin)
    return np.ascontiguousarray(np.rot90(crop, int(g.integers(4))))
