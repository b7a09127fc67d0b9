"""One table: a camera fixed over one tray under one lamp, and a set of dice of one size.

die_scene (vision.synth.scene) draws every render as a scene of its own: a new die size, lamp,
tray, camera lean, blur and noise each time. At a real table those stay put between the look a
die is taught from and the later reads. draw_table draws them once; table_die_scene renders one
look of a die at that table, where only the die's pose (its turn, which way up its face lies,
its tip under the table's tilt_max), its place on the tray, its neighbours and glare change, with
a little jitter of size (lens, place in the frame) and light (intensity, a few degrees of
direction), and fresh sensor noise at the table's level.

Nothing here draws from die_scene's or camera_effects' streams: the default renders, the
training sets and their caches stay byte for byte as they were.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..crops import INPUT_SIZE, die_crop
from .faces import DieStyle
from .scene import CROP_EDGE_MAX, EDGE_RANGE, Placed, centred_die, composite, detector_box, patch_side, random_light
from .style import background, camera_steps, field_array, jpeg

# die_scene's default camera: leans up to 42 degrees.
TILT_RANGE = 42.0
# Per render: the die's edge within +-3 % of the table's (lens, place in the frame), the lamp's
# intensity within +-10 %, its direction nudged by a few degrees (sd of each component).
EDGE_JITTER = 0.03
LIGHT_GAIN_JITTER = 0.10
LIGHT_TURN = 0.04


@dataclass(frozen=True, eq=False)
class Table:
    """What stays put between renders at one table (drawn by draw_table)."""
    edge: float                 # die edge in pixels before the crop
    tilt_max: float             # degrees; each render's lean is drawn under it
    distance: float             # camera distance in die edges (perspective)
    light: np.ndarray           # unit vector toward the lamp
    shadow: float               # how dark the dice's shadows are
    surface: np.ndarray         # float32 BGR tray, bigger than a render's patch; each render cuts its place
    field: tuple[float, float, float, float]   # lamp falloff: direction, ramp, vignette, gain
    white: np.ndarray           # white balance (3 gains)
    gamma: float | None
    blur: float                 # Gaussian sigma (pixels); none under 0.3, as camera_effects
    motion: tuple[int, float] | None   # motion blur kernel length and angle, or none
    noise: float                # sensor noise sd
    jpeg: int | None            # JPEG quality, or not compressed


def draw_table(g: np.random.Generator) -> Table:
    """A table drawn from the ranges die_scene and camera_effects draw each render from."""
    edge = float(np.exp(g.uniform(np.log(EDGE_RANGE[0] - 2), np.log(CROP_EDGE_MAX))))
    # The camera's lean regime: die_scene draws a scene's lean as tilt_max * sqrt(u) with
    # tilt_max 42; a table draws its own tilt_max that way, its renders' leans under it.
    tilt_max = TILT_RANGE * float(np.sqrt(g.random()))
    distance = float(g.uniform(5.0, 14.0))
    light = random_light(g)
    shadow = float(g.uniform(0.2, 0.6))
    side = 2 * patch_side(edge * (1 + EDGE_JITTER))
    surface = background(g, (side, side))
    # camera_effects' draws, in its order, scaled by die size as die_scene scales them.
    strength = float(np.clip(edge / 40.0, 0.5, 1.0))
    field = (float(g.uniform(0, 2 * np.pi)), float(g.uniform(0, 0.45)), float(g.uniform(0, 0.5)),
             float(g.uniform(0.75, 1.15)))
    white = g.uniform(0.88, 1.12, 3).astype(np.float32)
    gamma = float(g.uniform(0.75, 1.3)) if g.random() < 0.3 else None
    blur = float(g.uniform(0, 1.1)) * strength
    motion = (int(g.integers(3, 8)), float(g.uniform(0, 180))) if g.random() < 0.1 * strength else None
    noise = float(g.uniform(0, 7)) * strength
    jpeg = int(g.integers(35, 95)) if g.random() < 0.7 else None
    return Table(edge, tilt_max, distance, light, shadow, surface, field, white, gamma, blur, motion, noise, jpeg)


def _camera(g: np.random.Generator, img: np.ndarray, table: Table) -> np.ndarray:
    """style.camera_effects' steps at the table's levels: only the lamp's gain and the sensor
    noise itself are drawn anew."""
    ang, ramp_amount, fall, gain = table.field
    gain *= float(g.uniform(1 - LIGHT_GAIN_JITTER, 1 + LIGHT_GAIN_JITTER))
    img = img * field_array(*img.shape[:2], ang, ramp_amount, fall, gain)[..., None]
    out = camera_steps(g, img, table.white, table.gamma, table.blur, table.motion, table.noise)
    return jpeg(out, table.jpeg) if table.jpeg is not None else out


def table_die_scene(g: np.random.Generator, table: Table, face: int, style: DieStyle | None = None,
                    neighbours: int | None = None) -> tuple[np.ndarray, list[Placed], float, np.ndarray]:
    """die_scene at a table: a square patch of its tray with one die showing face in the middle
    (placed[0]) and maybe neighbours touching it. Returns the image, the dice placed, the die's
    edge in pixels and the light it was lit by."""
    if not 1 <= face <= 6:
        raise ValueError(f"A six-sided die shows 1 to 6, not {face}.")
    edge = table.edge * float(g.uniform(1 - EDGE_JITTER, 1 + EDGE_JITTER))
    light = table.light + g.normal(0, LIGHT_TURN, 3)
    light = light / np.linalg.norm(light)
    # The lean under the table's tilt_max, pointed as die_scene points it.
    tilt = table.tilt_max * float(np.sqrt(g.random()))
    direction = np.pi / 2 + g.normal(0, 0.6) if tilt > 22 else g.uniform(0, 2 * np.pi)
    lean = (tilt, float(direction))
    side = patch_side(edge)
    placed = centred_die(g, side, face, edge, light, table.tilt_max, style, lean, neighbours,
                         distance=table.distance)
    # The die's place on the tray: a window of the table's one surface.
    room = table.surface.shape[0] - side
    ox, oy = int(g.integers(0, room + 1)), int(g.integers(0, room + 1))
    bg = table.surface[oy:oy + side, ox:ox + side].copy()
    img = composite(bg, placed, light, table.shadow)
    return _camera(g, img, table), placed, edge, light


def render_table_crop(g: np.random.Generator, table: Table, style: DieStyle, value: int,
                      size: int = INPUT_SIZE) -> np.ndarray:
    """vision.synth.glyphs.render_glyph_crop at a table: the die (style) showing value, cut
    around a detector-like box, an RGB size x size crop."""
    image, placed, _, _ = table_die_scene(g, table, value, style=style)
    target = placed[0]
    box = detector_box(g, target.box, target.sprite.top_quad, (target.x, target.y))
    return die_crop(image, box, size)
