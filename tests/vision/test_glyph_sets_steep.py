"""Steep die sets of the embedding (vision.train.glyph_sets with steep=STEEP_ANY, learn_embedding
--steep-sets): they render and are cached under their own name, and the default renders (the
shipped model's training data and its cache) and recipe do not change."""
from __future__ import annotations

import hashlib

import numpy as np

from vision.synth.scene import STEEP_ANY
from vision.train.glyph_sets import RENDER_VERSION, die_set, rendered_sets
from vision.train.learn_embedding import parse


def test_default_die_sets_are_the_ones_rendered_before_steep_sets():
    # Digest of die_set(15, i, 4) for dice 0, 1 and 7 (training seed) as rendered before steep sets
    # existed (this environment's OpenCV and NumPy): the cached training sets hang on these bytes.
    h = hashlib.sha256()
    for i in (0, 1, 7):
        h.update(die_set(15, i, 4).tobytes())
    assert h.hexdigest() == "da983715331e36c8f5c15ce69501364f564aac1f1c80436752208d235eaa3750"


def test_steep_sets_render_and_are_cached_under_their_own_name(tmp_path):
    steep = rendered_sets(2, 315, 1, 1, tmp_path, log=lambda *_: None, steep=STEEP_ANY)
    assert steep.shape == (2, 6, 1, 48, 48, 3) and steep.dtype == np.uint8
    assert np.array_equal(steep[1], die_set(315, 1, 1, steep=STEEP_ANY))
    plain = rendered_sets(2, 315, 1, 1, tmp_path, log=lambda *_: None)
    names = sorted(p.name for p in tmp_path.iterdir())
    v = RENDER_VERSION
    assert names == [f"glyphs-v{v}-48-s315-r1-0-2.npy", f"glyphs-v{v}-steep-48-s315-r1-0-2.npy"]
    assert not np.array_equal(steep, plain)
    said = []
    again = rendered_sets(2, 315, 1, 1, tmp_path, log=said.append, steep=STEEP_ANY)
    assert np.array_equal(again, steep) and "(0 rendered now)" in said[-1]


def test_the_default_recipe_has_no_steep_sets():
    assert parse([]).steep_sets == 0 and parse(["--steep-sets", "1200"]).steep_sets == 1200
