"""A roll as a camera sees it: dice tumble and slide in, then lie still."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .scene import DieTruth, Placed, as_generator, composite, lay_out, make_die, random_light
from .style import background, lighting_field


@dataclass
class Roll:
    frames: list[np.ndarray]        # BGR uint8
    dice: list[DieTruth]            # what the dice show once still
    first_still: int                # index of the first frame where nothing moves


def render_roll(rng, n_dice: int, frames_moving: int, frames_still: int, size=(640, 480), *,
                faces=None, surface: str | None = None, noise: float = 2.0) -> Roll:
    """Frames of a roll: frames_moving with dice moving, then frames_still with them at rest.

    The still frames differ only by sensor noise (sigma noise), as a fixed camera gives.
    """
    g = as_generator(rng)
    if frames_moving < 0 or frames_still < 0:
        raise ValueError("Frame counts are zero or more.")
    w, h = size
    light = random_light(g)
    lean = (float(g.uniform(0, 12)), float(g.uniform(0, 2 * np.pi)))
    bg = background(g, size, surface)
    gain = lighting_field(g, h, w)[..., None] * np.array(g.uniform(0.9, 1.1, 3), np.float32)
    shadow = float(g.uniform(0.25, 0.55))
    final = lay_out(g, n_dice, size, faces, None, None, 25.0, 0.3, light, lean)

    def shoot(placed: list[Placed]) -> np.ndarray:
        # In place: each 640x480 float32 copy is 3.7 MB, and the simulator draws its trays in the app.
        img = composite(bg.copy(), placed, light, shadow)
        img *= gain
        if noise > 0:  # the simulator adds its own noise: no 7 MB of float64 zeros per frame
            img += g.normal(0, noise, img.shape).astype(np.float32)
        return np.clip(img, 0, 255, out=img).astype(np.uint8)

    starts = []
    for p in final:
        ang = g.uniform(0, 2 * np.pi)
        reach = g.uniform(0.25, 0.6) * w
        starts.append((p.x + reach * np.cos(ang), p.y + reach * np.sin(ang)))
    frames = []
    for k in range(frames_moving):
        ease = 1.0 - (1.0 - (k + 1) / (frames_moving + 1)) ** 2
        moving = []
        for p, (sx, sy) in zip(final, starts):
            edge = (p.sprite.box[2] - p.sprite.box[0]) / 1.2
            sprite, _ = make_die(g, int(g.integers(1, 7)), max(edge, 10.0), light, 45.0, p.style, lean)
            # Keep the tumbling die centred where the resting one will be, once it arrives.
            dx = (p.sprite.mask.shape[1] - sprite.mask.shape[1]) // 2
            dy = (p.sprite.mask.shape[0] - sprite.mask.shape[0]) // 2
            x = int(round(sx + (p.x - sx) * ease)) + dx
            y = int(round(sy + (p.y - sy) * ease)) + dy
            moving.append(Placed(sprite, x, y, 0, p.style))
        frames.append(shoot(moving))
    frames.extend(shoot(final) for _ in range(frames_still))
    dice = [DieTruth(p.face, p.box, p.style.color, p.style.translucent) for p in final]
    return Roll(frames, dice, frames_moving)


def render_roll_sequence(rng, n_dice: int, frames_moving: int, frames_still: int, size=(640, 480),
                         **kwargs) -> list[np.ndarray]:
    """Just the frames of render_roll."""
    return render_roll(rng, n_dice, frames_moving, frames_still, size, **kwargs).frames
