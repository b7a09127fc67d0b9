"""The camera's rolls for the fairness statistics, each kept once, with the faces the game took.

The statistics (companion.fairness) test each die's faces; a roll counted twice, a misread kept
after the players corrected it, or a Centerville die that stayed in the tray counted at every
reroll would each bend them. So a camera reading the game awaits is held (companion.pending_rolls)
until the game has moved past its entry, then the entry's faces are kept: a Centerville roll names
each die (its colour) and face; a pip roll's faces go to the read dice of those faces first (their
colour), the rest to the read dice left over. A reading whose entry was undone and not made again is
not kept; dice entered by hand were never read by the camera and are not counted either. A roll still
waiting at a power cut is kept at the next start (companion.waiting_rolls).
"""
from __future__ import annotations

from companion.fairness import dice_of, die_of
from companion.pending_rolls import PendingRolls, entered_dice


def taken_dice(read: list[tuple[str, str]], entry) -> list[tuple[str, str]]:
    """The (die, face) entries to keep of a roll read as `read` ((die, face) each, as
    companion.fairness.dice_of gives) and entered as the chance action `entry`."""
    labels = getattr(entry, "dice", None)
    if isinstance(labels, tuple) and labels and all(isinstance(d, str) and "-" in d for d in labels):
        return [die_of(label, "") for label in labels]   # Centerville: "red-vote" names its die
    faces = entered_dice(entry)
    if not faces:
        return []
    left = list(read)
    kept = []
    for face in map(str, faces):
        same = next((i for i, (_die, read_face) in enumerate(left) if read_face == face), None)
        kept.append((left.pop(same)[0] if same is not None else None, face))
    spare = iter(die for die, _face in left)
    return [(die if die is not None else next(spare, "unknown colour"), face) for die, face in kept]


class FairRolls:
    """The table's camera rolls on their way to the store (Session.record_rolls)."""

    def __init__(self):
        self.rolls = PendingRolls()

    def read(self, reading, session, at: int | None) -> None:
        """A camera reading the game took while it awaited the entry at index `at` of its actions
        (None: no dice were awaited, so the reading is no roll of the game's)."""
        dice = dice_of(reading)
        if at is not None and dice and session is not None:
            self.rolls.add(dice, session, at, one_per_entry=True)

    def settle(self, everything: bool = False) -> None:
        """Keep the rolls the game has moved past (every roll with `everything`: the game closes)."""
        for roll in self.rolls.due(everything):
            entry = roll.entry()
            if entry is not None:
                roll.session.record_rolls(taken_dice(roll.value, entry))
