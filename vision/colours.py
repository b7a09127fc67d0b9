"""Which die: Centerville's six dice told apart by colour under the table's light.

A die's body colour is measured on its top face (the larger of two colour clusters there: the
body, not the icon's ink), in linear light. The lamp is unknown: a warm bulb makes white paper
yellow and a blue die grey. So the tray's colour gives a first white balance (the tray, away from
the dice, is taken to be roughly neutral, weakly: felt is often green), and the dice found
together are matched to the six colours as one assignment (each colour once), every one of the
720 orders tried with its own best white balance (per-channel gains, pulled toward the tray's);
the order whose balanced colours lie nearest the references wins. A die's colour confidence is
how much worse the best order that gives it another colour is.

Reference colours are data (data/centerville_colours.toml, which a table can edit): the
rulebook names the colours, not their shades.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

import cv2
import numpy as np

from .colors import inner_region

__all__ = ["DieColour", "assign_colours", "candidates", "measure", "nearest_colour", "references", "tray_gains"]

# A tray's colour says at most this much (log gain) of the lamp's: felt is often green or red.
MAX_TRAY_CAST = 0.3
# The tray's white balance is a prior worth this many dice's evidence (chosen on 250 rendered
# trays, seed 7: 0.5 misnamed 6 of 1500 dice, 0.1 none).
TRAY_WEIGHT = 0.1
# A cost gap (summed Lab distances) this big between the best order and the best one giving a
# die another colour makes that die's colour sure (confidence 1).
SURE_GAP = 20.0
# The tray's colour is read in a ring RING_GAP of the box's side clear of it, RING_DEPTH deep:
# the detector's box on an icon die can be 0.65 of the die, which leaves 0.27 of the side of die
# beyond each edge, and a ring just outside (0 to 0.15, before session 31) lay on the die's body.
# Chosen on 100 rendered Centerville trays (seed stream [99, 21]); with the candidates picked
# again (assign_colours), on fresh streams: detector boxes 46 -> 7 of 1,800 dice misnamed or
# missed, truth boxes 3,592 -> 3,596 of 3,600 right (models/EMBEDDING_ROUNDS.md, "Colour on the
# reader's own boxes").
RING_GAP = 0.3
RING_DEPTH = 0.15
# The die's colours are clustered in the box less this much of its side on every edge; growing
# it instead (-0.05) let the tray in as a candidate: 6 more of 3,600 misnamed on truth boxes.
REGION_MARGIN = 0.08


@dataclass(frozen=True)
class DieColour:
    colour: str | None      # None: more dice than colours, this one was left out
    confidence: float       # 0..1
    measured: tuple[float, float, float]  # the body's BGR, white-balanced, 0..255


@lru_cache(maxsize=1)
def references() -> dict[str, np.ndarray]:
    """Colour name -> reference body colour, BGR 0..255 (from data/centerville_colours.toml)."""
    return references_from_toml(resources.files("vision").joinpath("data", "centerville_colours.toml").read_bytes())


def references_from_toml(data: str | bytes,
                         path: str = "vision/data/centerville_colours.toml") -> dict[str, np.ndarray]:
    """The reference colours of a colours file; DataFileError naming the file and key on a bad one."""
    from companion.engine.core import DataFileError, load_data_toml
    from companion.engine.schema import List, Map, Num, Obj

    bgr = List(Num(), min=3, max=3, says="must be [B, G, R], 0..255.")
    table = load_data_toml(data, path, Obj({"colours": Map(bgr)}, required=("colours",)))
    out = {}
    for name, value in table["colours"].items():
        if not all(0 <= v <= 255 for v in value):
            raise DataFileError(f"{path}: colours.{name}: must be [B, G, R], 0..255.", path=path, key=f"colours.{name}")
        out[name] = np.array(value, np.float64)
    return out


def _linear(bgr) -> np.ndarray:
    return (np.asarray(bgr, np.float64) / 255.0) ** 2.2


_XYZ = np.array([[0.1805, 0.3576, 0.4124], [0.0722, 0.7152, 0.2126], [0.9505, 0.1192, 0.0193]])  # BGR -> XYZ
_WHITE = np.array([0.9505, 1.0, 1.089])


def _lab(linear_bgr: np.ndarray) -> np.ndarray:
    """CIE Lab (D65) of linear BGR values, any leading shape."""
    t = (np.clip(linear_bgr, 0, None) @ _XYZ.T) / _WHITE
    f = np.where(t > 0.008856, np.cbrt(t), 7.787 * t + 16 / 116)
    return np.stack([116 * f[..., 1] - 16, 500 * (f[..., 0] - f[..., 1]), 200 * (f[..., 1] - f[..., 2])], -1)


def candidates(frame_bgr: np.ndarray, box) -> np.ndarray:
    """The colours that may be the die's body, linear BGR (c, 3), likeliest first.

    The box's pixels (shrunk to 20 x 20) fall in three colour clusters: the tray showing at the
    box's corners, the body (top face and sides, shaded) and the icon's ink, which can fill much
    of the face (a black vote on a yellow die outnumbers the yellow at its middle), so neither
    the middle nor the biggest cluster is surely the body. The cluster nearest the tray around
    the box is dropped; the others of a sixth of the pixels or more are candidates, the
    most colourful first (ink is white or black). The assignment picks among them.

    The detector's box on an icon die can be as tight as 0.65 of the die, around the icon, so
    the tray is sampled in a ring well clear of the box (RING_GAP): a ring just outside a tight
    box lies on the die's own body, and the body was the cluster dropped.
    """
    x0, y0, x1, y1 = (float(v) for v in box)
    region = inner_region(frame_bgr, box, REGION_MARGIN)
    if region.shape[0] * region.shape[1] > 400:
        region = cv2.resize(region, (20, 20), interpolation=cv2.INTER_AREA)
    px = region.reshape(-1, 3).astype(np.float32)
    if len(px) < 12:
        return _linear(np.median(px, axis=0))[None]
    ring = _tray_ring(frame_bgr, (x0, y0, x1, y1))
    crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 10, 1.0)
    # Start from thirds by brightness (dark, middle, bright): the same pixels always give the
    # same clusters (cv2's own seeding draws from a global random state).
    rank = np.argsort(np.argsort(px.sum(axis=1), kind="stable"), kind="stable")
    start = (rank * 3 // len(px)).astype(np.int32).reshape(-1, 1)
    _, lab, centres = cv2.kmeans(px, 3, start, crit, 1, cv2.KMEANS_USE_INITIAL_LABELS)
    lab = lab.ravel()
    sizes = np.bincount(lab, minlength=3).astype(float)
    if len(ring):
        tray = np.median(ring.astype(np.float32), axis=0)
        near = int(np.linalg.norm(centres - tray, axis=1).argmin())
        if np.linalg.norm(centres[near] - tray) < 40:
            sizes[near] = 0
    keep = [c for c in range(3) if sizes[c] >= max(1.0, sizes.sum() / 6)] or [int(sizes.argmax())]
    chroma = centres.max(axis=1) - centres.min(axis=1)
    keep.sort(key=lambda c: -chroma[c])
    return np.stack([_linear(np.median(px[lab == c], axis=0)) for c in keep])


def _tray_ring(frame_bgr: np.ndarray, box) -> np.ndarray:
    """The pixels (m, 3) of a ring around box, RING_GAP of its side clear of it, RING_DEPTH deep."""
    x0, y0, x1, y1 = box
    side = max(x1 - x0, y1 - y0)
    gap, depth = int(RING_GAP * side), int(max(2, RING_DEPTH * side))
    h, w = frame_bgr.shape[:2]
    # The outer rectangle, clipped to the frame, less the inner one (in the window's coordinates).
    ox0, oy0 = min(max(int(x0) - gap - depth, 0), w), min(max(int(y0) - gap - depth, 0), h)
    ox1, oy1 = min(max(int(x1) + gap + depth, 0), w), min(max(int(y1) + gap + depth, 0), h)
    window = frame_bgr[oy0:oy1, ox0:ox1]
    mask = np.ones(window.shape[:2], bool)
    mask[max(int(y0) - gap - oy0, 0):max(int(y1) + gap - oy0, 0), max(int(x0) - gap - ox0, 0):max(int(x1) + gap - ox0, 0)] = False
    return window[mask]


def measure(frame_bgr: np.ndarray, box) -> np.ndarray:
    """The die's likeliest body colour, linear BGR (the first of candidates)."""
    return candidates(frame_bgr, box)[0]


def tray_gains(frame_bgr: np.ndarray, boxes) -> np.ndarray:
    """Log per-channel gains that make the tray (away from the dice) neutral grey."""
    h, w = frame_bgr.shape[:2]
    k = max(1, int(max(h, w) // 96))  # a tray's colour needs no more than ~100 x 75 samples
    small = frame_bgr[::k, ::k]
    mask = np.ones(small.shape[:2], bool)
    for x0, y0, x1, y1 in boxes:
        pad = 0.3 * max(x1 - x0, y1 - y0)
        mask[max(int((y0 - pad) / k), 0):int((y1 + pad) / k) + 1, max(int((x0 - pad) / k), 0):int((x1 + pad) / k) + 1] = False
    px = small[mask] if mask.any() else small.reshape(-1, 3)
    mean = _linear(np.median(px.reshape(-1, 3), axis=0)) + 1e-4
    return np.log(mean) - np.log(mean).mean()


def _weights(refs: np.ndarray) -> np.ndarray:
    # A dark die says little about the lamp's colour (its few levels are mostly noise).
    return np.clip(refs.mean(axis=-1) * 4, 0.02, 1.0)


def _order_gains(cand: np.ndarray, pick: np.ndarray, refs: np.ndarray, wt: np.ndarray, prior: np.ndarray):
    """Each order's dice colours (P, use, 3), the candidates (use, C, 3) it picks (P, use), and
    its gains (P, 3): the weighted mean log ratio to its references (P, use, 3), pulled toward
    the tray's (prior)."""
    ms = cand[np.arange(cand.shape[0])[None], pick]
    d = np.log(ms) - np.log(refs)
    return ms, ((wt * d).sum(1) + TRAY_WEIGHT * (prior + d.mean(axis=(1, 2))[:, None])) / (wt.sum(1) + TRAY_WEIGHT)


def assign_colours(frame_bgr: np.ndarray, boxes, names: tuple[str, ...] | None = None) -> list[DieColour]:
    """The colour of each die in boxes, as one assignment: each colour of names at most once."""
    refs_by_name = references()
    names = tuple(names or refs_by_name)
    if not boxes:
        return []
    cands = [candidates(frame_bgr, b) for b in boxes]
    c_max = max(len(c) for c in cands)
    # (n, C, 3) candidates, a die's missing ones repeating its first.
    m = np.stack([np.concatenate([c, np.repeat(c[:1], c_max - len(c), 0)]) for c in cands]) + 1e-4
    refs = _linear(np.stack([refs_by_name[c] for c in names])) + 1e-4          # (k, 3)
    prior = np.clip(tray_gains(frame_bgr, boxes), -MAX_TRAY_CAST, MAX_TRAY_CAST)
    n, k = len(m), len(names)
    use = min(n, k)
    lab_refs = _lab(refs)
    # Dice beyond the colours' count: every subset of `use` dice is tried (rare: a die boxed
    # twice, a die from another game), and every order of the colours over them.
    orders = np.array(list(itertools.permutations(range(k), use)))              # (P, use)
    subsets = list(itertools.combinations(range(n), use)) if n > k else [tuple(range(n))]
    # Under the tray's balance alone, the candidate of each die nearest each colour.
    near = np.linalg.norm(_lab(m / np.exp(prior))[:, :, None] - lab_refs[None, None], axis=-1).argmin(1)  # (n, k)
    r = refs[orders]                                                            # (P, use, 3)
    wt = _weights(r)[..., None]
    best = None
    for subset in subsets:
        sub = list(subset)
        cand = m[sub]                                                           # (use, C, 3)
        # Fit each order's gains, pick each die's candidate again under them, and fit once more:
        # under the tray's balance alone a blue die's white ink can be its candidate nearest blue
        # (dark wood), and the right order then costs more than a swap.
        ms, g = _order_gains(cand, near[sub][np.arange(use)[None], orders], r, wt, prior)
        under = _lab(cand[None] / np.exp(g)[:, None, None, :])                 # (P, use, C, 3)
        ms, g = _order_gains(cand, np.linalg.norm(under - lab_refs[orders][:, :, None], axis=-1).argmin(-1), r, wt, prior)
        balanced = ms / np.exp(g)[:, None, :]
        cost = np.linalg.norm(_lab(balanced) - lab_refs[orders], axis=-1)      # (P, use)
        total = cost.sum(axis=1)
        i = int(total.argmin())
        if best is None or total[i] < best[0]:
            best = (float(total[i]), subset, orders, total, i, balanced)
    _, subset, orders, total, i, balanced = best
    out: list[DieColour] = [DieColour(None, 0.0, (0.0, 0.0, 0.0)) for _ in boxes]
    for j, die in enumerate(subset):
        colour = orders[i, j]
        other = total[orders[:, j] != colour]
        gap = float(other.min() - total[i]) if len(other) else SURE_GAP
        seen = tuple(float(v) for v in np.clip(balanced[i, j], 0, 1) ** (1 / 2.2) * 255)
        out[die] = DieColour(names[colour], float(np.clip(gap / SURE_GAP, 0, 1)), seen)
    return out


def nearest_colour(picture_bgr: np.ndarray, names: tuple[str, ...] | None = None) -> tuple[str, float]:
    """The colour of one die filling a picture, by its nearest reference (no white balance:
    a single die gives no tray to balance against); confidence from the runner-up's distance."""
    refs_by_name = references()
    names = tuple(names or refs_by_name)
    h, w = picture_bgr.shape[:2]
    lab = _lab(measure(picture_bgr, (0, 0, w, h)))
    dist = sorted((float(np.linalg.norm(lab - _lab(_linear(refs_by_name[c])))), c) for c in names)
    gap = dist[1][0] - dist[0][0] if len(dist) > 1 else SURE_GAP
    return dist[0][1], float(np.clip(gap / SURE_GAP, 0, 1))
