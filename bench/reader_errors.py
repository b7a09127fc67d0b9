"""The reader's errors on one real split, by kind (issue 14 round 4's diagnosis).

    .venv/bin/python bench/reader_errors.py [SPLIT] [CLASSIFIER.tflite ...] [--views V] [--second-look S] [--ask-below T]

Per set: dice, read right, missed, misread with a good box (IoU >= 0.5 with the label box) or a
poor one (each flagged or silent, and whether the classifier reads the label box itself right),
labelbox_right (the classifier on every label box), boxes on no die, doubled; then one line per
error. Labels are matched to dice read as the bench matches them (vision.realdata.match_labels).
"""
from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.engine.dice import pip_value  # noqa: E402
from vision.reader import DiceReader, add_face_options  # noqa: E402
from vision.realdata import SETS, match_labels, on_no_die, photos  # noqa: E402

GOOD_BOX_IOU = 0.5


def iou(a, b) -> float:
    """Intersection over union of two (x0, y0, x1, y1) boxes."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union else 0.0


def label_box_face(classifier, image, box) -> int:
    """The classifier's face for the label box itself (as if the detector had drawn it)."""
    best, _ = classifier.faces(classifier.box_probabilities(image, [box]))  # the file's own crop
    return pip_value(classifier.labels[best[0]])


def errors_of_set(reader: DiceReader, name: str, split: str):
    """(counts, one row per error) for the set's photos of split."""
    counts: collections.Counter = collections.Counter()
    rows = []
    for shot in photos(name, split):
        image = cv2.imread(str(shot.path))
        pairs, spare = match_labels(reader.read(image), shot.dice)
        for face, box, die in pairs:
            counts["dice"] += 1
            on_label = label_box_face(reader.classifier, image, box)
            counts["labelbox_right"] += on_label == face
            if die is None:
                counts["missed"] += 1
                rows.append((shot.path.name, face, "missed", box))
                continue
            if die.face == face:
                counts["right"] += 1
                continue
            overlap = iou(die.box, box)
            kind = "misread_boxok" if overlap >= GOOD_BOX_IOU else "misread_boxoff"
            counts[kind] += 1
            counts[kind + ("_flag" if die.uncertain else "_silent")] += 1
            counts[kind + "_labelbox_right"] += on_label == face
            rows.append((shot.path.name, face, f"{kind} read {die.face} conf {die.confidence:.2f} "
                                               f"iou {overlap:.2f} labelbox->{on_label}", box))
        for die in spare:
            if on_no_die(die, shot.dice):
                counts["no_die"] += 1
                rows.append((shot.path.name, None, f"no_die read {die.face} conf {die.confidence:.2f}", die.box))
            else:
                counts["doubled"] += 1
    return counts, rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("split", nargs="?", default="calib")
    add_face_options(parser, classifier_positional=True)
    parser.add_argument("--ask-below", type=float, help="the confidence threshold (default: the detector's .json)")
    args = parser.parse_args(argv)
    reader = DiceReader(keep_crops=False, model_path=args.classifier or None, views=args.views,
                        second_look=args.second_look, threshold=args.ask_below)
    for name in SETS:
        counts, rows = errors_of_set(reader, name, args.split)
        print(name, args.split, dict(counts))
        for row in rows:
            print("  ", row)
    return 0


if __name__ == "__main__":
    sys.exit(main())
