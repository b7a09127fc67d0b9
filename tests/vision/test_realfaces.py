"""Real dice in the embedding's episodes (vision.train.realfaces): train split only, one class per
face of one set, each look another die of that face."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from vision.train.realfaces import pip_classes, real_die, real_face_sets


def _fake_set(root, name: str, photos: int, shade: int):
    """Photos of one die on grey felt; photo i shows face i % 6 + 1, its die drawn shade + 10 * face
    bright (so a crop tells its face), the photo's index written in its corner pixel."""
    folder = root / name
    (folder / "images").mkdir(parents=True)
    labels = {}
    for i in range(photos):
        face = i % 6 + 1
        image = np.full((120, 160, 3), 90, np.uint8)
        cv2.rectangle(image, (60, 40), (100, 80), (shade + 10 * face,) * 3, -1)
        name_i = f"p{i:03d}.png"
        cv2.imwrite(str(folder / "images" / name_i), image)
        labels[name_i] = [{"face": face, "box": [60, 40, 100, 80]}]
    (folder / "labels.json").write_text(json.dumps(labels))


def _quiet(*_):
    pass


@pytest.mark.parametrize("split", ["calib", "test", "all"])
def test_only_the_train_split_is_ever_cut_for_training(tmp_path, split):
    _fake_set(tmp_path, "a", 48, 100)
    with pytest.raises(ValueError, match="train split only"):
        real_face_sets(split, sets=("a",), root=tmp_path, log=_quiet)


def test_the_train_split_gives_each_set_apart_with_its_faces(tmp_path):
    _fake_set(tmp_path, "a", 48, 100)   # blocks of 4 photos: 0-3 and 8-11 of every 16 are train
    _fake_set(tmp_path, "b", 48, 150)
    got = real_face_sets("train", copies=3, sets=("a", "b"), root=tmp_path, size=48, log=_quiet)
    assert [r.name for r in got] == ["a", "b"]
    train = [i for i in range(48) if (i // 4) % 4 in (0, 2)]
    for r, shade in zip(got, (100, 150)):
        assert r.crops.shape == (len(train), 3, 48, 48, 3) and r.crops.dtype == np.uint8
        assert r.faces.tolist() == [i % 6 + 1 for i in train]
        # Each die's first copy is cut around its label box: the middle is the die's own shade.
        middle = r.crops[:, 0, 24, 24, 0].astype(int)
        assert middle.tolist() == [shade + 10 * f for f in r.faces]


def test_a_real_die_shows_each_face_at_its_place_from_other_dice(tmp_path):
    _fake_set(tmp_path, "a", 96, 100)
    (real,) = real_face_sets("train", copies=2, sets=("a",), root=tmp_path, log=_quiet)
    rng = np.random.default_rng(0)
    die = real_die(rng, real, 4)
    assert die.shape == (6, 4, 48, 48, 3)
    for f in range(6):
        # Face f + 1's looks all show that face's shade in their middle (a jittered box stays on the die).
        assert (np.abs(die[f, :, 24, 24, 0].astype(int) - (100 + 10 * (f + 1))) <= 1).all()


def test_real_faces_share_the_rendered_pip_classes():
    vocab = ["digits/1", "pip-dice/1", "pip-dice/2", "pip-dice/3", "pip-dice/4", "pip-dice/5", "pip-dice/6"]
    assert pip_classes(vocab).tolist() == [1, 2, 3, 4, 5, 6]
    assert pip_classes(["digits/1"]).tolist() == [-1] * 6


def test_no_real_photos_is_an_error_not_a_renders_only_run(tmp_path):
    with pytest.raises(FileNotFoundError, match="--real-train 0"):
        real_face_sets("train", sets=("missing",), root=tmp_path, log=_quiet)
