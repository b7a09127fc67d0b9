"""Which die (vision.colours): Centerville's six colours on rendered trays under coloured lamps."""
from __future__ import annotations

import numpy as np
import pytest

from vision.colours import assign_colours, measure, nearest_colour, references
from vision.synth.centerville import CENTERVILLE_COLOURS, render_centerville_tray


def test_the_references_name_the_six_dice():
    assert set(references()) == set(CENTERVILLE_COLOURS)


@pytest.mark.parametrize("seed", range(12))
def test_six_dice_get_six_colours_each_once_under_a_random_lamp(seed):
    scene = render_centerville_tray(np.random.default_rng([77, seed]))
    found = assign_colours(scene.image, [d.box for d in scene.dice])
    assert [f.colour for f in found] == [d.color for d in scene.dice]
    assert sorted(f.colour for f in found) == sorted(CENTERVILLE_COLOURS)


def test_a_strong_warm_lamp_is_balanced_away():
    # A tungsten bulb: blue down by half, red up a fifth, on top of the tray's own random lamp.
    scene = render_centerville_tray(np.random.default_rng(5), effects=False)
    warm = np.clip(scene.image * np.array([0.5, 0.9, 1.2]), 0, 255).astype(np.uint8)
    found = assign_colours(warm, [d.box for d in scene.dice])
    assert [f.colour for f in found] == [d.color for d in scene.dice]


def test_fewer_dice_than_colours_take_distinct_colours_and_a_seventh_die_gets_none():
    scene = render_centerville_tray(np.random.default_rng(8))
    boxes = [d.box for d in scene.dice]
    three = assign_colours(scene.image, boxes[:3])
    assert [f.colour for f in three] == [d.color for d in scene.dice[:3]]
    seven = assign_colours(scene.image, boxes + [boxes[0]])  # the red die boxed twice
    colours = [f.colour for f in seven]
    assert colours.count(None) == 1 and sorted(c for c in colours if c) == sorted(CENTERVILLE_COLOURS)
    assert assign_colours(scene.image, []) == []


def test_the_icon_ink_is_not_taken_for_the_body():
    # The white contract icon fills much of a red die's top face: the body is still red.
    scene = render_centerville_tray(np.random.default_rng(3), faces=[3, 3, 3, 3, 1, 1], effects=False)
    red = measure(scene.image, scene.dice[0].box) ** (1 / 2.2) * 255
    assert red[2] > 120 and red[0] < 100 and red[1] < 100


def test_one_die_alone_is_named_by_its_nearest_reference():
    scene = render_centerville_tray(np.random.default_rng(11), effects=False)
    for d in scene.dice:
        x0, y0, x1, y1 = d.box
        assert nearest_colour(scene.image[y0:y1, x0:x1])[0] == d.color


def test_a_box_outside_the_frame_is_refused():
    scene = render_centerville_tray(np.random.default_rng(1))
    with pytest.raises(ValueError, match="lies outside"):
        assign_colours(scene.image, [(700, 500, 760, 560)])


def _tight(box, k=0.7):
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    half_w, half_h = k * (box[2] - box[0]) / 2, k * (box[3] - box[1]) / 2
    return (cx - half_w, cy - half_h, cx + half_w, cy + half_h)


@pytest.mark.parametrize("seed", [22, 23, 25, 36, 39])
def test_boxes_tighter_than_the_dice_still_name_every_colour(seed):
    # The detector boxes an icon die around its icon, 0.65-0.75 of the die: the tray must be read
    # clear of the die's body (before session 31 these five trays swapped two colours each).
    scene = render_centerville_tray(np.random.default_rng([78, seed]))
    found = assign_colours(scene.image, [_tight(d.box) for d in scene.dice])
    assert [f.colour for f in found] == [d.color for d in scene.dice]
