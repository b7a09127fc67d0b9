"""Round 16's top-face reading through the real TFLite interpreter (models/candidates/top-face/):
the locator finds rendered dice's top faces, and a classifier file naming a locator in its
.crop.json reads top-face crops, alone or averaged with the shipped file, behind the shipped finder."""
from __future__ import annotations

import numpy as np
import pytest

from vision.classify import FaceClassifier, top_locator_for
from vision.synth.topface import render_top_sample

from .helpers import MODEL, ROOT, scene

TOP = ROOT / "models" / "candidates" / "top-face"
LOCATOR = TOP / "top_locator.tflite"
TOP_FACES = TOP / "top_faces.tflite"

pytestmark = pytest.mark.skipif(not (LOCATOR.is_file() and TOP_FACES.is_file()),
                                reason="round 16's candidate files are not in models/candidates/top-face")


def _iou(a, b):
    ax0, ay0, ax1, ay1 = a[0] - a[2] / 2, a[1] - a[3] / 2, a[0] + a[2] / 2, a[1] + a[3] / 2
    bx0, by0, bx1, by1 = b[0] - b[2] / 2, b[1] - b[3] / 2, b[0] + b[2] / 2, b[1] + b[3] / 2
    inter = max(0, min(ax1, bx1) - max(ax0, bx0)) * max(0, min(ay1, by1) - max(ay0, by0))
    return inter / (a[2] * a[3] + b[2] * b[3] - inter)


def test_the_shipped_file_reads_the_whole_die():
    assert top_locator_for(MODEL) is None
    assert top_locator_for(TOP_FACES) == LOCATOR
    assert top_locator_for(TOP / "top_faces_b.tflite") == LOCATOR


@pytest.mark.parametrize("steep", [False, True])
def test_the_locator_finds_rendered_top_faces(steep):
    from vision.topface import Locator
    loc = Locator(LOCATOR)
    samples = [render_top_sample(np.random.default_rng([99, i]), 1 + i % 6, steep=steep) for i in range(24)]
    pred = loc.boxes(np.stack([s[0] for s in samples]))
    ious = [_iou(p, s[1]) for p, s in zip(pred, samples)]
    assert pred.shape == (24, 4) and np.all((pred >= 0) & (pred <= 1))
    assert np.mean(ious) > 0.6 and sum(v >= 0.5 for v in ious) >= 20


def test_top_face_files_read_boxes_alone_and_averaged_with_the_shipped_one():
    s = scene(3, 4)
    boxes = [d.box for d in s.dice]
    top = FaceClassifier(TOP_FACES)
    both = FaceClassifier([MODEL, TOP_FACES])
    a = FaceClassifier(MODEL)
    pt, pb, pa = (c.box_probabilities(s.image, boxes) for c in (top, both, a))
    assert pt.shape == pb.shape == (4, 7)
    assert np.allclose(pt.sum(1), 1, atol=1e-3)
    assert np.allclose(pb, (pt + pa) / 2, atol=1e-5)
    # Read as the reader reads them (the default crops handed in): the same.
    from vision.crops import die_crop
    crops = np.stack([die_crop(s.image, b) for b in boxes])
    assert np.allclose(top.box_probabilities(s.image, boxes, crops), pt, atol=1e-5)
    faces = [top.labels[k] for k in top.faces(pt)[0]]
    assert sum(f == d.label for f, d in zip(faces, s.dice)) >= 3


def test_a_reader_with_the_top_face_file_reads_a_tray():
    from vision.reader import DiceReader
    s = scene(5, 3)
    reading = DiceReader([MODEL, TOP_FACES], faces="reader", keep_crops=False).read(s.image)
    assert len(reading.dice) == 3
    assert sorted(d.face for d in reading.dice) == sorted(d.face for d in s.dice)


def _faces_only(tmp_path, src):
    """A copy of a classifier file (its labels and locator beside it) whose .crop.json says it
    reads faces only (round 16c)."""
    import json
    import shutil

    from vision.classify import crop_path_for, labels_path_for
    dst = tmp_path / src.name
    shutil.copy(src, dst)
    shutil.copy(labels_path_for(src), labels_path_for(dst))
    convention = json.loads(crop_path_for(src).read_text()) if crop_path_for(src).is_file() else {"crop_margin": 1.15}
    if "top_locator" in convention:
        shutil.copy(src.parent / convention["top_locator"], tmp_path / convention["top_locator"])
    crop_path_for(dst).write_text(json.dumps(dict(convention, reads="faces")))
    return dst


def test_a_faces_only_file_reads_the_face_and_the_others_judge_the_die(tmp_path):
    # P(face k) = P(a die) from the whole-die file x P(k | a die) from the faces-only file.
    from vision.classify import crop_reads
    s = scene(3, 4)
    boxes = [d.box for d in s.dice] + [(2, 2, 30, 30)]          # and a box on bare tray
    top = _faces_only(tmp_path, TOP_FACES)
    assert crop_reads(top) == "faces" and crop_reads(MODEL) == "all"
    a = FaceClassifier(MODEL).box_probabilities(s.image, boxes)
    t = FaceClassifier(TOP_FACES).box_probabilities(s.image, boxes)
    both = FaceClassifier([top, MODEL]).box_probabilities(s.image, boxes)
    none = FaceClassifier(MODEL).none_index
    assert np.allclose(both[:, none], a[:, none], atol=1e-6)
    faces = np.delete(t, none, axis=1)
    assert np.allclose(np.delete(both, none, axis=1), faces / faces.sum(1, keepdims=True) * (1 - a[:, [none]]),
                       atol=1e-5)
    assert np.allclose(both.sum(1), 1, atol=1e-5)
    # Alone, a faces-only file reads everything itself, as any file does.
    assert np.allclose(FaceClassifier(top).box_probabilities(s.image, boxes), t, atol=1e-6)


def test_a_faces_only_file_of_the_shipped_crop_is_split_the_same_way(tmp_path):
    # A faces-only file cut like the shipped one (round 9's steep-view file, one convention): the
    # crops handed in are read by both files, and the split holds for probabilities() too.
    from vision.crops import die_crop
    steep = ROOT / "models" / "candidates" / "faces-steep" / "dice_faces.tflite"
    s = scene(5, 3)
    boxes = [d.box for d in s.dice] + [(2, 2, 30, 30)]
    crops = np.stack([die_crop(s.image, b) for b in boxes])
    a, t = FaceClassifier(MODEL).probabilities(crops), FaceClassifier(steep).probabilities(crops)
    split = FaceClassifier([_faces_only(tmp_path, steep), MODEL])
    assert len(split.conventions) == 1
    none = split.none_index
    faces = np.delete(t, none, axis=1)
    # (On the bare-tray box the steep file sees no face at all: every face 0, so the die is asked.)
    want = np.insert(faces / np.maximum(faces.sum(1, keepdims=True), 1e-12) * (1 - a[:, [none]]), none, a[:, none],
                     axis=1)
    assert np.allclose(split.probabilities(crops), want, atol=1e-5)
    assert np.allclose(split.box_probabilities(s.image, boxes, crops), want, atol=1e-5)
    assert not np.allclose(want, (a + t) / 2, atol=1e-3)   # not the plain mean an ensemble takes


def test_a_crop_file_naming_another_reading_is_refused_by_name(tmp_path):
    from vision.classify import ModelError, crop_path_for, crop_reads
    bad = _faces_only(tmp_path, MODEL)
    crop_path_for(bad).write_text('{"crop_margin": 1.15, "reads": "pips"}')
    with pytest.raises(ModelError, match="reads 'pips'"):
        crop_reads(bad)
