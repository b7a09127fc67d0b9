"""Renders at one table (vision.synth.table, glyph_sets.table_die_set): the renders of a table share
its die size, lamp and tray, tables differ, and adding them changed no default render."""
from __future__ import annotations

import hashlib

import numpy as np

from vision.synth.glyphs import glyph_die_style, random_glyph_faces
from vision.synth.table import EDGE_JITTER, draw_table, table_die_scene
from vision.train.glyph_sets import die_set, table_die_set


def test_default_die_sets_are_the_ones_drawn_before_tables():
    # Digest of bench/icon_dice.py's first pips-ring and Centerville dice (2 renders a face) as
    # drawn before vision.synth.table existed (this environment's OpenCV and NumPy): the held-out
    # row's figures, the training sets and their caches hang on these bytes staying put.
    h = hashlib.sha256()
    for index, family in ((0, "pips-ring"), (5000, "centerville")):
        h.update(die_set(1515, index, 2, (family,)).tobytes())
    assert h.hexdigest() == "45379ad070cfc32488f3e0990e5ce3c72e0c9f2e0d1fb6d374cbe9ce76fc69c5"


def _looks(seed: int, n: int = 8):
    g = np.random.default_rng([99, seed])
    table = draw_table(g)
    style = glyph_die_style(g, random_glyph_faces(g))
    edges, lights, trays = [], [], []
    for i in range(n):
        image, placed, edge, light = table_die_scene(g, table, 1 + i % 6, style)
        assert placed[0].face == 1 + i % 6
        edges.append(edge)
        lights.append(light)
        ring = np.concatenate([image[:3].reshape(-1, 3), image[-3:].reshape(-1, 3),
                               image[:, :3].reshape(-1, 3), image[:, -3:].reshape(-1, 3)])
        trays.append(np.median(ring, 0))  # the tray around the die: mostly surface
    return table, np.array(edges), np.array(lights), np.array(trays)


def test_renders_at_one_table_share_its_die_size_lamp_and_tray_and_tables_differ():
    tables = [_looks(s) for s in (1, 2, 3)]
    for table, edges, lights, trays in tables:
        assert np.all(np.abs(edges / table.edge - 1) <= EDGE_JITTER + 1e-9)
        turned = np.degrees(np.arccos(np.clip(lights @ table.light, -1, 1)))
        assert turned.max() < 10.0
        assert trays.std(0).max() < 20.0
    for a in range(3):
        for b in range(a + 1, 3):
            ta, tb = tables[a], tables[b]
            assert abs(np.log(ta[0].edge / tb[0].edge)) > 2 * EDGE_JITTER
            assert np.degrees(np.arccos(np.clip(ta[0].light @ tb[0].light, -1, 1))) > 10.0
            assert np.abs(ta[3].mean(0) - tb[3].mean(0)).max() > 40.0


def test_table_die_set_repeats_and_is_not_die_set():
    one = table_die_set(1515, 3000, 2, ("shapes-outline",))
    assert one.shape == (6, 2, 48, 48, 3) and one.dtype == np.uint8
    assert np.array_equal(one, table_die_set(1515, 3000, 2, ("shapes-outline",)))
    assert not np.array_equal(one, die_set(1515, 3000, 2, ("shapes-outline",)))
