"""Is a hand in the tray? The settle logic waits while one rests there (a still hand is no motion).

The learned detector finds dice, not hands, so this one rule of the retired cascade stays: a
solid blob of at least HAND_AREA of the frame, differing from the tray and coming in from the
frame's edge, is a hand or an arm. The tray is the median of windows about half the frame wide
(or, where the frame is more not-tray than tray, its commonest colour), smoothed over the
places it differs; as vision.detect computed it, at a quarter of its working size.

On the shared real photos, with the shipped detector's dice left out of the blobs: a hand seen
in 2 of 86 tilted-webcam frames (cables and a laptop's corner at the edge), 19 of 117
aws-workshop-dice phone photos (chairs, tables) and 145 of 151 webcam-crops (one die filling
the picture: no tray at all); in 0 of 100 rendered trays (2026-12-03, evening; with OpenCV's
own Lab conversion instead of lab_8bit: 2, 18, 144 and 0, the other 352 photos alike). The
camera over a tray is the tilted-webcam case. A wrong "hand" only delays a reading; a hand
read as dice is a wrong score.
"""
from __future__ import annotations

from functools import cache

import cv2
import numpy as np

__all__ = ["hand_in_tray"]

WORK_WIDTH = 160
WORK_HEIGHT = 4 * WORK_WIDTH
HAND_AREA = 0.08
SOLIDITY = 0.5
# Lab difference (0..255) from the tray for a pixel to differ; a darkening counts less (a
# shadow), colour more (skin on a grey tray).
CONTRAST = 24.0
SHADOW_WEIGHT = 0.45
CHROMA_WEIGHT = 1.6


def hand_in_tray(frame_bgr: np.ndarray, dice_boxes=()) -> bool:
    """dice_boxes: the dice found (frame pixels); they are no part of a hand (a die cut by the
    frame's edge, a crowd of touching dice along it)."""
    h, w = frame_bgr.shape[:2]
    # A frame up to 4 times taller than wide works WORK_WIDTH wide; a taller strip at most
    # WORK_HEIGHT tall: 8 x 8,000 pixels worked 160 x 160,000 and its blur asked for 24 GB.
    size = ((WORK_WIDTH, max(1, round(h * WORK_WIDTH / w))) if h * WORK_WIDTH <= WORK_HEIGHT * w
            else (max(1, round(w * WORK_HEIGHT / h)), WORK_HEIGHT))
    lab = lab_8bit(cv2.resize(frame_bgr, size, interpolation=cv2.INTER_AREA))
    differs = (_contrast(lab, _tray(lab)) > CONTRAST).astype(np.uint8) * 255
    differs = cv2.morphologyEx(differs, cv2.MORPH_OPEN, np.ones((2, 2), np.uint8))
    differs = cv2.morphologyEx(differs, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (3, 3)))
    sx, sy = size[0] / w, size[1] / h
    for x0, y0, x1, y1 in dice_boxes:
        differs[int(y0 * sy):int(np.ceil(y1 * sy)), int(x0 * sx):int(np.ceil(x1 * sx))] = 0
    contours, _ = cv2.findContours(differs, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    big = HAND_AREA * differs.shape[0] * differs.shape[1]
    for contour in contours:
        x, y, cw, ch = cv2.boundingRect(contour)
        at_edge = x <= 0 or y <= 0 or x + cw >= differs.shape[1] or y + ch >= differs.shape[0]
        filled = cv2.contourArea(contour)
        hull = cv2.contourArea(cv2.convexHull(contour))
        if filled >= big and at_edge and hull > 0 and filled / hull >= SOLIDITY:
            return True
    return False


# sRGB (D65) to CIE Lab as OpenCV's COLOR_BGR2LAB defines it for 8-bit pictures. OpenCV builds
# lookup tables on its first Lab conversion: 5 MB that stay for the process's life and about
# 100 ms of CPU, for this 160-pixel-wide picture. Here: a 256-entry table and a cube root by
# cv2.pow (np.cbrt is not vectorised: 2.25 against 0.85 ms a 160 x 120 picture, 2026-12-07; 66 of
# 11.5 million Lab values of 200 real photos moved by one unit, the check's answer on 454 frames,
# every shared real photo and 100 renders, not at all).
_LINEAR = np.array([v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4
                    for v in np.arange(256) / 255.0], np.float32)
# Rows X, Y, Z from B, G, R, with X and Z divided by D65's white (0.950456, 1.088754).
_BGR_TO_XYZ = (np.array([[0.180423, 0.357580, 0.412453],
                         [0.072169, 0.715160, 0.212671],
                         [0.950227, 0.119193, 0.019334]], np.float32)
               / np.array([[0.950456], [1.0], [1.088754]], np.float32))


def lab_8bit(bgr: np.ndarray) -> np.ndarray:
    """An 8-bit BGR picture in 8-bit Lab: L scaled to 0..255, a and b offset by 128 (OpenCV's
    COLOR_BGR2LAB within a unit or two: its tables round differently)."""
    xyz = _LINEAR[bgr] @ _BGR_TO_XYZ.T
    f = cv2.pow(xyz, 1.0 / 3.0)
    low = xyz <= 0.008856
    f[low] = 7.787 * xyz[low] + 16.0 / 116.0
    y = xyz[..., 1]
    lab = np.empty(bgr.shape, np.float32)
    lab[..., 0] = (116.0 * 255.0 / 100.0) * f[..., 1] - 16.0 * 255.0 / 100.0
    dark = y <= 0.008856
    lab[..., 0][dark] = (903.3 * 255.0 / 100.0) * y[dark]
    lab[..., 1] = 500.0 * (f[..., 0] - f[..., 1]) + 128.0
    lab[..., 2] = 200.0 * (f[..., 1] - f[..., 2]) + 128.0
    return np.clip(np.rint(lab), 0, 255).astype(np.uint8)


def _contrast(lab: np.ndarray, tray: np.ndarray) -> np.ndarray:
    d = lab.astype(np.float32) - tray.astype(np.float32)
    dl, da, db = cv2.split(d)
    dl = cv2.max(dl, dl * SHADOW_WEIGHT)
    return cv2.magnitude(dl, cv2.magnitude(da, db) * CHROMA_WEIGHT)


def _tray(lab: np.ndarray) -> np.ndarray:
    h, w = lab.shape[:2]
    small = cv2.resize(lab, (max(1, w // 2), max(1, h // 2)), interpolation=cv2.INTER_AREA)
    k = max(3, min(int(small.shape[1] * 0.42) | 1, (min(small.shape[:2]) - 1) | 1))
    bg = cv2.medianBlur(small, k).astype(np.float32)
    tray = _contrast(small, bg) < CONTRAST
    if tray.mean() < 0.5:
        bins = (small // 16).astype(np.int32)
        codes = (bins[..., 0] * 16 + bins[..., 1]) * 16 + bins[..., 2]
        common = small[codes == np.bincount(codes.ravel(), minlength=4096).argmax()].astype(np.float32)
        tray = _contrast(small, np.broadcast_to(common.mean(axis=0), small.shape)) < 1.5 * CONTRAST
    smallf = small.astype(np.float32)
    for _ in range(2):
        weight = _blur(tray.astype(np.float32), k / 2.0)
        filled = _blur(smallf * tray[..., None], k / 2.0)
        bg = np.where((weight > 1e-3)[..., None], filled / np.maximum(weight, 1e-3)[..., None], bg)
        tray = _contrast(small, bg) < CONTRAST
    return cv2.resize(np.clip(bg, 0, 255).astype(np.uint8), (w, h), interpolation=cv2.INTER_LINEAR)


def _blur(picture: np.ndarray, sigma: float) -> np.ndarray:
    """cv2.GaussianBlur(picture, (0, 0), sigma) of a float32 picture, as two matrix products: the
    kernel here is wider than the picture itself (133 taps on 80 x 60), where OpenCV's filter pays for
    every tap; 0.22 against 0.92 ms for the weight and the tray together (2026-12-07, NumPy's BLAS on
    one thread as vision.blas sets it), within 2e-4 of OpenCV's values (its border, reflect-101, is in
    the matrices)."""
    h, w = picture.shape[:2]
    down, across = _blur_matrices(h, w, sigma)
    if picture.ndim == 2:
        return down @ picture @ across
    c = picture.shape[2]
    rows = (down @ picture.reshape(h, w * c)).reshape(h, w, c).transpose(0, 2, 1).reshape(h * c, w)
    return np.ascontiguousarray((rows @ across).reshape(h, c, w).transpose(0, 2, 1))


@cache
def _blur_matrices(h: int, w: int, sigma: float) -> tuple[np.ndarray, np.ndarray]:
    """The blur down the columns (h x h, applied from the left) and across the rows (w x w, from the
    right): OpenCV's own Gaussian kernel and border run over the identity."""
    kernel = cv2.getGaussianKernel(int(round(sigma * 8 + 1)) | 1, sigma, cv2.CV_32F)  # GaussianBlur's size for float
    one = np.ones((1, 1), np.float32)
    down = cv2.sepFilter2D(np.eye(h, dtype=np.float32), -1, kernel, one, borderType=cv2.BORDER_REFLECT_101)
    across = cv2.sepFilter2D(np.eye(w, dtype=np.float32), -1, kernel, one, borderType=cv2.BORDER_REFLECT_101)
    return np.ascontiguousarray(down.T), across
