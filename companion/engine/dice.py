"""Die faces shared by the engine and the dice reader (the labels of the face classifier).

A face label is a short string: "pip1".."pip6" for ordinary six-sided dice, and
"<colour>-<icon>" for Welcome to Centerville's icon dice (added with that game's dice).
The engine speaks pip values as ints; these helpers convert at the boundary.
"""
from __future__ import annotations

PIP_FACES: tuple[str, ...] = tuple(f"pip{n}" for n in range(1, 7))


def pip_label(value: int) -> str:
    if not 1 <= value <= 6:
        raise ValueError(f"A six-sided die shows 1 to 6, not {value}.")
    return f"pip{value}"


def pip_value(label: str) -> int | None:
    """The pip count of a face label, or None for a face that is not a pip face."""
    if label.startswith("pip") and label[3:].isdigit():
        value = int(label[3:])
        if 1 <= value <= 6:
            return value
    return None


def check_pips(dice, count: int | None = None, what: str = "roll") -> tuple[int, ...]:
    """Validate entered pip dice; returns them as a tuple. Raises ValueError with a sentence."""
    dice = tuple(dice)
    if count is not None and len(dice) != count:
        raise ValueError(f"A {what} is {count} dice, not {len(dice)}.")
    for d in dice:
        if isinstance(d, bool) or not isinstance(d, int) or not 1 <= d <= 6:
            raise ValueError(f"A six-sided die shows 1 to 6, not {d!r}.")
    return dice
