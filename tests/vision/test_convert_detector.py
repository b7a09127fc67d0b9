"""vision.train.convert_detector's real representative photos: the train split only, each as the
app feeds it to the detector (padded to 4:3, then resized); and its --mix of a network's weights with
fine-tunes of it (the arithmetic and the refusals: the Keras part needs TensorFlow, which tests do not have)."""
from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.model import network_input
from vision.realdata import photos
from vision.train.convert_detector import mix_share, mixed, parse, real_train_inputs


def test_real_train_inputs_are_the_train_split_as_the_detector_sees_it(tmp_path):
    folder = tmp_path / "tilted-webcam"
    (folder / "images").mkdir(parents=True)
    labels = {}
    for i in range(16):  # blocks of 4: train, calib, train, test
        name = f"{i:02d}.png"
        # 16:9 photos, each a different shade: padding and which photos are used both show.
        cv2.imwrite(str(folder / "images" / name), np.full((90, 160, 3), 10 * i, np.uint8))
        labels[name] = [{"face": 1, "box": [1, 1, 5, 5]}]
    (folder / "labels.json").write_text(json.dumps(labels))
    x = real_train_inputs(320, 240, tmp_path)
    train = photos("tilted-webcam", "train", tmp_path)
    assert x.shape == (8, 240, 320, 3) and x.dtype == np.uint8
    assert [int(img[0, 0, 0]) for img in x] == [10 * i for i in (0, 1, 2, 3, 8, 9, 10, 11)]
    for img, shot in zip(x, train):
        assert np.array_equal(img, network_input(cv2.imread(str(shot.path)), 320, 240))


def test_a_mix_moves_each_array_its_share_of_the_way_toward_each_fine_tune():
    base = [np.zeros((2, 3), np.float32), np.full(4, 2.0, np.float32)]
    soft = [np.full((2, 3), 4.0, np.float32), np.full(4, 6.0, np.float32)]
    big = [np.full((2, 3), -8.0, np.float32), np.full(4, 2.0, np.float32)]
    one = mixed(base, [(soft, 0.25)])
    assert [a.dtype for a in one] == [np.float32, np.float32]
    assert np.array_equal(one[0], np.full((2, 3), 1.0)) and np.array_equal(one[1], np.full(4, 3.0))
    both = mixed(base, [(soft, 0.5), (big, 0.25)])
    assert np.array_equal(both[0], np.zeros((2, 3))) and np.array_equal(both[1], np.full(4, 4.0))
    assert all(np.array_equal(a, b) for a, b in zip(mixed(base, [(soft, 1.0)]), soft))
    assert all(np.array_equal(a, b) for a, b in zip(mixed(base, []), base))


def test_a_mix_of_another_network_is_refused():
    with pytest.raises(ValueError, match="not the same network"):
        mixed([np.zeros(3)], [([np.zeros(4)], 0.5)])
    with pytest.raises(ValueError, match="not the same network"):
        mixed([np.zeros(3)], [([np.zeros(3), np.zeros(1)], 0.5)])


def test_mix_shares_are_read_and_bad_ones_refused_by_name():
    assert mix_share("build/a=b/fine.weights.h5=0.3") == (Path("build/a=b/fine.weights.h5"), 0.3)
    for bad in ("fine.weights.h5", "fine.weights.h5=", "=0.5", "fine.weights.h5=half", "f=0", "f=1.5", "f=-0.2"):
        with pytest.raises(argparse.ArgumentTypeError, match="--mix wants FINE.weights.h5=SHARE"):
            mix_share(bad)
    args = parse(["out.tflite", "--mix", "a.weights.h5=0.25", "--mix", "b.weights.h5=0.5"])
    assert args.mix == [(Path("a.weights.h5"), 0.25), (Path("b.weights.h5"), 0.5)]
    assert parse(["out.tflite"]).mix == []
