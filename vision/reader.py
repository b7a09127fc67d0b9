"""Frames -> dice readings: the learned detector finds the dice, then their faces, then colours.

The detector (vision.model, one TFLite forward pass per frame) finds every die and, with its
face head, reads it. Its .json (chosen on the real calib photos by vision.train.calibrate)
names where the faces come from: "model" (the detector alone), "classifier" or "blend" (the
crop classifier vision.classify on the detector's boxes, or the mean of the two), or "reader"
(the classifier with a second look at unsure dice, or at every die, and dropping boxes it is sure
hold no die). The .json also names the classifier's files and views (vision.classify.VIEWS).

`DiceReader.read(frame)` reads every die in one frame; vision.settle.SettledReader gives one
reading per roll from a stream of frames, and vision.reader_files names the files a reader reads
by. Frame indices and times come from the caller: nothing here reads a clock.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from companion.engine.dice import pip_value

from .colors import dominant_color
from .crops import die_crop
from .hand import hand_in_tray
from .model import FACE_SOURCES, DiceModel, classifier_faces, load_detector

__all__ = ["DieRead", "DiceReading", "DiceReader", "DEFAULT_THRESHOLD"]

# Where neither the caller nor the detector's .json gives a threshold.
DEFAULT_THRESHOLD = 0.8
# "reader" faces: a die the classifier is unsure of (top probability under RECHECK_BELOW) is
# classified again from a box a fifth bigger, probabilities averaged: a box that clips a die
# whose side lay in shadow still gives one crop showing the whole face.
CROP_SCALES = (1.0, 1.2)
RECHECK_BELOW = 0.9
# "reader" faces: a box the classifier judges NOT_A_DIE at least this likely is dropped (a
# shadow's corner, wood grain, half of each of two dice). Chosen on the real calib split with
# the shipped detector: 0.99 / 0.9 / 0.7 / 0.5 all read 206 of 233 dice right and leave 11 / 10
# / 9 / 9 boxes on no die; 0.7 is the least strict of the best.
# Re-checked with round 4's classifier (calib, 233 dice): 0.5 / 0.7 / 0.9 read 214 right with 9
# boxes on no die, 0.99 214 with 13; the second look (RECHECK_BELOW 0.9 or 0.97) gives 214 against
# 212 without it.
DROP_FROM = 0.7
# Both are a classifier's settings, not the reader's: a file whose confidences are not saturated
# (label smoothing, issue 14 round 7: right reads at 0.91, not 0.996) needs its own. The detector
# .json's face_drop_from and face_recheck_below (chosen with its classifier by
# vision.train.calibrate) override them; absent, these constants are used.
# "reader" faces: which dice get the second look at the other scales: those under RECHECK_BELOW
# ("unsure"), or every die ("always"; with the mirror view, issue 14 round 5 on the real calib
# split: 10 fewer questions of 34 at the same 3 silent misreads, yet not shipped: see
# models/DETECTOR_ROUNDS.md, "Round 5").
SECOND_LOOKS = ("unsure", "always")


def add_face_options(parser, classifier_positional: bool = False) -> None:
    """The command-line options that choose how a reader reads faces, for the benches and
    calibrate: the classifier file(s) and how they are combined, their test-time views and the
    second look. Each left out falls back to the detector .json's face_models / face_combine /
    face_views / face_second_look."""
    from .classify import COMBINES, VIEWS

    files_help = ("the face classifier, or several combined by --combine (default: the detector .json's "
                  "face_models, else models/dice_faces.tflite)")
    if classifier_positional:
        parser.add_argument("classifier", nargs="*", type=Path, help=files_help)
    else:
        parser.add_argument("--classifier", nargs="+", type=Path, help=files_help)
    parser.add_argument("--views", choices=VIEWS, help="the classifier's test-time views (vision.classify.VIEWS; "
                                                       "default: the .json's face_views, else one)")
    parser.add_argument("--second-look", choices=SECOND_LOOKS,
                        help="which dice are read again at the 1.2x crop (default: the .json's face_second_look, "
                             "else unsure)")
    parser.add_argument("--combine", choices=COMBINES,
                        help="how several classifier files are combined (vision.classify.COMBINES; default: the "
                             ".json's face_combine, else mean)")


@dataclass(frozen=True)
class DieRead:
    """One die as read: face (pip value, or None for a non-pip face), its label, and where it lies."""

    face: int | None
    label: str
    confidence: float
    box: tuple[int, int, int, int]
    color: str
    uncertain: bool
    crop: np.ndarray | None = field(default=None, repr=False, compare=False)

    def to_json(self) -> dict:
        return {"face": self.face, "label": self.label, "confidence": round(self.confidence, 4),
                "box": list(self.box), "color": self.color, "uncertain": self.uncertain}


@dataclass(frozen=True)
class DiceReading:
    """All dice read from one frame (frame_index and time as the caller gave them)."""

    dice: tuple[DieRead, ...]
    frame_index: int | None = None
    time: float | None = None
    obstructed: bool = False  # a hand or an arm was in the tray: the dice may be hidden
    # The frame read, as JPEG, when the app keeps checked rolls' photos (companion.checked_photos).
    photo: bytes | None = field(default=None, repr=False, compare=False)

    @property
    def faces(self) -> tuple[int | None, ...]:
        return tuple(d.face for d in self.dice)

    @property
    def uncertain(self) -> bool:
        """True when the player should check at least one die."""
        return any(d.uncertain for d in self.dice)

    def to_json(self) -> dict:
        out = {"dice": [d.to_json() for d in self.dice]}
        if self.frame_index is not None:
            out["frame_index"] = self.frame_index
        if self.time is not None:
            out["time"] = self.time
        return out


class DiceReader:
    """Detect (and read) with the learned detector, read faces as its .json says, name colours.

    detector: a vision.model.DiceModel, vision.two_finders.TwoFinders or vision.die_size.DiceAtSize
    (default: vision.model.load_detector of models/dice_detector.tflite, or of detector_path);
    faces: one of vision.model.FACE_SOURCES (default: the detector's .json); threshold: below it
    a die is uncertain and the table asked (default: the .json's calibrated ask_below). The crop
    classifier (model_path: one file or several combined, labels_path; default: the .json's
    face_models, else models/dice_faces.tflite) is loaded only when the faces need it, or for
    read_crop; views: its test-time views (vision.classify.VIEWS) and second_look: which dice are
    read again at the other crop scales (SECOND_LOOKS); combine: how several files are combined
    (vision.classify.COMBINES); by default the .json's face_views, face_second_look and
    face_combine (with any classifier, as the threshold), else "one", "unsure" and "mean".
    side_judge: a classifier file taught a tipped die's side face as no die (default: the .json's
    side_judge, beside the detector; none without it), the judge of a box that overlaps a stronger
    die's (beside_a_die): such a box it judges NOT_A_DIE at least drop_from likely is dropped.
    judge_boxes: which boxes it judges, one of JUDGE_BOXES (default: the .json's side_judge_boxes,
    else "weaker").
    """

    def __init__(self, model_path: Path | str | None = None, labels_path: Path | str | None = None,
                 threshold: float | None = None, detector: DiceModel | None = None,
                 classifier=None, keep_crops: bool = True, scales: tuple[float, ...] = CROP_SCALES,
                 faces: str | None = None, detector_path: Path | str | None = None,
                 views: str | None = None, second_look: str | None = None,
                 drop_from: float | None = None, recheck_below: float | None = None,
                 combine: str | None = None, side_judge: Path | str | None = None,
                 judge_boxes: str | None = None):
        self.detector = detector or load_detector(detector_path)
        self.faces = faces or self.detector.meta.get("faces", "model")
        if self.faces not in FACE_SOURCES:
            raise ValueError(f"faces must be one of {', '.join(FACE_SOURCES)}, not {self.faces!r}.")
        if threshold is None:
            threshold = self.detector.ask_below if "ask_below" in self.detector.meta else DEFAULT_THRESHOLD
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"The confidence threshold must lie between 0 and 1, not {threshold}.")
        self.threshold = threshold
        # The .json names how its thresholds were calibrated: the classifier files (several: their
        # probabilities combined as its face_combine says; beside the detector), used unless the
        # caller names a file, and the classifier's combination, views and second look, used unless
        # the caller names others (as its ask_below is used with any file).
        meta = self.detector.meta
        if model_path is None and classifier is None and meta.get("face_models"):
            model_path = [self.detector.model_path.parent / name for name in meta["face_models"]]
        views = views or meta.get("face_views")
        second_look = second_look or meta.get("face_second_look")
        self._classifier_files = (model_path, labels_path)
        self.views = views or "one"
        self.combine = combine or meta.get("face_combine") or "mean"
        self.second_look = second_look or "unsure"
        if self.second_look not in SECOND_LOOKS:
            raise ValueError(f"second_look must be one of {', '.join(SECOND_LOOKS)}, not {self.second_look!r}.")
        self.drop_from = float(meta.get("face_drop_from", DROP_FROM) if drop_from is None else drop_from)
        self.recheck_below = float(meta.get("face_recheck_below", RECHECK_BELOW) if recheck_below is None
                                   else recheck_below)
        for name, value in (("drop_from", self.drop_from), ("recheck_below", self.recheck_below)):
            if not 0.0 <= value <= 1.0:
                raise ValueError(f"{name} must lie between 0 and 1, not {value}.")
        self._classifier = classifier
        if self.faces != "model" and classifier is None:
            self._classifier = self.classifier   # a missing or broken face model fails here, not mid-game
        if side_judge is not None and self.faces != "reader":
            raise ValueError(f"A side judge drops boxes the classifier reads: faces must be 'reader', "
                             f"not {self.faces!r}.")
        if side_judge is None and self.faces == "reader" and meta.get("side_judge"):
            side_judge = self.detector.model_path.parent / meta["side_judge"]
        self.side_judge = None
        if side_judge is not None:
            from .classify import FaceClassifier
            self.side_judge = FaceClassifier(side_judge)
        self.judge_boxes = judge_boxes or meta.get("side_judge_boxes") or "weaker"
        if self.judge_boxes not in JUDGE_BOXES:
            raise ValueError(f"side_judge_boxes must be one of {', '.join(JUDGE_BOXES)}, not {self.judge_boxes!r}.")
        self.keep_crops = keep_crops
        if not scales or any(f <= 0 for f in scales):
            raise ValueError(f"Crop scales must be positive numbers, not {scales}.")
        self.scales = tuple(scales)
        # The hand check's first call pays one-time costs (NumPy and OpenCV code paged in, buffers):
        # 16.7 ms against 3 ms after, on this machine (2026-12-03). Paid here, at load, not by the
        # first roll read. (It was about 100 ms while vision.hand used OpenCV's Lab conversion, whose
        # tables are built on first use: the p95 and max of the bench's 20 tilted-webcam test photos.)
        hand_in_tray(np.zeros((48, 64, 3), np.uint8))

    @property
    def classifier(self):
        """The crop classifier, loaded on first use (a "model" reader never needs it for trays)."""
        if self._classifier is None:
            from .classify import FaceClassifier
            self._classifier = FaceClassifier(*self._classifier_files, views=self.views, combine=self.combine)
        return self._classifier

    def read(self, frame_bgr: np.ndarray, frame_index: int | None = None,
             time: float | None = None) -> DiceReading:
        if frame_bgr is None or frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3 or min(frame_bgr.shape[:2]) < 8:
            raise ValueError(f"A frame must be an 8-bit BGR image of at least 8x8 pixels, not "
                             f"{None if frame_bgr is None else frame_bgr.shape}.")
        detections = self.detector.detect(frame_bgr)
        obstructed = hand_in_tray(frame_bgr, [d.box for d in detections])
        if not detections:
            return DiceReading((), frame_index, time, obstructed)
        boxes = [d.box for d in detections]
        crops = np.stack([die_crop(frame_bgr, b) for b in boxes])
        if self.faces == "model":
            read = [(d.face, d.confidence) for d in detections]
        else:
            read, keep = self._classified(frame_bgr, detections, crops)
            boxes, crops = [b for b, k in zip(boxes, keep) if k], crops[keep]
        dice = [DieRead(face=face, label=f"pip{face}", confidence=confidence, box=box, color=_crop_color(crop),
                        uncertain=confidence < self.threshold, crop=crop if self.keep_crops else None)
                for (face, confidence), box, crop in zip(read, boxes, crops)]
        return DiceReading(tuple(in_reading_order(dice)), frame_index, time, obstructed)

    def _classified(self, frame_bgr, detections, crops):
        """[(face, confidence)] of the dice kept, and which were kept, read by the classifier."""
        if self.faces != "reader":
            read = classifier_faces(self.classifier, frame_bgr, detections, self.faces == "blend", crops)
            return [(d.face, d.confidence) for d in read], np.ones(len(read), bool)
        clf, boxes = self.classifier, [d.box for d in detections]
        first = clf.box_probabilities(frame_bgr, boxes, crops)
        unsure = unsure_dice(first, self.second_look, self.recheck_below)
        probs = second_looked(first, self._looks_again(frame_bgr, [boxes[i] for i in unsure]), unsure)
        read, keep = kept_faces(clf, probs, self.drop_from)
        beside = beside_a_die(detections, keep, self.judge_boxes == "both") if self.side_judge is not None else []
        if not beside:
            return read, keep
        none = self.side_judge.box_probabilities(frame_bgr, [boxes[j] for j in beside])[:, self.side_judge.none_index]
        return refused(read, keep, [j for j, p in zip(beside, none) if p >= self.drop_from])

    def _looks_again(self, frame_bgr, boxes) -> np.ndarray:
        """(other scales, len(boxes), classes): the classifier's probabilities of boxes scaled by
        each of the other crop scales (a box that clips a die still gives one crop of its face)."""
        others = [f for f in self.scales if f != 1.0]
        if not boxes or not others:
            return np.zeros((len(others), len(boxes), len(self.classifier.labels)), np.float32)
        looks = [_scaled(b, f) for f in others for b in boxes]
        return self.classifier.box_probabilities(frame_bgr, looks).reshape(len(others), len(boxes), -1)

    def looks(self, frame_bgr: np.ndarray) -> tuple[list, np.ndarray, np.ndarray, np.ndarray | None]:
        """For calibration ("reader" faces): the detections at the detector's find_from, the
        classifier's probabilities of each box, its second looks at every box (as
        _looks_again) and the side judge's NOT_A_DIE probability of every box (None without a
        judge). dice_from_looks turns them into the dice read() would give with any find_from at
        or above it, drop_from and recheck_below, without reading the photo again."""
        detections = self.detector.candidates(frame_bgr)
        boxes = [d.box for d in detections]
        judged = None
        if not boxes:
            if self.side_judge is not None:
                judged = np.zeros(0, np.float32)
            return (detections, np.zeros((0, len(self.classifier.labels)), np.float32),
                    self._looks_again(frame_bgr, []), judged)
        crops = np.stack([die_crop(frame_bgr, b) for b in boxes])
        first = self.classifier.box_probabilities(frame_bgr, boxes, crops)
        if self.side_judge is not None:
            judged = self.side_judge.box_probabilities(frame_bgr, boxes)[:, self.side_judge.none_index]
        return detections, first, self._looks_again(frame_bgr, boxes), judged

    def dice_from_looks(self, looks, find_from: float, drop_from: float, recheck_below: float) -> list:
        """The dice (face, confidence and box; no colour, no crop) read() gives from a photo's
        looks with these settings, in read()'s order: the same steps, unsure dice's probabilities
        averaged with their second looks, boxes likely on no die dropped."""
        detections, first, again, judged = looks
        agree_from = getattr(self.detector, "agree_from", 0.0)   # a DiceModel alone has no second file
        chosen = [i for i, d in enumerate(detections) if d.read_at(find_from, agree_from)]
        first, again = first[chosen], again[:, chosen]
        unsure = unsure_dice(first, self.second_look, recheck_below)
        read, keep = kept_faces(self.classifier, second_looked(first, again[:, unsure], unsure), drop_from)
        if judged is not None:
            beside = beside_a_die([detections[i] for i in chosen], keep, self.judge_boxes == "both")
            read, keep = refused(read, keep, [j for j in beside if judged[chosen[j]] >= drop_from])
        boxes = [detections[i].box for i, k in zip(chosen, keep) if k]
        return in_reading_order([SimpleNamespace(face=f, confidence=c, box=b) for (f, c), b in zip(read, boxes)])

    def read_crop(self, crop_bgr: np.ndarray) -> DieRead:
        """Classify an image that shows one die filling it (no detection: the crop classifier).

        A die is square: in a picture wider than high it fills the centred square of the short
        side, which is then the die's box. The picture is taken to show a die: a face is read
        even where the model doubts there is one, and the doubt lowers its confidence.
        """
        h, w = crop_bgr.shape[:2]
        s = min(w, h)
        x0, y0 = (w - s) // 2, (h - s) // 2
        crop = die_crop(crop_bgr, (x0, y0, x0 + s, y0 + s))
        clf = self.classifier
        best, probability = clf.faces(clf.box_probabilities(crop_bgr, [(x0, y0, x0 + s, y0 + s)], crop[None]))
        label, confidence = self.classifier.labels[best[0]], float(probability[0])
        return DieRead(pip_value(label), label, confidence, (0, 0, w, h), _crop_color(crop),
                       confidence < self.threshold, crop if self.keep_crops else None)


def unsure_dice(first: np.ndarray, second_look: str, recheck_below: float) -> list[int]:
    """The dice given the second look: every die ("always"), or those whose likeliest class
    (first look, NOT_A_DIE included) is under recheck_below."""
    return [i for i in range(len(first)) if second_look == "always" or first[i].max() < recheck_below]


def second_looked(first: np.ndarray, again: np.ndarray, unsure: list[int]) -> np.ndarray:
    """first's probabilities with each unsure die's averaged over its looks at every crop scale
    (again: (other scales, len(unsure), classes))."""
    probs = np.array(first, copy=True)
    for k, i in enumerate(unsure):
        probs[i] = (first[i] + again[:, k].sum(axis=0)) / (1 + len(again))
    return probs


def kept_faces(clf, probs: np.ndarray, drop_from: float):
    """[(face, confidence)] of the boxes kept, and which were kept: a box the classifier judges
    NOT_A_DIE at least drop_from likely is dropped."""
    keep = probs[:, clf.none_index] < drop_from if clf.none_index is not None else np.ones(len(probs), bool)
    best, probability = clf.faces(probs)
    read = [(pip_value(clf.labels[k]), float(p)) for k, p in zip(best, probability)]
    return [r for r, k in zip(read, keep) if k], keep


# Which kept boxes a side judge judges (DiceReader's judge_boxes, the .json's side_judge_boxes):
# "weaker", a box overlapping a stronger kept box; "both", every kept box overlapping another.
JUDGE_BOXES = ("weaker", "both")


def beside_a_die(detections: list, keep: np.ndarray, both: bool = False) -> list[int]:
    """The kept boxes that overlap the box of a stronger detection kept: where a tipped die's side
    face gets a box of its own beside the die's (tilted-webcam calib valid_74; in valid_6 the side
    face's peak is the stronger, so the die's own box is the one judged). A box that overlaps no
    other is a die's only box, even where it sits on the die's side face (a close-up die the
    finder boxes by its lower part): it is read, never judged (DETECTOR_ROUNDS round 30b).
    both: the stronger box of an overlapping pair too, so valid_6's side face is judged (round 31)."""
    def overlap(a, b) -> bool:
        return min(a[2], b[2]) > max(a[0], b[0]) and min(a[3], b[3]) > max(a[1], b[1])
    return [j for j, d in enumerate(detections) if keep[j] and any(
        keep[i] and i != j and (both or o.strength > d.strength) and overlap(o.box, d.box)
        for i, o in enumerate(detections))]


def refused(read: list, keep: np.ndarray, refuse: list[int]):
    """kept_faces' (read, keep) with the boxes refuse names dropped too."""
    if not refuse:
        return read, keep
    after = keep.copy()
    after[refuse] = False
    return [r for r, j in zip(read, np.flatnonzero(keep)) if after[j]], after


def in_reading_order(dice: list) -> list:
    """Top to bottom in rows a die high, then left to right (anything with a box)."""
    sides = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in dice]
    row = max(1.0, float(np.median(sides))) if sides else 1.0
    return sorted(dice, key=lambda d: (round((d.box[1] + d.box[3]) / 2 / row), (d.box[0] + d.box[2]) / 2))


def _scaled(box, factor: float) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    hw, hh = (x1 - x0) * factor / 2, (y1 - y0) * factor / 2
    return (cx - hw, cy - hh, cx + hw, cy + hh)


def _crop_color(crop_rgb: np.ndarray) -> str:
    """The die's colour named from its small crop (same middle of the box, far fewer pixels)."""
    side = crop_rgb.shape[0]
    return dominant_color(np.ascontiguousarray(crop_rgb[..., ::-1]), (0, 0, side, side))
