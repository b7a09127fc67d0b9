"""The face classifier's crops of things that are not dice (DETECTOR_ROUNDS round 12):
vision.synth.clutter's cable-and-plug distractor, vision.synth.nodie.render_clutter_crop and
vision.train.data.render_not_a_die_set("clutter") (python -m vision.train --clutter)."""
import numpy as np
import pytest

from vision.crops import INPUT_SIZE
from vision.synth import clutter
from vision.synth.clutter import DISTRACTORS, add_distractors, negatives
from vision.synth.nodie import render_clutter_crop


def test_a_plug_is_drawn_at_the_end_of_its_cable():
    plain = np.full((200, 200, 3), 160.0, np.float32)
    img = plain.copy()
    mask = add_distractors(np.random.default_rng(3), img, 1, 40.0, kind="cable")
    # A cable a few pixels thick and a plug about a die across: far more than a line's pixels.
    assert 300 < (mask > 0.5).sum() < 200 * 200 / 2
    assert (np.abs(img - plain).max(axis=2) > 1.0).sum() >= (mask > 0.5).sum()


def test_an_unknown_distractor_is_refused_by_name():
    with pytest.raises(ValueError, match="Unknown distractor 'rope'"):
        add_distractors(np.random.default_rng(0), np.zeros((50, 50, 3), np.float32), 1, 10.0, kind="rope")


def test_the_detector_trays_never_draw_the_cable_and_pick_as_before():
    """negatives.toml weighs the cable 0: the wild trays the shipped detector learned from draw
    the same distractors, in the same order, as before the cable was added."""
    assert negatives()["distractors"]["cable"] == 0 and "cable" in DISTRACTORS
    others = [k for k in DISTRACTORS if k != "cable"]
    weights = np.array([negatives()["distractors"][k] for k in others], float)
    a, b = np.random.default_rng(11), np.random.default_rng(11)
    picks = [clutter._pick_distractor(a) for _ in range(2000)]
    before = [others[int(b.choice(len(others), p=weights / weights.sum()))] for _ in range(2000)]
    assert picks == before and "cable" not in picks


def test_clutter_crops_are_reproducible_and_show_every_kind_of_thing():
    a = render_clutter_crop(np.random.default_rng([5, 1]))
    assert a.shape == (INPUT_SIZE, INPUT_SIZE, 3) and a.dtype == np.uint8 and a.std() > 0
    assert np.array_equal(a, render_clutter_crop(np.random.default_rng([5, 1])))
    drawn = []
    real = clutter.add_distractors

    def spy(rng, img, count, scale, kind=None):
        drawn.append(kind)
        return real(rng, img, count, scale, kind=kind)
    clutter.add_distractors = spy
    try:
        for i in range(90):
            render_clutter_crop(np.random.default_rng([6, i]), edge=24.0)
    finally:
        clutter.add_distractors = real
    assert set(drawn) == set(DISTRACTORS)
    # A third of them plugs, the failure the crops answer (90 draws: 30 expected).
    assert 15 <= drawn.count("cable") <= 45


def test_a_clutter_set_is_all_not_a_die_and_cached(tmp_path):
    from vision.train.data import render_not_a_die_set
    x, y = render_not_a_die_set("clutter", 12, 7, 6, 1, tmp_path, log=lambda *_: None)
    assert x.shape == (12, INPUT_SIZE, INPUT_SIZE, 3) and (y == 6).all()
    assert len(list(tmp_path.glob("clutter-12-*.npz"))) == 1
    x2, y2 = render_not_a_die_set("clutter", 12, 7, 6, 1, tmp_path, log=lambda *_: None)
    assert np.array_equal(x, x2) and (y2 == 6).all()
    # Sample i depends on (seed, i) alone: another seed draws other things.
    x3, _ = render_not_a_die_set("clutter", 12, 8, 6, 1, None, log=lambda *_: None)
    assert not np.array_equal(x, x3)


def test_the_trainer_takes_clutter_crops():
    from vision.train.__main__ import parse
    assert parse(["--clutter", "3000"]).clutter == 3000 and parse([]).clutter == 0
