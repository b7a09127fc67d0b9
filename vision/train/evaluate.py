"""Accuracy of a shipped .tflite file: held-out renders, real webcam crops, real tilted photos.

Everything goes through vision.classify.FaceClassifier and the crop convention, so the figures
are those of the file the reader loads, fed as the reader feeds it.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from ..classify import NOT_A_DIE, FaceClassifier

REAL_DICE = Path("/work/shared/data/real-dice")


@dataclass
class Score:
    correct: int
    total: int
    note: str = ""

    @property
    def accuracy(self) -> float:
        return self.correct / self.total if self.total else float("nan")

    def __str__(self) -> str:
        extra = f" ({self.note})" if self.note else ""
        return f"{100 * self.accuracy:.2f}% ({self.correct}/{self.total}){extra}"


def _predict(clf: FaceClassifier, crops: np.ndarray, batch: int = 64, face: bool = False) -> list[str]:
    """The label of each crop; face: the likeliest face even where NOT_A_DIE is likelier (a box
    known to hold a die is read so, as DiceReader reads a box it keeps)."""
    out: list[str] = []
    for i in range(0, len(crops), batch):
        probs = clf.probabilities(crops[i:i + batch])
        best = clf.faces(probs)[0] if face else probs.argmax(axis=1)
        out.extend(clf.labels[k] for k in best)
    return out


def rendered(clf: FaceClassifier, x: np.ndarray, y: np.ndarray, labels) -> Score:
    """Held-out die crops read as their face (crops of no die are scored by not_a_die)."""
    dice = [i for i, k in enumerate(y) if labels[k] != NOT_A_DIE]
    predicted = _predict(clf, x[dice])
    return Score(sum(p == labels[y[i]] for p, i in zip(predicted, dice)), len(dice))


def not_a_die(clf: FaceClassifier, x: np.ndarray, y: np.ndarray, labels) -> Score:
    """Held-out crops of boxes that hold no one die, judged NOT_A_DIE."""
    boxes = [i for i, k in enumerate(y) if labels[k] == NOT_A_DIE]
    predicted = _predict(clf, x[boxes])
    return Score(sum(p == NOT_A_DIE for p in predicted), len(boxes))


def webcam_crops(clf: FaceClassifier, root: Path = REAL_DICE / "webcam-crops") -> Score:
    """Each file is one die cut by hand, wider than high: as DiceReader.read_crop does, the die's
    box is the centred square of the short side."""
    crops, truth = [], []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        for f in sorted(folder.iterdir()):
            img = cv2.imread(str(f), cv2.IMREAD_COLOR)
            if img is None:
                continue
            h, w = img.shape[:2]
            side = min(w, h)
            x0, y0 = (w - side) // 2, (h - side) // 2
            crops.append(clf.crop(img, (x0, y0, x0 + side, y0 + side)))
            truth.append(f"pip{folder.name}")
    predicted = _predict(clf, np.stack(crops), face=True)
    wrong = [f"{t}->{p}" for t, p in zip(truth, predicted) if t != p]
    return Score(len(truth) - len(wrong), len(truth), "wrong: " + ", ".join(wrong[:12]) if wrong else "")


def tilted_webcam(clf: FaceClassifier, root: Path = REAL_DICE / "tilted-webcam") -> tuple[Score, Score]:
    """Through detection: a labelled die counts as read when a detection holds its box centre
    and that detection is classified as its face (labels sometimes box only the top face).
    Returns (through detection, on the label boxes themselves)."""
    from ..model import DiceModel
    from ..realdata import photos

    detector = DiceModel()
    hit = total = missed = on_boxes = 0
    for shot in photos(root.name, "all", root.parent):  # labels with vision.realdata's errata applied
        img = cv2.imread(str(shot.path), cv2.IMREAD_COLOR)
        found = detector.detect(img)
        read = _predict(clf, np.stack([clf.crop(img, d.box) for d in found]), face=True) if found else []
        boxed = _predict(clf, np.stack([clf.crop(img, box) for _, box in shot.dice]), face=True)
        for (face, box), b in zip(shot.dice, boxed):
            total += 1
            on_boxes += b == f"pip{face}"
            x0, y0, x1, y1 = box
            cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
            match = [i for i, det in enumerate(found)
                     if det.box[0] <= cx < det.box[2] and det.box[1] <= cy < det.box[3]]
            if not match:
                missed += 1
                continue
            # Several detections can hold the centre when boxes overlap: take the tightest.
            i = min(match, key=lambda i: max(found[i].box[2] - found[i].box[0], found[i].box[3] - found[i].box[1]))
            hit += read[i] == f"pip{face}"
    return Score(hit, total, f"{missed} dice not detected"), Score(on_boxes, total, "label boxes")
