"""What else lies on a table: more surfaces than a tray's, and things that are not dice.

The learned detector must never count a coin, a token, a pencil, a card or a blank cube, and
must find dice on carpet, plastic and leather as well as felt and wood: these are drawn here
onto a float BGR image (before the dice, so dice lie on top of them and cast their shadows).
How often each is drawn, and the real failure each hard negative answers, is in
data/negatives.toml.
"""
from __future__ import annotations

from functools import lru_cache
from importlib import resources

import cv2
import numpy as np

from .style import BACKGROUNDS, _jitter, _pick, _smooth_noise, background

MORE_SURFACES = ("carpet", "plastic", "leather", "dark-wood", "mesh")
ALL_SURFACES = BACKGROUNDS + MORE_SURFACES


@lru_cache(maxsize=1)
def negatives() -> dict:
    """data/negatives.toml: distractor weights, knots on wood, the slanted coloured-dice trays;
    read like every shipped data file (core.load_data_toml): a bad value names its key and line."""
    from companion.engine import schema as S
    from companion.engine.core import load_data_toml

    share = S.Num(0, 1)
    shape = S.Obj({"distractors": S.Map(S.Num(0), keys=_KINDS), "wood": S.Obj({"knots": share}, required=("knots",)),
                   "slant": S.Obj({"share": share, "colours": S.List(S.Str(), min=1),
                                   "lean": S.List(S.Num(0, 90), min=2, max=2), "tilt_max": S.Num(0, 90)},
                                  required=("share", "colours", "lean", "tilt_max"))},
                  required=("distractors", "wood", "slant"))
    path = "vision/synth/data/negatives.toml"
    return load_data_toml(resources.files(__package__).joinpath("data", "negatives.toml").read_bytes(), path, shape)


# The distractors add_distractors can draw; negatives.toml weighs them.
_KINDS = ("coin", "token", "pencil", "card", "spots", "knot", "fabric", "ghost", "cable")
DISTRACTORS = tuple(negatives()["distractors"])
_WEIGHTS = np.array(list(negatives()["distractors"].values()), float)


def _pick_distractor(rng) -> str:
    return DISTRACTORS[int(rng.choice(len(DISTRACTORS), p=_WEIGHTS / _WEIGHTS.sum()))]


def draw_knot(rng, img: np.ndarray, cx: float, cy: float, size: float) -> np.ndarray:
    """Concentric, slightly elliptical growth rings around a dark heart, darkening img in place
    (a knot in wood grain): rings and a dot are what a "1" die looks like to a small network.
    Returns the mask of the knot."""
    h, w = img.shape[:2]
    r = max(4.0, size * float(rng.uniform(0.5, 1.5)))
    x0, x1 = int(max(0, cx - 2 * r)), int(min(w, cx + 2 * r + 1))
    y0, y1 = int(max(0, cy - 2 * r)), int(min(h, cy + 2 * r + 1))
    mask = np.zeros((h, w), np.float32)
    if x1 <= x0 or y1 <= y0:
        return mask
    yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
    ang, squash = float(rng.uniform(0, np.pi)), float(rng.uniform(1.0, 2.5))
    u = (xx - cx) * np.cos(ang) + (yy - cy) * np.sin(ang)
    v = -(xx - cx) * np.sin(ang) + (yy - cy) * np.cos(ang)
    d = np.sqrt((u / squash) ** 2 + v ** 2)
    period = r / float(rng.uniform(2.0, 5.0))
    rings = np.clip(np.sin(d / period * 2 * np.pi) * 1.5, 0, 1) * np.exp(-(d / (1.4 * r)) ** 2)
    heart = np.exp(-(d / max(1.0, r * float(rng.uniform(0.12, 0.3)))) ** 2)
    dark = np.clip(float(rng.uniform(0.2, 0.5)) * rings + float(rng.uniform(0.3, 0.7)) * heart, 0, 0.85)
    img[y0:y1, x0:x1] *= (1 - dark)[..., None]
    mask[y0:y1, x0:x1] = np.clip(rings + heart, 0, 1)
    return mask


def surface(rng: np.random.Generator, size: tuple[int, int]) -> np.ndarray:
    """Any surface, the tray's own kinds included, as float32 BGR of size (w, h)."""
    kind = _pick(rng, list(ALL_SURFACES))
    w, h = size
    if kind in BACKGROUNDS:
        img = background(rng, size, kind)
    elif kind == "carpet":
        base = np.array(_jitter(rng, _pick(rng, [(90, 90, 95), (60, 75, 100), (110, 105, 100), (50, 50, 60)]), 15),
                        np.float32)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        img += rng.normal(0, rng.uniform(8, 20), (h, w, 1)).astype(np.float32)
        img += _smooth_noise(rng, h, w, 3, 8)[..., None] + _smooth_noise(rng, h, w, 30, 10)[..., None]
    elif kind == "plastic":
        base = np.array(_jitter(rng, _pick(rng, [(30, 110, 230), (200, 120, 40), (240, 240, 240), (40, 40, 40),
                                                 (60, 180, 60)]), 20), np.float32)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        # Shiny: broad soft highlights.
        img += np.clip(_smooth_noise(rng, h, w, 60, 40), 0, None)[..., None]
    elif kind == "leather":
        base = np.array(_jitter(rng, _pick(rng, [(30, 35, 45), (40, 60, 90), (20, 20, 22)]), 8), np.float32)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        img += _smooth_noise(rng, h, w, 2, 5)[..., None] + np.clip(_smooth_noise(rng, h, w, 50, 30), 0, None)[..., None]
    elif kind == "dark-wood":
        img = background(rng, size, "wood") * float(rng.uniform(0.35, 0.7))
    else:  # a mesh bin or a woven placemat: a fine regular grid
        base = np.array(_jitter(rng, (60, 60, 60), 30), np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        period = rng.uniform(3, 8)
        ang = rng.uniform(0, np.pi)
        u, v = xx * np.cos(ang) + yy * np.sin(ang), -xx * np.sin(ang) + yy * np.cos(ang)
        grid = (np.sin(u / period * 2 * np.pi) > 0.6) | (np.sin(v / period * 2 * np.pi) > 0.6)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        img[grid] *= rng.uniform(0.4, 1.8)
    if kind in ("wood", "dark-wood") and rng.random() < negatives()["wood"]["knots"]:
        for _ in range(int(rng.integers(1, 4))):
            draw_knot(rng, img, float(rng.uniform(0, w)), float(rng.uniform(0, h)), float(rng.uniform(6, 30)))
    return img


def _draw_cable(rng, img: np.ndarray, cx: float, cy: float, size: float) -> np.ndarray:
    """A cable curving in from afar and ending in a plug at (cx, cy), drawn in place: a moulded
    block or cylinder (a plug, a ferrite bead) one to two dice long, shaded round across its width,
    often with light specks or ridges on it, which a small network takes for a dark die showing
    pips. Returns its mask."""
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.float32)
    heading = float(rng.uniform(0, 2 * np.pi))
    thick = max(2, int(size * rng.uniform(0.1, 0.22)))
    # The cable: a smooth random walk back from the plug, long enough to leave the frame.
    pts, x, y, a = [], cx, cy, heading + np.pi
    for _ in range(40):
        pts.append((x, y))
        a += float(rng.normal(0, 0.25))
        x, y = x + size * 0.5 * np.cos(a), y + size * 0.5 * np.sin(a)
    cv2.polylines(mask, [np.array(pts, np.int32)], False, 1.0, thick, cv2.LINE_AA)
    body = np.zeros_like(mask)
    length, width = size * rng.uniform(0.8, 2.0), max(3.0, size * rng.uniform(0.5, 1.1))
    mx, my = cx + 0.5 * length * np.cos(heading), cy + 0.5 * length * np.sin(heading)
    cv2.fillPoly(body, [cv2.boxPoints(((mx, my), (length, width), float(np.degrees(heading)))).astype(np.int32)],
                 1.0, cv2.LINE_AA)
    body = cv2.GaussianBlur(body, (0, 0), max(0.8, width / 12))  # moulded, rounded edges
    mask = np.maximum(mask, body)
    _shadowed(img, mask, 0.45)
    colour = np.array(_jitter(rng, _pick(rng, [(25, 25, 28), (45, 45, 50), (215, 215, 210), (70, 60, 55)]), 8),
                      np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    across = (-(xx - mx) * np.sin(heading) + (yy - my) * np.cos(heading)) / (width / 2)   # -1..1 over the width
    along = ((xx - mx) * np.cos(heading) + (yy - my) * np.sin(heading)) / (length / 2)    # -1..1 over the length
    # Round across its width, lit from one side, with a glossy band where the lamp catches it.
    shade = 0.6 + 0.4 * np.cos(np.clip(across, -1, 1) * np.pi / 2) * float(rng.uniform(0.5, 1.0))
    gloss = np.exp(-((across - float(rng.uniform(-0.6, 0.6))) / 0.18) ** 2) * float(rng.uniform(0.0, 90.0))
    fill = colour[None, None, :] * shade[..., None] + gloss[..., None]
    if rng.random() < 0.6:  # light specks or moulded ridges: what passes for pips
        for _ in range(int(rng.integers(1, 6))):
            u, v = float(rng.uniform(-0.8, 0.8)), float(rng.uniform(-0.6, 0.6))
            r = float(rng.uniform(0.06, 0.16))
            speck = np.exp(-(((along - u) * length / width) ** 2 + (across - v) ** 2) / r ** 2)
            fill += (speck * float(rng.uniform(40, 140)))[..., None]
    img[:] = img * (1 - mask[..., None]) + np.where(body[..., None] > 0, fill, colour) * mask[..., None]
    if rng.random() < 0.5:  # a metal tip out of the plug's far end
        tip = np.zeros_like(mask)
        end = (cx + (length + width * 0.3) * np.cos(heading), cy + (length + width * 0.3) * np.sin(heading))
        cv2.fillPoly(tip, [cv2.boxPoints((end, (width * 0.6, width * 0.55), float(np.degrees(heading))))
                           .astype(np.int32)], 1.0, cv2.LINE_AA)
        img[:] = img * (1 - tip[..., None]) + np.float32(rng.uniform(150, 210)) * tip[..., None]
        mask = np.maximum(mask, tip)
    return mask


def _shadowed(img, mask, strength):
    """Darken a soft shadow of mask a little down-right of it (a lamp above-left)."""
    k = max(1, int(mask.shape[0] / 100))
    shadow = cv2.GaussianBlur(np.roll(np.roll(mask, 2 * k, 0), 2 * k, 1), (0, 0), 2 + k)
    img *= (1 - strength * shadow)[..., None]


def add_distractors(rng: np.random.Generator, img: np.ndarray, count: int, scale: float,
                    kind: str | None = None) -> np.ndarray:
    """count things that are not dice (about scale pixels across), in place; returns their mask.
    kind: draw only that kind (one of _KINDS) instead of picking by negatives.toml's weights."""
    if kind is not None and kind not in _KINDS:
        raise ValueError(f"Unknown distractor {kind!r}; known: {', '.join(_KINDS)}.")
    forced = kind
    h, w = img.shape[:2]
    taken = np.zeros((h, w), np.float32)
    for _ in range(count):
        kind = forced or _pick_distractor(rng)
        cx, cy = float(rng.uniform(0, w)), float(rng.uniform(0, h))
        size = scale * float(rng.uniform(0.6, 1.8))
        mask = np.zeros((h, w), np.float32)
        colour = np.array(_jitter(rng, tuple(rng.uniform(20, 235, 3)), 1), np.float32)
        if kind == "coin":
            r = int(max(3, size * 0.5))
            cv2.circle(mask, (int(cx), int(cy)), r, 1.0, -1, cv2.LINE_AA)
            colour = np.array(_pick(rng, [(60, 140, 190), (170, 170, 175), (50, 100, 160)]), np.float32)
            _shadowed(img, mask, 0.35)
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            shade = 0.75 + 0.5 * np.clip(((xx - cx) - (yy - cy)) / (2 * r) + 0.5, 0, 1)
            fill = colour[None, None, :] * shade[..., None]
            cv2.circle(mask, (int(cx), int(cy)), max(1, int(r * 0.8)), 0.85, 1, cv2.LINE_AA)
            img[:] = img * (1 - mask[..., None]) + fill * mask[..., None]
        elif kind == "token":
            sides = int(rng.choice([0, 6, 4, 8]))
            r = max(3, size * 0.6)
            if sides:
                a = rng.uniform(0, np.pi) + np.arange(sides) * 2 * np.pi / sides
                pts = np.stack([cx + r * np.cos(a), cy + r * np.sin(a)], 1).astype(np.int32)
                cv2.fillPoly(mask, [pts], 1.0, cv2.LINE_AA)
            else:
                cv2.circle(mask, (int(cx), int(cy)), int(r), 1.0, -1, cv2.LINE_AA)
            _shadowed(img, mask, 0.35)
            img[:] = img * (1 - mask[..., None]) + colour * mask[..., None]
            if rng.random() < 0.5:  # a printed symbol
                sym = np.zeros_like(mask)
                cv2.putText(sym, _pick(rng, ["1", "2", "5", "X", "*", "$"]), (int(cx - r / 2), int(cy + r / 2)),
                            cv2.FONT_HERSHEY_SIMPLEX, r / 22, 1.0, max(1, int(r / 8)), cv2.LINE_AA)
                img[:] = img * (1 - sym[..., None]) + (255 - colour) * sym[..., None]
        elif kind == "pencil":
            length, width = size * rng.uniform(3, 8), max(2, size * rng.uniform(0.15, 0.3))
            rect = ((cx, cy), (length, width), float(rng.uniform(0, 180)))
            cv2.fillPoly(mask, [cv2.boxPoints(rect).astype(np.int32)], 1.0, cv2.LINE_AA)
            _shadowed(img, mask, 0.4)
            img[:] = img * (1 - mask[..., None]) + colour * mask[..., None]
        elif kind == "card":
            rect = ((cx, cy), (size * rng.uniform(1.5, 3), size * rng.uniform(2, 4)), float(rng.uniform(0, 180)))
            cv2.fillPoly(mask, [cv2.boxPoints(rect).astype(np.int32)], 1.0, cv2.LINE_AA)
            _shadowed(img, mask, 0.25)
            img[:] = img * (1 - mask[..., None]) + np.array(_jitter(rng, (235, 235, 230), 20), np.float32) * mask[..., None]
        elif kind == "knot":
            mask = draw_knot(rng, img, cx, cy, size)
        elif kind == "cable":
            mask = _draw_cable(rng, img, cx, cy, size)
        elif kind == "fabric":
            # A patch of cloth (a chair's seat, a sleeve, a bag): a weave or a small printed
            # motif, with soft folds, in a rotated rectangle or a blob a few dice across.
            x0, x1 = int(max(0, cx - 2.5 * size)), int(min(w, cx + 2.5 * size + 1))
            y0, y1 = int(max(0, cy - 2.5 * size)), int(min(h, cy + 2.5 * size + 1))
            if x1 <= x0 or y1 <= y0:
                continue
            rect = ((cx, cy), (size * rng.uniform(2, 5), size * rng.uniform(2, 5)), float(rng.uniform(0, 180)))
            cv2.fillPoly(mask, [cv2.boxPoints(rect).astype(np.int32)], 1.0, cv2.LINE_AA)
            yy, xx = np.mgrid[y0:y1, x0:x1].astype(np.float32)
            period, ang = float(rng.uniform(2.5, max(3.0, size / 3))), float(rng.uniform(0, np.pi))
            u, v = xx * np.cos(ang) + yy * np.sin(ang), -xx * np.sin(ang) + yy * np.cos(ang)
            if rng.random() < 0.5:   # a weave
                tex = 0.5 + 0.25 * np.sin(u / period * 2 * np.pi) + 0.25 * np.sin(v / period * 2 * np.pi)
            else:                    # a printed motif: dots or checks
                a, b = np.sin(u / period * np.pi), np.sin(v / period * np.pi)
                dots = rng.random() < 0.5
                tex = (((a * b) > 0.5) if dots else ((a > 0) ^ (b > 0))).astype(np.float32)
            folds = 1 + _smooth_noise(rng, y1 - y0, x1 - x0, max(2, int(size)), 0.15)
            other = np.array(_jitter(rng, tuple(rng.uniform(20, 235, 3)), 1), np.float32)
            cloth = (colour * (1 - tex[..., None]) + other * tex[..., None]) * folds[..., None]
            _shadowed(img, mask, 0.2)
            m = mask[y0:y1, x0:x1, None]
            img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - m) + cloth * m
        elif kind == "ghost":
            # A faint die-sized smudge: blotchy noise a few levels off the surface, no edges.
            r = max(3, int(size * 0.5))
            x0, x1 = int(max(0, cx - r)), int(min(w, cx + r + 1))
            y0, y1 = int(max(0, cy - r)), int(min(h, cy + r + 1))
            if x1 <= x0 or y1 <= y0:
                continue
            cv2.rectangle(mask, (x0, y0), (x1 - 1, y1 - 1), 1.0, -1)
            mask = cv2.GaussianBlur(mask, (0, 0), max(1.0, r / 3))
            m = mask[y0:y1, x0:x1]
            blotch = _smooth_noise(rng, y1 - y0, x1 - x0, max(2, r // 3), float(rng.uniform(6, 18)))
            img[y0:y1, x0:x1] += (blotch * m + float(rng.uniform(-12, 12)) * m)[..., None]
        else:  # spots: a printed pattern of dots on the surface (a board's track, a card's art)
            for _ in range(int(rng.integers(3, 12))):
                cv2.circle(mask, (int(cx + rng.normal(0, size)), int(cy + rng.normal(0, size))),
                           max(1, int(size * rng.uniform(0.06, 0.15))), 1.0, -1, cv2.LINE_AA)
            img[:] = img * (1 - mask[..., None]) + colour * mask[..., None]
        taken = np.maximum(taken, mask)
    return taken
