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
