"""Two detector files read as one finder (issue 14 rounds 36-43): the shipped file and a second finder read at a
larger input, which adds the small dice the first misses and gives its word on the first file's weak boxes.
Loaded by vision.model.load_detector where the first file's .json names a second_finder."""
from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np

from .model import Detection, DiceModel, _check_keys, _check_shares, _in_middle, _one_per_die, agreed

__all__ = ["SECOND_FINDER_KEYS", "SUPPORT_FLOOR", "TwoFinders", "second_finder_settings"]


class TwoFinders:
    """The detector file and a second finder that reads the frame at a larger input (the small-dice
    look): the second file's boxes are added where the first file boxed no die (neither box holds the
    other's centre in its middle, as _one_per_die judges), so each die keeps the first file's box and
    a die too small for it still gets one. Named in the first file's .json as second_finder: {"file":
    a .tflite beside it, "find_from": its peaks' floor, "flip": whether its mirrored frame is read too,
    and optionally "largest_share": the largest box it adds, a share of the frame's width (default 1),
    "only_near_small": read the second file only where the first found a die no wider than that,
    or none (default false), and "agree_from": a first-file box is kept only where the mean of its peak
    and the second file's strongest peak on it reaches this (default 0: every box is kept)}.
    Why (issue 14 rounds 36 and 36b, models/DETECTOR_ROUNDS.md): a file trained at 448 x 336 finds small
    dice the 320 x 240 one misses, and boxes close-up dice twice; a big die keeps the first file's one box
    here, and largest_share keeps the second file's boxes on parts of close-up dice out (calib doubled
    13 -> 3 at 0.06). Shipped since round 36d: round 27's L read at 384 x 288 (models/dice_detector_384.tflite),
    since round 36e only near small dice (a read of big dice costs what the first file alone did).
    agree_from (issue 14 round 40): two files trained apart rarely raise a peak on the same thing that
    is not a die, so a weak first-file box needs the second's word. At 0.1875 (round 40, chosen on
    calib): calib boxes on no die 8 -> 3, test (253 dice) 10 -> 8, read right and found unchanged on
    both; the second file is then read on most frames (test CPU medians 12.5 / 25.1 ms against 11.8 /
    14.4). Round 42 chose 0.2 with the reader's find_from 0.175: calib 219 right, 230 found, 3 on no die;
    test 238, 250, 7. Those peaks come from the second file's mirrored pass too: from its own pass alone
    (round 43, one invoke fewer where nothing is added) calib read 216 right and found 227 against 219 and 230.
    The reader's find_from is every box's floor, the second file's find_from a floor of its own peaks.
    Otherwise a DiceModel: its settings, .json and face head are the first file's."""

    def __init__(self, first: DiceModel, second: DiceModel, second_find_from: float,
                 largest_share: float = 1.0, only_near_small: bool = False, agree_from: float = 0.0):
        self.first, self.second, self.second_find_from = first, second, float(second_find_from)
        self.largest_share, self.only_near_small = float(largest_share), bool(only_near_small)
        self.agree_from = float(agree_from)

    def __getattr__(self, name):
        return getattr(self.first, name)

    def __setattr__(self, name, value):
        # find_from and flip are the first file's settings (calibrate sets them on the detector it holds).
        if name in ("find_from", "flip"):
            setattr(self.first, name, value)
        else:
            object.__setattr__(self, name, value)

    def detect(self, frame_bgr: np.ndarray, find_from: float | None = None, plain=None) -> list[Detection]:
        """The first file's dice at find_from (with agree_from, those the second file agrees on), then
        the second's at find_from (and at least its own find_from) where the first boxed none; with
        only_near_small, the second file adds boxes only where the first found a die no wider than
        largest_share, or none at all. The second file is read only where either needs it. plain: the
        first file's own pass over the frame, if made already (DiceModel.passes)."""
        floor = self.first.find_from if find_from is None else find_from
        firsts = self.first.detect(frame_bgr, floor, plain)
        looks = not (self.only_near_small and firsts and not any(self._small(d, frame_bgr) for d in firsts))
        sure = [agreed(d.strength, 0.0, self.agree_from) for d in firsts]   # kept whatever the second says
        if not looks and all(sure):
            return firsts
        seconds = self.second.detect(frame_bgr, self._second_floor())
        kept = [d for d, s in zip(firsts, sure) if s or agreed(d.strength, _support(d, seconds), self.agree_from)]
        if not looks:
            return kept
        return kept + [d for d in self._seconds(frame_bgr, firsts, seconds) if d.read_at(floor)]

    def candidates(self, frame_bgr: np.ndarray, find_from: float | None = None, plain=None) -> list[Detection]:
        """The first file's dice at find_from, each carrying its `support` (for any agree_from), and every
        second box the share lets in, each carrying `blocked` (the strength of the strongest first-file
        box it would double, 0: none) and, with only_near_small, `opens` (the strongest small first-file
        box's and the strongest box's). detect() at any find_from f at or above this one gives the boxes
        whose Detection.read_at(f, agree_from) holds (DiceReader.dice_from_looks; vision.train.calibrate
        reads a photo once for its whole grid)."""
        floor = self.first.find_from if find_from is None else find_from
        firsts = self.first.detect(frame_bgr, floor, plain)
        seconds = self.second.detect(frame_bgr, self._second_floor(True))
        return [replace(d, support=_support(d, seconds)) for d in firsts] + self._seconds(frame_bgr, firsts, seconds)

    def _second_floor(self, agreeing: bool = False) -> float:
        # Agreement counts the second file's weaker peaks too; the boxes it adds keep its own floor.
        return min(self.second_find_from, SUPPORT_FLOOR) if agreeing or self.agree_from else self.second_find_from

    def _small(self, d: Detection, frame_bgr: np.ndarray) -> bool:
        return max(d.box[2] - d.box[0], d.box[3] - d.box[1]) <= self.largest_share * frame_bgr.shape[1]

    def _seconds(self, frame_bgr: np.ndarray, firsts: list[Detection], seconds: list[Detection]) -> list[Detection]:
        """The second file's boxes it may add (seconds: its dice at _second_floor), with their bookkeeping.
        Every first-file box blocks, one dropped for want of agreement too: the second file's peak there is
        weak, and a die boxed twice costs more than one missed."""
        seconds = _one_per_die([d for d in seconds
                                if d.strength >= self.second_find_from and self._small(d, frame_bgr)])
        doubles = lambda d: [k.strength for k in firsts  # noqa: E731
                             if _in_middle(d.box, k.box, 0.8) or _in_middle(k.box, d.box, 0.8)]
        opens = None
        if self.only_near_small:
            opens = (max((k.strength for k in firsts if self._small(k, frame_bgr)), default=0.0),
                     max((k.strength for k in firsts), default=0.0))
        return [replace(d, blocked=max(doubles(d), default=0.0), opens=opens) for d in seconds]


# The second file's weakest peak that counts as agreeing with a first-file box (below it: no word at all).
SUPPORT_FLOOR = 0.05


def _support(d: Detection, seconds: list[Detection]) -> float:
    """The second file's strongest peak on a first-file box: either box holds the other's centre."""
    return max((s.strength for s in seconds if _in_middle(s.box, d.box, 1.0) or _in_middle(d.box, s.box, 1.0)),
               default=0.0)


SECOND_FINDER_KEYS = {"file": str, "find_from": (int, float), "flip": bool, "largest_share": (int, float),
                      "only_near_small": bool, "agree_from": (int, float)}
OPTIONAL_KEYS = {"largest_share", "only_near_small", "agree_from"}


def second_finder_settings(settings, model_path: Path) -> tuple[str, bool, dict]:
    """The .json's second_finder checked at the edge, each key by name and type: its file, whether its
    mirrored frame is read too, and TwoFinders' settings."""
    from .classify import ModelError
    where = f"{model_path.with_suffix('.json')}: second_finder"
    _check_keys(settings, SECOND_FINDER_KEYS, OPTIONAL_KEYS, where, "file, find_from and flip", model_path)
    _check_shares(settings, ("find_from", "largest_share"), where, model_path)
    if not 0.0 <= settings.get("agree_from", 0.0) <= 1.0:
        raise ModelError(f"{where}'s agree_from must lie between 0 and 1, not {settings['agree_from']}.", model_path)
    return settings["file"], settings["flip"], {
        "second_find_from": float(settings["find_from"]), "largest_share": float(settings.get("largest_share", 1.0)),
        "only_near_small": settings.get("only_near_small", False), "agree_from": float(settings.get("agree_from", 0.0))}
