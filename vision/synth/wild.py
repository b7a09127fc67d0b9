"""Trays as the learned detector trains on them: domain randomisation well past a tray's looks.

Any surface (vision.synth.clutter), 0 to 40 dice of any size from crowds of tiny ones to a
close-up, dice touching, a camera tipped up to 45 degrees, a tinted lamp from any side, blank
cubes and coins, tokens, pencils, cards, printed dots, wood knots, cloth and faint smudges that
are not dice (data/negatives.toml). Some trays hold coloured dice with white pips seen at a
slant, the looks behind most silent misreads on the real aws-workshop-dice photos. Steep trays
(steep=True, a training option) lean the camera 45-65 degrees. Only the dice are in Scene.dice:
everything else, a steep die's side faces included, must be left unboxed.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from .clutter import add_distractors, negatives, surface
from .scene import (STEEP_JITTER, STEEP_LEAN, DieTruth, Placed, Scene, _mark, as_generator, composite, lay_out,
                    make_die, place, random_light)
from .style import camera_effects, random_die_style

DETECTOR_SIZE = (320, 240)
EDGE_MIN = 9.0
EDGE_MAX = 64.0   # at DETECTOR_SIZE; a wider frame draws the same close-up die wider (edge_max)


def edge_max(width: int, at_320: float = EDGE_MAX) -> float:
    """The largest die edge drawn in a frame width pixels wide: at_320 at the detector's first
    input size, in proportion beyond (the same table framed in more pixels). The smallest die
    (EDGE_MIN) stays in pixels: it is the least a die's pips can be read from."""
    return at_320 * max(1.0, width / DETECTOR_SIZE[0])


def _count(g: np.random.Generator) -> int:
    """Mostly a roll of 1 to 12 dice; some empty trays and some crowds."""
    r = g.random()
    if r < 0.06:
        return 0
    if r < 0.8:
        return int(g.integers(1, 13))
    return int(g.integers(13, 41))


def slanted_style(g: np.random.Generator, colour: str):
    """An opaque die of colour with near-white pips."""
    style = random_die_style(g, colour, translucent=False)
    white = tuple(float(np.clip(c, 0, 255)) for c in g.normal(238, 8, 3))
    return replace(style, pip=white, logo_color=white if style.logo else style.logo_color)


def render_wild_tray(rng, size: tuple[int, int] = DETECTOR_SIZE, n_dice: int | None = None,
                     steep: bool = False) -> Scene:
    """A wild tray; steep: every die seen by a camera held STEEP_LEAN (45-65) degrees off vertical,
    leaning any way round, each die resting flat (its own tip STEEP_JITTER about the lean), so its
    side faces show pips as large as its top face. Only the top face is the die's face: a side
    face beside it is part of the same die, never a die of its own (steep=False draws as before)."""
    g = as_generator(rng)
    w, h = size
    n = _count(g) if n_dice is None else n_dice
    upper = min(edge_max(w), float(np.sqrt(w * h / (max(n, 1) * 3.5))))
    edge = float(np.exp(g.uniform(np.log(EDGE_MIN), np.log(max(upper, EDGE_MIN + 1)))))
    tilt_max = float(g.choice([15.0, 30.0, 45.0]))
    light = random_light(g)
    lean = (float(g.uniform(0, tilt_max * 0.7)), float(g.uniform(0, 2 * np.pi)))
    styles, jitter = None, None
    slant = negatives()["slant"]
    if steep:
        lean = (float(g.uniform(*STEEP_LEAN)), float(g.uniform(0, 2 * np.pi)))
        # Clip only the rare die whose own tip takes it far past the steepest view (as die_scene).
        tilt_max, jitter = STEEP_LEAN[1] + 3 * STEEP_JITTER, STEEP_JITTER
    elif n and g.random() < slant["share"]:
        tilt_max = float(slant["tilt_max"])
        lean = (float(g.uniform(*slant["lean"])), float(g.uniform(0, 2 * np.pi)))
        styles = [slanted_style(g, str(g.choice(slant["colours"]))) for _ in range(n)]
    placed: list[Placed] = []
    while True:
        try:
            placed = lay_out(g, n, size, None, edge, None, tilt_max, float(g.uniform(0, 0.6)), light, lean,
                             styles, jitter=jitter)
            break
        except ValueError:
            n, edge = max(0, n - 3), edge * 0.9
    bg = surface(g, size)
    if g.random() < 0.6:
        add_distractors(g, bg, int(g.integers(1, 6)), edge * float(g.uniform(0.8, 1.6)))
    occ = np.zeros((h, w), bool)
    for p in placed:
        _mark(p.sprite, p.x, p.y, occ)
    blanks = []
    if g.random() < 0.25:
        # Blank cubes (a wooden cube, a sugar cube, a die's blank side): a die's shape, no pips.
        for _ in range(int(g.integers(1, 4))):
            sprite, style = make_die(g, 1, edge * float(g.uniform(0.8, 1.2)), light, tilt_max, lean=lean,
                                     jitter=jitter)
            blank = replace(style, pip=style.body, logo=0)
            sprite, _ = make_die(g, 1, edge, light, tilt_max, style=blank, lean=lean, jitter=jitter)
            spot = place(g, sprite, occ, placed, 0.2, tries=60)
            if spot is not None:
                blanks.append(Placed(sprite, spot[0], spot[1], 0, blank))
                _mark(sprite, spot[0], spot[1], occ)
    tint = np.array(g.uniform(0.8, 1.2, 3), np.float32) if g.random() < 0.5 else np.ones(3, np.float32)
    img = composite(bg, placed + blanks, light, float(g.uniform(0.2, 0.7))) * tint
    image = camera_effects(g, img, strength=float(np.clip(edge / 30.0, 0.4, 1.0)))
    return Scene(image, [DieTruth(p.face, p.box, p.style.color, p.style.translucent) for p in placed])
