"""Dice seen only by their pips: translucent dice, and white dice on white paper.

Such a die's body hardly differs from the tray, but its pips do: they are left in the
foreground mask as small round spots, too small to be dice. Two or more spots of one size
that lie close together are one die's pips (a lone spot is too weak a sign: a 1 must show
its body); the die is about five pip diameters across (pips are about a fifth
of the face), centred on its pips.
"""
from __future__ import annotations

import cv2
import numpy as np

from .split import disk as _disk

__all__ = ["dice_from_pips", "has_pips"]

# A die's edge in pip diameters, and how far apart (in diameters) pips of one face can lie:
# the two pips of a 2 sit about 4 diameters apart (corner to corner), neighbouring dice's further.
DIE_PER_PIP = 5.0
SAME_DIE = 4.3
NEIGHBOURS = 2.2


def dice_from_pips(mask: np.ndarray, found: list[tuple], min_die: float, max_die: float) -> list[tuple]:
    """Boxes (x0, y0, x1, y1) of dice made of pip spots lying outside the boxes already found."""
    spots = _spots(mask, found, max_die)
    if not spots:
        return []
    boxes = []
    for group in _groups(spots, SAME_DIE):
        d = float(np.median([spots[i][2] for i in group]))
        side = DIE_PER_PIP * d
        extent = _extent([spots[i] for i in group])
        # Pips of neighbouring dice can chain together: a group wider than one face is cut
        # into the tighter groups it is made of.
        subgroups = [group] if extent <= 0.9 * side else \
            [[group[j] for j in sub] for sub in _groups([spots[i] for i in group], NEIGHBOURS)]
        for sub in subgroups:
            members = [spots[i] for i in sub]
            if len(members) == 1 and (members[0][2] < 6.0 or members[0][3] < 0.7):
                continue  # a lone spot is a 1 only when it is a big, clearly round pip
            if len(members) > 6:
                continue
            xs = [m[0] for m in members]
            ys = [m[1] for m in members]
            cx, cy = (min(xs) + max(xs)) / 2, (min(ys) + max(ys)) / 2
            half = max(side, _extent(members) + 2.5 * d) / 2
            if not min_die <= 2 * half <= max_die:
                continue
            boxes.append((int(cx - half), int(cy - half), int(np.ceil(cx + half)), int(np.ceil(cy + half))))
    h, w = mask.shape[:2]
    boxes = [(max(0, x0), max(0, y0), min(w, x1), min(h, y1)) for x0, y0, x1, y1 in boxes]
    return _merge(boxes, found)


def _merge(boxes: list[tuple], found: list[tuple]) -> list[tuple]:
    """One box per die: a pip box overlapping a found die is dropped, overlapping pip boxes join."""
    merged: list[tuple] = []
    for box in sorted(boxes, key=lambda b: -(b[2] - b[0]) * (b[3] - b[1])):
        if any(_overlap(box, other) > 0.3 for other in found):
            continue
        for k, other in enumerate(merged):
            if _overlap(box, other) > 0.3:
                merged[k] = (min(box[0], other[0]), min(box[1], other[1]),
                             max(box[2], other[2]), max(box[3], other[3]))
                break
        else:
            merged.append(box)
    return merged


def _overlap(a, b) -> float:
    """Intersection over the smaller box's area."""
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    if w <= 0 or h <= 0:
        return 0.0
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    return w * h / max(smaller, 1)


def _spots(mask, found, max_die) -> list[tuple[float, float, float, float]]:
    """(x, y, diameter, roundness) of small round blobs outside the found dice."""
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    max_area = (0.25 * max_die) ** 2  # a pip of the biggest die is under a quarter of its edge
    spots = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < 4 or area > max_area:
            continue
        bx, by, bw, bh = cv2.boundingRect(c)
        if bx <= 0 or by <= 0 or bx + bw >= mask.shape[1] or by + bh >= mask.shape[0]:
            continue
        (x, y), r = cv2.minEnclosingCircle(c)
        round_ = area / (np.pi * r * r) if r > 0 else 0.0
        if round_ < 0.45:
            continue
        # Pips on the side faces of a die already found (tilted view) lie just outside its box.
        if any(x0 - 0.25 * (x1 - x0) <= x <= x1 + 0.25 * (x1 - x0) and
               y0 - 0.25 * (y1 - y0) <= y <= y1 + 0.25 * (y1 - y0) for x0, y0, x1, y1 in found):
            continue
        spots.append((x, y, 2.0 * np.sqrt(area / np.pi), round_))
    return spots


def _groups(spots, reach: float) -> list[list[int]]:
    """Single-link groups of spots of like size closer than reach x their diameter."""
    n = len(spots)
    parent = list(range(n))

    def root(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i in range(n):
        xi, yi, di, _ = spots[i]
        for j in range(i + 1, n):
            xj, yj, dj, _ = spots[j]
            if max(di, dj) > 1.8 * min(di, dj):
                continue
            if np.hypot(xi - xj, yi - yj) <= reach * max(di, dj):
                parent[root(i)] = root(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(root(i), []).append(i)
    return list(groups.values())


def _extent(members) -> float:
    xs = [m[0] for m in members]
    ys = [m[1] for m in members]
    return max(max(xs) - min(xs), max(ys) - min(ys))


def has_pips(contour, work: np.ndarray, min_range: float = 50.0, max_spot: float = 0.12,
             local: bool = False) -> bool:
    """A die face carries pips: small round spots of another brightness inside its outline.

    A cable's ferrite bead or plug, or a wall's corner, is one colour with long glints at most.
    min_range: the least spread (grey levels) between the face's darkest and brightest parts;
    max_spot: the biggest spot as a share of the face (a 1-pip or a logo is bigger than a 6's pip);
    local: also look for spots against the face around them (for a blob already of one die's
    shape: a cable's glints pass that test too).
    """
    x, y, w, h = cv2.boundingRect(contour)
    roi = np.zeros((h, w), np.uint8)
    cv2.drawContours(roi, [contour - [x, y]], -1, 255, cv2.FILLED)
    roi = cv2.erode(roi, _disk(max(3, int(min(w, h) * 0.12) | 1)))
    # A contour may reach past the frame (a split or grown outline at the border): look only at
    # the part inside it, else the mask and the pixels differ in size (aws IMG_20191112_101653).
    fh, fw = work.shape[:2]
    x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + w, fw), min(y + h, fh)
    if x1 <= x0 or y1 <= y0:
        return False
    roi = roi[y0 - y:y1 - y, x0 - x:x1 - x]
    grey = cv2.cvtColor(work[y0:y1, x0:x1], cv2.COLOR_BGR2GRAY)
    inside = grey[roi > 0]
    if inside.size < 16:
        return False
    lo, hi = np.percentile(inside, [2, 98])
    if hi - lo < min_range:
        return False
    area = float(np.count_nonzero(roi))
    level, _ = cv2.threshold(inside.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    bright = (grey > level) & (roi > 0)
    dark = (grey <= level) & (roi > 0)
    if _round_spot(bright if np.count_nonzero(bright) < np.count_nonzero(dark) else dark, area, max_spot):
        return True
    if not local:
        return False
    # A face lit from one side splits into a bright and a dark half at one grey level; a pip is
    # brighter or darker than the face around it: top-hats about half a face wide find it there.
    k = _disk(max(3, int(0.5 * np.sqrt(area)) | 1))
    for hat in (cv2.MORPH_TOPHAT, cv2.MORPH_BLACKHAT):
        spots = (cv2.morphologyEx(grey, hat, k) > 0.6 * min_range) & (roi > 0)
        if _round_spot(spots, area, max_spot):
            return True
    return False


def _round_spot(spots: np.ndarray, area: float, max_spot: float) -> bool:
    """spots (bool mask) holds a round blob of a pip's size for a face of area pixels, or a
    logo in the face's middle (a star or a ring fills less of its box than a pip does)."""
    n, _, stats, centres = cv2.connectedComponentsWithStats(spots.astype(np.uint8))
    h, w = spots.shape
    for i in range(1, n):
        sw, sh, sa = stats[i, cv2.CC_STAT_WIDTH], stats[i, cv2.CC_STAT_HEIGHT], stats[i, cv2.CC_STAT_AREA]
        if 0.003 * area <= sa <= max_spot * area and max(sw, sh) <= 2.5 * min(sw, sh) and sa >= 0.45 * sw * sh:
            return True
        middle = np.hypot(centres[i][0] - (w - 1) / 2, centres[i][1] - (h - 1) / 2) <= 0.12 * np.sqrt(area)
        if middle and LOGO_SPOT[0] * area <= sa <= LOGO_SPOT[1] * area and max(sw, sh) <= 1.6 * min(sw, sh) \
                and sa >= 0.3 * sw * sh:
            return True
    return False


# A logo's share of the face (a 1-face's mark: a star, a ring, a maker's sign).
LOGO_SPOT = (0.02, 0.3)
