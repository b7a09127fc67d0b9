"""Camera readings the game took as rolls, held until the game has moved past them.

A roll's dice are not final when they are read: the tray can be read again before they are
entered (a die knocked, the read-dice button), and an entered roll can still be corrected (Rolling
Village's "correct the roll", an undo and the dice entered again). Both the table's checked pip
reads (companion.pip_checks) and the fairness statistics (companion.table.fair_rolls) want each
roll once, as the game finally took it: so a reading is kept with the index among the game's
actions its entry takes (GameInput.dice_entry), a newer reading for an entry not made yet replaces
it, and it is final once the game has recorded a later chance entry (the next roll: no correction
of this one is possible any more) or when the game closes. What waits is also written down
(companion.waiting_rolls), so a power cut does not lose it.
"""
from __future__ import annotations

from dataclasses import dataclass

KEPT = 20   # rolls waiting at most (a game that never moves on holds no more)


@dataclass(frozen=True)
class Pending:
    """What a reader keeps of one reading (`value`), for the entry at index `at` of `session`'s actions."""
    value: object
    session: object
    at: int

    def entry(self):
        """The chance entry at `at`, as the game holds it now, or None (undone, or not a chance entry)."""
        actions = self.session.actions
        entry = actions[self.at] if self.at < len(actions) else None
        return entry if entry is not None and self.session.game.is_chance(entry) else None


class PendingRolls:
    def __init__(self):
        self._rolls: list[Pending] = []
        self.changes = 0    # grows whenever what waits changes: the table writes it down then

    @property
    def waiting(self) -> tuple[Pending, ...]:
        """The rolls waiting, oldest first."""
        return tuple(self._rolls)

    def restore(self, value, session, at: int) -> Pending:
        """Wait again for a roll written down before the app stopped (companion.waiting_rolls)."""
        return self._append(value, session, at)

    def _append(self, value, session, at: int) -> Pending:
        roll = Pending(value, session, at)
        self._rolls.append(roll)
        del self._rolls[:-KEPT]
        self.changes += 1
        return roll

    def add(self, value, session, at: int, one_per_entry: bool = False) -> Pending:
        """Keep a reading for the entry at `at`; one kept for the same entry, not made yet, is
        replaced (the tray was read again: only what lay there when the roll was entered counts).
        With `one_per_entry`, one kept for an entry already made is replaced too (a roll read
        again to correct it is still one roll)."""
        entered = len(session.actions)
        self._rolls = [r for r in self._rolls
                       if not (r.session is session and r.at == at and (one_per_entry or at >= entered))]
        return self._append(value, session, at)

    def update(self, roll: Pending, value) -> Pending | None:
        """Change what is kept of `roll` (still waiting); None when it is no longer kept."""
        if roll not in self._rolls:
            return None
        new = Pending(value, roll.session, roll.at)
        self._rolls[self._rolls.index(roll)] = new
        self.changes += 1
        return new

    def due(self, everything: bool = False) -> list[Pending]:
        """The rolls the game has moved past (all of them with `everything`: the game closes),
        taken out of the waiting list, oldest first."""
        ready, waiting = [], []
        for roll in self._rolls:
            chance = roll.session.game.is_chance
            moved_on = any(chance(a) for a in roll.session.actions[roll.at + 1:])
            (ready if everything or moved_on else waiting).append(roll)
        self._rolls = waiting
        self.changes += bool(ready)
        return ready


def entered_dice(action) -> tuple[int, ...] | None:
    """The dice a chance entry holds (a roll's dice, a battle's die), or None for another draw."""
    dice = getattr(action, "dice", None)
    if isinstance(dice, tuple) and all(isinstance(d, int) for d in dice):
        return dice
    die = getattr(action, "die", None)
    return (die,) if isinstance(die, int) and not isinstance(die, bool) else None
