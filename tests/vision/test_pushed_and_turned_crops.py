"""Round 31's training crops (DETECTOR_ROUNDS): a side face turned any way round
(vision.synth.nodie.render_side_face_crop_any_way, the trainer's --side-faces-any-way) and a die
touching a neighbour boxed pushed toward it (vision.synth.scene.render_pushed_die_crop, --pushed)."""
import numpy as np

from vision.crops import INPUT_SIZE
from vision.synth.nodie import render_side_face_crop, render_side_face_crop_any_way
from vision.synth.scene import render_pushed_die_crop


def test_a_side_face_turned_any_way_is_the_side_face_crop_turned_a_quarter_turn():
    turns = set()
    for i in range(12):
        plain = render_side_face_crop(np.random.default_rng([3, 5, i]))
        turned = render_side_face_crop_any_way(np.random.default_rng([3, 5, i]))
        k = [k for k in range(4) if np.array_equal(np.rot90(plain, k), turned)]
        assert len(k) >= 1 and turned.flags.c_contiguous
        turns.add(k[0])
    assert len(turns) >= 3  # every way round, not one


def test_a_pushed_die_crop_is_seeded_and_its_box_pushed_toward_a_neighbour_by_push():
    from vision.synth.scene import PUSH, die_scene, pushed_box
    a = render_pushed_die_crop(np.random.default_rng([7, 7, 0]), 4)
    assert a.shape == (INPUT_SIZE, INPUT_SIZE, 3) and a.dtype == np.uint8
    assert np.array_equal(a, render_pushed_die_crop(np.random.default_rng([7, 7, 0]), 4))
    # Every seed finds a scene with a neighbour to push toward (else the renderer raises).
    for i in range(20):
        assert render_pushed_die_crop(np.random.default_rng([7, 7, i]), 1 + i % 6).shape == a.shape
    # The box is pushed toward a touching neighbour by PUSH of the die's side, never as far as
    # vision.synth.nodie calls a box no longer the die's (0.3).
    g = np.random.default_rng(77)
    for i in range(20):
        placed = []
        while len(placed) < 2:  # as the renderer does: a scene where a neighbour was placed
            _, placed, _ = die_scene(g, 1 + i % 6, neighbours=2)
        target, near = placed[0], placed[-1]
        box = pushed_box(g, target, near)
        x0, y0, x1, y1 = target.box
        side = np.sqrt((x1 - x0) * (y1 - y0))
        middle = np.array([(box[0] + box[2]) / 2, (box[1] + box[3]) / 2]) - target.centre
        assert PUSH[0] * side - 1e-6 <= np.hypot(*middle) <= PUSH[1] * side + 1e-6 < 0.3 * side
        # ...toward the neighbour, not away from it.
        assert np.dot(middle, np.subtract(near.centre, target.centre)) > 0


def test_a_pushed_set_is_labelled_with_its_faces_in_turn_and_cached(tmp_path):
    from vision.train.data import PUSHED_HELD_OUT_SPLIT, render_pushed_set
    labels = [f"pip{k}" for k in range(1, 7)] + ["NOT_A_DIE"]
    quiet = {"log": lambda *_: None}
    x, y = render_pushed_set(labels, 7, 3, 1, tmp_path, **quiet)
    assert x.shape == (7, INPUT_SIZE, INPUT_SIZE, 3) and y.tolist() == [0, 1, 2, 3, 4, 5, 0]
    assert np.array_equal(render_pushed_set(labels, 7, 3, 1, tmp_path, **quiet)[0], x)
    held, _ = render_pushed_set(labels, 7, 3, 1, tmp_path, split=PUSHED_HELD_OUT_SPLIT, **quiet)
    assert not np.array_equal(held, x) and len(list(tmp_path.glob("pushed-7-*.npz"))) == 2


def test_the_trainer_takes_turned_side_faces_and_pushed_dice():
    from vision.train.__main__ import parse
    args = parse(["--side-faces", "40", "--side-faces-any-way", "--pushed", "30"])
    assert args.side_faces_any_way and args.pushed == 30
    assert not parse([]).side_faces_any_way and parse([]).pushed == 0
