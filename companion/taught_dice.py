"""The table's taught Centerville dice: the examples the camera reads icon faces by.

No public photo set of Welcome to Centerville's dice exists and printings differ, so the camera
learns this table's own dice (issue 15): each face a player shows it (teaching at set-up) or
confirms or corrects in play becomes one example, kept in the data directory beside games.db,
so they outlast a restart and belong to the table. The examples themselves are
vision.taught.TaughtExamples; this module only says where they live, which faces are still
missing, and builds the reader the camera uses. vision is imported when first needed, so the
app starts as fast as before.
"""
from __future__ import annotations

import threading
from pathlib import Path

from companion.engine.centerville.dice import default_dice

FOLDER = Path("taught-dice") / "centerville"


def taught_root(data_dir: Path | str) -> Path:
    """Where the Centerville examples of the table with data directory `data_dir` are kept."""
    return Path(data_dir) / FOLDER


def faces_of(colour: str) -> tuple[str, ...]:
    """The distinct face labels of the die of `colour`, e.g. ("black-vote", "black-hourglass", ...)."""
    dice = default_dice()
    return dice.labels(dice.index(colour))


def per_colour(counts: dict[str, int]) -> dict[str, int]:
    """Examples per die colour, in the dice's order, from counts per face label."""
    dice = default_dice()
    return {colour: sum(counts.get(label, 0) for label in dice.labels(die))
            for die, colour in enumerate(dice.order)}


def missing(counts: dict[str, int]) -> dict[str, tuple[str, ...]]:
    """Per die colour, its faces with no example yet (colours with none missing left out)."""
    dice = default_dice()
    out = {}
    for die, colour in enumerate(dice.order):
        wanted = tuple(label for label in dice.labels(die) if not counts.get(label))
        if wanted:
            out[colour] = wanted
    return out


class TaughtDice:
    """The taught examples of one table, opened when first used. The app is their only writer,
    so the counts are cached; the camera's reader shares the examples and sees every change."""

    def __init__(self, data_dir: Path | str):
        self.root = taught_root(data_dir)
        self._examples = None
        # The camera thread builds its reader over these examples while the screen counts
        # them: one TaughtExamples for both, or the reader never sees what is taught.
        self._opening = threading.Lock()
        self._counts: dict[str, int] | None = None
        self._model_pair = None  # the embedding's own asking pair, read when first needed

    @property
    def examples(self):
        with self._opening:
            if self._examples is None:
                from vision.taught import TaughtExamples

                self._examples = TaughtExamples(self.root)
            return self._examples

    def counts(self) -> dict[str, int]:
        """Examples per face label (labels with none left out)."""
        if self._counts is None:
            self._counts = {label: n for label, n in dict(self.examples.counts()).items() if n}
        return dict(self._counts)

    def any(self) -> bool:
        """True once a face is taught: only then can the camera read Centerville's dice."""
        if self._counts is None and not self.root.exists():
            return False  # nothing taught yet: no need to load the reader's code to know it
        return bool(self.counts())

    def missing(self) -> dict[str, tuple[str, ...]]:
        return missing(self.counts())

    def add(self, label: str, crop_rgb) -> None:
        """One more example of face `label`: a die's picture as a reading keeps it (RGB rows,
        as vision.crops.die_crop gives them); the examples are filed as BGR pictures."""
        if label not in default_dice().all_labels():
            raise ValueError(f'"{label}" is not a face of a Centerville die (like "red-contract").')
        import numpy as np  # here, not at the app's start-up (see companion/ui/app.py)

        self.examples.add(label, np.ascontiguousarray(np.asarray(crop_rgb)[..., ::-1]))
        self._changed()

    def check(self, reads) -> bool:
        """Keep the camera's reads as the players checked them (vision.earned.CheckedRead): by
        them the table earns a looser asking pair. True when these reads earned a looser step.
        A file that cannot be written now (a full disk) or read (damaged) costs only the looser
        pair, never the roll being entered: the problem is noted for `companion doctor` and the
        camera asks by the model's pair."""
        from vision.earned import EvidenceError

        try:
            before = self.asking().step
            self.examples.checked.add(reads)
            return self.asking().step > before
        except (EvidenceError, OSError) as exc:
            problem = f"the camera's checked reads were not kept: {exc}"
            if problem not in self.examples.problems:
                self.examples.problems.append(problem)
            return False

    def asking(self):
        """The asking pair this table has earned (vision.earned.Earned) from its checked reads;
        raises vision.earned.EvidenceError (or OSError) when they cannot be read."""
        if self._model_pair is None:
            from vision.taught import Thresholds

            self._model_pair = Thresholds.of_model()  # the shipped .json, read once
        return self.examples.checked.earned(self._model_pair.far_below, self._model_pair.close_below)

    def clear(self) -> None:
        """Forget every taught face of this table (new dice, or a bad lesson)."""
        self.examples.clear()
        self._changed()

    def _changed(self) -> None:
        self._counts = None

    def reader(self):
        """A reader of Centerville dice by these examples (vision.taught.TaughtReader)."""
        from vision.taught import TaughtReader

        return TaughtReader(self.examples, dice="centerville")


def icon_dice_in_play(table) -> "TaughtDice | None":
    """The examples the camera reads the table's dice by now: while the camera is taught, or
    while Centerville is played with taught dice; None while pip dice are read."""
    taught = table.taught
    if taught is None:
        return None
    if table.teaching is not None:
        return taught
    session = table.session
    if session is not None and session.game.name == "centerville" and taught.any():
        return taught
    return None
