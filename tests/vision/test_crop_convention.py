"""A face classifier file trained on a wider crop (issue 14 round 6) says so in <name>.crop.json;
the classifier, the reader (its second look and read_crop too) and the training's crops follow it.
On the real interpreter with copies of the shipped file (a 48 px file read at margin 1.5 here)."""
import hashlib
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from vision.classify import (FaceClassifier, ModelError, crop_convention, crop_path_for, labels_path_for,
                             write_crop_convention)
from vision.crops import CROP_MARGIN, INPUT_SIZE, crop_square, die_crop
from vision.reader import DiceReader
from vision.synth import render_label_crop
from vision.train.data import RENDER_VERSION, _cache_path

from .helpers import MODEL, scene


def _wide_copy(tmp_path, margin=1.5, name="wide.tflite"):
    wide = tmp_path / name
    shutil.copy(MODEL, wide)
    shutil.copy(labels_path_for(MODEL), labels_path_for(wide))
    write_crop_convention(wide, margin)
    return wide


def test_die_crop_takes_a_margin():
    assert crop_square((10, 20, 50, 40))[2] == round(CROP_MARGIN * 40)
    assert crop_square((10, 20, 50, 40), 1.5)[2] == 60
    img = np.zeros((100, 100, 3), np.uint8)
    img[40:60, 40:60] = 255  # a white 20 px square: the default crop is mostly white, the wide one less so
    narrow, wide = die_crop(img, (40, 40, 60, 60)), die_crop(img, (40, 40, 60, 60), 56, 1.5)
    assert wide.shape == (56, 56, 3) and narrow.shape == (INPUT_SIZE, INPUT_SIZE, 3)
    assert wide.mean() < narrow.mean()


def test_the_crop_file_is_written_only_for_another_margin(tmp_path):
    assert crop_convention(MODEL) == CROP_MARGIN and not crop_path_for(MODEL).exists()
    wide = _wide_copy(tmp_path)
    assert crop_path_for(wide).name == "wide.crop.json" and crop_convention(wide) == 1.5
    assert write_crop_convention(wide, CROP_MARGIN) is None and not crop_path_for(wide).exists()
    crop_path_for(wide).write_text(json.dumps({"crop_margin": 9}))
    with pytest.raises(ModelError, match=r"wide\.crop\.json gives a crop margin of 9"):
        FaceClassifier(wide)
    crop_path_for(wide).write_text("{")
    with pytest.raises(ModelError, match="cannot be used"):
        FaceClassifier(wide)


def test_a_wide_file_reads_its_own_crops_and_mixes_with_the_default(tmp_path):
    tray = scene(21, 5)
    frame, boxes = tray.image, [d.box for d in tray.dice]
    wide_path = _wide_copy(tmp_path)
    wide, plain = FaceClassifier(wide_path), FaceClassifier(MODEL)
    assert (wide.crop_margin, plain.crop_margin) == (1.5, CROP_MARGIN)
    wide_crops = np.stack([die_crop(frame, b, INPUT_SIZE, 1.5) for b in boxes])
    np.testing.assert_array_equal(wide.crop(frame, boxes[0]), wide_crops[0])
    np.testing.assert_allclose(wide.box_probabilities(frame, boxes), wide.probabilities(wide_crops), atol=1e-6)
    plain_probs = plain.probabilities(np.stack([die_crop(frame, b) for b in boxes]))
    np.testing.assert_allclose(plain.box_probabilities(frame, boxes), plain_probs, atol=1e-6)
    # An ensemble of the two conventions: each file cuts its own crop, the mean of both.
    pair = FaceClassifier([MODEL, wide_path])
    np.testing.assert_allclose(pair.box_probabilities(frame, boxes),
                               (plain_probs + wide.probabilities(wide_crops)) / 2, atol=1e-6)
    with pytest.raises(ValueError, match="box_probabilities"):
        pair.probabilities(wide_crops)


def test_the_reader_feeds_a_wide_file_its_crops_first_and_second_look(tmp_path):
    tray = scene(21, 5)
    wide_path = _wide_copy(tmp_path)
    reader = DiceReader(wide_path, keep_crops=True, second_look="always")
    seen = []
    members = reader.classifier._members
    original = members[0].probabilities
    members[0].probabilities = lambda x: seen.append(x.copy()) or original(x)
    reading = reader.read(tray.image)
    assert reading.dice and len(seen) == 2  # the first look and the second (every die, at 1.2x)
    first = seen[0]
    boxes = [d.box for d in reader.detector.detect(tray.image)]
    np.testing.assert_array_equal(first, np.stack([die_crop(tray.image, b, INPUT_SIZE, 1.5) for b in boxes]))
    # The crop kept for the table (and its colour) stays the default convention's.
    assert reading.dice[0].crop.shape == (INPUT_SIZE, INPUT_SIZE, 3)
    # read_crop: the picture's centred square, cut at the file's margin.
    picture = tray.image[100:200, 100:260]
    seen.clear()
    reader.read_crop(picture)
    np.testing.assert_array_equal(seen[0][0], die_crop(picture, (30, 0, 130, 100), INPUT_SIZE, 1.5))


def test_training_crops_follow_the_margin_and_size():
    rng = np.random.default_rng([7, 0, 3])
    crop = render_label_crop(rng, "pip4", size=56, margin=1.5)
    assert crop.shape == (56, 56, 3) and crop.dtype == np.uint8
    assert render_label_crop(np.random.default_rng([7, 0, 4]), "none", size=56, margin=1.5).shape == (56, 56, 3)
    labels, cache = ["pip1", "none"], Path("c")
    # The default convention keeps the cache keys of sets rendered before the margin was a choice.
    old = hashlib.sha256(repr((RENDER_VERSION, INPUT_SIZE, tuple(labels), 10, 7, 0)).encode()).hexdigest()[:16]
    assert _cache_path(cache, labels, 10, 7, 0).name == f"dice-0-10-{old}.npz"
    assert _cache_path(cache, labels, 10, 7, 0, 56, 1.5) != _cache_path(cache, labels, 10, 7, 0, 56, CROP_MARGIN)
