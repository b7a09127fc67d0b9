"""The reader's errors on one real split, by kind (issue 14 round 4's diagnosis).

    .venv/bin/python bench/reader_errors.py [SPLIT] [CLASSIFIER.tflite ...] [--views V] [--second-look S]
        [--ask-below T] [--draw DIR]

Per set: dice, read right, missed, misread with a good box (IoU >= 0.5 with the label box) or a
poor one (each flagged or silent, and whether the classifier reads the label box itself right),
labelbox_right (the classifier on every label box), boxes on no die, doubled; then one line per
error. Labels are matched to dice read as the bench matches them (vision.realdata.match_labels).
--draw DIR: every photo with an error drawn, one sheet per set (DIR/errors-SET-SPLIT.jpg; the detector
card's known failure cases): blue a die read, face:confidence, thick when not flagged; green a label read
right; red a label missed or misread, with its true face.
"""
from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

import cv2
import numpy as np

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


def errors_of_set(reader: DiceReader, name: str, split: str, drawn: list | None = None):
    """(counts, one row per error) for the set's photos of split; each photo with an error drawn onto
    drawn (a list), if given."""
    counts: collections.Counter = collections.Counter()
    rows = []
    for shot in photos(name, split):
        image = cv2.imread(str(shot.path))
        reading = reader.read(image)
        pairs, spare = match_labels(reading, shot.dice)
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
        if drawn is not None and (spare or any(die is None or die.face != face for face, _, die in pairs)):
            drawn.append(draw_photo(image, shot.path.name, reading, pairs))
    return counts, rows


BLUE, GREEN, RED = (255, 90, 0), (0, 170, 0), (0, 0, 230)


def draw_photo(image, title: str, reading, pairs) -> np.ndarray:
    """The photo with its labels and the dice read, as --draw draws them, its name on a strip above."""
    view = image.copy()
    for face, box, die in pairs:
        right = die is not None and die.face == face
        x0, y0, x1, y1 = (int(round(v)) for v in box)
        cv2.rectangle(view, (x0, y0), (x1, y1), GREEN if right else RED, 1)
        if not right:
            cv2.putText(view, f"was {face}", (x0, min(y1 + 12, view.shape[0] - 2)), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                        RED, 1, cv2.LINE_AA)
    for die in reading.dice:
        x0, y0, x1, y1 = die.box
        cv2.rectangle(view, (x0, y0), (x1, y1), BLUE, 1 if die.uncertain else 2)
        cv2.putText(view, f"{die.face}:{die.confidence:.2f}", (x0, max(y0 - 3, 10)), cv2.FONT_HERSHEY_SIMPLEX, 0.4,
                    BLUE, 1, cv2.LINE_AA)
    strip = np.full((18, view.shape[1], 3), 255, np.uint8)
    cv2.putText(strip, title, (4, 13), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1, cv2.LINE_AA)
    return np.vstack([strip, view])


def sheet(views: list, width: int = 448, columns: int = 3) -> np.ndarray:
    """The drawn photos tiled, each scaled to width, columns a row."""
    tiles = [cv2.resize(v, (width, round(v.shape[0] * width / v.shape[1])), interpolation=cv2.INTER_AREA)
             for v in views]
    height = max(t.shape[0] for t in tiles)
    tiles = [np.vstack([t, np.full((height - t.shape[0], width, 3), 255, np.uint8)]) for t in tiles]
    tiles += [np.full((height, width, 3), 255, np.uint8)] * (-len(tiles) % columns)
    return np.vstack([np.hstack(tiles[i:i + columns]) for i in range(0, len(tiles), columns)])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("split", nargs="?", default="calib")
    add_face_options(parser, classifier_positional=True)
    parser.add_argument("--ask-below", type=float, help="the confidence threshold (default: the detector's .json)")
    parser.add_argument("--draw", type=Path, metavar="DIR", help="draw every photo with an error, a sheet per set")
    args = parser.parse_args(argv)
    reader = DiceReader(keep_crops=False, model_path=args.classifier or None, views=args.views,
                        second_look=args.second_look, threshold=args.ask_below)
    for name in SETS:
        drawn = [] if args.draw else None
        counts, rows = errors_of_set(reader, name, args.split, drawn)
        print(name, args.split, dict(counts))
        for row in rows:
            print("  ", row)
        if drawn:
            args.draw.mkdir(parents=True, exist_ok=True)
            out = args.draw / f"errors-{name}-{args.split}.jpg"
            cv2.imwrite(str(out), sheet(drawn), [cv2.IMWRITE_JPEG_QUALITY, 80])
            print(f"   {len(drawn)} photos drawn: {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
