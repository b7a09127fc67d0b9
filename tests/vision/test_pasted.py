"""Real dice pasted onto rendered trays (vision.train.pasted, `learn_detector --pasted`): every
pasted die is labelled where it lands, turned or mirrored with its box, on no other die, and a die
whose cut would carry half a neighbour is not cut."""
from __future__ import annotations

import cv2
import numpy as np

from vision.train.pasted import PER_IMAGE, SIDE, Cut, cuts, paste

W, H = 320, 240


def _photos(seed: int = 0):
    """Dark photos each with 1-3 bright upright rectangles (the 'dice'), 16-28 x 22-40 px: not
    square, so that a quarter turn that forgot to turn the box would leave it off its die."""
    rng = np.random.default_rng(seed)
    images, dice = [], []
    for _ in range(5):
        img = np.full((H, W, 3), 20, np.uint8)
        d = []
        for k in range(int(rng.integers(1, 4))):
            w, h = int(rng.integers(16, 29)), int(rng.integers(22, 41))
            x0, y0 = 20 + 100 * k, int(rng.integers(20, H - 20 - h))
            img[y0:y0 + h, x0:x0 + w] = 240
            d.append((x0, y0, x0 + w, y0 + h, 1 + k))
        images.append(img)
        dice.append(np.array(d, np.float32))
    return np.stack(images), dice


def test_every_pasted_die_is_labelled_where_it_lands_and_on_no_other():
    pieces = cuts(_photos())
    assert len(pieces) == sum(len(d) for d in _photos()[1])  # far apart: every die is cut
    tray = np.full((H, W, 3), 110, np.uint8)
    rendered = np.array([(150, 100, 190, 140, 3)], np.float32)  # a die already on the tray
    tray[100:140, 150:190] = 240
    for seed in range(30):
        image, dice = paste(np.random.default_rng(seed), tray, rendered, pieces)
        assert np.array_equal(dice[:1], rendered)
        added = dice[1:]
        assert PER_IMAGE[0] - 1 <= len(added) <= PER_IMAGE[1]  # a die finding no free spot is left out
        bright = image.mean(axis=2) > 175
        for x0, y0, x1, y1, face in added:
            assert 0 <= x0 < x1 <= W and 0 <= y0 < y1 <= H and 1 <= face <= 3
            assert SIDE[0] - 1 <= max(x1 - x0, y1 - y0) <= SIDE[1] + 1
            inner = bright[int(np.ceil(y0)) + 1:int(y1) - 1, int(np.ceil(x0)) + 1:int(x1) - 1]
            assert inner.mean() > 0.9, f"box {x0:.0f},{y0:.0f},{x1:.0f},{y1:.0f} is not on its die"
        boxes = dice[:, :4]
        for i in range(len(boxes)):
            for j in range(i + 1, len(boxes)):
                a, b = boxes[i], boxes[j]
                assert a[2] <= b[0] or b[2] <= a[0] or a[3] <= b[1] or b[3] <= a[1], "two dice overlap"
        # Every bright blob is a labelled die: nothing of a die is pasted unlabelled.
        n, blobs = cv2.connectedComponents(bright.astype(np.uint8))
        centres = {blobs[int((y0 + y1) / 2), int((x0 + x1) / 2)] for x0, y0, x1, y1, _f in dice}
        assert set(range(1, n)) <= centres


def test_turns_and_mirrors_happen_and_the_same_seed_pastes_the_same():
    pieces = cuts(_photos())
    tray = np.full((H, W, 3), 110, np.uint8)
    shapes = set()
    for seed in range(40):
        _image, dice = paste(np.random.default_rng(seed), tray, np.zeros((0, 5), np.float32), pieces)
        shapes |= {(x1 - x0) > (y1 - y0) for x0, y0, x1, y1, _f in dice}
    assert shapes == {True, False}  # upright rectangles came out lying down too: turned
    a = paste(np.random.default_rng(7), tray, np.zeros((0, 5), np.float32), pieces)
    b = paste(np.random.default_rng(7), tray, np.zeros((0, 5), np.float32), pieces)
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])


def test_a_die_whose_cut_holds_half_a_neighbour_is_not_cut():
    img = np.full((H, W, 3), 20, np.uint8)
    dice = np.array([(50, 50, 80, 80, 1), (80, 50, 110, 80, 2), (200, 100, 230, 130, 5)], np.float32)  # 1, 2 touch
    pieces = cuts((img[None], [dice]))
    assert [p.face for p in pieces] == [5]
    assert isinstance(pieces[0], Cut) and pieces[0].pixels.shape[0] > 30
