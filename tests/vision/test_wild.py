"""vision.synth.wild: the learned detector's training trays."""
import cv2
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


def test_every_hard_negative_in_the_data_is_drawn_on_the_surface_and_never_boxed():
    from vision.synth import clutter
    from vision.synth.clutter import DISTRACTORS, add_distractors, negatives
    assert {"knot", "fabric", "ghost"} <= set(DISTRACTORS) == set(negatives()["distractors"])
    w, h = DETECTOR_SIZE
    for kind in DISTRACTORS:
        rng = np.random.default_rng(7)
        plain = np.full((h, w, 3), 120.0, np.float32)
        img = plain.copy()
        pick, clutter._pick_distractor = clutter._pick_distractor, lambda r, k=kind: k
        try:
            mask = add_distractors(rng, img, 3, 30.0)
        finally:
            clutter._pick_distractor = pick
        changed = np.abs(img - plain).max(axis=2) > 1.0
        assert changed.any() and mask.max() > 0, kind
        if kind in ("knot", "ghost"):
            # Shadowless: drawn where its mask says and nowhere else.
            near = cv2.dilate((mask > 0).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
            assert not (changed & ~near).any(), kind


def test_some_wild_trays_are_coloured_dice_with_white_pips_at_a_slant():
    from vision.synth.clutter import negatives
    slant = negatives()["slant"]
    seen = 0
    for seed in range(60):
        s = render_wild_tray(np.random.default_rng([3, seed]), n_dice=4)
        if all(d.color in slant["colours"] for d in s.dice):
            seen += 1
    # About share of 60 trays (plus trays of four coloured dice drawn by chance).
    assert 60 * slant["share"] / 3 <= seen <= 60 * slant["share"] * 3


def test_a_slanted_die_has_near_white_pips_on_a_coloured_body():
    from vision.synth.wild import slanted_style
    for colour in ("orange", "red", "blue", "black"):
        st = slanted_style(np.random.default_rng(1), colour)
        assert st.color == colour and min(st.pip) > 200 and not st.translucent


def test_a_steep_tray_leans_every_die_45_to_65_degrees_and_boxes_only_dice(monkeypatch):
    from vision.synth import scene, wild
    from vision.synth.scene import STEEP_JITTER, STEEP_LEAN
    seen = []
    real_make_die = scene.make_die

    def recording(*args, **kwargs):
        seen.append((kwargs.get("lean", args[6] if len(args) > 6 else None), kwargs.get("jitter")))
        return real_make_die(*args, **kwargs)

    monkeypatch.setattr(scene, "make_die", recording)
    monkeypatch.setattr(wild, "make_die", recording)
    w, h = DETECTOR_SIZE
    for seed in range(6):
        seen.clear()
        s = render_wild_tray(np.random.default_rng([4, seed]), n_dice=5, steep=True)
        assert s.dice and all(0 <= d.box[0] < d.box[2] <= w and 0 <= d.box[1] < d.box[3] <= h for d in s.dice)
        assert seen and all(STEEP_LEAN[0] <= lean[0] <= STEEP_LEAN[1] and jitter == STEEP_JITTER
                            for lean, jitter in seen)
    seen.clear()
    render_wild_tray(np.random.default_rng([4, 0]), n_dice=5)
    assert all(lean[0] < STEEP_LEAN[0] and jitter is None for lean, jitter in seen)   # as before the option


def test_steep_trays_are_reproducible_and_not_the_wild_tray_of_the_same_seed():
    a = render_wild_tray(np.random.default_rng([1, 2]), steep=True)
    b = render_wild_tray(np.random.default_rng([1, 2]), steep=True)
    assert np.array_equal(a.image, b.image) and a.dice == b.dice
    assert not np.array_equal(a.image, render_wild_tray(np.random.default_rng([1, 2])).image)


def test_a_larger_frame_draws_the_same_table_in_more_pixels():
    from vision.synth.wild import EDGE_MAX, EDGE_MIN, edge_max
    assert edge_max(320) == EDGE_MAX and edge_max(160) == EDGE_MAX and edge_max(512) == EDGE_MAX * 1.6
    w, h = 512, 384
    sides = []
    for seed in range(40):
        s = render_wild_tray(np.random.default_rng([seed, 9]), (w, h), n_dice=1)
        assert s.image.shape == (h, w, 3)
        for d in s.dice:
            assert 0 <= d.box[0] < d.box[2] <= w and 0 <= d.box[1] < d.box[3] <= h
            sides.append(max(d.box[2] - d.box[0], d.box[3] - d.box[1]))
    # A lone die is drawn log-uniformly between EDGE_MIN and edge_max(512): some beyond 320's largest.
    assert min(sides) >= EDGE_MIN * 0.8 and max(sides) > EDGE_MAX
