"""Dice that hardly differ from the tray: blobs at a faint contrast, or filled outlines.

The detector hands over a mask of such blobs (vision.detect's faint threshold, or vision.edges'
outlines). Only what the dice found so far leave unexplained is looked at. A blob counts as a
die when it is one die's shape and about the roll's die size and carries pips (a shadow or a
fold in the cloth carries none); a blob of a pale die run into its shadow or into a pale
neighbour is first cut, by an opening about a die wide or by the count of dice its area holds.
"""
from __future__ import annotations

import cv2
import numpy as np

from .pips import has_pips
from .split import inside_any, peel, shape, split_by_count, touches_edge, whole_at_edge

__all__ = ["faint_dice"]


def faint_dice(faint: np.ndarray, work: np.ndarray, found: list[tuple], cfg) -> list[tuple]:
    """Boxes (x0, y0, x1, y1) of dice in the faint mask outside the found boxes (cfg: a
    vision.detect.DetectorConfig: min_die, max_die, faint_marks)."""
    sides = [np.sqrt((x1 - x0) * (y1 - y0)) for x0, y0, x1, y1 in found]
    typical = float(np.median(sides)) if sides else None
    # Only what the dice found so far leave unexplained is looked at (it also cuts a pale die
    # off a neighbour it touches).
    faint = faint.copy()
    for x0, y0, x1, y1 in found:
        faint[y0:y1, x0:x1] = 0
    contours, _ = cv2.findContours(faint, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    boxes = []
    for blob in contours:
        # At a faint contrast a pale die often runs into its own shadow: an opening about a die
        # wide (the other dice tell how wide) peels the die off the shadow's strip.
        # Pale dice touching each other run together too: the blob is cut by how many dice its
        # area holds, as a cluster of clearly seen dice is.
        pieces = [blob]
        area = cv2.contourArea(blob)
        # Pips looked for against the face around them also find a cable's glints: only for
        # blobs wholly inside the frame (cables, walls and hands come in from its edge), and
        # for a whole pale die lying along it (tested below).
        local = not touches_edge(blob, faint.shape)
        if typical is not None and 0.5 * typical ** 2 < area < 6 * typical ** 2 and not _one_die(blob, cfg):
            pieces = peel(blob, 0.8 * typical, cfg.min_die)
            count = int(round(area / (0.8 * typical) ** 2))
            if 2 <= count <= 6:
                pieces += split_by_count(blob, count, [])
        for contour in pieces:
            side = np.sqrt(cv2.contourArea(contour))
            if not _one_die(contour, cfg):
                continue
            if typical is not None and not 0.5 * typical <= side <= 1.5 * typical:
                continue
            at_edge = touches_edge(contour, faint.shape)
            # Against the frame's edge only a whole die of the roll's size, lying along one side.
            if at_edge and not whole_at_edge(contour, faint.shape, typical):
                continue
            x, y, w, h = cv2.boundingRect(contour)
            if inside_any((x, y, x + w, y + h), found + boxes):
                continue
            # There only a pale die (a dark one stands out and is found by vision.detect): not
            # a cable's dark plug or ferrite bead.
            if at_edge and _darker_than_tray(contour, work):
                continue
            if has_pips(contour, work, cfg.faint_marks, 0.2, local=local or at_edge):
                boxes.append((x, y, x + w, y + h))
    return boxes


def _darker_than_tray(contour, work: np.ndarray) -> bool:
    grey = cv2.cvtColor(work, cv2.COLOR_BGR2GRAY)
    inside = np.zeros(grey.shape, np.uint8)
    cv2.drawContours(inside, [contour], -1, 255, cv2.FILLED)
    return float(np.median(grey[inside > 0])) < 0.8 * float(np.median(grey[::4, ::4]))


def _one_die(contour, cfg) -> bool:
    area, aspect, solidity = shape(contour)
    return cfg.min_die <= np.sqrt(area) <= cfg.max_die and aspect <= 1.45 and solidity >= 0.85
