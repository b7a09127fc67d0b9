"""The shared real photo sets (../shared/data/real-dice) and their fixed splits.

A split is made of blocks of consecutive photos (by file name, that is by time taken): photos
taken one after another show the same tray, light and dice, so splitting photo by photo would
put near-twins on both sides. Blocks of BLOCK photos go round-robin: blocks 0 and 2 of every
four are "train" (the learned detector may be fine-tuned on them), block 1 is "calib" (the
confidence threshold is chosen there) and block 3 is "test" (reported, never trained or tuned
on). The cascade was tuned on all of tilted-webcam before this split existed: its figures there
are not held out whatever the split.

A few labels that their own photo contradicts are corrected as they are read
(data/real_dice_errata.toml, each with its reason and a picture); the shared files stay as published.
"""
from __future__ import annotations

import argparse
import json
import os
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

import cv2

__all__ = ["FOLDS", "INSIDE", "REAL_DICE", "SETS", "SPLITS", "LabelledPhoto", "closer", "cut_labels", "match_labels",
           "on_no_die", "photos", "score_frame", "score_photo", "set_folder", "split_of", "table_set"]

REAL_DICE = Path(os.environ.get("COMPANION_REAL_DICE",
                                Path(__file__).resolve().parents[2] / "shared" / "data" / "real-dice"))
SETS = ("tilted-webcam", "aws-workshop-dice")
SPLITS = ("train", "calib", "test", "all")
BLOCK = 4
_ROUND = ("train", "calib", "train", "test")
FOLDS = 2  # the train split's folds (DETECTOR_ROUNDS round 17): a set's i-th train photo by name is in fold i % FOLDS


@dataclass(frozen=True)
class LabelledPhoto:
    path: Path
    dice: tuple[tuple[int, tuple[float, float, float, float]], ...]  # (face, box x0 y0 x1 y1)


def split_of(index: int) -> str:
    """The split of the index-th photo of a set in name order."""
    return _ROUND[(index // BLOCK) % len(_ROUND)]


@cache
def errata() -> dict[tuple[str, str, int], tuple[int, int]]:
    """(set, photo, die index) -> (face the label file says, face the photo shows), from
    data/real_dice_errata.toml, read like every shipped data file (a bad value names its key)."""
    from companion.engine import schema as S
    from companion.engine.core import load_data_toml
    face = S.Int(1, 6)
    fix = S.Obj({"set": S.Str(), "photo": S.Str(), "die": S.Int(0), "labelled": face, "face": face, "why": S.Str()},
                required=("set", "photo", "die", "labelled", "face", "why"))
    path = "vision/data/real_dice_errata.toml"
    data = load_data_toml(resources.files("vision").joinpath("data", "real_dice_errata.toml").read_bytes(), path,
                          S.Obj({"fix": S.List(fix)}, required=("fix",)))
    return {(f["set"], f["photo"], f["die"]): (f["labelled"], f["face"]) for f in data["fix"]}


def _corrected(name: str, file: str, dice: list) -> list:
    """The label file's dice of one photo with its errata applied; a fix that no longer matches
    what the label file says stops here by name."""
    dice = list(dice)
    for (set_name, photo, k), (labelled, face) in errata().items():
        if (set_name, photo) != (name, file):
            continue
        if k >= len(dice) or dice[k][0] != labelled:
            said = dice[k][0] if k < len(dice) else "no such die"
            raise ValueError(f"vision/data/real_dice_errata.toml: {name}/{file} die {k} is labelled {said}, "
                             f"not {labelled} as its fix expects: the label file changed; review the fix.")
        dice[k] = (face, dice[k][1])
    return dice


def photos(name: str, split: str = "all", root: Path | None = None, fold: int | None = None,
           exclude_fold: int | None = None) -> list[LabelledPhoto]:
    """The labelled photos of one set in one split (empty when the set is not on this machine).
    fold / exclude_fold (train split only): only the photos in that fold, or all but them; a set's
    i-th train photo in name order is in fold i % FOLDS."""
    if split not in SPLITS:
        raise ValueError(f"Unknown split {split!r}; known: {', '.join(SPLITS)}.")
    if fold is not None or exclude_fold is not None:
        if split != "train":
            raise ValueError(f"folds divide the train split only, not {split!r}.")
        for k in (fold, exclude_fold):
            if k is not None and not 0 <= k < FOLDS:
                raise ValueError(f"fold {k} out of range 0..{FOLDS - 1}.")
        shots = photos(name, split, root)
        return [s for i, s in enumerate(shots)
                if (fold is None or i % FOLDS == fold) and (exclude_fold is None or i % FOLDS != exclude_fold)]
    folder = set_folder(name, root)
    labels_file = folder / "labels.json"
    if not labels_file.is_file():
        return []
    labels = json.loads(labels_file.read_text(encoding="utf-8"))
    out = []
    for i, file in enumerate(sorted(labels)):
        if split == "all" or split_of(i) == split:
            dice = [(int(d["face"]), tuple(float(v) for v in d["box"])) for d in labels[file]]
            out.append(LabelledPhoto(folder / "images" / file, tuple(_corrected(name, file, dice))))
    return out


def set_folder(name, root: Path | None = None) -> Path:
    """Where a set's photos are: a shared set by its name (under `root`, else REAL_DICE), or any
    folder in the same format given as a path (a Path, or a name with a "/"), such as a table's
    own checked photos (companion.checked_photos)."""
    if isinstance(name, Path) or "/" in name:
        return Path(name)
    return (root or REAL_DICE) / name


def table_set(text: str) -> Path:
    """A labelled photo folder named on a command line (argparse type): it must hold labels.json."""
    folder = Path(text)
    if not (folder / "labels.json").is_file():
        raise argparse.ArgumentTypeError(f"{text}: no labels.json there (a folder of labelled photos: images/ "
                                         f"and labels.json, as a table keeps them in checked-photos/)")
    return folder


def parse_part(text: str) -> tuple[str, int | None]:
    """'calib' -> ('calib', None); 'train/1' -> ('train', 1): a split, or one fold of the train split."""
    split, _, fold = text.partition("/")
    return split, (int(fold) if fold else None)


def photos_of_part(name: str, part: str, root: Path | None = None) -> list[LabelledPhoto]:
    """The labelled photos of one part of a set: a split, or 'train/K' (fold K of the train split)."""
    split, fold = parse_part(part)
    return photos(name, split, root, fold=fold)


def _centre(box):
    return (box[0] + box[2]) / 2, (box[1] + box[3]) / 2


def _inside(point, box) -> bool:
    return box[0] <= point[0] <= box[2] and box[1] <= point[1] <= box[3]


def match_labels(reading, labels):
    """Each label (face, box) paired with the nearest unmatched die read whose box holds the label
    box's centre, or None (missed); and the dice read that no label took."""
    taken: set[int] = set()
    pairs = []
    for face, box in labels:
        c = _centre(box)
        holders = [k for k, d in enumerate(reading.dice) if k not in taken and _inside(c, d.box)]
        if not holders:
            pairs.append((face, box, None))
            continue
        k = min(holders, key=lambda j: sum((a - b) ** 2 for a, b in zip(_centre(reading.dice[j].box), c)))
        taken.add(k)
        pairs.append((face, box, reading.dice[k]))
    return pairs, [d for k, d in enumerate(reading.dice) if k not in taken]


def on_no_die(die, labels) -> bool:
    """A spare die read (one no label took) whose box centre lies in no label box."""
    return not any(_inside(_centre(die.box), b) for _, b in labels)


def score_photo(reading, labels) -> dict:
    """Counts for one photo, labels matched by match_labels (bench/real_sets.py names the figures)."""
    out = {"dice": 0, "found": 0, "correct": 0, "flagged": 0, "flagged_right": 0, "silent_misreads": 0}
    pairs, spare = match_labels(reading, labels)
    for face, _, die in pairs:
        out["dice"] += 1
        if die is None:
            continue
        out["found"] += 1
        right = die.face == face
        out["correct"] += right
        out["flagged"] += die.uncertain
        out["flagged_right"] += die.uncertain and right
        out["silent_misreads"] += (not right) and not die.uncertain
    out["no_die"] = sum(on_no_die(d, labels) for d in spare)
    out["doubled"] = len(spare) - out["no_die"]
    return out


# A die less than this share inside a cut frame (an enlarged middle, a 16:9 band) is neither a die to find nor
# a box on no die.
INSIDE = 0.9


def cut_labels(dice, ox: float, oy: float, cw: float, ch: float, sx: float = 1.0, sy: float = 1.0):
    """The labels of a cw x ch cut at (ox, oy) of a photo, then scaled by sx, sy: (kept, partial), kept the dice
    at least INSIDE of them in the cut (face, box), partial the boxes of the others that show (no face)."""
    kept, partial = [], []
    for face, b in dice:
        x0, y0, x1, y1 = max(b[0] - ox, 0), max(b[1] - oy, 0), min(b[2] - ox, cw), min(b[3] - oy, ch)
        if x1 <= x0 or y1 <= y0:
            continue
        box = (x0 * sx, y0 * sy, x1 * sx, y1 * sy)
        if (x1 - x0) * (y1 - y0) >= INSIDE * (b[2] - b[0]) * (b[3] - b[1]):
            kept.append((face, box))
        else:
            partial.append(box)
    return tuple(kept), tuple(partial)


def closer(zoom: float):
    """A change of a photo and its labels, (image, dice) -> (image, kept, partial): the photo's middle 1/zoom
    enlarged to the photo's size, dice zoom times bigger, as a camera zoom times lower sees them (softer than a
    real close camera: the pixels are enlarged, not resolved). bench/real_shifts.py's rows of bigger dice and
    calibrate's --with-closer read these."""
    def enlarge(img, dice):
        h, w = img.shape[:2]
        ch, cw = round(h / zoom), round(w / zoom)
        oy, ox = (h - ch) // 2, (w - cw) // 2
        big = cv2.resize(img[oy:oy + ch, ox:ox + cw], (w, h), interpolation=cv2.INTER_LINEAR)
        return (big, *cut_labels(dice, ox, oy, cw, ch, w / cw, h / ch))
    return enlarge


def score_frame(reading, labels, partial=()) -> dict:
    """score_photo's counts for a changed photo whose partial boxes (dice a cut left less than INSIDE in the
    frame) count neither way: a die read on one is not a box on no die."""
    counts = score_photo(reading, labels)
    if partial:
        _, spare = match_labels(reading, labels)
        counts["no_die"] = sum(on_no_die(d, labels) and not any(_inside(_centre(d.box), b) for b in partial)
                               for d in spare)
    return counts
