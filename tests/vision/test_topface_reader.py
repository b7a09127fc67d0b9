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
