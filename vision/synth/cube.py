"""Perspective rendering of one die (a rounded cube) onto a small BGRA patch."""
from __future__ import annotations

from dataclasses import dataclass, field

import cv2
import numpy as np

from .faces import DieStyle, face_texture

# Each face: outward normal, and the in-face axes (u right, v down on the texture).
_FACES = {
    "top": (np.array([0, 0, 1.0]), np.array([1.0, 0, 0]), np.array([0, -1.0, 0])),
    "bottom": (np.array([0, 0, -1.0]), np.array([1.0, 0, 0]), np.array([0, 1.0, 0])),
    "east": (np.array([1.0, 0, 0]), np.array([0, 1.0, 0]), np.array([0, 0, -1.0])),
    "west": (np.array([-1.0, 0, 0]), np.array([0, -1.0, 0]), np.array([0, 0, -1.0])),
    "north": (np.array([0, 1.0, 0]), np.array([-1.0, 0, 0]), np.array([0, 0, -1.0])),
    "south": (np.array([0, -1.0, 0]), np.array([1.0, 0, 0]), np.array([0, 0, -1.0])),
}


def die_values(top: int, rng: np.random.Generator) -> dict[str, int]:
    """Face values of a die showing top: opposite faces add up to 7."""
    sides = [v for v in (1, 2, 3) if v not in (top, 7 - top)]
    p, q = (sides if rng.random() < 0.5 else sides[::-1])
    if rng.random() < 0.5:
        p = 7 - p
    if rng.random() < 0.5:
        q = 7 - q
    return {"top": top, "bottom": 7 - top, "east": p, "west": 7 - p, "north": q, "south": 7 - q}


def rotation(yaw: float, tilt: float, tilt_dir: float) -> np.ndarray:
    """Turn by yaw about the camera axis, then tip by tilt toward direction tilt_dir (radians)."""
    cz, sz = np.cos(yaw), np.sin(yaw)
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1.0]])
    axis = np.array([-np.sin(tilt_dir), np.cos(tilt_dir), 0.0])
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    rt = np.eye(3) + np.sin(tilt) * k + (1 - np.cos(tilt)) * (k @ k)
    return rt @ rz


@dataclass
class DieSprite:
    """A rendered die: BGR float image and alpha on a square patch centred on the die."""
    bgr: np.ndarray
    alpha: np.ndarray
    mask: np.ndarray                   # where the die is, opaque or not (for shadows and overlap)
    box: tuple[int, int, int, int]     # tight box of the die in patch pixels (x1, y1 exclusive)
    # What each face shows (top is the label), and the area in view (patch pixels) of each face
    # turned toward the camera: what a steep view changes is which face looks biggest.
    values: dict[str, int] = field(default_factory=dict)
    areas: dict[str, float] = field(default_factory=dict)
    # 4x2 corners in patch pixels of each face turned toward the camera (top included): where a
    # detector might box a side face as a die (vision.synth.nodie's "side" boxes).
    quads: dict[str, np.ndarray] = field(default_factory=dict)

    @property
    def top_quad(self) -> np.ndarray | None:
        """4x2 corners of the top face in patch pixels (None where it is turned away)."""
        return self.quads.get("top")


def render_die(value: int, style: DieStyle, edge_px: float, rot: np.ndarray, light: np.ndarray,
               rng: np.random.Generator, distance: float = 8.0, ss: int = 3) -> DieSprite:
    """Render a die of edge edge_px pixels showing value on top, seen from above.

    distance is the camera distance in die edges (smaller = stronger perspective); ss is the
    supersampling factor (edges and pips are drawn large, then shrunk for clean antialiasing).
    """
    values = die_values(value, rng)
    scale = edge_px * ss
    # The patch is sized to the projected die plus a margin, centred on the die.
    pts = np.array([[x, y, z] for x in (-.5, .5) for y in (-.5, .5) for z in (-.5, .5)]) @ rot.T
    f = distance / (distance - pts[:, 2])
    reach = float(np.max(np.abs(pts[:, :2] * f[:, None]))) * edge_px
    patch = int(np.ceil(reach * 2)) + 4
    big = patch * ss
    c = big / 2.0

    def project(p3):
        p = rot @ p3
        k = distance / (distance - p[2])
        return np.array([c + scale * p[0] * k, c - scale * p[1] * k])

    corners = [np.array([x, y, z]) * 0.5 for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)]
    hull = cv2.convexHull(np.array([project(p) for p in corners], np.float32))
    # Silhouette with rounded corners: blurring a polygon and cutting at half cuts its corners round.
    sil = np.zeros((big, big), np.float32)
    cv2.fillPoly(sil, [np.round(hull * 16).astype(np.int32)], 1.0, cv2.LINE_AA, shift=4)
    rad = max(1.0, style.corner * scale * 0.8)
    sil = (cv2.GaussianBlur(sil, (0, 0), rad * 0.6) > 0.5).astype(np.float32)

    body = np.array(style.body, np.float32)
    img = np.empty((big, big, 3), np.float32)
    img[:] = body * 0.45  # the rounded edges between faces, turned away from the light
    alpha = sil * style.opacity
    tex_size = int(np.clip(scale * 1.0, 24, 256))
    areas: dict[str, float] = {}
    quads: dict[str, np.ndarray] = {}
    cam = np.array([0, 0, distance])
    # A translucent die shows the pips of its far faces faintly through the body: draw those first.
    order = [(name, False) for name in _FACES]
    if style.translucent:
        order = [(name, True) for name in _FACES] + order
    for name, far in order:
        n, u, v = _FACES[name]
        n_r = rot @ n
        centre = rot @ (n * 0.5)
        if (np.dot(n_r, cam - centre) > 1e-6) == far:
            continue
        quad = np.array([project(n * 0.5 + u * su * 0.5 + v * sv * 0.5)
                         for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))], np.float32)
        if not far:
            areas[name] = float(cv2.contourArea(quad)) / ss ** 2
            quads[name] = quad / ss
        tex = face_texture(values[name], style, tex_size, int(rng.integers(4)), rng)
        src = np.array([[0, 0], [tex_size, 0], [tex_size, tex_size], [0, tex_size]], np.float32)
        # Warp only into the face's own bounding rectangle: most of the patch is other faces.
        qx0, qy0 = np.floor(quad.min(0)).astype(int)
        qx1, qy1 = np.ceil(quad.max(0)).astype(int) + 1
        qx0, qy0, qx1, qy1 = max(qx0, 0), max(qy0, 0), min(qx1, big), min(qy1, big)
        if qx1 <= qx0 or qy1 <= qy0:
            continue
        h_mat = cv2.getPerspectiveTransform(src, quad - np.array([qx0, qy0], np.float32))
        warp = cv2.warpPerspective(tex, h_mat, (qx1 - qx0, qy1 - qy0),
                                   flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        lit = 0.35 + 0.75 * max(0.0, float(np.dot(n_r, light)))
        a = warp[..., 3:4]
        if far:
            # Only the pips (alpha above the body's opacity) show, dimmed by the body in front.
            a = np.where(a > style.opacity + 0.05, a * 0.45, 0.0).astype(np.float32)
            lit = 0.8
        region = img[qy0:qy1, qx0:qx1]
        region *= 1 - a
        region += warp[..., :3] * (lit * a)
        np.maximum(alpha[qy0:qy1, qx0:qx1], a[..., 0], out=alpha[qy0:qy1, qx0:qx1])
    alpha = np.minimum(alpha, sil)
    img = cv2.resize(img, (patch, patch), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(alpha, (patch, patch), interpolation=cv2.INTER_AREA)
    solid = cv2.resize(sil, (patch, patch), interpolation=cv2.INTER_AREA)
    ys, xs = np.nonzero(solid > 0.5)
    box = (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1)
    return DieSprite(img, alpha, solid, box, values, areas, quads)
