"""Welcome to Centerville's six icon dice, rendered: one die per colour, icons as pictograms.

Which faces each die carries comes from the engine's dice data (companion/engine/centerville/
data/dice.toml); how the dice and icons look comes from data/centerville.toml (our guesses:
the rulebook does not say, and printings differ).

    CENTERVILLE_COLOURS                the six die colours, in the engine's die order
    centerville_faces(colour)          GlyphFaces of that die (face value v: its v-th icon)
    centerville_labels(colour)         its face labels, "<colour>-<icon>", in face-value order
    centerville_style(rng, colour)     a random look of that die (body shade, corners, ink)
    render_centerville_tray(rng, ...)  a tray photo of the six dice under a random lamp
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from companion.engine.centerville.dice import default_dice

from .glyphs import Glyph, GlyphFaces, GlyphTruth, _load, place_dice
from .scene import Scene, as_generator, composite, random_light
from .style import _jitter, _pick, background, camera_effects, random_die_style

CENTERVILLE_COLOURS: tuple[str, ...] = default_dice().order


# The truth of a rendered Centerville die: face value, box, colour, and its face label.
IconTruth = GlyphTruth


def _die(colour: str) -> int:
    if colour not in CENTERVILLE_COLOURS:
        raise ValueError(f"Centerville's dice are {', '.join(CENTERVILLE_COLOURS)}, not {colour!r}.")
    return CENTERVILLE_COLOURS.index(colour)


def centerville_labels(colour: str) -> tuple[str, ...]:
    """The die's six face labels by face value (a repeated icon repeats its label)."""
    return tuple(f"{colour}-{icon}" for icon in default_dice().faces[_die(colour)])


def centerville_faces(colour: str, scale: float = 0.66, stroke: float = 1.0) -> GlyphFaces:
    return GlyphFaces(tuple(Glyph("centerville", icon) for icon in default_dice().faces[_die(colour)]),
                      scale, stroke)


def centerville_style(rng: np.random.Generator, colour: str):
    """One look of the colour die: its body a shade from the data file, icons in its ink."""
    look = _load("centerville.toml")["dice"][colour]
    body = _jitter(rng, tuple(_pick(rng, look["body"])), 6.0)
    ink = _jitter(rng, tuple(look["ink"]), 6.0)
    base = random_die_style(rng, translucent=False)
    faces = centerville_faces(colour, float(rng.uniform(0.58, 0.72)), float(rng.uniform(0.8, 1.25)))
    return replace(base, color=colour, body=body, pip=ink, logo=0, glyphs=faces)


def lamp_tint(rng: np.random.Generator) -> np.ndarray:
    """A lamp's colour as BGR gains: from a warm bulb (blue down by a third) to cool daylight."""
    warmth = float(rng.uniform(-1.0, 1.0))
    tint = np.array([1 - 0.33 * max(warmth, 0) + 0.1 * max(-warmth, 0), 1.0,
                     1 + 0.2 * max(warmth, 0) - 0.12 * max(-warmth, 0)], np.float32)
    tint *= rng.uniform(0.93, 1.07, 3).astype(np.float32)  # and a slight green or magenta cast
    return tint * np.float32(rng.uniform(0.6, 1.25))        # dim to bright


def render_centerville_tray(rng, size: tuple[int, int] = (640, 480), *, faces=None, edge: float | None = None,
                            surface: str | None = None, tilt_max: float = 25.0, touching: float = 0.3,
                            effects: bool = True) -> Scene:
    """The six Centerville dice rolled in a tray under a random lamp.

    faces: each die's face value (1..6) in CENTERVILLE_COLOURS order, else random. Scene.dice
    holds IconTruth (label "<colour>-<icon>", color the die's colour) in that order.
    """
    g = as_generator(rng)
    w, h = size
    values = [int(g.integers(1, 7)) for _ in CENTERVILLE_COLOURS] if faces is None else [int(v) for v in faces]
    if len(values) != 6 or any(not 1 <= v <= 6 for v in values):
        raise ValueError(f"faces lists six face values 1..6, one per die, not {faces!r}.")
    light = random_light(g)
    styles = [centerville_style(g, c) for c in CENTERVILLE_COLOURS]
    # Six dice of one size, about a tenth of the tray's short side each.
    base = edge if edge is not None else float(g.uniform(0.09, 0.18) * min(w, h))
    placed = place_dice(g, styles, values, size, edge=base, tilt_max=tilt_max, touching=touching, light=light)
    img = composite(background(g, size, surface), placed, light, float(g.uniform(0.2, 0.6))) * lamp_tint(g)
    image = camera_effects(g, img) if effects else np.clip(img, 0, 255).astype(np.uint8)
    truths = [IconTruth(p.face, p.box, c, False, centerville_labels(c)[p.face - 1])
              for c, p in zip(CENTERVILLE_COLOURS, placed)]
    return Scene(image, truths)
