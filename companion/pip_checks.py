"""The camera's pip reads as the table checked them: a table whose camera reads well earns fewer questions.

The pip reader asks about a die read below its `ask_below`, chosen so that photos of tables it never
saw stay under 0.5 % silent misreads; at a new table that asks about one die in three
(models/DETECTOR_CARD.md). But every roll the players enter checks this table's own camera: a die
asked is confirmed or corrected in the check dialog, a die read surely stands or is corrected
afterwards (Rolling Village's "correct the roll", an undo and the dice entered again, a die tapped
before the roll is confirmed). This module keeps those checks (vision.earned.CheckedReads, one file
per reader beside games.db) and gives the threshold they earn (vision.earned.earned_below; the rule
is models/DETECTOR_ROUNDS.md round 53).

How a roll is judged: `read(reading, session, at)` when a camera reading of pip dice arrives while the
game awaits dice, `at` being the index among the game's actions its entry takes (a new roll's, or
the roll being corrected). It is held as companion.pending_rolls holds it (a reading replaced
before anything was entered is dropped) and judged against the entry at `at` once final; a reading
whose entry is gone (undone) or holds another count of dice is left out: there is nothing to
compare a die with.

vision is imported when first needed: the app starts as fast as before.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, replace
from numbers import Real
from pathlib import Path

from companion.pending_rolls import PendingRolls, entered_dice

FOLDER = "checked-reads"   # beside games.db: the table's checked pip reads, one file per reader
EARNED = "The camera has read this table's dice right often enough to ask about fewer of them."
LOST = "The camera asks about more of the dice again: it misread some lately."


@dataclass(frozen=True)
class PipRead:
    """A camera reading of pip dice: (face, confidence) per die as the camera read it."""
    reads: tuple[tuple[int, float], ...]
    checked: tuple[int, ...] | None = None   # each die's face as the players confirmed it in the dice check
    boxes: tuple = ()                        # each die's box, for a kept photo's labels
    photo: bytes | None = None               # the frame read, when the table keeps checked photos
    kept: tuple[int, ...] | None = None      # the dice the players kept in the check (None: all; the rest no die)

    def dice(self) -> tuple[tuple, tuple]:
        """(reads, boxes) of the dice the players kept: a box they said was no die is not a read die."""
        keep = range(len(self.reads)) if self.kept is None else self.kept
        return tuple(self.reads[i] for i in keep), tuple(self.boxes[i] for i in keep if i < len(self.boxes))


def judged(reads, entered, checked=None) -> list:
    """The checked reads (vision.earned.CheckedRead) of dice read as `reads` ((face, confidence)
    each) and entered as `entered` (faces, any order, as many). Where the players confirmed each
    die's face in the dice check (`checked`, die by die) and entered those faces, each die is
    judged by its own. Else the dice are matched face for face, the least sure reads first, so a
    face read twice and entered once counts the surer read as the misread (the cautious side: a
    sure misread weighs against every looser threshold)."""
    from vision.earned import CheckedRead

    if checked is not None and len(checked) == len(reads) and sorted(checked) == sorted(entered):
        return [CheckedRead(float(confidence), None, face == truth, f"pip{face}", f"pip{truth}")
                for (face, confidence), truth in zip(reads, checked)]
    left = Counter(entered)
    right = [False] * len(reads)
    for index in sorted(range(len(reads)), key=lambda i: reads[i][1]):
        face = reads[index][0]
        if left[face] > 0:
            left[face] -= 1
            right[index] = True
    unmatched = sorted(left.elements())
    out = []
    for (face, confidence), ok in zip(reads, right):
        truth = face if ok else unmatched.pop(0)
        out.append(CheckedRead(float(confidence), None, ok, f"pip{face}", f"pip{truth}"))
    return out


class PipChecks:
    """The checked pip reads of one table and the threshold they earn. `model` is the detector
    file the camera reads by ("" for the shipped one). The app is the only writer; a file that
    cannot be read or written now costs only the looser threshold: the problem is kept in
    `problem`, the camera asks by the reader's own, and `companion doctor`, reading the same
    file, says what is wrong with it."""

    def __init__(self, data_dir: Path | str, model: str = ""):
        self.data_dir = Path(data_dir)
        self.model = model
        self.problem = ""
        self._checked = None       # vision.earned.CheckedReads, opened on first use
        self._own = None           # the reader's own ask_below
        self.earns = False         # whether its .json lets a table earn a looser one
        self.rolls = PendingRolls()   # read, not judged yet
        self._latest = None            # the latest reading's companion.pending_rolls.Pending (None: not kept)
        self.photos = None             # companion.checked_photos.CheckedPhotos when the table keeps them
        self.to_box = None             # companion.photos_to_box.PhotosToBox: those boxed wrongly, for a person

    @property
    def checked(self):
        if self._checked is None:
            from vision.earned import CheckedReads
            from vision.reader_files import reader_identity

            identity = reader_identity(self.model or None)
            self._own, self.earns = identity.ask_below, identity.earns
            self._checked = CheckedReads(self.data_dir / FOLDER / f"pip-dice-{identity.name}.csv")
        return self._checked

    def asking(self):
        """The threshold this table asks below (vision.earned.EarnedBelow); raises
        vision.earned.EvidenceError or OSError when the checked reads or the model cannot be read."""
        checked = self.checked
        return checked.earned_below(self._own)

    def ask_below(self) -> float | None:
        """The threshold the camera should ask below now: the one earned, or None for the
        reader's own (nothing earned yet, a reader whose .json does not let tables earn one, or
        the checked reads cannot be read)."""
        from vision.earned import EvidenceError

        if self.problem:
            return None   # said once (doctor, banner); not read again at every change of the table
        try:
            asking = self.asking()
            return asking.ask_below if asking.step and self.earns else None
        except (EvidenceError, OSError, ValueError) as exc:
            self.problem = f"the camera's checked pip reads cannot be read: {exc}"
            return None

    def said(self) -> str:
        """The camera's asking in the players' words, for the tray's large view ("" when the reader
        does not let a table earn, or its checked reads cannot be read)."""
        from vision.earned import CLEAN_READS, EvidenceError

        try:
            asking = self.asking()
        except (EvidenceError, OSError, ValueError):
            return ""
        if not self.earns or self.problem:
            return ""
        if asking.step:
            return (f"This table's dice have been read right often enough ({asking.reads} checked) for the camera "
                    f"to ask about fewer of them.")
        if asking.reads < CLEAN_READS:
            return (f"The camera asks about every die it is not sure of. {asking.reads} dice checked at this table "
                    f"so far: after about {CLEAN_READS - asking.reads} more read right, it asks about fewer.")
        return "The camera misread some of this table's dice lately, so it asks about every die it is not sure of."

    def read(self, reading, session, at: int) -> str:
        """A camera reading of pip dice the game awaits, its entry to take index `at` of the
        game's actions: judge the rolls the game has moved past, and keep this one to judge.
        Returns what the table should say ("" for nothing)."""
        dice = getattr(reading, "dice", None)
        reads = tuple((d.face, float(d.confidence)) for d in dice or ()
                      if isinstance(getattr(d, "face", None), int) and isinstance(getattr(d, "confidence", None), Real))
        self._latest = None
        if dice and len(reads) == len(dice) and session is not None:
            boxes = tuple(tuple(d.box) for d in dice)
            self._latest = self.rolls.add(PipRead(reads, None, boxes, getattr(reading, "photo", None)), session, at)
        return self._judge(everything=False)

    def confirmed(self, faces, kept: tuple[int, ...] | None = None) -> None:
        """The players confirmed the dice check of the last reading with these faces, die by die
        (corrected or as read), of the reading's dice `kept` (None: all; the others they said were
        no die): the dice are judged by them, if they are what the game records."""
        roll = self._latest
        keep = tuple(range(len(roll.value.reads))) if roll is not None and kept is None else kept
        if roll is not None and len(faces) == len(keep) and all(0 <= i < len(roll.value.reads) for i in keep):
            value = replace(roll.value, checked=tuple(faces), kept=None if kept is None else tuple(kept))
            self._latest = self.rolls.update(roll, value)

    def settle(self, everything: bool = True) -> str:
        """Judge the rolls the game has moved past (the table asks after every action), or with
        `everything` every roll kept by `read` (the game closes). Returns EARNED or LOST when the
        threshold moved, else ""."""
        return self._judge(everything)

    def _judge(self, everything: bool) -> str:
        checked = []
        for roll in self.rolls.due(everything):
            entry = roll.entry()
            entered = entered_dice(entry) if entry is not None else None
            dice, boxes = roll.value.dice()
            if entered is not None and len(entered) == len(dice):
                reads = judged(dice, entered, roll.value.checked)
                checked.extend(reads)
                if self.photos is not None and roll.value.photo:
                    # Labelled with the faces entered: a misread kept with the face the players gave it.
                    self.photos.add(roll.value.photo, [(int(r.face.removeprefix("pip")), box)
                                                       for r, box in zip(reads, boxes)])
            elif entered and self.to_box is not None and roll.value.photo:
                # A die missed or a box on no die: no label can be guessed; a person boxes it.
                self.to_box.add(roll.value.photo, entered, [(face, box) for (face, _c), box in zip(dice, boxes)])
        if not checked:
            return ""
        from vision.earned import EvidenceError

        try:
            before = self.asking().step
            self.checked.add(checked)
            after = self.asking().step
        except (EvidenceError, OSError, ValueError) as exc:
            self.problem = f"the camera's checked pip reads were not kept: {exc}"
            return ""
        self.problem = ""   # kept and read back: the file works again
        if not self.earns:
            return ""       # kept for a reader that may use them; this one asks by its own
        return EARNED if after > before else LOST if after < before else ""
