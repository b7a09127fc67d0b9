"""Separating touching dice: one outline per die from the outline of a cluster.

When the roll's die size is known (from dice lying alone), a cluster's area says how many dice
it holds and k-means on its pixels cuts it into that many. Otherwise the distance transform's
deep cores mark die centres and a watershed grows each die from its core; a solid blob two or
three dice long (dice side by side have no neck) is cut along its long side. A die lying
against a cable or a laptop's edge is peeled off it by an opening, or told from it by brightness.
"""
from __future__ import annotations

import cv2
import numpy as np

__all__ = ["disk", "shape", "split", "split_by_count", "split_long", "peel", "by_brightness", "by_seams",
           "inner_radius", "inside_any", "touches_edge"]


def disk(size: int) -> np.ndarray:
    return cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size))


def shape(contour) -> tuple[float, float, float]:
    area = cv2.contourArea(contour)
    (_, _), (rw, rh), _ = cv2.minAreaRect(contour)
    hull = cv2.contourArea(cv2.convexHull(contour))
    aspect = max(rw, rh) / max(min(rw, rh), 1e-6)
    solidity = area / hull if hull > 0 else 0.0
    return area, aspect, solidity


def roundness(contour) -> float:
    """Area over the enclosing circle's: 1 for a disc, 0.64 for a square."""
    _, r = cv2.minEnclosingCircle(contour)
    return cv2.contourArea(contour) / (np.pi * r * r) if r > 0 else 0.0


def split(contour, cfg) -> list:  # cfg: a DetectorConfig (min_die, max_aspect)
    """Touching dice: one contour per die (the contour itself when it looks like one die)."""
    x, y, w, h = cv2.boundingRect(contour)
    pad = 2
    roi = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(roi, [contour - [x - pad, y - pad]], -1, 255, cv2.FILLED)
    dist = cv2.distanceTransform(roi, cv2.DIST_L2, 5)
    dmax = float(dist.max())
    if dmax < cfg.min_die / 2 * 0.8:
        return [contour]
    # Die centres are cores of the distance transform: raise the level until the blob falls
    # apart into the most cores that are each nearly as deep as the deepest (a die's centre).
    best_n, markers = 1, None
    for frac in (0.35, 0.45, 0.55, 0.65, 0.75):
        cores = (dist > frac * dmax).astype(np.uint8)
        n, labels = cv2.connectedComponents(cores)
        deep = [i for i in range(1, n) if dist[labels == i].max() >= 0.6 * dmax]
        if len(deep) > best_n:
            best_n = len(deep)
            markers = np.zeros_like(labels)
            for j, i in enumerate(deep):
                markers[labels == i] = j + 1
    if markers is None:
        return split_long(contour, cfg)
    seeds = markers > 0
    markers = markers.astype(np.int32) + 1   # the tray is 1, die cores 2..best_n + 1
    markers[(roi > 0) & ~seeds] = 0          # to be flooded
    markers[roi == 0] = 1
    # Flood the inverted distance map: each die grows from its centre and meets its neighbour at
    # the neck between them (the colour image would let the tray flood into low-contrast dice).
    relief = (255 - dist * (255.0 / dmax)).astype(np.uint8)
    cv2.watershed(cv2.cvtColor(relief, cv2.COLOR_GRAY2BGR), markers)
    parts = []
    for label in range(2, best_n + 2):
        part = ((markers == label) & (roi > 0)).astype(np.uint8) * 255
        cs, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if cs:
            parts.append(max(cs, key=cv2.contourArea) + [x - pad, y - pad])
    if len(parts) < 2:
        return split_long(contour, cfg)
    return [p for part in parts for p in split_long(part, cfg)]


def split_by_count(contour, count: int, parts: list) -> list:
    """A cluster known (from the other dice's size) to hold `count` dice: k-means on its pixels."""
    x, y, w, h = cv2.boundingRect(contour)
    roi = np.zeros((h, w), np.uint8)
    cv2.drawContours(roi, [contour - [x, y]], -1, 255, cv2.FILLED)
    ys, xs = np.nonzero(roi)
    pts = np.column_stack([xs, ys]).astype(np.float32)
    if len(pts) < count * 4:
        return parts
    step = max(1, len(pts) // 800)
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 15, 0.5)
    # k-means++ draws its first centres from OpenCV's (thread-local) random generator: seeded
    # here, the same frame is always cut the same way, whatever was read before it.
    cv2.setRNGSeed(count)
    _, _, centres = cv2.kmeans(pts[::step], count, None, criteria, 2, cv2.KMEANS_PP_CENTERS)
    nearest = np.argmin(((pts[:, None, :] - centres[None]) ** 2).sum(-1), axis=1)
    out = []
    for k in range(count):
        part = np.zeros_like(roi)
        sel = nearest == k
        part[ys[sel], xs[sel]] = 255
        cs, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        if cs:
            out.append(max(cs, key=cv2.contourArea) + [x, y])
    return out


def split_long(contour, cfg) -> list:
    """A solid blob two or three dice long (dice side by side): cut it along its long side."""
    area, aspect, solidity = shape(contour)
    if aspect <= cfg.max_aspect or solidity < 0.8:
        return [contour]
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(contour)
    long_side, short_side = max(rw, rh), min(rw, rh)
    count = int(round(long_side / max(short_side, 1e-6)))
    if count < 2 or count > 4 or short_side < cfg.min_die:
        return [contour]
    theta = np.deg2rad(angle if rw >= rh else angle + 90)
    ux, uy = np.cos(theta), np.sin(theta)
    vx, vy = -uy, ux
    piece = long_side / count
    parts = []
    for i in range(count):
        offset = -long_side / 2 + piece * (i + 0.5)
        px, py = cx + ux * offset, cy + uy * offset
        corners = []
        for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            corners.append([px + su * ux * piece / 2 + sv * vx * short_side / 2,
                            py + su * uy * piece / 2 + sv * vy * short_side / 2])
        parts.append(np.array(corners, np.float32).reshape(-1, 1, 2).round().astype(np.int32))
    return parts


def peel(contour, typical: float | None, min_die: float) -> list:
    """Pieces of a blob after an opening wide enough to cut cables and thin walls off a die."""
    radius = 0.42 * typical if typical is not None else 0.6 * min_die
    size = max(3, int(2 * radius) | 1)
    x, y, w, h = cv2.boundingRect(contour)
    pad = size
    roi = np.zeros((h + 2 * pad, w + 2 * pad), np.uint8)
    cv2.drawContours(roi, [contour - [x - pad, y - pad]], -1, 255, cv2.FILLED)
    opened = cv2.morphologyEx(roi, cv2.MORPH_OPEN, disk(size))
    pieces, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    return [p + [x - pad, y - pad] for p in pieces]


def by_brightness(contour, work: np.ndarray, typical: float | None) -> list:
    """A die against a cable or a laptop: split the blob into its lighter and darker parts."""
    if typical is None:
        return []
    x, y, w, h = cv2.boundingRect(contour)
    roi = np.zeros((h, w), np.uint8)
    cv2.drawContours(roi, [contour - [x, y]], -1, 255, cv2.FILLED)
    grey = cv2.cvtColor(work[y:y + h, x:x + w], cv2.COLOR_BGR2GRAY)
    level, _ = cv2.threshold(grey[roi > 0].reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    pieces = []
    close = disk(max(3, int(0.3 * typical) | 1))  # fills the pips of a die
    for part in ((grey > level) & (roi > 0), (grey <= level) & (roi > 0)):
        part = cv2.morphologyEx(part.astype(np.uint8) * 255, cv2.MORPH_CLOSE, close) & roi
        part = cv2.morphologyEx(part, cv2.MORPH_OPEN, disk(5))
        found, _ = cv2.findContours(part, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        pieces += [c + [x, y] for c in found]
    return pieces


def by_seams(contour, raw: np.ndarray, min_area: float, size: float | None = None) -> list:
    """Touching dice keep a thin seam between them (the crease where their rounded edges meet
    is darker, or the tray shows through): the unclosed foreground mask inside the cluster,
    opened a little, falls apart along the seams. Where dice overlap more (corner on corner) a
    wider opening, up to a third of a die (size), cuts the neck between them. Pips are holes,
    so each piece is its outline."""
    x, y, w, h = cv2.boundingRect(contour)
    roi = np.zeros((h, w), np.uint8)
    cv2.drawContours(roi, [contour - [x, y]], -1, 255, cv2.FILLED)
    sub = raw[y:y + h, x:x + w] & roi
    widths = [3] + ([int(f * size) | 1 for f in (0.2, 0.33)] if size else [])
    found = []
    for width in widths:
        opened = cv2.morphologyEx(sub, cv2.MORPH_OPEN, disk(max(3, width)))
        pieces, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
        found = [p + [x, y] for p in pieces if cv2.contourArea(p) >= min_area]
        if len(found) >= 2:
            break
    return found


def inner_radius(contour) -> float:
    x, y, w, h = cv2.boundingRect(contour)
    roi = np.zeros((h + 2, w + 2), np.uint8)
    cv2.drawContours(roi, [contour - [x - 1, y - 1]], -1, 255, cv2.FILLED)
    return float(cv2.distanceTransform(roi, cv2.DIST_L2, 5).max())


def inside_any(box, boxes) -> bool:
    """The box's centre lies in one of the boxes (the same die found by two cuts)."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return any(x0 <= cx <= x1 and y0 <= cy <= y1 for x0, y0, x1, y1 in boxes)


def frame_sides(contour, shape) -> int:
    """How many of the frame's four sides the outline touches."""
    x, y, w, h = cv2.boundingRect(contour)
    return int(x <= 0) + int(y <= 0) + int(x + w >= shape[1]) + int(y + h >= shape[0])


def whole_at_edge(contour, shape, typical: float | None) -> bool:
    """A blob against the frame's edge that is a whole die: the roll's size (typical side),
    lying along one side only (the frame cut nothing off it; a laptop's corner fills a corner)."""
    side = np.sqrt(cv2.contourArea(contour))
    return typical is not None and 0.8 * typical <= side <= 1.3 * typical and frame_sides(contour, shape) == 1


def touches_edge(contour, shape) -> bool:
    x, y, w, h = cv2.boundingRect(contour)
    return x <= 0 or y <= 0 or x + w >= shape[1] or y + h >= shape[0]
