"""Real die crops for the face embedding: the shared real photos' TRAIN split as few-shot "dice".

The embedding is trained in episodes of dice whose six faces are each seen several times
(vision.train.learn_embedding). A real set gives such a die: its six pip faces are six classes,
and the looks of a face are crops of different labelled dice showing it (other photos, other
positions), each cut around a box jittered as the detector's boxes are (realcrops.jitter_box).
That is the bench's task on real photos: six faces of one set, taught from some dice, read on
others.

Sets are kept apart: an episode's real die is one set's six faces, never a mix of two sets, as
a table teaches and reads its own dice (bench/icon_dice.py and the calib split teach and read
each set on its own). For the CosFace head each real face is pooled with the rendered pip dice's
class of the same face (`pip-dice/N`): a pip face is a pip face in any light, so the head pulls
real and rendered pips together instead of learning each set's look as a class of its own.

Only the train split is ever cut here: the calib split chooses the flag thresholds and the test
split reports (vision.realdata).
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from ..crops import die_crop
from ..realdata import REAL_DICE, SETS, photos
from .realcrops import jitter_box

__all__ = ["RealFaces", "real_face_sets", "real_die", "pip_classes"]

FACES = 6


@dataclass(frozen=True)
class RealFaces:
    """One real set's train-split dice: crops (n, copies, S, S, 3) uint8 RGB and pip faces (n,)."""
    name: str
    crops: np.ndarray
    faces: np.ndarray

    def dice_of(self, face: int) -> np.ndarray:
        return np.flatnonzero(self.faces == face)


def real_face_sets(split: str = "train", copies: int = 8, sets=SETS, root=None, seed: int = 7, size: int = 48,
                   min_per_face: int = 2, log=print) -> list[RealFaces]:
    """Each real set's labelled dice of `split` (train only), `copies` crops a die: the first
    around the label's box, the others around jittered boxes. A set missing from this machine, or
    with fewer than min_per_face dice of some face, gives none; no set at all is an error."""
    if split != "train":
        raise ValueError(f"real crops for training come from the train split only, not {split!r}.")
    rng = np.random.default_rng(seed)
    out = []
    for name in sets:
        crops, faces = [], []
        for shot in photos(name, split, root):
            image = cv2.imread(str(shot.path), cv2.IMREAD_COLOR)
            if image is None:
                continue
            for face, box in shot.dice:
                if not 1 <= face <= FACES:
                    continue
                crops.append(np.stack([die_crop(image, box if c == 0 else jitter_box(rng, box), size)
                                       for c in range(copies)]))
                faces.append(face)
        faces_arr = np.asarray(faces, np.int64)
        counts = np.bincount(faces_arr, minlength=FACES + 1)[1:]
        if not faces or counts.min() < min_per_face:
            log(f"  real faces: {name} has too few {split} dice ({counts.tolist()} of faces 1-6), left out")
            continue
        out.append(RealFaces(name, np.stack(crops), faces_arr))
        log(f"  real faces ({split}): {name}, {len(faces)} dice x {copies} crops, faces 1-6: {counts.tolist()}")
    if not out:
        named = ", ".join(map(str, sets))
        raise FileNotFoundError(f"no real set with dice of every face in the {split} split of {named} "
                                f"under {root or REAL_DICE}: put the real sets there (COMPANION_REAL_DICE) "
                                f"or train on renders only with --real-train 0.")
    return out


def real_die(rng: np.random.Generator, real: RealFaces, renders: int) -> np.ndarray:
    """(6, renders, S, S, 3): face N at [N - 1], each look a crop of another die of that face
    (while the set has enough), each die in one of its jittered copies."""
    out = []
    for face in range(1, FACES + 1):
        dice = real.dice_of(face)
        pick = rng.choice(dice, renders, replace=len(dice) < renders)
        out.append(real.crops[pick, rng.integers(real.crops.shape[1], size=renders)])
    return np.stack(out)


def pip_classes(vocab: list[str]) -> np.ndarray:
    """The CosFace class of real faces 1-6 (index N - 1): the rendered pip dice's class of that face,
    or -1 (no class term) when the vocabulary has none."""
    return np.array([vocab.index(f"pip-dice/{n}") if f"pip-dice/{n}" in vocab else -1
                     for n in range(1, FACES + 1)], np.int64)
