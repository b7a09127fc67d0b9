"""Real die crops for the classifier (vision.train.realcrops): train split only, faces as labelled."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.crops import INPUT_SIZE
from vision.train.realcrops import MINE_BELOW, jitter_box, mined_no_die_boxes, real_crops

LABELS = ["pip1", "pip2", "pip3", "pip4", "pip5", "pip6", "none"]


def _fake_set(root, photos: int):
    """A set of photos on grey felt, each with a white die at a known box (face 2 or 5)."""
    folder = root / "fake-set"
    (folder / "images").mkdir(parents=True)
    labels = {}
    for i in range(photos):
        image = np.full((240, 320, 3), 90, np.uint8)
        cv2.rectangle(image, (100, 80), (140, 120), (250, 250, 250), -1)
        name = f"p{i:02d}.jpg"
        cv2.imwrite(str(folder / "images" / name), image)
        labels[name] = [{"face": 2 if i % 2 else 5, "box": [100, 80, 140, 120]}]
    (folder / "labels.json").write_text(json.dumps(labels))
    return folder


def test_crops_come_from_the_train_split_with_their_labels_and_boxes_on_no_die(tmp_path):
    _fake_set(tmp_path, 16)  # blocks of 4: photos 0-3 and 8-11 are train
    x, y = real_crops(LABELS, "train", copies=3, no_die_per_photo=2, sets=("fake-set",), root=tmp_path,
                      log=lambda *_: None)
    assert x.shape[1:] == (INPUT_SIZE, INPUT_SIZE, 3) and x.dtype == np.uint8
    counts = np.bincount(y, minlength=len(LABELS))
    # 8 train photos, half of them face 2 and half face 5, 3 crops each; the rest holds no die.
    assert counts[LABELS.index("pip2")] == 12 and counts[LABELS.index("pip5")] == 12
    assert counts[LABELS.index("none")] == 16
    assert counts.sum() == len(x)
    # A die crop is mostly the white die; a box on no die is mostly the grey felt around it.
    assert x[y == LABELS.index("pip5")].mean() > 180
    assert x[y == LABELS.index("none")].mean() < x[y == LABELS.index("pip5")].mean() - 40


def test_the_finders_boxes_on_things_are_mined_and_its_boxes_on_or_around_a_die_are_not():
    die = (100, 80, 140, 120)  # a labelled top face, 40 px
    found = [((100, 80, 140, 120), 0.9),   # the die itself
             ((140, 120, 170, 150), 0.2),  # its side face, next to the label
             ((250, 20, 290, 60), 0.2),    # a thing far from any die
             ((250, 150, 290, 190), 0.5),  # as far, but as strong as a die the labels left out
             ((10, 10, 40, 40), 0.1)]      # another thing
    mined = mined_no_die_boxes(lambda _image: found, None, [die])
    assert mined == [(250, 20, 290, 60), (10, 10, 40, 40)]
    assert MINE_BELOW <= 0.5


def test_mined_boxes_are_cut_as_not_a_die_from_train_photos_only(tmp_path):
    _fake_set(tmp_path, 16)
    seen = []

    def finder(image):
        seen.append(image.shape)
        return [((250, 150, 290, 190), 0.2)]  # the felt, far from the die
    x, y = real_crops(LABELS, "train", copies=3, no_die_per_photo=2, sets=("fake-set",), root=tmp_path,
                      log=lambda *_: None, finder=finder, mined_copies=4)
    counts = np.bincount(y, minlength=len(LABELS))
    assert len(seen) == 8  # the 8 train photos, never calib's or test's
    assert counts[LABELS.index("none")] == 16 + 8 * 4
    assert counts[LABELS.index("pip2")] == 12 and counts[LABELS.index("pip5")] == 12


@pytest.mark.parametrize("split", ["calib", "test", "all"])
def test_calib_and_test_photos_are_never_cut_for_training(tmp_path, split):
    with pytest.raises(ValueError):
        real_crops(LABELS, split, sets=("fake-set",), root=tmp_path)


def test_no_real_photos_is_an_error_not_a_renders_only_run(tmp_path):
    with pytest.raises(FileNotFoundError, match="--real-copies 0"):
        real_crops(LABELS, "train", sets=("fake-set",), root=tmp_path, log=lambda *_: None)


def test_a_jittered_box_stays_on_its_die():
    rng = np.random.default_rng(0)
    for _ in range(200):
        x0, y0, x1, y1 = jitter_box(rng, (100, 80, 140, 120))
        assert abs((x0 + x1) / 2 - 120) <= 0.17 * 40 and abs((y0 + y1) / 2 - 100) <= 0.17 * 40
        assert 0.75 * 40 <= x1 - x0 <= 1.35 * 40


@pytest.mark.parametrize("real, said", [("(none)", "never trained on"), ("train split x 8", "was trained on")])
def test_the_card_says_whether_the_real_train_split_was_trained_on(tmp_path, real, said):
    from vision.train.card import write_card
    from .helpers import MODEL
    card = tmp_path / "card.md"
    write_card(card, model=MODEL, labels=LABELS, input_size=INPUT_SIZE, quantize="int8",
               recipe={"real crops": real, "command": "", "crop_margin": 1.15}, scores={"held-out": "1"},
               comparison=[("int8", 1, {"held-out": "1"})], timings={}, params=1)
    assert said in card.read_text()


def _names(shots):
    return {s.path.name for s in shots}


def test_the_train_folds_are_disjoint_cover_the_train_split_and_hold_no_calib_or_test_photo(tmp_path):
    from vision.realdata import FOLDS, photos
    _fake_set(tmp_path, 37)
    train = photos("fake-set", "train", tmp_path)
    others = _names(photos("fake-set", "calib", tmp_path)) | _names(photos("fake-set", "test", tmp_path))
    folds = [photos("fake-set", "train", tmp_path, fold=k) for k in range(FOLDS)]
    assert FOLDS == 2 and all(folds)
    assert _names(folds[0]).isdisjoint(_names(folds[1]))
    assert _names(folds[0]) | _names(folds[1]) == _names(train)
    assert sum(map(len, folds)) == len(train)
    assert not (_names(folds[0]) | _names(folds[1])) & others
    # The i-th train photo by name is in fold i % 2; a fold held out leaves exactly the other.
    assert [s.path.name for s in folds[1]] == [s.path.name for s in train[1::2]]
    for k in range(FOLDS):
        assert _names(photos("fake-set", "train", tmp_path, exclude_fold=k)) == _names(folds[1 - k])


@pytest.mark.parametrize("split", ["calib", "test", "all"])
def test_only_the_train_split_has_folds(tmp_path, split):
    from vision.realdata import photos
    _fake_set(tmp_path, 8)
    with pytest.raises(ValueError):
        photos("fake-set", split, tmp_path, fold=0)
    with pytest.raises(ValueError):
        photos("fake-set", "train", tmp_path, fold=2)


def test_a_held_out_fold_is_not_cut(tmp_path):
    _fake_set(tmp_path, 16)  # train photos p00-p03, p08-p11; fold 0: p00 p02 p08 p10 (all face 5)
    x, y = real_crops(LABELS, "train", copies=3, no_die_per_photo=0, sets=("fake-set",), root=tmp_path,
                      log=lambda *_: None, hold_out_fold=0)
    assert len(x) == 12 and set(y.tolist()) == {LABELS.index("pip2")}


@pytest.mark.parametrize("held, shown_face", [(0, 2), (1, 5)])
def test_a_held_out_fold_is_not_shown_to_the_detector(tmp_path, held, shown_face):
    from vision.train.trays import real_train
    _fake_set(tmp_path, 16)  # train fold 0: p00 p02 p08 p10 (face 5); fold 1: p01 p03 p09 p11 (face 2)
    images, dice = real_train((320, 240), sets=("fake-set",), root=tmp_path, hold_out_fold=held)
    assert len(images) == 4 and [d[:, 4].tolist() for d in dice] == [[shown_face]] * 4
    images, dice = real_train((320, 240), sets=("fake-set",), root=tmp_path)
    assert len(images) == 8 and sorted(d[0, 4] for d in dice) == [2] * 4 + [5] * 4


def test_a_part_is_a_split_or_one_fold_of_the_train_split(tmp_path):
    from vision.realdata import parse_part, photos, photos_of_part
    _fake_set(tmp_path, 16)
    assert parse_part("calib") == ("calib", None) and parse_part("train/1") == ("train", 1)
    for k in (0, 1):
        assert _names(photos_of_part("fake-set", f"train/{k}", tmp_path)) == \
            _names(photos("fake-set", "train", tmp_path, fold=k))
    assert _names(photos_of_part("fake-set", "train/1", tmp_path)) == {"p01.jpg", "p03.jpg", "p09.jpg", "p11.jpg"}
    for split in ("train", "calib", "test"):
        assert _names(photos_of_part("fake-set", split, tmp_path)) == _names(photos("fake-set", split, tmp_path))
    with pytest.raises(ValueError):
        photos_of_part("fake-set", "calib/0", tmp_path)


def test_the_detector_trainer_takes_a_fold_to_hold_out():
    from vision.train.learn_detector import parse
    assert parse([]).real_hold_out_fold is None
    assert parse(["--real-hold-out-fold", "1"]).real_hold_out_fold == 1
    with pytest.raises(SystemExit):
        parse(["--real-hold-out-fold", "2"])


def test_the_real_sets_folds_split_their_train_photos(tmp_path):
    from vision.realdata import SETS, photos
    for name in SETS:
        train = photos(name, "train")
        if not train:
            pytest.skip("the real sets are not on this machine")
        held = [photos(name, "train", fold=k) for k in (0, 1)]
        assert _names(held[0]) | _names(held[1]) == _names(train)
        assert not _names(held[0]) & _names(held[1])
        assert not (_names(train) & (_names(photos(name, "calib")) | _names(photos(name, "test"))))
