"""The dice renderer: deterministic, truthful boxes, right counts, crowded and empty trays."""
from __future__ import annotations

import random

import cv2
import numpy as np
import pytest

from vision.colors import dominant_color
from vision.crops import CROP_MARGIN, INPUT_SIZE, crop_square, die_crop
from vision.synth import render_die_crop, render_label_crop, render_roll, render_roll_sequence, render_tray
from vision.synth.faces import pip_layout


def test_same_seed_same_tray_and_different_seed_different_tray():
    a = render_tray(random.Random(5), n_dice=6)
    b = render_tray(random.Random(5), n_dice=6)
    c = render_tray(random.Random(6), n_dice=6)
    assert np.array_equal(a.image, b.image) and a.dice == b.dice
    assert not np.array_equal(a.image, c.image)


def test_numpy_generator_is_accepted_and_deterministic():
    a = render_tray(np.random.default_rng(3), n_dice=2, size=(320, 240))
    b = render_tray(np.random.default_rng(3), n_dice=2, size=(320, 240))
    assert np.array_equal(a.image, b.image)
    assert a.image.shape == (240, 320, 3) and a.image.dtype == np.uint8


@pytest.mark.parametrize("seed", range(4))
def test_boxes_lie_inside_the_image_and_cover_the_die(seed):
    faces = [1, 2, 3, 4, 5, 6, 2, 5]
    # Opaque dice: a clear die on grey card may differ from it by less than the test's 40 levels.
    colors = ["white", "red", "blue", "green", "black", "yellow", "purple", "orange"]
    clean = render_tray(random.Random(seed), n_dice=8, faces=faces, colors=colors, effects=False, surface="card")
    assert [d.face for d in clean.dice] == faces
    h, w = clean.image.shape[:2]
    # Against a flat card, the die is what differs from the card colour; nothing of it lies
    # outside its box: the ring just outside each box is pure card (or a neighbour's box / shadow).
    bg = np.median(clean.image.reshape(-1, 3), axis=0)
    for d in clean.dice:
        x0, y0, x1, y1 = d.box
        assert 0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h
        inside = clean.image[y0:y1, x0:x1].astype(int)
        differs = np.abs(inside - bg).sum(axis=2) > 40
        # The die fills most of its box (a tipped cube's outline is not a full square).
        assert differs.mean() > 0.5, d
        # ... and reaches all four sides of it (the outermost pixel column may be a faint rim).
        assert differs[:2].any() and differs[-2:].any() and differs[:, :2].any() and differs[:, -2:].any()


def test_crowded_tray_of_25_dice_has_25_separate_boxes():
    scene = render_tray(random.Random(11), n_dice=25)
    assert len(scene.dice) == 25
    boxes = np.array([d.box for d in scene.dice])
    sizes = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    assert sizes.min() >= 14
    # Dice may touch, but no die lies on another: each box centre is inside its own box only.
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    for i, (cx, cy) in enumerate(centres):
        holders = [j for j, b in enumerate(boxes) if b[0] <= cx < b[2] and b[1] <= cy < b[3]]
        assert holders == [i]


def test_empty_tray_has_no_dice():
    scene = render_tray(random.Random(2), n_dice=0)
    assert scene.dice == [] and scene.image.shape == (480, 640, 3)


def test_fixed_edge_gives_dice_of_that_size():
    scene = render_tray(random.Random(4), n_dice=3, edge=60, tilt_max=0.0, effects=False)
    for d in scene.dice:
        w, h = d.box[2] - d.box[0], d.box[3] - d.box[1]
        # A die turned on the table spans between its edge and its diagonal.
        assert 55 <= max(w, h) <= 60 * 1.45


def test_bad_requests_are_refused_with_a_reason():
    with pytest.raises(ValueError, match="1 to 6"):
        render_tray(random.Random(1), n_dice=2, faces=[1, 7])
    with pytest.raises(ValueError, match="n_dice"):
        render_tray(random.Random(1), n_dice=2, faces=[1])
    with pytest.raises(ValueError, match="pip1..pip6"):
        render_label_crop(random.Random(1), "red-tree")
    with pytest.raises(TypeError):
        render_tray(42, n_dice=1)


def test_die_crop_is_deterministic_rgb_of_input_size():
    a = render_die_crop(random.Random(9), 4)
    b = render_die_crop(random.Random(9), 4)
    assert a.shape == (INPUT_SIZE, INPUT_SIZE, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b)


def test_pip_layouts_count_and_symmetry():
    for v in range(1, 7):
        pts = np.array(pip_layout(v))
        assert len(pts) == v
        # Every layout is symmetric under a half turn: a die has no up.
        assert {tuple(p) for p in np.round(1 - pts, 6)} == {tuple(p) for p in np.round(pts, 6)}


def test_rendered_pips_can_be_counted_on_a_flat_die():
    """Seen straight down on a flat card, the dark blobs on the top face are the pips."""
    for face in range(1, 7):
        scene = render_tray(random.Random(face), n_dice=1, faces=[face], edge=90, colors=["white"],
                            tilt_max=0.0, effects=False, surface="card")
        x0, y0, x1, y1 = scene.dice[0].box
        img = scene.image[y0:y1, x0:x1].astype(np.int32)
        card = np.median(scene.image.reshape(-1, 3), axis=0)
        die = (np.abs(img - card).sum(axis=2) > 60).astype(np.uint8)
        contours, _ = cv2.findContours(die, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        face_mask = np.zeros_like(die)
        cv2.drawContours(face_mask, contours, -1, 1, -1)
        face_mask = cv2.erode(face_mask, np.ones((7, 7), np.uint8))
        gray = cv2.cvtColor(scene.image[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
        body = np.median(gray[face_mask > 0])
        dark = ((gray < body * 0.6) & (face_mask > 0)).astype(np.uint8)
        n, _, stats, _ = cv2.connectedComponentsWithStats(dark)
        # Pips are round blobs of a pip's size; the shadow and dark rims are long or large.
        blobs = [s for s in stats[1:] if 12 < s[cv2.CC_STAT_AREA] < 900
                 and max(s[2], s[3]) < 1.6 * min(s[2], s[3])]
        # Logo 1-faces draw a mark rather than a pip: allow one blob or a connected mark.
        assert len(blobs) == face or (face == 1 and len(blobs) >= 1), (face, len(blobs))


def test_crop_convention_square_margin_and_edge_padding():
    img = np.zeros((100, 200, 3), np.uint8)
    img[:, :100] = (255, 0, 0)  # blue in BGR on the left half
    x, y, side = crop_square((10, 20, 50, 40))
    assert side == round(CROP_MARGIN * 40) and x == round(30 - side / 2) and y == round(30 - side / 2)
    crop = die_crop(img, (0, 0, 40, 40))  # leaves the frame top-left: replicated, still blue
    assert crop.shape == (INPUT_SIZE, INPUT_SIZE, 3)
    assert (crop[..., 2] == 255).all() and (crop[..., 0] == 0).all()  # RGB: blue is channel 2
    with pytest.raises(ValueError, match="positive"):
        die_crop(img, (5, 5, 5, 9))
    with pytest.raises(ValueError, match="outside"):
        die_crop(img, (300, 300, 340, 340))


@pytest.mark.parametrize("color", ["white", "black", "red", "blue", "green", "yellow", "purple"])
def test_dominant_color_names_opaque_rendered_dice(color):
    scene = render_tray(random.Random(21), n_dice=1, colors=[color], edge=70, effects=False, surface="card")
    if scene.dice[0].translucent:
        pytest.fail("an explicit colour must give the asked opaque colour here")
    assert dominant_color(scene.image, scene.dice[0].box) == color


def test_roll_moves_then_stays_still():
    roll = render_roll(random.Random(8), 3, frames_moving=4, frames_still=3, size=(320, 240))
    assert len(roll.frames) == 7 and roll.first_still == 4 and len(roll.dice) == 3
    # Share of pixels that change by more than sensor noise could (sigma 2 per frame).
    changed = [(np.abs(a.astype(int) - b.astype(int)).max(axis=2) > 25).mean()
               for a, b in zip(roll.frames, roll.frames[1:])]
    moving, still = changed[:3], changed[4:]
    assert min(moving) > 0.005
    assert max(still) == 0.0
    frames = render_roll_sequence(random.Random(8), 3, 4, 3, size=(320, 240))
    assert all(np.array_equal(a, b) for a, b in zip(frames, roll.frames))


def test_shadows_fade_out_instead_of_ending_in_a_hard_edge():
    # One big die on flat card, no camera effects: walking away from the die, the card brightens
    # step by little step back to its own colour; a shadow clipped to the die's patch jumps there.
    scene = render_tray(random.Random(8), n_dice=1, edge=100, surface="card", effects=False, tilt_max=0.0)
    grey = cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY).astype(int)
    x0, y0, x1, y1 = scene.dice[0].box
    h, w = grey.shape
    for row in (grey[(y0 + y1) // 2, :], grey[:, (x0 + x1) // 2]):
        lo, hi = (x0, x1) if row.shape[0] == w else (y0, y1)
        outside = np.concatenate([np.diff(row[max(0, lo - 60):max(0, lo - 2)]),
                                  np.diff(row[min(row.shape[0], hi + 2):hi + 60])])
        assert np.abs(outside).max() <= 6


def test_pips_stand_out_from_the_die_body():
    from vision.synth.style import MIN_PIP_CONTRAST, pip_contrast, random_die_style
    rng = np.random.default_rng(0)
    for _ in range(2000):
        style = random_die_style(rng)
        if style.translucent:
            continue  # its body is mixed with the tray; checked against a pale tray in the renderer
        # The pip is jittered after the choice: allow for that.
        assert pip_contrast(style.pip, style.body) >= MIN_PIP_CONTRAST - 30, style


def test_dice_rolling_in_from_outside_the_frame_are_drawn_once_inside():
    # Small frames and many seeds: some dice start wholly outside and slide in.
    for seed in range(12):
        roll = render_roll(random.Random(seed), 4, frames_moving=6, frames_still=1, size=(160, 120))
        assert len(roll.frames) == 7 and all(f.shape == (120, 160, 3) for f in roll.frames)


def test_crops_of_no_die_are_deterministic_and_never_a_dies_box():
    from vision.synth import nodie

    a = render_label_crop(random.Random(4), "none")
    assert a.shape == (INPUT_SIZE, INPUT_SIZE, 3) and a.dtype == np.uint8
    assert np.array_equal(a, nodie.render_not_a_die_crop(random.Random(4)))
    g = np.random.default_rng(2)
    boxed = [k for k in nodie.KINDS if k != "grain"]  # grain: a tray without dice, drawn apart
    kinds = set()
    for _ in range(60):
        kind = str(g.choice(boxed))
        _, placed, _ = nodie.die_scene(g, int(g.integers(1, 7)), neighbours=2)
        box = nodie._box(g, kind, placed, 200)
        kinds.add(kind)
        if kind in ("aside", "piece"):
            # Beside a die (its middle half a die or more away) or a pip's size: never a die's box.
            assert not nodie._like_a_die(box, placed[:1])
    assert kinds == set(boxed)
    # A box on a die's middle at the die's size is what the die crops are: refused as no die.
    target = placed[0]
    assert nodie._like_a_die(target.box, placed)
    grain = nodie._grain_crop(np.random.default_rng(8), 30.0)
    assert grain.shape == (INPUT_SIZE, INPUT_SIZE, 3) and grain.std() > 0


def test_dominant_colors_percentiles_and_medians_are_numpys():
    from vision.colors import _median, _percentiles
    rng = np.random.default_rng(9)
    for n in (1, 2, 3, 7, 50, 576, 577):
        values = rng.integers(0, 256, n).astype(np.uint8)
        ours = _percentiles(np.sort(values), (0.2, 0.8))
        assert ours == [float(v) for v in np.percentile(values.astype(np.float32), [20, 80])]
        assert _median(values) == float(np.median(values.astype(np.float32)))
