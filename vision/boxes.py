"""Boxes of dice found in a frame, and the last look at them all together: boxes that are not
dice of their own are dropped (pieces of a die beside it, a box holding two dice found apart), and
a box far smaller than the roll's dice, alone, is grown to the roll's die size around it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

__all__ = ["Detection", "grown", "roll_area", "without_fragments", "without_merged"]


@dataclass(frozen=True)
class Detection:
    """One die found in a frame: box (x0, y0, x1, y1) in input pixels, and its outline's centre."""

    box: tuple[int, int, int, int]
    center: tuple[float, float]
    side: float  # approximate side length in input pixels

    def contains(self, x: float, y: float) -> bool:
        x0, y0, x1, y1 = self.box
        return x0 <= x <= x1 and y0 <= y <= y1


def grown(found: list[Detection], w: int, h: int) -> list[Detection]:
    """A box far smaller than the roll's dice is a piece of a die whose body hardly showed (a
    white die on white paper: its pips, its shaded side): the die is the roll's size around it.
    (Only with three dice or more, so that the roll's size is clear.)"""
    if len(found) < 3:
        return found
    side = float(np.sqrt(roll_area(found)))
    boxes = []
    for d in found:
        if d.side < PIECE_OF_A_DIE * side:
            (cx, cy), half = d.center, side / 2
            d = Detection((int(max(0, cx - half)), int(max(0, cy - half)), int(min(w, np.ceil(cx + half))),
                           int(min(h, np.ceil(cy + half)))), d.center, side)
        boxes.append(d)
    return boxes


# A die of the roll, seen from straight above, is at least this share of the side of the roll's
# tipped dice (their boxes hold side faces too); a box smaller than that is a piece of a die.
PIECE_OF_A_DIE = 0.75


def roll_area(found: list[Detection]) -> float:
    """The roll's die size (a box's area) from the bigger boxes: pieces of dice may outnumber them."""
    areas = [d.side ** 2 for d in found]
    return float(np.median([a for a in areas if a >= 0.5 * max(areas)]))


def without_merged(found: list[Detection]) -> list[Detection]:
    """Drop a box that holds the middles of two other dice found: two touching dice boxed as
    one by one pass and apart by another."""
    return [d for d in found
            if sum(o is not d and d.contains(*o.center) for o in found) < 2]


def without_fragments(found: list[Detection]) -> list[Detection]:
    """Drop pieces of a die found beside it: a side face seen obliquely, or its side's pips, is
    a box far smaller than the roll's dice lying against a die of the roll's size."""
    if len(found) < 2:
        return found
    areas = [d.side ** 2 for d in found]
    typical = roll_area(found)

    def against(a: Detection, b: Detection) -> bool:
        gap = 0.2 * b.side
        return a.box[0] <= b.box[2] + gap and b.box[0] <= a.box[2] + gap and \
            a.box[1] <= b.box[3] + gap and b.box[1] <= a.box[3] + gap

    dice = [d for d, area in zip(found, areas) if area >= 0.7 * typical]
    small = [d for d, area in zip(found, areas) if area < 0.35 * typical]
    # Pieces of one die lie against it, or against another of its pieces.
    pieces: list[Detection] = []
    grew = True
    while grew:
        grew = False
        for d in small:
            if not any(p is d for p in pieces) and any(against(d, o) for o in dice + pieces):
                pieces.append(d)
                grew = True
    return [d for d in found if not any(p is d for p in pieces)]
