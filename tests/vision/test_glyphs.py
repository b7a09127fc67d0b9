"""Glyph families on dice faces (vision.synth.glyphs) and Centerville's rendered dice."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.engine.centerville.dice import default_dice
from vision.synth.centerville import CENTERVILLE_COLOURS, centerville_labels, render_centerville_tray
from vision.synth.glyphs import (FAMILIES, HELD_OUT_FAMILIES, TRAIN_FAMILIES, Glyph, GlyphDataError, GlyphFaces,
                                 SAME_TURNED, _draw_parts, glyph_die_style, glyph_mask, glyphs_of, random_glyph_faces,
                                 render_glyph_crop, render_glyph_tray)


def test_train_and_held_out_families_split_every_family_and_centerville_never_trains():
    assert set(TRAIN_FAMILIES) | set(HELD_OUT_FAMILIES) == set(FAMILIES)
    assert not set(TRAIN_FAMILIES) & set(HELD_OUT_FAMILIES)
    assert "centerville" in HELD_OUT_FAMILIES
    assert set(FAMILIES["centerville"]) == {i for faces in default_dice().faces for i in faces}


@pytest.mark.parametrize("family", list(FAMILIES))
def test_every_glyph_draws_ink_inside_the_face_and_differs_from_its_family(family):
    masks = [glyph_mask(g, 64) for g in glyphs_of(family)]
    for g, m in zip(glyphs_of(family), masks):
        ink = m > 0.5
        assert 0.01 < ink.mean() < 0.6, g.label
        # The glyph stays inside its printed square (0.62 of the face, centred) with a pixel to spare.
        assert not ink[:10].any() and not ink[-10:].any() and not ink[:, :10].any() and not ink[:, -10:].any(), g.label
    for i in range(len(masks)):
        for j in range(i + 1, len(masks)):
            a, b = masks[i] > 0.5, masks[j] > 0.5
            # Two glyphs differ by a tenth of the smaller one's ink at least (8 and 9 pips: one pip).
            differ = (a ^ b).sum() / max(min(a.sum(), b.sum()), 1)
            assert differ > 0.1, (family, FAMILIES[family][i], FAMILIES[family][j], differ)


def test_a_bad_part_in_a_glyph_file_is_refused_naming_the_glyph_and_part():
    mask = np.zeros((32, 32), np.uint8)
    with pytest.raises(GlyphDataError, match=r"glyph fam/odd, part 2: needs exactly one of"):
        _draw_parts(mask, [{"circle": [0.5, 0.5, 0.2]}, {"fill": True}], (0, 0, 32), 1.0, False, "fam", "odd")
    with pytest.raises(GlyphDataError, match=r"part 1: poly = \[\[0.5\]\] cannot be drawn"):
        _draw_parts(mask, [{"poly": [[0.5]]}], (0, 0, 32), 1.0, False, "fam", "odd")
    with pytest.raises(GlyphDataError, match="unknown keys"):
        _draw_parts(mask, [{"circle": [0.5, 0.5, 0.2], "colour": 3}], (0, 0, 32), 1.0, False, "fam", "odd")


def test_unknown_family_or_glyph_is_refused():
    with pytest.raises(ValueError, match="Unknown glyph family"):
        glyphs_of("emoji")
    with pytest.raises(ValueError, match="Unknown glyph"):
        glyph_mask(Glyph("pictograms", "dragon"), 32)
    with pytest.raises(ValueError, match="six faces"):
        GlyphFaces(glyphs_of("digits-simplex")[:5])


def test_a_glyph_die_crop_is_deterministic_and_shows_its_face():
    def crop(seed, value, faces=None):
        g = np.random.default_rng(seed)
        faces = faces or random_glyph_faces(g, family="shapes-filled")
        style = glyph_die_style(g, faces, color="white")
        return render_glyph_crop(g, style, value, edge=50, tilt_max=5, size=64), faces

    a, faces = crop(3, 1)
    b, _ = crop(3, 1)
    assert a.shape == (64, 64, 3) and np.array_equal(a, b)
    # Six distinct filled shapes on a white die: the middle of the crop is dark where the shape is.
    mids = [crop(3, v, faces)[0][20:44, 20:44].mean(axis=2) for v in range(1, 7)]
    assert all((m < 120).mean() > 0.05 for m in mids)


def test_random_glyph_faces_are_six_distinct_glyphs_of_one_family():
    g = np.random.default_rng(0)
    for _ in range(30):
        faces = random_glyph_faces(g)
        assert len({gl.family for gl in faces.glyphs}) == 1 and faces.glyphs[0].family in TRAIN_FAMILIES
        assert len(set(faces.glyphs)) == min(6, len(FAMILIES[faces.glyphs[0].family]))


def _best_overlap_turned(a: np.ndarray, b: np.ndarray) -> float:
    """The ink overlap (intersection over union, masks softened by a 1.5 px blur) of a and b turned
    the best way, in steps of 3 degrees."""
    a, b = (cv2.GaussianBlur(m.astype(np.float32), (0, 0), 1.5) for m in (a, b))
    centre = ((a.shape[1] - 1) / 2, (a.shape[0] - 1) / 2)
    best = 0.0
    for angle in range(0, 360, 3):
        turned = cv2.warpAffine(b, cv2.getRotationMatrix2D(centre, angle, 1.0), a.shape[::-1])
        best = max(best, float(np.minimum(a, turned).sum() / max(np.maximum(a, turned).sum(), 1e-6)))
    return best


@pytest.mark.parametrize("family", sorted(SAME_TURNED))
def test_a_6_turned_is_a_9_and_no_die_prints_both(family):
    """A die lies any way up: a 6 upside down is its family's 9, closer than any other two glyphs of
    the family are however turned, so no die draws both (the bench would ask a reader, and a table a
    player, to tell apart what nobody can)."""
    masks = {g.name: glyph_mask(g, 64) for g in glyphs_of(family)}
    (a, b), = SAME_TURNED[family]
    pair = _best_overlap_turned(masks[a], masks[b])
    assert pair > 0.85, pair
    others = [_best_overlap_turned(masks[x], masks[y]) for x in masks for y in masks
              if x < y and {x, y} != {a, b}]
    assert pair > max(others), (pair, max(others))
    g = np.random.default_rng(6)
    drawn = [{gl.name for gl in random_glyph_faces(g, family=family).glyphs} for _ in range(600)]
    assert all(len(faces) == 6 for faces in drawn)
    assert not any({a, b} <= faces for faces in drawn)
    assert sum(a in faces for faces in drawn) > 200 and sum(b in faces for faces in drawn) > 200


def test_centerville_tray_has_the_six_dice_once_each_with_their_own_faces():
    scene = render_centerville_tray(np.random.default_rng(4), faces=[1, 2, 3, 4, 5, 6])
    assert [d.color for d in scene.dice] == list(CENTERVILLE_COLOURS)
    for die in scene.dice:
        assert die.label == centerville_labels(die.color)[die.face - 1]
        assert die.label in default_dice().labels(default_dice().index(die.color))
    assert centerville_labels("black").count("black-hourglass") == 2
    with pytest.raises(ValueError, match="six face values"):
        render_centerville_tray(np.random.default_rng(4), faces=[1, 2, 7, 4, 5, 6])


def test_a_glyph_tray_boxes_each_die_and_names_its_top_glyph():
    scene = render_glyph_tray(np.random.default_rng(2), n_dice=5, size=(320, 240))
    assert len(scene.dice) == 5 and scene.image.shape == (240, 320, 3)
    families = {d.label.split("/")[0] for d in scene.dice}
    assert len(families) == 1 and families <= set(TRAIN_FAMILIES)
    for d in scene.dice:
        x0, y0, x1, y1 = d.box
        assert 0 <= x0 < x1 <= 320 and 0 <= y0 < y1 <= 240


def test_scribbles_are_endless_made_up_icons_drawn_the_same_every_time():
    from vision.synth.glyphs import SCRIBBLES, random_scribble_faces, scribble_parts
    assert SCRIBBLES not in FAMILIES  # the detector's trays and the held-out split never see them
    g = np.random.default_rng(3)
    for _ in range(20):
        faces = random_scribble_faces(g)
        assert len({gl.name[0] for gl in faces.glyphs}) == 1  # one look per die
        masks = [glyph_mask(gl, 64) > 0.5 for gl in faces.glyphs]
        assert all(m.mean() > 0.003 for m in masks), [gl.name for gl in faces.glyphs]
        assert len({m.tobytes() for m in masks}) == 6
    name = faces.glyphs[0].name
    assert np.array_equal(glyph_mask(Glyph(SCRIBBLES, name), 48), glyph_mask(Glyph(SCRIBBLES, name), 48))
    with pytest.raises(ValueError, match="Unknown scribble"):
        scribble_parts("x12")
