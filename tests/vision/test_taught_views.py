"""Which views of a crop the taught reader embeds (vision.taught.Views): taught examples may be
kept at eighth turns and other scales too, a die to read stays the mean of its quarter turns.
The shipped embedding on the real TFLite interpreter; rendered glyph dice."""
from __future__ import annotations

import json
import shutil

import numpy as np
import pytest

from vision.synth.glyphs import glyph_die_style, random_glyph_faces, render_glyph_crop
from vision.taught import DEFAULT_EMBEDDING, LOOKS, Embedder, TaughtExamples, TaughtReader, View, Views, die_vectors, \
    example_vectors, turn_crop, view_crops


def _embedder(folder, **views) -> Embedder:
    """The shipped network with its .json, the view keys replaced by views (none: no keys)."""
    model = folder / "dice_embedding.tflite"
    shutil.copyfile(DEFAULT_EMBEDDING, model)
    meta = json.loads(DEFAULT_EMBEDDING.with_suffix(".json").read_text(encoding="utf-8"))
    for key in ("example_turns", "example_scales", "query_turns", "example_looks"):
        meta.pop(key, None)
    meta.update(views)
    model.with_suffix(".json").write_text(json.dumps(meta), encoding="utf-8")
    return Embedder(model)


@pytest.fixture(scope="module")
def shipped(tmp_path_factory):
    """The shipped network read as before the views setting: four quarter turns both ways."""
    return _embedder(tmp_path_factory.mktemp("quarter"))


@pytest.fixture(scope="module")
def eighths(tmp_path_factory):
    """The shipped network with a .json naming eighth turns and scales 0.9 and 1.1 for examples."""
    return _embedder(tmp_path_factory.mktemp("views"), example_turns=8, example_scales=[0.9, 1.0, 1.1])


def test_the_shipped_json_names_the_views_it_was_calibrated_with():
    """Issue 15 round 6: examples at eighth turns and three scales, a die the mean of its quarter
    turns; the thresholds beside them were calibrated with exactly these views."""
    assert Embedder().views == Views(example_turns=8, example_scales=(0.9, 1.0, 1.1), query_turns=4)


def _crops(seed: int, n: int = 3) -> np.ndarray:
    g = np.random.default_rng(seed)
    style = glyph_die_style(g, random_glyph_faces(g, family="shapes-outline"))
    return np.stack([render_glyph_crop(g, style, v, size=48) for v in range(1, n + 1)])


def test_without_keys_the_views_are_the_four_quarter_turns_as_shipped(shipped):
    assert Views.of({}) == Views() and shipped.views == Views()
    assert Views().layout() == [View(0), View(90), View(180), View(270)]
    assert View(90) == (90, 1.0, "")
    crops = _crops(3)
    vectors = shipped.turned(crops)
    quarter = np.stack([shipped(np.rot90(crops, k, axes=(1, 2)).copy()) for k in range(4)], 1)
    assert np.allclose(vectors, quarter, atol=1e-6)
    assert example_vectors(vectors).shape == (12, vectors.shape[-1])


def test_examples_keep_every_view_and_a_die_is_the_mean_of_its_quarter_turns(shipped, eighths):
    views = eighths.views
    assert (views.example_turns, views.example_scales, views.query) == (8, (0.9, 1.0, 1.1), 4)
    layout = views.layout()
    assert len(layout) == 24 and layout[:4] == Views().layout() and len(set(layout)) == 24
    crops = _crops(5)
    every = eighths.turned(crops)
    assert every.shape[:2] == (3, 24)
    assert example_vectors(every, views).shape == (3 * 24, every.shape[-1])
    # The die to read: only its four quarter turns are embedded, and they are the first views.
    query = eighths.turned(crops, query=True)
    assert query.shape[1] == 4 and np.allclose(query, every[:, :4], atol=1e-6)
    assert np.allclose(die_vectors(every, views), die_vectors(shipped.turned(crops)), atol=1e-6)


def test_a_turn_off_the_quarter_shows_no_black_corners():
    grey = np.full((48, 48, 3), 120, np.uint8)
    for angle, scale in ((45, 1.0), (135, 0.9), (0, 0.9), (315, 1.1)):
        assert np.unique(turn_crop(grey, angle, scale)).tolist() == [120]
    # and it turns the way np.rot90 does: at 90 degrees the two agree inside the crop
    g = np.random.default_rng(1)
    crop = (g.random((48, 48, 3)) * 255).astype(np.uint8)
    assert np.abs(turn_crop(crop, 90).astype(int) - np.rot90(crop).astype(int)).max() <= 1
    assert view_crops(crop[None], [(45, 1.0)]).shape == (1, 1, 48, 48, 3)


def test_a_reader_with_eighth_turn_examples_reads_a_taught_die(tmp_path, eighths):
    g = np.random.default_rng(8)
    style = glyph_die_style(g, random_glyph_faces(g, family="letters-script"))
    r = TaughtReader(TaughtExamples(tmp_path), embedder=eighths, detector=object(), find_in_pictures=False)
    for v in range(1, 7):
        r.teach(f"face{v}", render_glyph_crop(g, style, v, edge=50, size=64)[..., ::-1].copy())
    assert all(len(vectors) == 24 for vectors in r.bank().values())
    right = 0
    for v in range(1, 7):
        for _ in range(3):
            right += r.read_crop(render_glyph_crop(g, style, v, edge=50, size=64)[..., ::-1].copy()).label == f"face{v}"
    assert right >= 15  # of 18: the few-shot reading works with these views (chance is 3)


def test_views_outside_4_or_8_turns_are_refused():
    with pytest.raises(ValueError):
        Views(example_turns=6)
    with pytest.raises(ValueError):
        Views(example_scales=(3.0,))


def test_examples_may_also_be_kept_blurred_dimmed_and_brightened(tmp_path):
    """Issue 15 round 19: example_looks in a model's .json keep each taught example also in those
    looks (its quarter turns at scale 1); a die to read is still its quarter turns as taken."""
    looked = _embedder(tmp_path, example_turns=8, example_scales=[0.9, 1.0, 1.1], example_looks=["blur", "dim"])
    views = looked.views
    layout = views.layout()
    assert len(layout) == 24 + 8 and layout[:4] == Views().layout() and len(set(layout)) == 32
    assert layout[-1] == View(270, 1.0, "dim") and views.example_index().tolist() == list(range(32))
    crops = _crops(7, n=2)
    every = looked.turned(crops)
    assert every.shape[:2] == (2, 32) and example_vectors(every, views).shape == (64, every.shape[-1])
    assert np.allclose(looked.turned(crops, query=True), every[:, :4], atol=1e-6)
    # Each look is the crop changed as LOOKS says: a blur keeps a flat crop flat, the gammas move mid-grey.
    grey = np.full((1, 48, 48, 3), 128, np.uint8)
    shown = view_crops(grey, [View(0, 1.0, "blur"), View(90, 1.0, "dim"), View(0, 1.0, "bright")])
    assert [int(np.unique(shown[0, k])[0]) for k in range(3)] == [128, 74, 169]
    sharp = crops[:1]
    assert np.abs(view_crops(sharp, [View(0, 1.0, "blur")])[0, 0].astype(int) - sharp[0]).max() > 20
    assert np.array_equal(view_crops(sharp, [View(0, 1.0, "blur")])[0, 0], LOOKS["blur"](sharp[0]))


def test_an_unknown_look_is_refused_by_name():
    with pytest.raises(ValueError, match="sepia"):
        Views(example_looks=("blur", "sepia"))
    with pytest.raises(ValueError, match="example_looks"):
        Views.of({"example_looks": "blur"})
