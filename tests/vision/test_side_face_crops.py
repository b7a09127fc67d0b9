"""Boxes on a tipped die's side face, taught to the face classifier as NOT_A_DIE (DETECTOR_ROUNDS round
30): the faces' quads of vision.synth.cube, vision.synth.nodie.side_face_box and
render_side_face_crop, and vision.train.data.render_not_a_die_set("side") (python -m vision.train
--side-faces)."""
import numpy as np
import pytest

from vision.crops import INPUT_SIZE
from vision.synth.nodie import SIDE_CLEAR, SIDE_SHARE, _size, render_side_face_crop, side_face_box
from vision.synth.scene import die_scene


def test_a_sprite_keeps_the_quad_of_every_face_in_view():
    g = np.random.default_rng(5)
    for _ in range(10):
        _, placed, _ = die_scene(g, 3, 40.0)
        sprite = placed[0].sprite
        assert set(sprite.quads) == set(sprite.areas) and "top" in sprite.quads
        assert np.array_equal(sprite.quads["top"], sprite.top_quad)
        for quad in sprite.quads.values():
            # Every quad lies on the die: inside its patch, its middle on the die's mask.
            x, y = quad.mean(0).astype(int)
            assert sprite.mask[y, x] > 0.5


def test_a_side_face_box_sits_on_a_big_side_face_away_from_the_die_middle():
    g = np.random.default_rng(11)
    boxes = 0
    for _ in range(60):
        _, placed, _ = die_scene(g, int(g.integers(1, 7)), 50.0, steep=bool(g.random() < 0.5))
        target = placed[0]
        box = side_face_box(g, target)
        if box is None:
            continue
        boxes += 1
        sprite, at = target.sprite, np.array([target.x, target.y], np.float32)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        s = _size(target)
        top = (sprite.top_quad + at).mean(0)
        assert np.hypot(cx - target.centre[0], cy - target.centre[1]) >= SIDE_CLEAR * s
        assert np.hypot(cx - top[0], cy - top[1]) >= SIDE_CLEAR * s
        # Its middle is nearer a big side face's middle than the top face's.
        sides = [sprite.quads[n] + at for n in sprite.quads
                 if n != "top" and sprite.areas[n] >= SIDE_SHARE * sprite.areas["top"]]
        nearest_side = min(np.hypot(*(q.mean(0) - (cx, cy))) for q in sides)
        assert nearest_side < np.hypot(*(top - (cx, cy)))
    # Most scenes (tilts past 20 degrees, steep views) have a side face to box.
    assert boxes >= 30


def test_side_face_crops_are_crops_and_drawn_from_the_seed_alone():
    a = render_side_face_crop(np.random.default_rng([7, 5, 0]))
    b = render_side_face_crop(np.random.default_rng([7, 5, 0]))
    c = render_side_face_crop(np.random.default_rng([7, 5, 1]))
    assert a.shape == (INPUT_SIZE, INPUT_SIZE, 3) and a.dtype == np.uint8
    assert np.array_equal(a, b) and not np.array_equal(a, c)


def test_a_side_face_set_is_all_not_a_die_cached_and_its_held_out_stream_differs(tmp_path):
    from vision.train.data import SIDE_HELD_OUT_SPLIT, render_not_a_die_set
    quiet = {"log": lambda *_: None}
    x, y = render_not_a_die_set("side", 6, 7, 6, 1, tmp_path, **quiet)
    assert x.shape == (6, INPUT_SIZE, INPUT_SIZE, 3) and (y == 6).all()
    assert len(list(tmp_path.glob("side-6-*.npz"))) == 1
    x2, _ = render_not_a_die_set("side", 6, 7, 6, 1, tmp_path, **quiet)
    assert np.array_equal(x, x2)
    held, _ = render_not_a_die_set("side", 6, 7, 6, 1, tmp_path, split=SIDE_HELD_OUT_SPLIT, **quiet)
    assert not np.array_equal(x, held) and len(list(tmp_path.glob("side-6-*.npz"))) == 2
    with pytest.raises(ValueError, match="'ghosts'"):
        render_not_a_die_set("ghosts", 6, 7, 6, 1, None, **quiet)


def test_the_trainer_takes_side_face_crops():
    from vision.train.__main__ import parse
    assert parse(["--side-faces", "4000"]).side_faces == 4000 and parse([]).side_faces == 0
