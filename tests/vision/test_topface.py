"""Round 16's top-face samples: the box computed for the locator lies on the die's top face."""
from __future__ import annotations

import numpy as np
import pytest

from vision.crops import die_crop
from vision.synth.topface import box_from_crop, box_in_crop, not_a_die_box, render_top_sample
from vision.train.topdata import NONE_INDEX, sample


def _inside(point, box) -> bool:
    cx, cy, w, h = box
    return abs(point[0] - cx) <= w / 2 + 1e-6 and abs(point[1] - cy) <= h / 2 + 1e-6


@pytest.mark.parametrize("steep", [False, True])
def test_top_box_holds_the_top_quads_centre_and_bounds_its_corners(steep):
    for i in range(24):
        got = render_top_sample(np.random.default_rng([3, i]), 1 + i % 6, steep=steep)
        assert got is not None
        crop, box, top, quad = got
        assert crop.shape == top.shape == (48, 48, 3)
        assert _inside(quad.mean(0), box)
        # The box is the quad's own axis-aligned box: every corner on its edge or inside.
        assert all(_inside(c, box) for c in quad)
        assert np.isclose(quad[:, 0].min(), box[0] - box[2] / 2, atol=1e-5)
        assert np.isclose(quad[:, 1].max(), box[1] + box[3] / 2, atol=1e-5)
        # The top face is smaller than the crop, and its middle lies within it.
        assert 0 < box[2] <= 1.2 and 0 < box[3] <= 1.2 and 0 <= box[0] <= 1 and 0 <= box[1] <= 1


def test_steep_views_put_the_top_face_in_the_upper_part_of_the_crop():
    upper = 0
    n = 30
    for i in range(n):
        _, box, _, _ = render_top_sample(np.random.default_rng([5, i]), 1 + i % 6, steep=True)
        upper += box[1] < 0.5
        # Foreshortened: seen 45-65 degrees off vertical, the top face is flatter than wide.
        assert box[3] < box[2] * 1.05
    assert upper >= 0.9 * n


def test_box_from_crop_inverts_box_in_crop():
    crop_box = (10.3, 20.7, 60.1, 75.9)
    frame_box = (22.0, 30.5, 48.0, 51.0)
    back = box_from_crop(box_in_crop(frame_box, crop_box), crop_box)
    assert np.allclose(back, frame_box, atol=1e-4)


def test_the_box_marks_where_the_top_face_lies_in_the_crop():
    # A bright square drawn in a frame: its box, taken into die_crop's coordinates, is where the crop shows it.
    frame = np.zeros((120, 160, 3), np.uint8)
    frame[40:60, 70:100] = 255
    crop_box = (55.0, 30.0, 110.0, 80.0)
    cx, cy, w, h = box_in_crop((70, 40, 100, 60), crop_box) * 48
    crop = die_crop(frame, crop_box)
    inside = crop[int(cy - h / 2) + 1:int(cy + h / 2) - 1, int(cx - w / 2) + 1:int(cx + w / 2) - 1]
    assert inside.min() > 200
    assert crop[:max(0, int(cy - h / 2) - 2)].max() < 60


def test_samples_are_seeded_and_not_a_die_has_no_box():
    a, b = sample(7, 20, 3, False), sample(7, 20, 3, False)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[2], b[2]) and a[3] == 3
    none = sample(7, 20, NONE_INDEX, False)
    assert none[3] == NONE_INDEX and np.isnan(none[1]).all() and none[2].shape == (48, 48, 3)


def test_boxes_on_no_die_hold_no_die_and_their_crops_skip_a_neighbour():
    from vision.train.topdata import _on_a_die
    for i in range(12):
        image, box, dice = not_a_die_box(
            np.random.default_rng([8, i]), steep=bool(i % 2))
        h, w = image.shape[:2]
        assert 0 <= (box[0] + box[2]) / 2 < w and 0 <= (box[1] + box[3]) / 2 < h
        for d in dice:
            cx, cy = (d[0] + d[2]) / 2, (d[1] + d[3]) / 2
            s = float(np.sqrt((d[2] - d[0]) * (d[3] - d[1])))
            bs = float(np.sqrt((box[2] - box[0]) * (box[3] - box[1])))
            assert not (np.hypot((box[0] + box[2]) / 2 - cx, (box[1] + box[3]) / 2 - cy) < 0.3 * s
                        and 0.55 <= bs / s <= 1.8)
    assert _on_a_die((10, 10, 30, 30), (8, 8, 32, 32))
    assert not _on_a_die((40, 10, 60, 30), (8, 8, 32, 32))
    assert not _on_a_die((18, 18, 22, 22), (8, 8, 32, 32))  # a pip of a big die: kept
