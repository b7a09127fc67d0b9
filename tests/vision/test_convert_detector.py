"""vision.train.convert_detector's real representative photos: the train split only, each as the
app feeds it to the detector (padded to 4:3, then resized)."""
from __future__ import annotations

import json

import cv2
import numpy as np

from vision.model import network_input
from vision.realdata import photos
from vision.train.convert_detector import real_train_inputs


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
