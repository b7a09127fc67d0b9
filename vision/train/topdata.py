"""Rendered sets for the top-face locator and classifier (round 16), seeded per sample and cached.

Each sample i of a set: label i % 7 (pip1..pip6, then NOT_A_DIE); a die gives its die crop, its
top face's box in that crop (vision.synth.topface) and a top-face crop; a NOT_A_DIE sample gives
only a top-face-sized crop of a box on no die (its die crop is zeros and its box NaN: the locator
does not learn from it). Seed streams of their own (splits 20-25), so nothing is shared with the
face classifier's sets.
"""
from __future__ import annotations

import hashlib
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from ..crops import INPUT_SIZE
from ..synth.scene import STEEP_ANY
from ..synth.topface import TOP_MARGIN, render_top_sample

TOP_VERSION = 1
# (kind, held out) -> seed split. kind: "ordinary" (die_scene's default views), "steep" (45-65
# degrees leaning image-down), "any" (steep, leaning any way round).
SPLITS = {("ordinary", False): 20, ("ordinary", True): 21, ("steep", False): 22, ("steep", True): 23,
          ("any", False): 24, ("any", True): 25}
STEEP_OF = {"ordinary": False, "steep": True, "any": STEEP_ANY}
CLASSES = 7
NONE_INDEX = 6


def _quiet_worker():
    import cv2
    cv2.setNumThreads(1)


def sample(seed: int, split: int, index: int, steep, size: int = INPUT_SIZE, top_margin: float = TOP_MARGIN):
    """(die crop, top box, top-face crop, label index) of sample index."""
    from ..synth.nodie import render_not_a_die_crop
    k = index % CLASSES
    if k == NONE_INDEX:
        g = np.random.default_rng([seed, split, index])
        # A box on no die, cut about as tight as a top face's crop of a die-sized box would be.
        top = render_not_a_die_crop(g, size=size, margin=float(g.uniform(0.6, 0.95)), steep=steep)
        return np.zeros((size, size, 3), np.uint8), np.full(4, np.nan, np.float32), top, k
    for attempt in range(20):
        g = np.random.default_rng([seed, split, index, attempt])
        got = render_top_sample(g, k + 1, steep=steep, size=size, top_margin=top_margin)
        if got is not None:
            crop, box, top, _quad = got
            return crop, box, top, k
    raise RuntimeError(f"no top face in view in 20 draws of sample {index}")


def _job(args):
    return sample(*args)


def cache_path(cache: Path, kind: str, held_out: bool, count: int, seed: int) -> Path:
    split = SPLITS[(kind, held_out)]
    key = hashlib.sha256(repr((TOP_VERSION, kind, split, count, seed, INPUT_SIZE, TOP_MARGIN)).encode()).hexdigest()[:16]
    return cache / f"top-{split}-{count}-{key}.npz"


def top_set(kind: str, held_out: bool, count: int, seed: int = 7, workers: int = 2, cache: Path | None = None,
            log=print) -> dict:
    """{"x": die crops, "box": top boxes (N, 4; NaN for NOT_A_DIE), "t": top-face crops, "y": labels}."""
    path = cache_path(cache, kind, held_out, count, seed) if cache else None
    if path and path.exists():
        with np.load(path) as z:
            log(f"  {count} top samples ({kind}, {'held out' if held_out else 'train'}) from {path}")
            return {k: z[k] for k in ("x", "box", "t", "y")}
    split = SPLITS[(kind, held_out)]
    jobs = [(seed, split, i, STEEP_OF[kind]) for i in range(count)]
    x = np.empty((count, INPUT_SIZE, INPUT_SIZE, 3), np.uint8)
    t = np.empty_like(x)
    box = np.empty((count, 4), np.float32)
    y = np.empty(count, np.int64)
    start = time.monotonic()
    step = max(1, count // 5)
    with Pool(max(1, workers), initializer=_quiet_worker) as pool:
        for i, (a, b, c, d) in enumerate(pool.imap(_job, jobs, chunksize=32)):
            x[i], box[i], t[i], y[i] = a, b, c, d
            if (i + 1) % step == 0 or i + 1 == count:
                log(f"  rendered {i + 1}/{count} top samples ({kind}) in {time.monotonic() - start:.0f} s")
    out = {"x": x, "box": box, "t": t, "y": y}
    if path:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, **out)
    return out


# NOT_A_DIE crops cut through the locator (round 16b): seed splits of their own.
NONE_SPLITS = {("ordinary", False): 30, ("steep", False): 32, ("any", False): 34}
_LOCATOR = None


def _locator_worker(path):
    global _LOCATOR
    _quiet_worker()
    from ..topface import Locator
    _LOCATOR = Locator(path)


def _none_job(args):
    from ..crops import die_crop
    from ..synth.topface import not_a_die_box
    seed, split, index, steep = args
    for attempt in range(20):
        g = np.random.default_rng([seed, split, index, attempt])
        image, box, dice = not_a_die_box(g, steep=steep)
        top = _LOCATOR.top_boxes(image, [box])[0]
        if not any(_on_a_die(top, d) for d in dice):
            break
    return die_crop(image, top, INPUT_SIZE, TOP_MARGIN)


def _on_a_die(top, die) -> bool:
    """The locator's box lies on a die's face, about a face's size: its crop would show that die
    (an "aside" box pulled onto a neighbour), not a box on no die."""
    cx, cy = (top[0] + top[2]) / 2, (top[1] + top[3]) / 2
    w, h = die[2] - die[0], die[3] - die[1]
    mx, my = (die[0] + die[2]) / 2, (die[1] + die[3]) / 2
    inside = abs(cx - mx) < 0.35 * w and abs(cy - my) < 0.35 * h
    return inside and max(top[2] - top[0], top[3] - top[1]) >= 0.4 * max(w, h)


def none_set(kind: str, count: int, locator: Path, seed: int = 7, workers: int = 2, cache: Path | None = None,
             log=print) -> np.ndarray:
    """count NOT_A_DIE top-face crops: a box on no die -> its die crop -> the locator's top face ->
    a crop around it at TOP_MARGIN, as the reader cuts a top-face file's crops (cached by the
    locator file's digest)."""
    digest = hashlib.sha256(Path(locator).read_bytes()).hexdigest()[:12]
    split = NONE_SPLITS[(kind, False)]
    key = hashlib.sha256(repr((TOP_VERSION, "none", kind, split, count, seed, digest)).encode()).hexdigest()[:16]
    path = cache / f"topnone-{split}-{count}-{key}.npz" if cache else None
    if path and path.exists():
        with np.load(path) as z:
            log(f"  {count} NOT_A_DIE top crops ({kind}) from {path}")
            return z["t"]
    start = time.monotonic()
    jobs = [(seed, split, i, STEEP_OF[kind]) for i in range(count)]
    with Pool(max(1, workers), initializer=_locator_worker, initargs=(str(locator),)) as pool:
        t = np.stack(pool.map(_none_job, jobs, chunksize=32))
    log(f"  rendered {count} NOT_A_DIE top crops ({kind}) through the locator in {time.monotonic() - start:.0f} s")
    if path:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, t=t)
    return t
