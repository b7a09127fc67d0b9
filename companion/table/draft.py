"""What a player is in the middle of entering (the Draft) and what one event did (the Outcome)."""
from __future__ import annotations

from dataclasses import dataclass

from companion.engine.core import Action
from companion.session import Rejected


@dataclass(frozen=True)
class Draft:
    """Input in progress: dice entered but not confirmed, the player whose sheet is in front,
    the Project picked for the next square, Avenue choices on a choice roll, and whether the
    dice being entered correct the last roll (a misread die) instead of making a new one."""

    dice: tuple[int, ...] = ()
    player: str | None = None
    project: str | None = None
    choices: tuple[tuple[str, int], ...] = ()
    correcting: bool = False

    def choice(self, player: str) -> int | None:
        return dict(self.choices).get(player)


@dataclass
class Outcome:
    """What one event did: an accepted action, a refusal (with the rule sentence), or nothing."""

    action: Action | None = None
    rejected: Rejected | None = None
    info: str = ""


def whole(value) -> bool:
    """A whole number, as a tap or panel line gives it (a bool is not one)."""
    return isinstance(value, int) and not isinstance(value, bool)
