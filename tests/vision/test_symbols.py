"""Printed symbols for the embedding's training (vision.synth.symbols), drawn from Kivy's fonts."""
from __future__ import annotations

import numpy as np
import pytest

from vision.synth.glyphs import SYMBOLS, Glyph, glyph_mask, random_symbol_faces
from vision.synth.symbols import BLOCKS, FONTS, _alike, random_symbol_names, symbol_ink, symbol_names
from vision.train.glyph_sets import die_labels, rendered_sets


@pytest.mark.parametrize("key", list(FONTS))
def test_each_font_draws_hundreds_of_symbols_all_in_the_chosen_blocks(key):
    names = symbol_names(key)
    assert len(names) > 300
    assert len(set(names)) == len(names)
    for name in names:
        assert name[0] == key
        cp = int(name[1:], 16)
        assert any(first <= cp <= last for first, last in BLOCKS), name
        # No Latin letter or digit, the stuff of the held-out typeset families.
        assert not chr(cp).isascii()


def test_a_code_point_the_font_lacks_is_left_out():
    # Hebrew is in DejaVu Sans, not in Roboto: Roboto's stand-in box never becomes a symbol.
    assert "d05d0" in symbol_names("d")
    assert "r05d0" not in symbol_names("r")


def test_a_die_prints_six_symbols_of_one_font_none_alike_under_a_quarter_turn_and_repeats_by_seed():
    for seed in range(20):
        names = random_symbol_names(np.random.default_rng(seed))
        assert len(set(names)) == 6 and len({n[0] for n in names}) == 1
        assert not any(_alike(a, b) for i, a in enumerate(names) for b in names[i + 1:])
        assert names == random_symbol_names(np.random.default_rng(seed))


def test_symbols_alike_are_caught_turned_or_not():
    # Greek capital alpha and Cyrillic capital a are one shape; a Cyrillic el turned is not a Cyrillic pe.
    assert _alike("d0391", "d0410")
    assert not _alike("d0431", "d0416")


def test_a_symbol_face_is_ink_inside_its_square_and_a_heavier_stroke_prints_more_ink():
    glyph = Glyph(SYMBOLS, "d0416")  # Cyrillic zhe
    light, plain, bold = (glyph_mask(glyph, 64, 0.62, s) for s in (0.7, 1.0, 1.4))
    ink = plain > 0.5
    assert 0.02 < ink.mean() < 0.5
    assert not ink[:10].any() and not ink[-10:].any() and not ink[:, :10].any() and not ink[:, -10:].any()
    assert light.sum() < plain.sum() < bold.sum()


@pytest.mark.parametrize("name", ["x0416", "d", "dzz", "d0041x"])
def test_a_malformed_symbol_name_is_refused_by_name(name):
    with pytest.raises(ValueError, match=f"Unknown symbol {name!r}"):
        symbol_ink(name)


def test_a_code_point_with_no_ink_is_refused():
    with pytest.raises(ValueError, match="draws no ink"):
        symbol_ink("d0020")  # a space


def test_symbol_dice_are_rendered_cached_under_their_own_name_and_labelled_as_symbols(tmp_path):
    sets = rendered_sets(1, 415, 1, 1, tmp_path, log=lambda _m: None, families=(SYMBOLS,))
    assert sets.shape == (1, 6, 1, 48, 48, 3)
    assert [p.name for p in tmp_path.iterdir()] == ["glyphs-v1-symbols-48-s415-r1-0-1.npy"]
    labels = die_labels(415, 0, families=(SYMBOLS,))
    faces = random_symbol_faces(np.random.default_rng([415, 15, 0]))
    # The die's faces are drawn first from its own stream [seed, 15, index].
    assert labels == [g.label for g in faces.glyphs]
    assert sets.std() > 10  # a die in a scene, not a blank crop
