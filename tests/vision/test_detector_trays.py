"""The detector's real training images with smaller dice (vision.train.trays: mosaic, small_real,
real_image): every box lands on its die, and only the train split is ever used."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.train.trays import augment, mosaic, real_image, real_train, small_real

W, H = 320, 240


def _pool(n: int = 6, seed: int = 0):
    """n dark photos each with 1-3 bright squares of 20-40 px (the 'dice'), away from the edges
    (the zoom-out pads with the border: a die on it would smear into the padding)."""
    rng = np.random.default_rng(seed)
    images, dice = [], []
    for _ in range(n):
        img = np.full((H, W, 3), 20, np.uint8)
        d = []
        for _ in range(int(rng.integers(1, 4))):
            for _ in range(100):
                s = int(rng.integers(20, 41))
                x0, y0 = int(rng.integers(30, W - 30 - s)), int(rng.integers(30, H - 30 - s))
                box = (x0, y0, x0 + s, y0 + s)
                if all(box[2] + 6 < b[0] or b[2] + 6 < box[0] or box[3] + 6 < b[1] or b[3] + 6 < box[1] for b in d):
                    break
            img[box[1]:box[3], box[0]:box[2]] = 240
            d.append(box)
        images.append(img)
        dice.append(np.array([(*b, 1 + k) for k, b in enumerate(d)], np.float32))
    return np.stack(images), dice


def _boxes_on_their_dice(image, dice):
    """Every box's middle is bright; every bright blob inside the frame holds a box centre (no die
    unlabelled; a blob on the frame's edge may be a die whose centre left, its label dropped)."""
    grey = np.asarray(image, np.float32).mean(axis=2)
    bright = grey > (grey.max() + grey.min()) / 2
    for x0, y0, x1, y1, _ in dice:
        cx, cy = int((x0 + x1) / 2), int((y0 + y1) / 2)
        assert bright[cy, cx], f"box {x0:.0f},{y0:.0f},{x1:.0f},{y1:.0f} is not on a die"
        assert 0 <= x0 < x1 <= W and 0 <= y0 < y1 <= H
    n, blobs, stats, _ = cv2.connectedComponentsWithStats(bright.astype(np.uint8))
    centres = [(int((d[0] + d[2]) / 2), int((d[1] + d[3]) / 2)) for d in dice]
    for k in range(1, n):
        x, y, w, h = stats[k, :4]
        if x == 0 or y == 0 or x + w == W or y + h == H:
            continue
        assert any(blobs[cy, cx] == k for cx, cy in centres), f"blob {stats[k]} has no box"


@pytest.mark.parametrize("k", [2, 3])
def test_a_mosaic_shrinks_each_photo_into_its_cell_with_its_boxes(k):
    images, dice = _pool()
    rng = np.random.default_rng(k)
    for _ in range(20):
        image, d = mosaic(rng, images, dice, k)
        assert image.shape == (H, W, 3) and image.dtype == np.uint8
        _boxes_on_their_dice(image, d)
        # Every die of a cell is 1/k of its size.
        sizes = d[:, 2] - d[:, 0]
        assert sizes.max() <= 40 / k + 1 and sizes.min() >= 20 / k - 1


def test_small_real_images_show_smaller_dice_and_boxes_on_them():
    images, dice = _pool()
    rng = np.random.default_rng(3)
    ratios = []
    for _ in range(150):
        x, d = small_real(rng, images, dice)
        assert x.shape == (H, W, 3)
        _boxes_on_their_dice(x, d)
        ratios += list((d[:, 2] - d[:, 0]) / 30.0)     # the squares are 20-40 px as taken
    # Mosaics and the zoom-out all show dice smaller than taken: none above 0.7 x 40 px.
    assert max(ratios) * 30 <= 0.7 * 40 + 1.5
    assert np.median(ratios) < 0.6


def test_a_zoom_out_to_0_4_pads_with_the_photo_border_and_keeps_the_boxes():
    images, dice = _pool()
    rng = np.random.default_rng(5)
    for i in range(len(images)):
        x, d = augment(rng, images[i], dice[i], zoom=(0.4, 0.41))
        assert len(d) == len(dice[i])
        _boxes_on_their_dice(x, d)
        np.testing.assert_allclose(d[:, 2] - d[:, 0], (dice[i][:, 2] - dice[i][:, 0]) * 0.405, atol=0.6)


def test_big_real_images_show_bigger_dice_and_boxes_on_them():
    """--real-big: a share of the real images zoomed in 1.5-2.5x (vision.train.trays.BIG_ZOOM)."""
    images, dice = _pool()
    rng = np.random.default_rng(4)
    ratios = []
    for _ in range(150):
        x, d = real_image(rng, (images, dice), 0.0, 1.0)
        assert x.shape == (H, W, 3)
        _boxes_on_their_dice(x, d)
        whole = (d[:, 0] > 0) & (d[:, 2] < W) & (d[:, 1] > 0) & (d[:, 3] < H)   # not cut by the frame
        ratios += list((d[whole, 2] - d[whole, 0]) / 30.0)
    assert min(ratios) * 30 >= 1.5 * 20 - 1.5 and np.median(ratios) > 1.5


def test_real_image_without_the_option_draws_as_before():
    """--real-small 0 (the default): the same random draws, the same images as augment alone."""
    images, dice = _pool()
    a, b = np.random.default_rng(9), np.random.default_rng(9)
    for _ in range(10):
        x, d = real_image(a, (images, dice), 0.0)
        i = int(b.integers(len(images)))
        y, e = augment(b, images[i], dice[i])
        np.testing.assert_array_equal(x, y)
        np.testing.assert_array_equal(d, e)


def _fake_set(root, photos: int = 16):
    """Train photos (blocks 0 and 2 of every 4 photos) grey with a white die of face 3; calib and
    test photos pure red with a pink die of face 5, so their pixels and their labels both show."""
    from vision.realdata import split_of
    folder = root / "fake-set"
    (folder / "images").mkdir(parents=True)
    labels = {}
    for i in range(photos):
        train = split_of(i) == "train"
        image = np.full((480, 640, 3), (90, 90, 90) if train else (0, 0, 255), np.uint8)
        cv2.rectangle(image, (200, 160), (260, 220), (250, 250, 250) if train else (200, 200, 255), -1)
        name = f"p{i:02d}.jpg"
        cv2.imwrite(str(folder / "images" / name), image)
        labels[name] = [{"face": 3 if train else 5, "box": [200, 160, 260, 220]}]
    (folder / "labels.json").write_text(json.dumps(labels))


def test_no_calib_or_test_photo_is_ever_used(tmp_path):
    _fake_set(tmp_path)
    real = real_train((W, H), sets=("fake-set",), root=tmp_path)
    assert len(real[0]) == 8                               # 16 photos: 0-3 and 8-11 are train
    rng = np.random.default_rng(0)
    for _ in range(200):
        x, d = real_image(rng, real, small=0.5)
        x = np.asarray(x, np.float32)
        # augment's colour change (channel gains 0.85-1.15, light 0.7-1.3, one offset) keeps a
        # train photo's grey and white within 67 levels across channels; a calib or test photo's
        # red stays at least 151 above its blue and green (unless the image went grey: its labels).
        assert (x[..., 2] - x[..., :2].max(axis=2)).max() < 100
        assert (d[:, 4] == 3).all()


def test_steep_trays_are_cached_apart_from_wild_and_icon_trays(tmp_path):
    from vision.train import trays
    images, dice = trays.rendered(3, 5, (W, H), 1, tmp_path, log=lambda _m: None, steep=True)
    assert images.shape == (3, H, W, 3) and len(dice) == 3
    assert [p.name.split("-")[0] for p in tmp_path.iterdir()] == ["steep"]
    again, _ = trays.rendered(3, 5, (W, H), 1, tmp_path, log=lambda _m: None, steep=True)
    assert np.array_equal(images, again)
    with pytest.raises(ValueError, match="not both"):
        trays.rendered(3, 5, (W, H), 1, tmp_path, icons=True, steep=True)


def test_a_batch_takes_real_then_icon_then_steep_then_pasted_images_then_wild_ones():
    from vision.train.learn_detector import _pool_of
    real, synth, icons, steep = (np.zeros((2, 1)), []), ("synth",), (np.zeros((2, 1)), []), (np.zeros((2, 1)), [])
    pools = [_pool_of(k, synth, [(real, 4), (icons, 2), (steep, 2)]) for k in range(16)]
    assert pools == [real] * 4 + [icons] * 2 + [steep] * 2 + [synth] * 8
    # Without steep trays (the default) the slots are the wild trays', as before the option.
    assert [_pool_of(k, synth, [(real, 4), (icons, 2), (None, 0)]) for k in range(8)] == \
        [real] * 4 + [icons] * 2 + [synth] * 2
    assert _pool_of(0, synth, [((np.zeros((0, 1)), []), 4), (icons, 2), (steep, 2)]) is synth   # no real photos here
    # Pasted real dice (--pasted) take the slots after the steep trays'; without any, wild trays.
    pieces = ["a cut die"]
    pools = [_pool_of(k, synth, [(real, 4), (icons, 2), (steep, 2), (pieces, 3)]) for k in range(16)]
    assert pools == [real] * 4 + [icons] * 2 + [steep] * 2 + [pieces] * 3 + [synth] * 5
    assert [_pool_of(k, synth, [(real, 4), (icons, 2), (None, 0), ([], 3)]) for k in range(8)] == \
        [real] * 4 + [icons] * 2 + [synth] * 2


def test_the_detector_trainer_takes_an_input_size_the_network_can_read():
    from vision.train.learn_detector import parse
    assert parse([]).input == (320, 240)
    assert parse(["--input", "512x384"]).input == (512, 384)
    for bad in ("500x384", "512x360", "0x0", "512", "big"):
        with pytest.raises(SystemExit):
            parse(["--input", bad])


def test_the_shares_of_smaller_and_bigger_real_dice_are_refused_past_the_whole(capsys):
    from vision.train.learn_detector import parse
    args = parse(["--real-small", "0.4", "--real-big", "0.3"])
    assert (args.real_small, args.real_big) == (0.4, 0.3) and parse([]).real_big == 0.0
    for bad in (["--real-small", "0.8", "--real-big", "0.3"], ["--real-big", "-0.1"]):
        with pytest.raises(SystemExit):
            parse(bad)
        assert "shares of the real images" in capsys.readouterr().err


def test_an_input_size_off_the_networks_grid_is_refused_by_name():
    from vision.train.trays import check_size
    assert check_size((448, 336)) == (448, 336)
    with pytest.raises(ValueError, match="multiple of 16.*480x360"):
        check_size((480, 360))


def test_icon_trays_at_a_larger_input_fill_that_frame_and_box_their_dice_in_it():
    from vision.train.trays import render_icon_tray
    w, h = 512, 384
    for seed in range(4):
        image, dice = render_icon_tray(np.random.default_rng(seed), (w, h))
        assert image.shape == (h, w, 3) and len(dice)
        assert (dice[:, 0] >= 0).all() and (dice[:, 2] <= w).all() and (dice[:, 3] <= h).all()


def test_a_detector_with_a_1_32_level_takes_only_inputs_of_32s():
    from vision.train.learn_detector import parse
    args = parse(["--input", "448x352", "--deepest", "32"])
    assert (args.input, args.deepest) == ((448, 352), 32)
    assert parse([]).deepest == 16
    with pytest.raises(SystemExit):
        parse(["--input", "448x336", "--deepest", "32"])  # 336 = 10.5 x 32
    with pytest.raises(SystemExit):
        parse(["--deepest", "8"])


def test_check_size_names_the_deepest_level_it_was_held_to():
    from vision.train.trays import check_size
    assert check_size((448, 352), 32) == (448, 352)
    with pytest.raises(ValueError, match="multiple of 32.*448x336"):
        check_size((448, 336), 32)
    with pytest.raises(ValueError, match="1/16 or 1/32.*not 1/8"):
        check_size((448, 352), 8)


def test_init_weights_say_how_deep_their_network_is_by_their_json(tmp_path):
    import json
    from vision.train.learn_detector import init_deepest
    weights = tmp_path / "grown.weights.h5"
    assert init_deepest(weights) == 16  # no .json: the network before --deepest
    (tmp_path / "grown.json").write_text(json.dumps({"recipe": {"width": "24"}}))
    assert init_deepest(weights) == 16
    (tmp_path / "grown.json").write_text(json.dumps({"recipe": {"width": "24", "deepest": "32"}}))
    assert init_deepest(weights) == 32
