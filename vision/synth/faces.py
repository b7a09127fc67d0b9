"""Face textures of a pip die: a rounded square of body colour with pips (or a logo on the 1)."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import cv2
import numpy as np

# Pip centres in face units (0..1). Real dice put the outer pips about a quarter in from an edge.
def pip_layout(value: int, inset: float = 0.25) -> list[tuple[float, float]]:
    a, m, b = inset, 0.5, 1.0 - inset
    layouts = {
        1: [(m, m)],
        2: [(a, a), (b, b)],
        3: [(a, a), (m, m), (b, b)],
        4: [(a, a), (b, a), (a, b), (b, b)],
        5: [(a, a), (b, a), (m, m), (a, b), (b, b)],
        6: [(a, a), (a, m), (a, b), (b, a), (b, m), (b, b)],
    }
    if value not in layouts:
        raise ValueError(f"A six-sided die shows 1 to 6, not {value}.")
    return layouts[value]


@dataclass(frozen=True)
class DieStyle:
    """How one die looks: colours are BGR floats 0..255."""
    color: str               # name of the body colour (vision.colors names)
    body: tuple[float, float, float]
    pip: tuple[float, float, float]
    translucent: bool = False
    opacity: float = 1.0     # body opacity (translucent dice let the table through)
    corner: float = 0.12     # corner radius as a fraction of the edge
    pip_radius: float = 0.09
    pip_inset: float = 0.25
    one_pip_radius: float = 0.11
    logo: int = 0            # 0: plain pip on the 1-face; 1..4: a logo design instead
    logo_color: tuple[float, float, float] = (0.0, 0.0, 200.0)
    glossy_pips: bool = False
    bevel: float = 0.25      # darkening toward face edges (rounded edges catch less light)
    glyphs: object = None    # a vision.synth.glyphs.GlyphFaces: printed glyphs instead of pips


def _disc(tex, alpha, cx, cy, r, color, glossy: bool, t: int) -> None:
    centre = (int(round(cx * 16)), int(round(cy * 16)))
    radius = max(1, int(round(r * 16)))
    cv2.circle(tex, centre, radius, color, -1, cv2.LINE_AA, shift=4)
    cv2.circle(alpha, centre, radius, 1.0, -1, cv2.LINE_AA, shift=4)
    # Pips are drilled: the rim on the lit side is in shade.
    rim = tuple(float(c) * 0.55 for c in color)
    cv2.ellipse(tex, centre, (radius, radius), 0, 200, 340, rim, max(1, t // 90), cv2.LINE_AA, shift=4)
    if glossy:
        hx, hy = int(round((cx - r * 0.35) * 16)), int(round((cy - r * 0.35) * 16))
        cv2.circle(tex, (hx, hy), max(1, int(r * 16 * 0.3)), (250, 250, 250), -1, cv2.LINE_AA, shift=4)


def _logo(tex, alpha, t: int, style: DieStyle) -> None:
    c = t / 2.0
    color = style.logo_color
    s16 = 16
    if style.logo == 1:  # a big ring with a dot: a maker's roundel
        cv2.circle(tex, (int(c * s16), int(c * s16)), int(t * 0.3 * s16), color, max(1, t // 14), cv2.LINE_AA, shift=4)
        cv2.circle(tex, (int(c * s16), int(c * s16)), int(t * 0.1 * s16), color, -1, cv2.LINE_AA, shift=4)
    elif style.logo == 2:  # a star
        ang = np.linspace(-np.pi / 2, 1.5 * np.pi, 11)[:-1]
        rad = np.where(np.arange(10) % 2 == 0, t * 0.32, t * 0.13)
        pts = np.stack([c + rad * np.cos(ang), c + rad * np.sin(ang)], 1)
        cv2.fillPoly(tex, [np.round(pts * s16).astype(np.int32)], color, cv2.LINE_AA, shift=4)
    elif style.logo == 3:  # a filled disc carrying letter-like strokes in the body colour
        cv2.circle(tex, (int(c * s16), int(c * s16)), int(t * 0.3 * s16), color, -1, cv2.LINE_AA, shift=4)
        w = max(1, t // 20)
        for k in (-1, 0, 1):
            x = int(c + k * t * 0.09)
            cv2.line(tex, (x, int(c - t * 0.14)), (x + k * w, int(c + t * 0.14)), style.body, w, cv2.LINE_AA)
    else:  # a diamond with an inner diamond
        for r, col in ((0.3, color), (0.15, style.body)):
            pts = np.array([[c, c - t * r], [c + t * r, c], [c, c + t * r], [c - t * r, c]])
            cv2.fillPoly(tex, [np.round(pts * s16).astype(np.int32)], col, cv2.LINE_AA, shift=4)


@lru_cache(maxsize=512)
def _falloff(t: int) -> np.ndarray:
    """1 on the flat of a face, falling toward its rounded edges (they catch less light)."""
    yy, xx = np.mgrid[0:t, 0:t].astype(np.float32) / max(t - 1, 1)
    edge = np.minimum(np.minimum(xx, 1 - xx), np.minimum(yy, 1 - yy))
    return np.clip(edge / 0.12, 0, 1) ** 0.7


@lru_cache(maxsize=2048)
def _rounded_square(t: int, r: int) -> np.ndarray:
    shape = np.zeros((t, t), np.float32)
    cv2.rectangle(shape, (r, 0), (t - 1 - r, t - 1), 1.0, -1)
    cv2.rectangle(shape, (0, r), (t - 1, t - 1 - r), 1.0, -1)
    for x, y in ((r, r), (t - 1 - r, r), (r, t - 1 - r), (t - 1 - r, t - 1 - r)):
        cv2.circle(shape, (x, y), r, 1.0, -1, cv2.LINE_AA)
    return shape


def face_texture(value: int, style: DieStyle, t: int, spin: int, rng: np.random.Generator) -> np.ndarray:
    """A t x t BGRA float32 texture of one face; spin (0..3) turns it by quarter turns.

    Alpha is the body opacity on the face, 1 on pips, 0 outside the rounded square.
    """
    tex = np.empty((t, t, 3), np.float32)
    tex[:] = style.body
    tex *= (1 - style.bevel + style.bevel * _falloff(t))[..., None]
    pips = np.zeros((t, t), np.float32)
    if style.glyphs is not None:
        from .glyphs import glyph_mask
        faces = style.glyphs
        pips = glyph_mask(faces.glyphs[value - 1], t, faces.scale, faces.stroke, rng)
        tex += (np.array(style.pip, np.float32) - tex) * pips[..., None]
    elif value == 1 and style.logo:
        _logo(tex, pips, t, style)
        pips[:] = np.where(np.any(np.abs(tex - np.array(style.body, np.float32)) > 30, axis=2), 1.0, pips)
    else:
        for (u, v) in pip_layout(value, style.pip_inset):
            r = (style.one_pip_radius if value == 1 else style.pip_radius) * t
            jitter = rng.normal(0, 0.006, 2) * t
            _disc(tex, pips, u * t + jitter[0], v * t + jitter[1], r, style.pip, style.glossy_pips, t)
    alpha = _rounded_square(t, max(1, int(style.corner * t))) * np.maximum(style.opacity, pips)
    out = np.dstack([tex, alpha])
    return np.ascontiguousarray(np.rot90(out, spin))
