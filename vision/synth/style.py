"""Random looks: die colours and pips, and the trays dice are rolled in."""
from __future__ import annotations

import cv2
import numpy as np

from .faces import DieStyle

# BGR body colours by name, and the pip colours seen on such dice.
BODIES = {
    "white": [(236, 236, 232), (205, 228, 238), (225, 232, 240)],
    "black": [(30, 30, 32), (45, 40, 40)],
    "red": [(40, 35, 195), (50, 40, 160), (60, 60, 215)],
    "blue": [(185, 95, 30), (150, 60, 20), (210, 140, 60)],
    "green": [(60, 150, 40), (70, 120, 30), (100, 190, 90)],
    "yellow": [(40, 205, 235), (70, 220, 240)],
    "purple": [(150, 40, 140), (130, 50, 110)],
    "orange": [(30, 120, 240), (40, 140, 235)],
    "grey": [(130, 130, 130), (110, 115, 118)],
}
PIPS = {
    "white": [(25, 25, 25), (30, 30, 190), (160, 70, 20), (40, 110, 30)],
    "black": [(240, 240, 240), (60, 190, 225), (40, 40, 200)],
    "red": [(245, 245, 245), (25, 25, 25), (70, 200, 230)],
    "blue": [(245, 245, 245), (70, 200, 230), (25, 25, 25)],
    "green": [(245, 245, 245), (25, 25, 25)],
    "yellow": [(25, 25, 25), (30, 30, 190), (160, 70, 20)],
    "purple": [(245, 245, 245), (70, 200, 230)],
    "orange": [(245, 245, 245), (25, 25, 25)],
    "grey": [(245, 245, 245), (25, 25, 25)],
}
TRANSLUCENT = {
    "clear": [(225, 225, 220)],
    "red": [(70, 60, 230)],
    "blue": [(235, 150, 60)],
    "green": [(110, 210, 80)],
    "yellow": [(80, 230, 245)],
    "purple": [(200, 90, 170)],
    "orange": [(60, 150, 250)],
}


def _pick(rng, items):
    return items[int(rng.integers(len(items)))]


def _jitter(rng, color, amount=14.0):
    return tuple(float(np.clip(c + rng.normal(0, amount), 0, 255)) for c in color)


def _luma(bgr) -> float:
    return 0.114 * bgr[0] + 0.587 * bgr[1] + 0.299 * bgr[2]


# Dice makers pick pips that stand out from the body; a pale-green die with white pips, as the
# jittered tables could draw it, is one nobody sells and nobody (camera or player) could read.
MIN_PIP_CONTRAST = 70.0


def pip_contrast(pip, body) -> float:
    """How much a pip colour stands out from a body colour, in brightness or in colour."""
    return max(abs(_luma(pip) - _luma(body)), 0.6 * float(np.linalg.norm(np.subtract(pip, body))))


def _legible(rng, body, pips):
    """A pip colour from pips that stands out from body."""
    good = [p for p in pips if pip_contrast(p, body) >= MIN_PIP_CONTRAST]
    return _pick(rng, good) if good else max(pips, key=lambda p: pip_contrast(p, body))


def random_die_style(rng: np.random.Generator, color: str | None = None, translucent: bool | None = None) -> DieStyle:
    """A die look; the colour name may be fixed by the caller."""
    if translucent is None:
        translucent = rng.random() < 0.15
    if translucent:
        name = color if color in TRANSLUCENT else _pick(rng, list(TRANSLUCENT))
        body = _jitter(rng, _pick(rng, TRANSLUCENT[name]))
        opacity = float(rng.uniform(0.5, 0.85))
        # Seen on a pale tray, a translucent body is paler than its colour: pips must stand out there.
        seen = tuple(opacity * b + (1 - opacity) * 230.0 for b in body)
        pip = _legible(rng, seen, [(245, 245, 245), (25, 25, 25), (230, 230, 230)])
    else:
        # White dice are the most common on real tables.
        name = color if color in BODIES else _pick(rng, ["white"] * 4 + list(BODIES))
        base = _pick(rng, BODIES[name])
        # Jitter in proportion: a black die varies by a few levels, not by a colour cast.
        body = _jitter(rng, base, 4.0 + 10.0 * max(base) / 255.0)
        pip = _jitter(rng, _legible(rng, body, PIPS[name]), 8.0)
        opacity = 1.0
    logo = int(rng.integers(1, 5)) if rng.random() < 0.2 else 0
    logo_color = _pick(rng, [pip, (30, 30, 190), (160, 70, 20), (40, 150, 200)])
    return DieStyle(
        color=name, body=body, pip=pip, translucent=translucent, opacity=opacity,
        corner=float(rng.uniform(0.06, 0.22)), pip_radius=float(rng.uniform(0.065, 0.135)),
        pip_inset=float(rng.uniform(0.2, 0.29)), one_pip_radius=float(rng.uniform(0.08, 0.2)),
        logo=logo, logo_color=logo_color, glossy_pips=bool(rng.random() < 0.3),
        bevel=float(rng.uniform(0.1, 0.35)),
    )


def _smooth_noise(rng, h, w, scale, amount):
    small = rng.normal(0, 1, (max(2, h // scale), max(2, w // scale))).astype(np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC) * amount


BACKGROUNDS = ("felt", "wood", "paper", "card")


def background(rng: np.random.Generator, size: tuple[int, int], kind: str | None = None) -> np.ndarray:
    """A tray surface as a BGR float32 image of size (width, height)."""
    w, h = size
    kind = kind or _pick(rng, list(BACKGROUNDS))
    if kind not in BACKGROUNDS:
        raise ValueError(f"Unknown tray surface {kind!r}; known: {', '.join(BACKGROUNDS)}.")
    if kind == "felt":
        base = np.array(_jitter(rng, _pick(rng, [(40, 100, 30), (110, 50, 20), (30, 30, 120), (35, 35, 35),
                                                 (90, 90, 90), (60, 30, 60)]), 15), np.float32)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        img += rng.normal(0, 6, (h, w, 1)).astype(np.float32) + _smooth_noise(rng, h, w, 8, 6)[..., None]
    elif kind == "wood":
        base = np.array(_jitter(rng, _pick(rng, [(170, 205, 225), (60, 100, 150), (40, 70, 110), (120, 160, 200)]), 12),
                        np.float32)
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        ang = rng.uniform(0, np.pi)
        coord = xx * np.cos(ang) + yy * np.sin(ang) + _smooth_noise(rng, h, w, 40, 25)
        period = rng.uniform(6, 30)
        grain = 0.5 + 0.5 * np.sin(coord / period * 2 * np.pi) ** 3
        img = base * (1 - rng.uniform(0.05, 0.2) * grain)[..., None]
        img += rng.normal(0, 3, (h, w, 1)).astype(np.float32)
    elif kind == "paper":
        base = np.array(_jitter(rng, (232, 238, 240), 10), np.float32)
        img = np.empty((h, w, 3), np.float32)
        img[:] = base
        img += _smooth_noise(rng, h, w, 4, 3)[..., None]
    else:
        g = rng.uniform(60, 200)
        img = np.empty((h, w, 3), np.float32)
        img[:] = _jitter(rng, (g, g, g), 6)
        img += _smooth_noise(rng, h, w, 16, 4)[..., None]
    return img


def lighting_field(rng: np.random.Generator, h: int, w: int) -> np.ndarray:
    """A smooth multiplicative light falloff across the frame (lamp off to one side, vignette)."""
    ang = rng.uniform(0, 2 * np.pi)
    ramp = rng.uniform(0, 0.45)
    return field_array(h, w, ang, ramp, rng.uniform(0, 0.5), rng.uniform(0.75, 1.15))


def field_array(h: int, w: int, ang: float, ramp_amount: float, fall: float, gain: float) -> np.ndarray:
    """lighting_field's falloff at given levels: a ramp toward ang, a vignette, an overall gain."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    ramp = ((xx / w - 0.5) * np.cos(ang) + (yy / h - 0.5) * np.sin(ang))
    r2 = ((xx / w - 0.5) ** 2 + (yy / h - 0.5) ** 2)
    field = 1.0 + ramp_amount * ramp - fall * r2
    return (field * gain).astype(np.float32)


def camera_effects(rng: np.random.Generator, img: np.ndarray, strength: float = 1.0) -> np.ndarray:
    """Colour cast, blur, sensor noise and JPEG artefacts; returns BGR uint8."""
    img = img * lighting_field(rng, *img.shape[:2])[..., None]
    white = np.array(rng.uniform(0.88, 1.12, 3), np.float32)
    gamma = rng.uniform(0.75, 1.3) if rng.random() < 0.3 else None
    blur = rng.uniform(0, 1.1) * strength
    motion = None
    if rng.random() < 0.1 * strength:
        k = int(rng.integers(3, 8))
        motion = (k, rng.uniform(0, 180))
    out = camera_steps(rng, img, white, gamma, blur, motion, rng.uniform(0, 7) * strength)
    return jpeg(out, int(rng.integers(35, 95))) if rng.random() < 0.7 else out


def camera_steps(rng: np.random.Generator, img: np.ndarray, white, gamma: float | None, blur: float,
                 motion: tuple[int, float] | None, noise: float) -> np.ndarray:
    """camera_effects' steps after the light falloff, at given levels (vision.synth.table holds
    them for a table): white balance, gamma, blur (none under 0.3 px), motion blur (kernel length,
    angle), then sensor noise of sd noise, the one thing drawn here. Returns BGR uint8."""
    img = img * white
    if gamma is not None:
        img = 255.0 * (np.clip(img, 0, 255) / 255.0) ** gamma
    if blur > 0.3:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if motion is not None:
        k, angle = motion
        kernel = np.zeros((k, k), np.float32)
        kernel[k // 2, :] = 1.0 / k
        rot = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), angle, 1.0)
        kernel = cv2.warpAffine(kernel, rot, (k, k))
        img = cv2.filter2D(img, -1, kernel / max(kernel.sum(), 1e-6))
    img = img + rng.normal(0, noise, img.shape).astype(np.float32)
    return np.clip(img, 0, 255).astype(np.uint8)


def jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    """img through JPEG at quality (its artefacts)."""
    ok, enc = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
    return cv2.imdecode(enc, cv2.IMREAD_COLOR)
