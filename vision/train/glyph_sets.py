"""Training and evaluation crops of the embedding: dice carrying glyphs, each face rendered many ways.

A "die set" is one die (one look, six printed faces) rendered `renders` times per face: in
different poses, light, neighbours, camera blur and noise, through the crop convention. Die i of
a seed depends only on (seed, i), so any number of workers give the same data, and a run
stopped half way picks up its cached chunks. Some dice are plain pip dice from the pip reader's
own renderer (vision.synth.style), the rest carry six glyphs of one family. Steep sets
(steep=vision.synth.scene.STEEP_ANY) render every face as a steep view leaning any way round: the
same dice (labels, looks) as ordinary sets of their seed, seen from a phone held 45-65 degrees off
vertical, cached under their own name.
"""
from __future__ import annotations

import time
from pathlib import Path

import numpy as np

from ..synth.glyphs import SCRIBBLES, SYMBOLS, TRAIN_FAMILIES, glyph_die_style, random_glyph_faces, \
    random_scribble_faces, random_symbol_faces, render_glyph_crop
from ..synth.scene import STEEP_ANY, as_generator
from ..synth.style import random_die_style
from ..synth.table import draw_table, render_table_crop
from .data import rendered

# Each kind of set's cache version: bump one when vision.synth changes how that kind is drawn, so that
# its cached sets are rendered anew. The named families' 2: no die prints both glyphs of a pair a turn
# makes the same (glyphs.SAME_TURNED); made-up icons and printed symbols are drawn as in version 1.
RENDER_VERSIONS = {"": 2, "-scribbles": 1, "-symbols": 1}
RENDER_VERSION = RENDER_VERSIONS[""]
CHUNK = 200
SIZE = 48
PIP_DICE = 0.12  # share of plain pip dice among the training dice


def _die_style(g, families):
    if families == (SCRIBBLES,):
        return glyph_die_style(g, random_scribble_faces(g))
    if families == (SYMBOLS,):
        return glyph_die_style(g, random_symbol_faces(g))
    if families == TRAIN_FAMILIES and g.random() < PIP_DICE:
        return random_die_style(g)
    return glyph_die_style(g, random_glyph_faces(g, families))


# Glyphs a quarter or half turn makes the same: one class when training (a die lies any way up).
_SAME_TURNED = {"digits-simplex/9": "6", "digits-triplex/9": "6", "letters-duplex/W": "M",
                "letters-complex/W": "M", "letters-duplex/Z": "N", "letters-complex/Z": "N"}


def die_labels(seed: int, index: int, families=TRAIN_FAMILIES) -> list[str]:
    """The six face classes of die index (what die_set renders), without rendering it."""
    g = as_generator(np.random.default_rng([seed, 15, index]))
    style = _die_style(g, families)
    if style.glyphs is None:
        return [f"pip-dice/{v}" for v in range(1, 7)]
    out = []
    for glyph in style.glyphs.glyphs:
        label = glyph.label
        out.append(f"{glyph.family}/{_SAME_TURNED[label]}" if label in _SAME_TURNED else label)
    return out


def die_set(seed: int, index: int, renders: int, families=TRAIN_FAMILIES, size: int = SIZE,
            steep: bool | str = False) -> np.ndarray:
    """(6, renders, size, size, 3) RGB crops of die index: face value v at [v - 1]. steep: every
    render a steep view (render_glyph_crop's steep; the die's look and labels do not change)."""
    g = as_generator(np.random.default_rng([seed, 15, index]))
    style = _die_style(g, families)
    return np.stack([np.stack([render_glyph_crop(g, style, v, size=size, steep=steep) for _ in range(renders)])
                     for v in range(1, 7)])


# Sub-seed of table_die_set's tables and renders: [seed, TABLE_STREAM, index]; no other set or
# figure draws from it.
TABLE_STREAM = 32


def table_die_set(seed: int, index: int, renders: int, families=TRAIN_FAMILIES, size: int = SIZE) -> np.ndarray:
    """die_set's die index (the same look and faces, drawn from die_set's stream [seed, 15, index])
    with all its renders at one table (vision.synth.table): one die size, camera, lamp, tray and
    blur/noise level; per render only the die's pose, place, neighbours and a little light change.
    The table and the renders draw from the stream [seed, TABLE_STREAM, index] (TABLE_STREAM 32).
    (6, renders, size, size, 3) RGB crops: face value v at [v - 1]."""
    style = _die_style(as_generator(np.random.default_rng([seed, 15, index])), families)
    g = np.random.default_rng([seed, TABLE_STREAM, index])
    table = draw_table(g)
    return np.stack([np.stack([render_table_crop(g, table, style, v, size=size) for _ in range(renders)])
                     for v in range(1, 7)])


def _job(args):
    return die_set(*args)


def rendered_sets(count: int, seed: int, renders: int, workers: int, cache: Path, log=print,
                  families=TRAIN_FAMILIES, steep: bool | str = False) -> np.ndarray:
    """count die sets, (count, 6, renders, SIZE, SIZE, 3) uint8, rendered or read from cache.
    families: TRAIN_FAMILIES (some dice plain pip dice), (SCRIBBLES,): made-up icons, or (SYMBOLS,):
    printed symbols (vision.synth.symbols).
    steep: every render a steep view (die_set's steep), cached as "-steep" (STEEP_ANY) or "-steepdown"."""
    kind = {(SCRIBBLES,): "-scribbles", (SYMBOLS,): "-symbols"}.get(tuple(families), "")
    version = RENDER_VERSIONS[kind]
    if steep:
        kind += "-steep" if steep == STEEP_ANY else "-steepdown"
    cache.mkdir(parents=True, exist_ok=True)
    out = []
    start, made = time.monotonic(), 0
    for first in range(0, count, CHUNK):
        n = min(CHUNK, count - first)
        path = cache / f"glyphs-v{version}{kind}-{SIZE}-s{seed}-r{renders}-{first}-{n}.npy"
        if path.exists():
            sets = np.load(path)
        else:
            jobs = [(seed, i, renders, families, SIZE, steep) for i in range(first, first + n)]
            sets = np.stack(list(rendered(_job, jobs, workers, chunksize=4)))
            np.save(path, sets)
            made += n
        out.append(sets)
        done = first + n
        spent = time.monotonic() - start
        eta = spent / made * (count - done) if made else 0.0
        log(f"  die sets {done}/{count} ({made} rendered now) {spent:.0f} s, ETA {eta:.0f} s")
    return np.concatenate(out)
