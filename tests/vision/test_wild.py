"""vision.synth.wild: the learned detector's training trays."""
import numpy as np

from vision.synth.wild import DETECTOR_SIZE, render_wild_tray


def test_wild_trays_are_reproducible_and_every_die_box_lies_in_the_frame():
    a = render_wild_tray(np.random.default_rng([1, 2]))
    b = render_wild_tray(np.random.default_rng([1, 2]))
    assert np.array_equal(a.image, b.image) and a.dice == b.dice
    w, h = DETECTOR_SIZE
    for seed in range(12):
        s = render_wild_tray(np.random.default_rng(seed))
        assert s.image.shape == (h, w, 3)
        for d in s.dice:
            assert 0 <= d.box[0] < d.box[2] <= w and 0 <= d.box[1] < d.box[3] <= h and 1 <= d.face <= 6


def test_a_wild_tray_may_hold_no_die_at_all():
    s = render_wild_tray(np.random.default_rng(5), n_dice=0)
    assert s.dice == [] and s.image.std() > 0
