"""Glyphs printed on dice faces: pips of several styles, digits and letters, shapes, pictograms.

The embedding network (vision.taught) learns to tell faces apart from dice that carry many
kinds of glyph, so that icons it never saw (a table's own dice) still separate. Each glyph
belongs to a family, and whole families are held out of training to measure exactly that.

API (stable; other modules and the detector's training build on it):

    Glyph(family, name)              one printed symbol; .label is "family/name"
    FAMILIES                         family -> its glyph names (Centerville's icons included)
    TRAIN_FAMILIES, HELD_OUT_FAMILIES   the split: held-out ones never train the embedding
    glyphs_of(family)                the family's glyphs, in order
    glyph_mask(glyph, size, scale=0.62, stroke=1.0, rng=None)
                                     float32 size x size ink mask (0..1) of the glyph, centred
    GlyphFaces(glyphs, scale, stroke)   a die's six printed faces (face value v shows glyphs[v-1])
    random_glyph_faces(rng, families=TRAIN_FAMILIES)
                                     six distinct glyphs of one family, printed one way
    glyph_die_style(rng, faces, color=None)
                                     a random die look (vision.synth.style) carrying those faces
    render_glyph_crop(rng, style, value, *, edge=None, tilt_max=42.0, size=INPUT_SIZE)
                                     RGB crop (the crop convention) of that die showing value
    render_glyph_tray(rng, n_dice=6, size=(640, 480), *, families=TRAIN_FAMILIES, ...)
                                     a tray photo of glyph dice; Scene.dice are GlyphTruth
    GlyphTruth                       a DieTruth whose .label is the glyph's label (or face label)
    SCRIBBLES, random_scribble_faces(rng); SYMBOLS, random_symbol_faces(rng)
                                     made-up icons (vision.synth.scribbles) and printed symbols
                                     (vision.synth.symbols): training only, in no family
    place_dice(g, styles, values, size, ...)   lay out dice of given looks (no overlaps)

A die style with .glyphs set is drawn by vision.synth.faces with glyphs instead of pips, so
everything that renders dice (trays, rolls, crops) can render glyph dice.
"""
from __future__ import annotations

import tomllib
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources

import cv2
import numpy as np

from ..crops import INPUT_SIZE, die_crop
from .faces import DieStyle, pip_layout
from .scene import DieTruth, Placed, Scene, _mark, as_generator, composite, detector_box, die_scene, make_die, place, \
    random_light
from .style import background, camera_effects, random_die_style
from .scribbles import LOOKS as SCRIBBLE_LOOKS, SCRIBBLES, scribble_parts
from .symbols import SYMBOLS, random_symbol_names, stroked, symbol_ink

__all__ = ["Glyph", "GlyphFaces", "GlyphTruth", "place_dice", "render_glyph_tray", "FAMILIES", "TRAIN_FAMILIES",
           "HELD_OUT_FAMILIES", "SAME_TURNED", "glyphs_of", "glyph_mask", "random_glyph_faces", "glyph_die_style",
           "render_glyph_crop", "GlyphDataError", "SCRIBBLES", "scribble_parts", "random_scribble_faces", "SYMBOLS",
           "random_symbol_faces"]


class GlyphDataError(ValueError):
    """A glyph data file that cannot be drawn; the message names the file, glyph and part."""


@dataclass(frozen=True)
class Glyph:
    family: str
    name: str

    @property
    def label(self) -> str:
        return f"{self.family}/{self.name}"


@dataclass(frozen=True)
class GlyphFaces:
    """A die's printed faces: face value v (1..6) shows glyphs[v - 1]. One die prints all its
    glyphs at one size (scale: the glyph's square as a fraction of the face) and stroke weight."""
    glyphs: tuple[Glyph, ...]
    scale: float = 0.62
    stroke: float = 1.0

    def __post_init__(self):
        if len(self.glyphs) != 6:
            raise ValueError(f"A die has six faces, not {len(self.glyphs)} glyphs.")


# --- families drawn in code -------------------------------------------------------------------

# Pip counts beyond six are printed on some dice (d9-like layouts); they are more shapes to learn.
_PIP_COUNTS = tuple(str(n) for n in range(1, 10))
_PIP_STYLES = ("round", "square", "ring", "diamond")
_DIGITS = tuple("0123456789")
_LETTERS = tuple("ABCDEFGHJKLMNPRSTUVWXYZ")  # no I, O, Q: too like 1, 0 and each other on a die
_FONTS = {
    "simplex": cv2.FONT_HERSHEY_SIMPLEX,
    "duplex": cv2.FONT_HERSHEY_DUPLEX,
    "triplex": cv2.FONT_HERSHEY_TRIPLEX,
    "complex": cv2.FONT_HERSHEY_COMPLEX,
    "script": cv2.FONT_HERSHEY_SCRIPT_SIMPLEX,
    "italic": cv2.FONT_HERSHEY_COMPLEX | cv2.FONT_ITALIC,
}
_ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X")
# Printed text families: family -> (font, glyphs). The script font's digits are its simplex
# digits, so digits come in other fonts and Roman numerals instead.
_TEXT = {
    "digits-simplex": (_FONTS["simplex"], _DIGITS),
    "digits-triplex": (_FONTS["triplex"], _DIGITS),
    "digits-italic": (_FONTS["italic"], _DIGITS),
    "numerals-roman": (_FONTS["complex"], _ROMAN),
    "letters-duplex": (_FONTS["duplex"], _LETTERS),
    "letters-complex": (_FONTS["complex"], _LETTERS),
    "letters-script": (_FONTS["script"], _LETTERS),
}
_SHAPES = ("circle", "square", "triangle", "diamond", "pentagon", "hexagon", "star", "plus",
           "crescent", "ring", "half", "semicircle")
# Outlined, a ring and a half-filled disc are both just a circle: not two glyphs.
_OUTLINE_SHAPES = tuple(s for s in _SHAPES if s not in ("ring", "half"))


@lru_cache(maxsize=4)
def _load(filename: str) -> dict:
    text = resources.files(__package__).joinpath("data", filename).read_text(encoding="utf-8")
    return tomllib.loads(text)


def _data_families() -> dict[str, dict[str, list]]:
    data = _load("glyphs.toml")
    out = {family: glyphs for family, glyphs in data.items()}
    out["centerville"] = _load("centerville.toml")["icons"]
    return out


def _families() -> dict[str, tuple[str, ...]]:
    fams: dict[str, tuple[str, ...]] = {}
    for s in _PIP_STYLES:
        fams[f"pips-{s}"] = _PIP_COUNTS
    for family, (_, glyphs) in _TEXT.items():
        fams[family] = glyphs
    fams["shapes-filled"] = _SHAPES
    fams["shapes-outline"] = _OUTLINE_SHAPES
    for family, glyphs in _data_families().items():
        fams[family] = tuple(glyphs)
        if family == "pictograms":
            # The same pictograms printed as outlines: a different family to the network.
            fams["pictograms-outline"] = tuple(glyphs)
    return fams


FAMILIES: dict[str, tuple[str, ...]] = _families()
# One family of each kind is held out (a pip style, a digit font, a letter font, outlined
# shapes, the line icons), and Centerville's icons entirely: the bench reads these few-shot.
HELD_OUT_FAMILIES: tuple[str, ...] = ("pips-ring", "digits-italic", "letters-script", "shapes-outline",
                                      "line-icons", "centerville")
TRAIN_FAMILIES: tuple[str, ...] = tuple(f for f in FAMILIES if f not in HELD_OUT_FAMILIES)


# Glyphs a turn of the die makes the same: a 6 upside down is a 9 (their masks overlap 0.89-0.97
# after the best turn, tests/vision/test_glyphs.py). No maker prints both on a die unmarked, and
# neither a player nor a reader that takes a die any way up can tell them apart, so no die here does.
SAME_TURNED: dict[str, tuple[tuple[str, str], ...]] = {
    family: (("6", "9"),) for family, (_, glyphs) in _TEXT.items() if glyphs == _DIGITS}


def glyphs_of(family: str) -> tuple[Glyph, ...]:
    if family not in FAMILIES:
        raise ValueError(f"Unknown glyph family {family!r}; known: {', '.join(FAMILIES)}.")
    return tuple(Glyph(family, n) for n in FAMILIES[family])


# --- drawing ----------------------------------------------------------------------------------

_SHIFT = 4
_ONE = 1 << _SHIFT


def _pt(p, box) -> tuple[int, int]:
    """A point in glyph units (0..1) to fixed-point pixels inside box (x0, y0, side)."""
    x0, y0, side = box
    return int(round((x0 + p[0] * side) * _ONE)), int(round((y0 + p[1] * side) * _ONE))


def _stroke(width: float, box, stroke: float) -> int:
    return max(1, int(round(width * box[2] * stroke)))


def _draw_pips(mask, style: str, count: int, box, stroke: float) -> None:
    x0, y0, side = box
    if count <= 6:
        spots = pip_layout(count, 0.2)
    elif count == 7:
        spots = pip_layout(6, 0.2) + [(0.5, 0.5)]
    elif count == 8:
        spots = [(u, v) for u in (0.2, 0.5, 0.8) for v in (0.2, 0.5, 0.8) if (u, v) != (0.5, 0.5)]
    else:
        spots = [(u, v) for u in (0.2, 0.5, 0.8) for v in (0.2, 0.5, 0.8)]
    # A lone pip is printed bigger, as on most dice.
    r = side * (0.22 if count == 1 else 0.13 if count <= 6 else 0.1)
    for u, v in spots:
        c = _pt((u, v), box)
        rr = int(r * _ONE)
        if style == "round":
            cv2.circle(mask, c, rr, 255, -1, cv2.LINE_AA, _SHIFT)
        elif style == "ring":
            cv2.circle(mask, c, int(rr * 0.8), 255, max(1, int(r * 0.35 * stroke)), cv2.LINE_AA, _SHIFT)
        elif style == "square":
            h = int(rr * 0.85)
            pts = np.array([[c[0] - h, c[1] - h], [c[0] + h, c[1] - h], [c[0] + h, c[1] + h], [c[0] - h, c[1] + h]])
            cv2.fillPoly(mask, [pts.astype(np.int32)], 255, cv2.LINE_AA, _SHIFT)
        else:
            pts = np.array([[c[0], c[1] - rr], [c[0] + rr, c[1]], [c[0], c[1] + rr], [c[0] - rr, c[1]]])
            cv2.fillPoly(mask, [pts.astype(np.int32)], 255, cv2.LINE_AA, _SHIFT)


def _draw_text(mask, font: int, text: str, box, stroke: float) -> None:
    """The text drawn big, cut to its ink and fitted into box (fonts' own boxes are loose:
    a script J hangs far below its line)."""
    big = 128
    thick = max(1, int(round(big * 0.07 * stroke)))
    (w, h), base = cv2.getTextSize(text, font, 1.0, thick)
    scale = big / max(w, h)
    canvas = np.zeros((big * 3, big * 3), np.uint8)
    cv2.putText(canvas, text, (big, 2 * big), font, scale, 255, thick, cv2.LINE_AA)
    ys, xs = np.nonzero(canvas)
    _paste_ink(mask, canvas[ys.min():ys.max() + 1, xs.min():xs.max() + 1], box)


def _paste_ink(mask, ink: np.ndarray, box) -> None:
    """ink (cut to its bounding box) fitted into box, its longer side the box's, centred."""
    x0, y0, side = box
    fit = side / max(ink.shape)
    iw, ih = max(1, int(round(ink.shape[1] * fit))), max(1, int(round(ink.shape[0] * fit)))
    small = cv2.resize(ink, (iw, ih), interpolation=cv2.INTER_AREA)
    px, py = int(round(x0 + (side - iw) / 2)), int(round(y0 + (side - ih) / 2))
    region = mask[max(py, 0):py + ih, max(px, 0):px + iw]
    np.maximum(region, small[max(-py, 0):max(-py, 0) + region.shape[0], max(-px, 0):max(-px, 0) + region.shape[1]],
               out=region)


def _regular(n: int, r: float, start: float = -np.pi / 2, c=(0.5, 0.5)) -> np.ndarray:
    a = start + np.arange(n) * 2 * np.pi / n
    return np.stack([c[0] + r * np.cos(a), c[1] + r * np.sin(a)], 1)


def _shape_parts(name: str) -> list[dict]:
    """A geometric shape as primitive parts (the same as the data files' parts)."""
    if name == "circle":
        return [{"circle": [0.5, 0.5, 0.45]}]
    if name == "ring":
        return [{"circle": [0.5, 0.5, 0.45]}, {"circle": [0.5, 0.5, 0.25], "erase": True}]
    if name == "square":
        return [{"poly": [[0.1, 0.1], [0.9, 0.1], [0.9, 0.9], [0.1, 0.9]]}]
    if name == "triangle":
        return [{"poly": _regular(3, 0.52, c=(0.5, 0.6)).tolist()}]
    if name == "diamond":
        return [{"poly": [[0.5, 0.02], [0.85, 0.5], [0.5, 0.98], [0.15, 0.5]]}]
    if name == "pentagon":
        return [{"poly": _regular(5, 0.47, c=(0.5, 0.53)).tolist()}]
    if name == "hexagon":
        return [{"poly": _regular(6, 0.47, start=0.0).tolist()}]
    if name == "star":
        outer, inner = _regular(5, 0.5, c=(0.5, 0.55)), _regular(5, 0.2, -np.pi / 2 + np.pi / 5, c=(0.5, 0.55))
        return [{"poly": np.stack([outer, inner], 1).reshape(-1, 2).tolist()}]
    if name == "plus":
        return [{"poly": [[0.35, 0.05], [0.65, 0.05], [0.65, 0.35], [0.95, 0.35], [0.95, 0.65], [0.65, 0.65],
                          [0.65, 0.95], [0.35, 0.95], [0.35, 0.65], [0.05, 0.65], [0.05, 0.35], [0.35, 0.35]]}]
    if name == "crescent":
        return [{"circle": [0.45, 0.5, 0.42]}, {"circle": [0.62, 0.42, 0.36], "erase": True}]
    if name == "half":  # a disc half filled
        return [{"circle": [0.5, 0.5, 0.45], "fill": False, "width": 0.08},
                {"ellipse": [0.5, 0.5, 0.45, 0.45, 0, 180, 360]}]
    if name == "semicircle":
        return [{"ellipse": [0.5, 0.65, 0.48, 0.48, 0, 180, 360]}]
    raise ValueError(f"Unknown shape {name!r}.")


def _where(family, name, k) -> str:
    return f"glyph {family}/{name}, part {k + 1}"


def _draw_parts(mask, parts: list[dict], box, stroke: float, outline: bool, family: str, name: str) -> None:
    """Draw primitive parts (see data/glyphs.toml) onto mask; outline draws filled parts as outlines."""
    for k, part in enumerate(parts):
        where = _where(family, name, k)
        kinds = [kind for kind in ("poly", "line", "circle", "ellipse") if kind in part]
        if len(kinds) != 1:
            raise GlyphDataError(f"{where}: needs exactly one of poly, line, circle, ellipse; has {kinds or 'none'}.")
        unknown = set(part) - {"poly", "line", "circle", "ellipse", "fill", "width", "erase"}
        if unknown:
            raise GlyphDataError(f"{where}: unknown keys {sorted(unknown)}.")
        kind = kinds[0]
        value = part[kind]
        ink = 0 if part.get("erase", False) else 255
        fill = bool(part.get("fill", kind != "line")) and not (outline and ink)
        width = float(part.get("width", 0.08))
        t = _stroke(width, box, stroke)
        try:
            if kind in ("poly", "line"):
                pts = np.array([_pt(p, box) for p in value], np.int32)
                if pts.ndim != 2 or len(pts) < 2:
                    raise ValueError("needs two or more [x, y] points")
                if kind == "poly" and fill:
                    cv2.fillPoly(mask, [pts], ink, cv2.LINE_AA, _SHIFT)
                else:
                    cv2.polylines(mask, [pts], kind == "poly", ink, t, cv2.LINE_AA, _SHIFT)
            elif kind == "circle":
                x, y, r = (float(v) for v in value)
                cv2.circle(mask, _pt((x, y), box), int(r * box[2] * _ONE), ink, -1 if fill else t, cv2.LINE_AA, _SHIFT)
            else:
                x, y, rx, ry, ang, *arc = (float(v) for v in value)
                a0, a1 = (arc + [0.0, 360.0])[:2] if arc else (0.0, 360.0)
                axes = (int(rx * box[2] * _ONE), int(ry * box[2] * _ONE))
                cv2.ellipse(mask, _pt((x, y), box), axes, ang, a0, a1, ink, -1 if fill else t, cv2.LINE_AA, _SHIFT)
        except (TypeError, ValueError, IndexError) as exc:
            raise GlyphDataError(f"{where}: {kind} = {value!r} cannot be drawn ({exc}).") from None


def glyph_mask(glyph: Glyph, size: int, scale: float = 0.62, stroke: float = 1.0,
               rng: np.random.Generator | None = None) -> np.ndarray:
    """The glyph's ink on a size x size face, float32 0..1, centred, its square scale of the face.

    rng (optional) nudges it off centre a little, as printing does.
    """
    scribble, symbol = glyph.family == SCRIBBLES, glyph.family == SYMBOLS
    parts = scribble_parts(glyph.name) if scribble else None
    ink = symbol_ink(glyph.name) if symbol else None
    if not (scribble or symbol) and (glyph.family not in FAMILIES or glyph.name not in FAMILIES[glyph.family]):
        raise ValueError(f"Unknown glyph {glyph.label!r}.")
    mask = np.zeros((size, size), np.uint8)
    side = size * scale
    off = rng.normal(0, 0.012, 2) * size if rng is not None else np.zeros(2)
    box = ((size - side) / 2 + off[0], (size - side) / 2 + off[1], side)
    fam, name = glyph.family, glyph.name
    kind, _, variant = fam.partition("-")
    if scribble:
        _draw_parts(mask, parts, box, stroke, False, fam, name)
    elif symbol:
        _paste_ink(mask, stroked(ink, stroke), box)
    elif kind == "pips":
        _draw_pips(mask, variant, int(name), box, stroke)
    elif fam in _TEXT:
        _draw_text(mask, _TEXT[fam][0], name, box, stroke)
    elif kind == "shapes":
        _draw_parts(mask, _shape_parts(name), box, stroke, variant == "outline", fam, name)
    else:
        source = "pictograms" if fam == "pictograms-outline" else fam
        _draw_parts(mask, _data_families()[source][name], box, stroke, fam == "pictograms-outline", fam, name)
    return mask.astype(np.float32) / 255.0


# --- dice carrying glyphs ---------------------------------------------------------------------

def random_scribble_faces(rng: np.random.Generator) -> GlyphFaces:
    """Six made-up icons of one look, printed one way (a die of a set nobody named)."""
    look = SCRIBBLE_LOOKS[int(rng.integers(len(SCRIBBLE_LOOKS)))]
    numbers = rng.choice(2 ** 31, 6, replace=False)
    return GlyphFaces(tuple(Glyph(SCRIBBLES, f"{look}{n}") for n in numbers), scale=float(rng.uniform(0.5, 0.72)),
                      stroke=float(rng.uniform(0.7, 1.4)))


def random_symbol_faces(rng: np.random.Generator) -> GlyphFaces:
    """Six printed symbols of one font (vision.synth.symbols), none alike under a quarter turn."""
    return GlyphFaces(tuple(Glyph(SYMBOLS, n) for n in random_symbol_names(rng)), scale=float(rng.uniform(0.5, 0.72)),
                      stroke=float(rng.uniform(0.7, 1.4)))


def random_glyph_faces(rng: np.random.Generator, families=TRAIN_FAMILIES, family: str | None = None) -> GlyphFaces:
    """Six distinct glyphs of one family (one picked from families unless given), printed one way.

    A family with fewer than six glyphs repeats some (as Centerville's dice repeat an icon). Never
    both glyphs of a SAME_TURNED pair: the second is swapped for the next glyph of the same draw, so
    no die draws more at random than before and a die without such a pair is drawn as before.
    """
    family = family or str(families[int(rng.integers(len(families)))])
    pool = glyphs_of(family)
    order = rng.permutation(len(pool))
    pick, spare = list(order[:6]), list(order[6:])
    names = [g.name for g in pool]
    for a, b in SAME_TURNED.get(family, ()):
        both = [names.index(a), names.index(b)]
        if all(i in pick for i in both) and spare:
            later = max(both, key=pick.index)
            pick[pick.index(later)] = spare.pop(0)
    pick = np.array(pick)
    if len(pick) < 6:
        pick = np.concatenate([pick, rng.choice(pick, 6 - len(pick))])
    return GlyphFaces(tuple(pool[i] for i in pick), scale=float(rng.uniform(0.5, 0.72)),
                      stroke=float(rng.uniform(0.7, 1.4)))


def glyph_die_style(rng: np.random.Generator, faces: GlyphFaces, color: str | None = None) -> DieStyle:
    """A random die look (body, ink, corners, lighting) from the pip renderer's randomisation,
    printing faces instead of pips."""
    return replace(random_die_style(rng, color), glyphs=faces, logo=0)


def render_glyph_crop(rng, style, value: int, *, edge: float | None = None, tilt_max: float = 42.0,
                      size: int = INPUT_SIZE, steep: bool | str = False) -> np.ndarray:
    """One glyph die (style from glyph_die_style) showing face value (1..6) in a tray, neighbours
    sometimes touching it, cut around a detector-like box: an RGB size x size crop. steep: seen
    as die_scene's steep views (True leaning toward image-down, scene.STEEP_ANY any way round)."""
    g = as_generator(rng)
    image, placed, _ = die_scene(g, value, edge, tilt_max, style=style, steep=steep)
    target = placed[0]
    box = detector_box(g, target.box, target.sprite.top_quad, (target.x, target.y))
    return die_crop(image, box, size)


@dataclass(frozen=True)
class GlyphTruth(DieTruth):
    """A rendered glyph die: face is its face value (1..6), name what it shows (a glyph's label,
    or a game's face label such as "red-vote")."""
    name: str = ""

    @property
    def label(self) -> str:
        return self.name


def place_dice(g: np.random.Generator, styles, values, size: tuple[int, int], *, edge: float | None = None,
               tilt_max: float = 25.0, touching: float = 0.3, light=None, lean=None) -> list[Placed]:
    """The dice of the given looks showing values, laid out without overlaps in a size tray."""
    w, h = size
    light = random_light(g) if light is None else light
    lean = (float(g.uniform(0, tilt_max * 0.6)), float(g.uniform(0, 2 * np.pi))) if lean is None else lean
    n = len(styles)
    base = edge if edge is not None else float(np.exp(g.uniform(np.log(20.0), np.log(
        np.clip(np.sqrt(w * h / (max(n, 1) * 3.2)), 21.0, 110.0)))))
    occ = np.zeros((h, w), bool)
    placed: list[Placed] = []
    for style, value in zip(styles, values):
        die_edge = base * float(g.uniform(0.95, 1.05))
        for _ in range(12):
            sprite, style = make_die(g, int(value), die_edge, light, tilt_max, style, lean)
            spot = place(g, sprite, occ, placed, touching)
            if spot is not None:
                break
            die_edge *= 0.85  # crowded: smaller dice fit where bigger ones did not
        else:
            raise ValueError(f"Could not fit {n} dice into a {w}x{h} tray.")
        placed.append(Placed(sprite, spot[0], spot[1], int(value), style))
        _mark(sprite, spot[0], spot[1], occ)
    return placed


def render_glyph_tray(rng, n_dice: int = 6, size: tuple[int, int] = (640, 480), *, families=TRAIN_FAMILIES,
                      one_set: bool = True, edge: float | None = None, surface: str | None = None,
                      tilt_max: float = 25.0, touching: float = 0.3, effects: bool = True) -> Scene:
    """A tray of n_dice glyph dice. one_set: the dice share one family's six glyphs (a game's
    set of dice), else each die has its own. Scene.dice are GlyphTruth (label: the top glyph's)."""
    g = as_generator(rng)
    shared = random_glyph_faces(g, families)
    styles = [glyph_die_style(g, shared if one_set else random_glyph_faces(g, families)) for _ in range(n_dice)]
    values = [int(g.integers(1, 7)) for _ in range(n_dice)]
    light = random_light(g)
    placed = place_dice(g, styles, values, size, edge=edge, tilt_max=tilt_max, touching=touching, light=light)
    img = composite(background(g, size, surface), placed, light, float(g.uniform(0.2, 0.6)))
    image = camera_effects(g, img) if effects else np.clip(img, 0, 255).astype(np.uint8)
    return Scene(image, [GlyphTruth(p.face, p.box, p.style.color, p.style.translucent,
                                    p.style.glyphs.glyphs[p.face - 1].label) for p in placed])
