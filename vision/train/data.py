"""Rendered training and held-out sets: seeded per sample, so any number of workers gives the same data."""
from __future__ import annotations

import hashlib
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np

from ..crops import CROP_MARGIN, INPUT_SIZE
from ..synth import render_label_crop

# Bump when the renderer changes so that cached sets are rendered anew.
RENDER_VERSION = 10


def _quiet_worker():
    # One OpenCV thread per worker: the pool already uses every core it is given.
    import cv2
    cv2.setNumThreads(1)


def rendered(sample, jobs, workers: int, chunksize: int = 64):
    """sample(job) for each job, in order: in this process for one worker (no fork: a process
    that already runs threads, as a test run's does, may hold a lock its forked child then waits
    on forever), else across a pool of workers."""
    if workers <= 1:
        yield from map(sample, jobs)
        return
    with Pool(workers, initializer=_quiet_worker) as pool:
        yield from pool.imap(sample, jobs, chunksize=chunksize)


# Splits of the steep-view sets (vision.synth.scene.die_scene(steep=True)): seed streams of their
# own, so their scenes share nothing with the default sets' (splits 0 and 1).
STEEP_TRAIN_SPLIT, STEEP_HELD_OUT_SPLIT = 2, 3
# Split of the clutter crops (vision.synth.nodie.render_clutter_crop), its own seed stream too,
# and the version of their drawing (bumped when it changes, so that cached sets are drawn anew).
CLUTTER_TRAIN_SPLIT = 4
CLUTTER_VERSION = 2
# The side-face boxes (vision.synth.nodie.render_side_face_crop): a training and a held-out stream.
SIDE_TRAIN_SPLIT, SIDE_HELD_OUT_SPLIT = 5, 6
SIDE_VERSION = 1
# Each kind of NOT_A_DIE set kept apart from render_set's: its drawing function's name in
# vision.synth.nodie, its version and its training seed stream. "side-any" draws the side faces'
# scenes of "side" (its seed streams too), each crop turned a random quarter turn.
NOT_A_DIE_KINDS = {"clutter": ("render_clutter_crop", CLUTTER_VERSION, CLUTTER_TRAIN_SPLIT),
                   "side": ("render_side_face_crop", SIDE_VERSION, SIDE_TRAIN_SPLIT),
                   "side-any": ("render_side_face_crop_any_way", SIDE_VERSION, SIDE_TRAIN_SPLIT)}
# Dice touching a neighbour, their boxes pushed toward it (vision.synth.scene.render_pushed_die_crop):
# a training and a held-out stream, and the drawing's version.
PUSHED_TRAIN_SPLIT, PUSHED_HELD_OUT_SPLIT = 7, 8
PUSHED_VERSION = 1


def _sample(args):
    seed, split, index, labels, size, margin, steep = args
    rng = np.random.default_rng([seed, split, index])
    k = index % len(labels)  # classes balanced exactly
    return render_label_crop(rng, labels[k], size=size, margin=margin, steep=steep), k


def _cache_path(cache: Path, labels, count: int, seed: int, split: int, size: int = INPUT_SIZE,
                margin: float = CROP_MARGIN, steep: bool = False) -> Path:
    recipe = (RENDER_VERSION, size, tuple(labels), count, seed, split)
    if margin != CROP_MARGIN:  # the default margin keeps the keys of the sets cached before it was asked
        recipe += (float(margin),)
    if steep:  # likewise: only steep sets name it (and their direction, when it is any way round)
        recipe += ("steep",) if steep is True else ("steep", str(steep))
    key = hashlib.sha256(repr(recipe).encode()).hexdigest()[:16]
    return cache / f"dice-{split}-{count}-{key}.npz"


def _cached_prefix(cache: Path, labels, count: int, seed: int, split: int, size: int, margin: float,
                   steep: bool = False):
    """The longest cached smaller set of the same recipe: sample i depends only on (seed, split, i),
    so a cached set of n crops is exactly the first n crops of a bigger one."""
    best = None
    for found in cache.glob(f"dice-{split}-*.npz"):
        try:
            n = int(found.name.split("-")[2])
        except (IndexError, ValueError):
            continue
        if n < count and found == _cache_path(cache, labels, n, seed, split, size, margin, steep) \
                and (best is None or n > best[0]):
            best = (n, found)
    return best


def render_set(labels, count: int, seed: int, split: int, workers: int, cache: Path | None,
               log=print, size: int = INPUT_SIZE, margin: float = CROP_MARGIN,
               steep: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """count crops (N, size, size, 3 uint8) and label indices (N,), cached on disk by their recipe
    (the crop's size and margin included; steep: steep views, vision.synth.scene.die_scene)."""
    path = _cache_path(cache, labels, count, seed, split, size, margin, steep) if cache else None
    if path and path.exists():
        with np.load(path) as z:
            log(f"  {count} crops (split {split}) from cache {path}")
            return z["x"], z["y"]
    x = np.empty((count, size, size, 3), np.uint8)
    y = np.empty(count, np.int64)
    first = 0
    prefix = _cached_prefix(cache, labels, count, seed, split, size, margin, steep) if cache and cache.is_dir() else None
    if prefix:
        first, found = prefix
        with np.load(found) as z:
            x[:first], y[:first] = z["x"], z["y"]
        log(f"  first {first} crops (split {split}) from cache {found}")
    jobs = [(seed, split, i, tuple(labels), size, margin, steep) for i in range(first, count)]
    start = time.monotonic()
    step = max(1, count // 10)
    for i, (crop, k) in enumerate(rendered(_sample, jobs, workers), start=first):
        x[i], y[i] = crop, k
        if (i + 1) % step == 0 or i + 1 == count:
            log(f"  rendered {i + 1}/{count} crops (split {split}) in {time.monotonic() - start:.0f} s")
    if path:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, x=x, y=y)
    return x, y


def _not_a_die_sample(args):
    from ..synth import nodie
    kind, seed, split, index, size, margin = args
    draw = getattr(nodie, NOT_A_DIE_KINDS[kind][0])
    return draw(np.random.default_rng([seed, split, index]), size=size, margin=margin)


def render_not_a_die_set(kind: str, count: int, seed: int, not_a_die: int, workers: int, cache: Path | None,
                         log=print, size: int = INPUT_SIZE, margin: float = CROP_MARGIN,
                         split: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """count crops of one kind of box that holds no die (NOT_A_DIE_KINDS: "clutter", things that are
    not dice; "side", a tipped die's side face; "side-any", the same turned any way round), all labelled
    not_a_die (the NOT_A_DIE label's index), cached on disk by their recipe; split: the seed stream
    (default: the kind's training stream)."""
    if kind not in NOT_A_DIE_KINDS:
        raise ValueError(f"No set of boxes on no die is called {kind!r} (one of {', '.join(NOT_A_DIE_KINDS)}).")
    split = NOT_A_DIE_KINDS[kind][2] if split is None else split
    recipe = (RENDER_VERSION, kind, NOT_A_DIE_KINDS[kind][1], size, float(margin), count, seed)
    if (kind, split) != ("clutter", CLUTTER_TRAIN_SPLIT):  # clutter's training sets keep the keys they had
        recipe += (split,)
    jobs = [(kind, seed, split, i, size, margin) for i in range(count)]
    x = _cached_crops(kind, recipe, jobs, _not_a_die_sample, workers, cache, log)
    return x, np.full(count, not_a_die, np.int64)


def _pushed_sample(args):
    from ..synth.scene import render_pushed_die_crop
    seed, split, index, size, margin = args
    return render_pushed_die_crop(np.random.default_rng([seed, split, index]), 1 + index % 6, size=size,
                                  margin=margin)


def render_pushed_set(labels, count: int, seed: int, workers: int, cache: Path | None, log=print,
                      size: int = INPUT_SIZE, margin: float = CROP_MARGIN,
                      split: int = PUSHED_TRAIN_SPLIT) -> tuple[np.ndarray, np.ndarray]:
    """count crops of dice touching a neighbour, each boxed pushed toward it, faces 1..6 in turn and
    labelled pip1..pip6 (indices into labels), cached on disk by their recipe."""
    recipe = (RENDER_VERSION, "pushed", PUSHED_VERSION, size, float(margin), count, seed, split)
    jobs = [(seed, split, i, size, margin) for i in range(count)]
    x = _cached_crops("pushed", recipe, jobs, _pushed_sample, workers, cache, log)
    return x, np.array([labels.index(f"pip{1 + i % 6}") for i in range(count)], np.int64)


def _cached_crops(name: str, recipe: tuple, jobs: list, sample, workers: int, cache: Path | None, log) -> np.ndarray:
    """sample(job) for every job, stacked; kept in cache as <name>-<count>-<the recipe's hash>.npz."""
    key = hashlib.sha256(repr(recipe).encode()).hexdigest()[:16]
    path = cache / f"{name}-{len(jobs)}-{key}.npz" if cache else None
    if path and path.exists():
        with np.load(path) as z:
            log(f"  {len(jobs)} {name} crops from cache {path}")
            return z["x"]
    start = time.monotonic()
    x = np.stack(list(rendered(sample, jobs, workers)))
    log(f"  rendered {len(jobs)} {name} crops in {time.monotonic() - start:.0f} s")
    if path:
        path.parent.mkdir(parents=True, exist_ok=True)
        np.savez(path, x=x)
    return x
