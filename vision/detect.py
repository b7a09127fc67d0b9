"""Find dice in a frame with classical OpenCV, without a calibration photo of the empty tray.

The tray is estimated from the frame itself: a median over windows far larger than a die forgets
scattered dice (where dice crowd, the frame's commonest colour is the tray), then the tray
pixels are smoothed over the dice's places, keeping the tray's lighting gradient. A pixel
belongs to a die when it differs enough from the tray in brightness or colour; a shadow is only
darker with the same colour, so darkening counts for less than brightening or a change of colour.

Blobs are filtered by size and shape. Blobs that clearly hold one die give the roll's die size;
a cluster of touching dice is cut along the seams between them where those show, and otherwise
into as many dice as its area holds (vision.split). Blobs from the frame's edge (hands, cables,
tray walls, a laptop) count only for a die peeled off them. Dice whose body hardly shows
(translucent, white on white) are found by their pips (vision.pips), at a fainter contrast or
by their sharp outline (vision.edges) when they carry pips (vision.faint). A big solid blob from
the edge is a hand in the tray.

A round blob is a pip, not a die (a die is a rounded square). Last, all boxes are looked at
together (vision.boxes): a box far smaller than the roll's dice lying against one is a piece of it
(a side face seen steeply, its pips), a box holding the middles of two dice found apart is both of
them at once, and such a small box alone is what showed of a pale die: it is grown to the roll's
die size around it.

All geometry is done at a working size (long side 640 px) so that images of any size behave
alike; boxes are returned in the input image's pixels.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .boxes import Detection, grown, without_fragments, without_merged
from .edges import edge_mask
from .faint import faint_dice as _faint_dice
from .pips import dice_from_pips, has_pips as _has_marks
from .split import by_brightness as _by_brightness, by_seams as _by_seams, disk as _disk, inner_radius as _inner_radius
from .split import inside_any as _inside_any, peel, roundness as _roundness, shape as _shape, split as _split
from .split import split_by_count as _split_by_count, touches_edge as _touches_edge, whole_at_edge as _whole_at_edge

__all__ = ["DetectorConfig", "Detection", "DiceDetector", "detect_dice"]


@dataclass(frozen=True)
class DetectorConfig:
    """Tuning of the detector; sizes are die side lengths in pixels at the working size."""

    work_size: int = 640
    min_die: float = 16.0
    max_die: float = 170.0
    # The tray is estimated by medians over windows this wide, about twice a big die: wider
    # windows miss the tray's own shading and a wood grain's ring then passes for a die.
    tray_window: float = 270.0
    # Minimum difference from the background (Lab, 0-255 scale) for a pixel to count as die.
    min_contrast: float = 24.0
    # A pixel only darker than the background is probably a shadow: its darkening counts less.
    shadow_weight: float = 0.45
    chroma_weight: float = 1.6
    # Also find dice by their pips alone (translucent dice, white dice on white paper).
    pip_dice: bool = True
    max_aspect: float = 1.8
    min_solidity: float = 0.65
    # A pale die on a pale tray (white on cream paper) differs less: at this contrast a blob
    # counts when it is one die's shape and size and carries pips (a shadow carries none).
    faint_contrast: float = 14.0
    # Such a die's pips may be pale too (white on a white die), a 1-pip or a logo big: the least
    # spread of grey levels on its face for it to count as marked.
    faint_marks: float = 30.0
    # Also find pale dice on pale trays by their sharp outline (vision.edges).
    edge_dice: bool = True
    # A solid blob this big (share of the frame) coming in from the edge is a hand or an arm.
    hand_area: float = 0.08


class DiceDetector:
    """Finds dice in BGR frames; optionally uses a photo of the empty tray as the background."""

    def __init__(self, config: DetectorConfig | None = None, empty_tray: np.ndarray | None = None):
        self.config = config or DetectorConfig()
        self.obstructed = False  # a hand or an arm was in the last frame detected
        # The last frame's foreground (pixels unlike the tray) at the working size, and that
        # size over the frame's: the reader looks again where the boxes leave some out.
        self.foreground_mask: np.ndarray | None = None
        self.marks_mask: np.ndarray | None = None
        self.work_scale = 1.0
        self._empty_lab: np.ndarray | None = None
        self._lab: np.ndarray | None = None  # the last frame in Lab at the working size
        self._empty_shape: tuple[int, int] | None = None
        if empty_tray is not None:
            self.set_empty_tray(empty_tray)

    def set_empty_tray(self, image_bgr: np.ndarray | None) -> None:
        """Use this photo of the empty tray as the background (None returns to estimating it)."""
        if image_bgr is None:
            self._empty_lab = None
            self._empty_shape = None
            return
        _check_image(image_bgr)
        work, _ = self._to_work(image_bgr)
        self._empty_shape = image_bgr.shape[:2]
        self._empty_lab = cv2.GaussianBlur(cv2.cvtColor(work, cv2.COLOR_BGR2LAB), (5, 5), 0)

    def detect(self, image_bgr: np.ndarray) -> list[Detection]:
        """Dice in the frame, sorted top to bottom, then left to right."""
        _check_image(image_bgr)
        work, scale = self._to_work(image_bgr)
        raw, mask, faint = self._masks(work)
        self.obstructed = _hand_in_tray(mask, self.config)
        # The faint mask too: a pale die's body often shows only at the fainter contrast. The
        # unfilled mask keeps marks too small to be dice: a dark die on dark felt shows only its pips.
        self.foreground_mask = mask if faint is None else cv2.bitwise_or(mask, faint)
        self.marks_mask = raw
        self.work_scale = scale
        boxes = _dice_boxes(mask, raw, work, self.config)
        if faint is not None:
            boxes += _faint_dice(faint, work, boxes, self.config)
        if self.config.edge_dice:
            boxes += _faint_dice(edge_mask(self._lab), work, boxes, self.config)
        if self.config.pip_dice:
            # Pips are looked for before the closing that fills dice (it would merge near pips).
            boxes += dice_from_pips(raw, boxes, self.config.min_die, self.config.max_die)
        h, w = image_bgr.shape[:2]
        found = []
        for x0, y0, x1, y1 in boxes:
            bx0 = int(np.clip(np.floor(x0 / scale), 0, w - 1))
            by0 = int(np.clip(np.floor(y0 / scale), 0, h - 1))
            bx1 = int(np.clip(np.ceil(x1 / scale), bx0 + 1, w))
            by1 = int(np.clip(np.ceil(y1 / scale), by0 + 1, h))
            found.append(Detection((bx0, by0, bx1, by1), ((bx0 + bx1) / 2, (by0 + by1) / 2),
                                   float(np.sqrt((bx1 - bx0) * (by1 - by0)))))
        found = grown(without_merged(without_fragments(found)), w, h)
        found.sort(key=lambda d: (round(d.center[1] / max(d.side, 1)), d.center[0]))
        return found

    def foreground(self, work_bgr: np.ndarray) -> np.ndarray:
        """Mask (uint8 0/255) of pixels that differ from the tray, at the working size."""
        return self._masks(work_bgr)[1]

    def _masks(self, work_bgr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
        """The thresholded difference from the tray; the same cleaned with holes filled; and a
        filled mask at the faint threshold (None when that is off)."""
        cfg = self.config
        lab = self._lab = cv2.cvtColor(work_bgr, cv2.COLOR_BGR2LAB)
        if self._empty_lab is not None and self._empty_lab.shape == lab.shape:
            bg = self._empty_lab
        else:
            bg = _estimate_background(lab, cfg)
        score = _contrast(lab, bg, cfg)
        # On a busy background (wood grain, felt fibres) the noise floor rises; stay above it.
        noise = float(np.median(score[::4, ::4]))
        threshold = max(cfg.min_contrast, 3.0 * noise)
        raw = (score > threshold).astype(np.uint8) * 255
        mask = cv2.morphologyEx(raw, cv2.MORPH_OPEN, _disk(3))
        mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, _disk(7))
        faint = None
        if cfg.faint_contrast > 0:
            faint = (score > max(cfg.faint_contrast, 2.0 * noise)).astype(np.uint8) * 255
            faint = cv2.morphologyEx(faint, cv2.MORPH_OPEN, _disk(3))
            faint = _fill_holes(cv2.morphologyEx(faint, cv2.MORPH_CLOSE, _disk(7)))
        return raw, _fill_holes(mask), faint

    def _to_work(self, image_bgr: np.ndarray) -> tuple[np.ndarray, float]:
        h, w = image_bgr.shape[:2]
        scale = self.config.work_size / max(h, w)
        if abs(scale - 1.0) < 1e-6:
            return image_bgr, 1.0
        interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR
        size = (max(1, round(w * scale)), max(1, round(h * scale)))
        return cv2.resize(image_bgr, size, interpolation=interp), scale


def detect_dice(image_bgr: np.ndarray, config: DetectorConfig | None = None) -> list[Detection]:
    """One-shot detection with a fresh detector (use DiceDetector for a stream of frames)."""
    return DiceDetector(config).detect(image_bgr)


def _check_image(image) -> None:
    if not isinstance(image, np.ndarray) or image.ndim != 3 or image.shape[2] != 3 \
            or image.dtype != np.uint8 or min(image.shape[:2]) < 8:
        shape = getattr(image, "shape", None)
        raise ValueError(f"A frame must be an 8-bit BGR image of at least 8x8 pixels, not {shape}.")


def _estimate_background(lab: np.ndarray, cfg: DetectorConfig) -> np.ndarray:
    """The tray without the dice, at every pixel.

    A median over windows about twice a big die forgets scattered dice; where dice crowd
    (more die than tray in a window) the tray's own colour, the commonest colour of the frame,
    tells tray from dice instead. The tray pixels are then smoothed over the dice's places
    (normalised convolution), which keeps the tray's lighting gradient.
    """
    h, w = lab.shape[:2]
    step = 8
    small = cv2.resize(lab, (max(1, w // step), max(1, h // step)), interpolation=cv2.INTER_AREA)
    k = int(cfg.tray_window / step) | 1
    k = max(3, min(k, (min(small.shape[:2]) - 1) | 1 if min(small.shape[:2]) > 3 else 3))
    bg = cv2.medianBlur(small, k).astype(np.float32)
    tray = _contrast(small, bg, cfg) < cfg.min_contrast
    if tray.mean() < 0.5:
        tray = _contrast(small, _commonest_colour(small), cfg) < 1.5 * cfg.min_contrast
    smallf = small.astype(np.float32)
    sigma = k / 2.0
    for _ in range(2):
        weight = cv2.GaussianBlur(tray.astype(np.float32), (0, 0), sigma)
        filled = cv2.GaussianBlur(smallf * tray[..., None], (0, 0), sigma)
        known = weight > 1e-3
        bg = np.where(known[..., None], filled / np.maximum(weight, 1e-3)[..., None], bg)
        tray = _contrast(small, bg, cfg) < cfg.min_contrast
    bg = np.clip(bg, 0, 255).astype(np.uint8)
    return cv2.resize(bg, (w, h), interpolation=cv2.INTER_LINEAR)


def _commonest_colour(small: np.ndarray) -> np.ndarray:
    bins = (small // 16).astype(np.int32)
    codes = (bins[..., 0] * 16 + bins[..., 1]) * 16 + bins[..., 2]
    best = np.bincount(codes.ravel(), minlength=4096).argmax()
    members = small[codes == best].astype(np.float32)
    return np.broadcast_to(members.mean(axis=0), small.shape).copy()


def _contrast(lab: np.ndarray, bg: np.ndarray, cfg: DetectorConfig) -> np.ndarray:
    """Per-pixel difference from the tray; darkening (a shadow, perhaps) is weighted down."""
    d = cv2.subtract(lab, bg, dtype=cv2.CV_32F) if lab.dtype == bg.dtype else \
        lab.astype(np.float32) - bg.astype(np.float32)
    dl, da, db = cv2.split(d)
    # max(dl, w * dl) with w < 1 keeps a brightening and shrinks a darkening by w.
    dl = cv2.max(dl, dl * cfg.shadow_weight)
    chroma = cv2.magnitude(da, db) * cfg.chroma_weight
    return cv2.magnitude(dl, chroma)


def _fill_holes(mask: np.ndarray) -> np.ndarray:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    filled = np.zeros_like(mask)
    cv2.drawContours(filled, contours, -1, 255, thickness=cv2.FILLED)
    return filled


def _hand_in_tray(mask: np.ndarray, cfg: DetectorConfig) -> bool:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    big = cfg.hand_area * mask.shape[0] * mask.shape[1]
    for contour in contours:
        if cv2.contourArea(contour) >= big and _touches_edge(contour, mask.shape) and \
                _shape(contour)[2] >= 0.5:
            return True
    return False


def _dice_boxes(mask: np.ndarray, raw: np.ndarray, work: np.ndarray, cfg: DetectorConfig) -> list[tuple]:
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    min_area = cfg.min_die ** 2 * 0.6
    max_area = (cfg.max_die * 1.5) ** 2 * 4  # bigger than four touching big dice: a hand or an arm
    blobs, attached = [], []
    for contour in contours:
        area = cv2.contourArea(contour)
        if area < min_area:
            continue
        if _touches_edge(contour, mask.shape) or area > max_area:
            # Cables, hands, tray walls and a laptop's corner come in from the frame's edge; a die
            # may lie against them. Dealt with once the dice's size is known.
            attached.append(contour)
        elif _roundness(contour) > ROUND_PIP:
            continue  # a disc: a pip of a die whose body did not show, not a die (a rounded square)
        else:
            blobs.append((contour, _shape(contour)))
    # The dice of one roll are the same size: blobs that clearly hold one die tell how big a die
    # is, so that a blob of two touching dice is recognised by its area even when it is compact.
    clean = [np.sqrt(a) for _, (a, asp, sol) in blobs if sol > 0.88 and asp < 1.45]
    # A cluster's dice that its seams set apart tell the size when no die lies alone.
    seams, apart = {}, []
    for k, (contour, (a, asp, sol)) in enumerate(blobs):
        if (sol <= 0.88 or asp >= 1.35) and a >= 2 * min_area:
            seams[k] = _by_seams(contour, raw, min_area)
            if len(seams[k]) >= 2:
                apart += [np.sqrt(s[0]) for piece, s in zip(seams[k], map(_shape, seams[k]))
                          if s[2] > 0.88 and s[1] < 1.35 and _roundness(piece) <= ROUND_PIP]
    clean = clean + apart
    # Loose pips of a die whose body did not show are clean blobs too, but far smaller.
    clean = [c for c in clean if c >= 0.5 * max(clean)]
    typical = float(np.median(clean)) if clean else None
    if typical is not None:
        typical = _unless_pips(blobs, typical)
    peeled = []
    for contour in attached:
        a, asp, sol = _shape(contour)
        # One compact die just touching the edge; or a whole one lying along it (with pips: a
        # laptop's or the tray's corner carries none).
        whole = _whole_at_edge(contour, mask.shape, typical) and _has_marks(contour, work)
        if asp <= 1.45 and sol >= 0.8 and np.sqrt(a) <= cfg.max_die and \
                (whole or _edge_contact(contour, mask.shape) <= 0.7 * np.sqrt(a)):
            blobs.append((contour, (a, asp, sol)))
            continue
        pieces = _by_seams(contour, raw, min_area)
        pieces = (pieces if len(pieces) >= 2 else []) + peel(contour, typical, cfg.min_die) + \
            _by_brightness(contour, work, typical)
        counted = []
        if typical is not None and 1.5 * typical ** 2 <= a <= 6 * typical ** 2 and sol >= 0.7:
            # Touching dice against the frame's edge: cut by the count their area holds, as a
            # cluster inside the frame is (the pieces still pass the tests below).
            counted = _split_by_count(contour, int(round(a / typical ** 2)), [])
            # Only when every piece is a die with pips: a laptop's corner cut so has pieces
            # that are not.
            if not all(_one_die(c, typical, cfg) and _has_marks(c, work) for c in counted):
                counted = []
        for piece in pieces + counted:
            a, asp, sol = _shape(piece)
            if a < min_area or a > max_area:
                continue
            # What is cut off a cable or a wall counts only when it is one compact die of the
            # roll's size (just touching the frame's edge at most).
            if asp > 1.45 or sol < 0.85 or np.sqrt(a) > cfg.max_die:
                continue
            if typical is not None and not 0.5 * typical ** 2 <= a <= 1.6 * typical ** 2:
                continue
            if _touches_edge(piece, mask.shape) and (_edge_contact(piece, mask.shape) > 0.6 * np.sqrt(a) or
                                                     (a < 0.9 * cv2.contourArea(contour) and
                                                      not any(piece is c for c in counted))):
                # A die cut by the frame's edge, or the end of a cable cut off by peeling (one
                # of touching dice whose shadow reaches the edge is a cluster's piece).
                continue
            box = _accept(piece, cfg)
            if box is not None and not _inside_any(box, peeled) and _has_marks(piece, work):
                peeled.append(box)
    boxes = []
    for k, (contour, (area, aspect, solidity)) in enumerate(blobs):
        if typical is not None and area < 0.3 * typical ** 2:
            continue  # far smaller than the roll's dice: a pip of a die whose body did not show
        single = aspect <= 1.45 and solidity >= 0.8 and np.sqrt(area) <= cfg.max_die * 1.15
        # Far bigger than the roll's dice, or clearly bigger and dented (two dice touching
        # corner to corner): a cluster.
        if typical is not None and (area > 1.8 * typical ** 2 or (area > 1.4 * typical ** 2 and solidity < 0.88)):
            single = False
        if single:
            parts = [contour]
        else:
            parts = _by_seams_or_count(contour, area, solidity, seams.get(k, []), typical, cfg, work)
            if parts is None:
                continue  # not a cluster of dice: a hand, a cloth fold, a tray wall
        # With no die alone to tell the size, a piece cut out of a cluster is a die when it
        # carries pips: a shadow's strip cut into die-sized pieces does not.
        accepted = [box for part in parts if (box := _accept(part, cfg)) is not None and
                    (single or typical is not None or _has_marks(part, work, cfg.faint_marks, 0.2))]
        if not accepted and typical is not None and aspect <= 1.6 and \
                (0.7 * typical ** 2 <= area <= 1.6 * typical ** 2 or
                 (0.7 * typical ** 2 <= cv2.contourArea(cv2.convexHull(contour)) <= 1.4 * typical ** 2
                  and _has_marks(contour, work))):
            # One die of the roll's size with a ragged, shadowed side, or a pale die only partly
            # set off from the tray (then it must carry pips): its hull is the die.
            x, y, w, h = cv2.boundingRect(cv2.convexHull(contour))
            accepted = [(x, y, x + w, y + h)]
        boxes += accepted
    return boxes + peeled


def _unless_pips(blobs, typical: float) -> float:
    """The roll's die size, unless the clean blobs that gave typical are loose pips of dice that
    all lie in clusters: then another blob holds a circle far wider than such a die could (a
    die's body showing wholly is at most about 1.4 of its top face across; a pip is a fifth of
    it), and the narrowest such circle is about one die across (a cluster is a die wide)."""
    wide = [2.0 * _inner_radius(contour) for contour, (a, _, _) in blobs if a > (2.5 * typical) ** 2]
    wide = [d for d in wide if d > 2.5 * typical]
    return min(wide) if wide else typical


def _by_seams_or_count(contour, area, solidity, pieces, typical, cfg, work) -> list | None:
    """A cluster of touching dice cut into dice: along the seams between them where those show
    (pieces, from vision.split.by_seams), and what is left by the count of dice its area holds
    (None: not a cluster of dice)."""
    if solidity < 0.45:
        return None
    dice = [p for p in pieces if _one_die(p, typical, cfg)]
    if len(pieces) >= 2 and dice:
        parts = list(dice)
        for piece in pieces:
            if not any(piece is d for d in dice):
                a, _, sol = _shape(piece)
                parts += _by_count(piece, a, sol, typical, cfg, work) or []
        return parts
    return _by_count(contour, area, solidity, typical, cfg, work)


def _one_die(piece, typical, cfg) -> bool:
    a, aspect, solidity = _shape(piece)
    if aspect > 1.45 or solidity < 0.8 or np.sqrt(a) > cfg.max_die * 1.15:
        return False
    return typical is None or 0.45 * typical ** 2 <= a <= 1.6 * typical ** 2


def _by_count(contour, area, solidity, typical, cfg, work) -> list | None:
    if typical is not None:
        # The other dice tell how many dice this cluster holds; k-means cuts it into that many.
        expected = int(round(area / typical ** 2))
        if expected > 8 or solidity < 0.45:
            return None
        if expected <= 1:
            return _two_dice(contour, work) or [contour]
        return _split_by_count(contour, expected, [contour])
    # No die lies alone: the widest circle inside the cluster is about one die across.
    side = 2.0 * _inner_radius(contour)
    expected = int(area / max(side, 1.0) ** 2 + 0.35)
    if 2 <= expected <= 8 and solidity >= 0.45:
        return _split_by_count(contour, expected, [contour])
    return _two_dice(contour, work) or _split(contour, cfg)


def _two_dice(contour, work) -> list | None:
    """A blob too small for two dice by its area but too long for one (one die's blob is
    compact, aspect at most 1.45): two dice when both halves are compact and carry pips (a die
    run into its shadow's strip is one)."""
    if _shape(contour)[1] < LONG:
        return None
    halves = _split_by_count(contour, 2, [])
    if len(halves) == 2 and all(_shape(h)[1] <= 1.45 and _has_marks(h, work) for h in halves):
        return halves
    return None


# A blob this much longer than wide (its turned bounding box's sides) is no single die.
LONG = 1.6

# Area over the enclosing circle's: a square is 0.64, the roundest rendered dice reach about
# 0.81, a pip (a disc) 0.85 to 1.
ROUND_PIP = 0.85


def _edge_contact(contour, shape) -> int:
    """How many outline points lie on the frame's edge."""
    pts = contour.reshape(-1, 2)
    h, w = shape[:2]
    on_edge = (pts[:, 0] <= 0) | (pts[:, 1] <= 0) | (pts[:, 0] >= w - 1) | (pts[:, 1] >= h - 1)
    return int(np.count_nonzero(on_edge))


def _accept(contour, cfg: DetectorConfig) -> tuple | None:
    area, aspect, solidity = _shape(contour)
    side = np.sqrt(cv2.contourArea(cv2.convexHull(contour)))
    if not cfg.min_die <= side <= cfg.max_die * 1.15:
        return None
    if aspect > cfg.max_aspect or solidity < cfg.min_solidity:
        return None
    # A die is convex: its outline's hull also covers side faces that came out darker than the top.
    x, y, w, h = cv2.boundingRect(cv2.convexHull(contour))
    return (x, y, x + w, y + h)
