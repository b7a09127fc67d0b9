"""Printed symbols: letters of other scripts and signs, drawn from the fonts Kivy ships.

A family for the embedding's training only (like glyphs.SCRIBBLES, it is not in glyphs.FAMILIES,
so the detector's trays and the held-out split know nothing of it). Scribbles taught the
embedding to tell apart thousands of made-up shapes; these are some 1,800 typeset ones (698 in
DejaVu Sans, 362 in each of three Roboto faces), with the strokes, serifs and counters that
printed dice carry. Why: two of the six held-out families
are typeset (digits-italic, letters-script) and the held-out misreads are unseen glyphs told
apart across scenes (models/EMBEDDING_ROUNDS.md, session 31).

Only scripts and signs that none of the held-out families resembles are drawn: no Latin letters
or digits, no geometric shapes, arrows, mathematical operators, dingbats, braille or die faces
(pips-ring, shapes-outline, line-icons and Centerville's icons are held out), and no block of
plain triangles or strokes (Canadian syllabics, Ogham, Tifinagh).

A symbol's name is its font's key and its code point in hex ("d03a9": DejaVu Sans's omega); the
same name always draws the same ink.
"""
from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

__all__ = ["SYMBOLS", "FONTS", "symbol_names", "symbol_ink", "random_symbol_names", "stroked"]

SYMBOLS = "symbols"

# key -> font file in Kivy's data/fonts (pinned with Kivy, so renders repeat on any machine).
FONTS = {"d": "DejaVuSans.ttf", "r": "Roboto-Regular.ttf", "b": "Roboto-Bold.ttf", "i": "Roboto-Italic.ttf"}
# (first, last) code points drawn, where the font has them.
BLOCKS = (
    (0x0391, 0x03FF),  # Greek and Coptic (from the capitals on)
    (0x0400, 0x052F),  # Cyrillic and its supplement
    (0x0531, 0x0587),  # Armenian
    (0x05D0, 0x05EA),  # Hebrew letters
    (0x10A0, 0x10FF),  # Georgian
    (0x20A0, 0x20C0),  # currency signs
    (0x2100, 0x214F),  # letterlike symbols
)
_DRAW = 96   # font size the ink is drawn at before it is fitted to a face
# Two symbols whose inks, fitted to a square and turned any quarter, differ by less than this
# (mean absolute, 0..1) are one face to a reader that turns every die: a die never prints both.
SAME_BELOW = 0.1


def _font_path(key: str) -> Path:
    spec = importlib.util.find_spec("kivy")
    if spec is None or spec.origin is None:
        raise FileNotFoundError("Printed symbols are drawn from Kivy's fonts, and Kivy is not installed.")
    return Path(spec.origin).parent / "data" / "fonts" / FONTS[key]


@lru_cache(maxsize=len(FONTS))
def _font(key: str):
    # Pillow draws TrueType glyphs (OpenCV's own fonts are Hershey strokes); it comes with kivy[base].
    from PIL import ImageFont
    return ImageFont.truetype(str(_font_path(key)), _DRAW)


def _draw(key: str, char: str) -> np.ndarray:
    """The character's ink, cut to its bounding box (an empty array when it has none)."""
    from PIL import Image, ImageDraw
    canvas = Image.new("L", (_DRAW * 3, _DRAW * 3), 0)
    ImageDraw.Draw(canvas).text((_DRAW, _DRAW), char, fill=255, font=_font(key))
    ink = np.asarray(canvas)
    ys, xs = np.nonzero(ink > 32)
    if not len(ys):
        return np.zeros((0, 0), np.uint8)
    return ink[ys.min():ys.max() + 1, xs.min():xs.max() + 1].copy()


@lru_cache(maxsize=len(FONTS))
def symbol_names(key: str) -> tuple[str, ...]:
    """Every symbol the font `key` draws in BLOCKS: a code point it lacks draws its stand-in box
    (the ink of U+FFFF), or nothing, and is left out."""
    missing = _draw(key, "\uffff")
    out = []
    for first, last in BLOCKS:
        for cp in range(first, last + 1):
            ink = _draw(key, chr(cp))
            if ink.size and not (ink.shape == missing.shape and np.array_equal(ink, missing)):
                out.append(f"{key}{cp:04x}")
    return tuple(out)


def symbol_ink(name: str) -> np.ndarray:
    """uint8 ink of symbol `name`, cut to its bounding box."""
    key, code = name[:1], name[1:]
    if key not in FONTS or not code or any(c not in "0123456789abcdef" for c in code):
        raise ValueError(f"Unknown symbol {name!r}: a font key ({', '.join(FONTS)}) and a hex code point, "
                         f"e.g. 'd03a9'.")
    ink = _draw(key, chr(int(code, 16)))
    if not ink.size:
        raise ValueError(f"Symbol {name!r}: the font {FONTS[key]} draws no ink for it.")
    return ink


@lru_cache(maxsize=4096)
def _thumb(name: str) -> np.ndarray:
    ink = symbol_ink(name)
    side = max(ink.shape)
    square = np.zeros((side, side), np.uint8)
    y, x = (side - ink.shape[0]) // 2, (side - ink.shape[1]) // 2
    square[y:y + ink.shape[0], x:x + ink.shape[1]] = ink
    return cv2.resize(square, (24, 24), interpolation=cv2.INTER_AREA).astype(np.float32) / 255.0


def _alike(a: str, b: str) -> bool:
    ta, tb = _thumb(a), _thumb(b)
    return min(float(np.abs(np.rot90(ta, k) - tb).mean()) for k in range(4)) < SAME_BELOW


def random_symbol_names(rng: np.random.Generator, count: int = 6) -> tuple[str, ...]:
    """count symbols of one font, no two alike under a quarter turn (a die's printed faces)."""
    key = list(FONTS)[int(rng.integers(len(FONTS)))]
    pool = symbol_names(key)
    picked: list[str] = []
    for i in rng.permutation(len(pool)):
        name = pool[int(i)]
        if not any(_alike(name, p) for p in picked):
            picked.append(name)
            if len(picked) == count:
                return tuple(picked)
    raise ValueError(f"The font {FONTS[key]} has fewer than {count} symbols unlike each other.")


def stroked(ink: np.ndarray, stroke: float) -> np.ndarray:
    """A symbol's ink printed bolder (stroke > 1) or lighter, as the drawn families' stroke weight
    (vision.synth.glyphs.GlyphFaces.stroke): grown or thinned by up to 3 px at the 96 px it is drawn."""
    k = int(round(abs(stroke - 1.0) * 8))
    if k < 1:
        return ink
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * k + 1, 2 * k + 1))
    pad = cv2.copyMakeBorder(ink, k, k, k, k, cv2.BORDER_CONSTANT, value=0)
    out = cv2.dilate(pad, kernel) if stroke > 1 else cv2.erode(pad, kernel)
    ys, xs = np.nonzero(out)
    return out[ys.min():ys.max() + 1, xs.min():xs.max() + 1] if len(ys) else ink
