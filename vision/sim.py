"""The camera simulator: a tray that shows rendered rolls, so live dice reading runs on a laptop.

It behaves like a camera over a tray: an empty tray until a roll; a roll is some frames of dice
tumbling in, then the same still picture (with fresh sensor noise) until the next roll or until
the tray is cleared (`clear()`, or `clear_after` seconds after each roll). Rolls come on request
(`roll()`) or every `every` seconds.
Time is the simulator's own (frame index / fps), or the wall clock when `realtime` is set.
`icons=centerville` rolls Welcome to Centerville's six icon dice instead of pip dice
(vision.synth.centerville; `roll(faces)` then takes each colour die's face value 1..6).
"""
from __future__ import annotations

import random
import time
from urllib.parse import parse_qs

import cv2
import numpy as np

from .synth import render_roll

__all__ = ["SimulatedTray", "parse_sim_options"]

_OPTIONS = {"dice": int, "seed": int, "fps": float, "moving": int, "every": float, "clear_after": float,
            "width": int, "height": int, "surface": str, "realtime": bool, "icons": str,
            "noise": float}


class SimulatedTray:
    def __init__(self, dice: int = 2, seed: int | None = None, fps: float = 15.0, moving: int = 8,
                 every: float | None = None, clear_after: float | None = None,
                 width: int = 640, height: int = 480,
                 surface: str | None = None, realtime: bool = False, noise: float = 2.0,
                 icons: str | None = None):
        if icons not in (None, "", "centerville"):
            raise ValueError(f"The simulator's icons are centerville (or none: pip dice), not {icons!r}.")
        self.icons = icons or None
        if not 0 <= dice <= 12:
            raise ValueError(f"The simulator rolls 0 to 12 dice, not {dice}.")
        if fps <= 0:
            raise ValueError(f"The simulator's fps must be positive, not {fps}.")
        self.dice = dice
        self.fps = fps
        self.moving = moving
        self.every = every
        self.clear_after = clear_after
        self.size = (width, height)
        self.surface = surface
        self.realtime = realtime
        self.noise = noise
        self.rng = random.Random(seed)
        self.truth = []          # what the dice of the current roll show once still (DieTruth)
        self._frames: list = []  # the frames of dice still tumbling in, drawn as shown
        self._still: np.ndarray | None = None
        # Each roll's look (tray, light) comes from its own seed, so the empty tray shown after
        # clear() is the very tray the dice lay on.
        self._tray_seed = self.rng.getrandbits(63)
        self._empty = self._render_empty()
        self._index = 0
        self._last_roll_time: float | None = None
        self._start = time.monotonic()
        self._np = np.random.default_rng(self.rng.getrandbits(32))

    def roll(self, faces=None) -> None:
        """Throw the dice: the next frames show them tumbling, then still."""
        for _ in range(5):
            self._tray_seed = self.rng.getrandbits(63)
            try:
                if self.icons == "centerville":
                    from .synth.centerville import render_centerville_tray

                    scene = render_centerville_tray(np.random.default_rng(self._tray_seed), self.size,
                                                    faces=faces, surface=self.surface)
                    still, truth = scene.image, scene.dice
                else:
                    roll = render_roll(np.random.default_rng(self._tray_seed), self.dice, 0, 1,
                                       self.size, faces=faces, surface=self.surface, noise=0.0)
                    still, truth = roll.frames[-1], roll.dice
                break
            except ValueError as exc:
                error = exc  # too many big dice to fit: another throw is as good a roll
        else:
            raise error
        self._empty = self._render_empty()
        self._still = still
        self.truth = truth
        self._frames = self._tumble(self._still, self._empty, truth)
        self._last_roll_time = self._now()

    def _tumble(self, still: np.ndarray, empty: np.ndarray, dice) -> list:
        """How each die slides and turns in towards where it comes to rest: its picture cut from
        the still frame, to be pasted, turned, along its path over the empty tray (same tray and
        light: same seed), so that only the dice move. The frames are drawn one at a time as they
        are shown (`_tumbling_frame`): all of them at once held 7 MB in the app for every roll.
        """
        h, w = still.shape[:2]
        paths = []
        for die in dice:
            x0, y0, x1, y1 = die.box
            x0, y0, x1, y1 = max(0, x0 - 3), max(0, y0 - 3), min(w, x1 + 3), min(h, y1 + 3)
            patch = still[y0:y1, x0:x1]
            body = (np.abs(patch.astype(np.int16) - empty[y0:y1, x0:x1]).max(axis=2) > 10)
            angle = self.rng.uniform(0, 2 * np.pi)
            reach = self.rng.uniform(0.15, 0.4) * w
            spin = self.rng.uniform(180, 720) * self.rng.choice((-1, 1))
            paths.append((x0, y0, patch, body.astype(np.uint8), reach * np.cos(angle), reach * np.sin(angle), spin))
        return [(k, paths) for k in range(self.moving)]

    def _tumbling_frame(self, k: int, paths) -> np.ndarray:
        """The k-th frame of the dice tumbling in along their paths."""
        empty = self._empty
        h, w = empty.shape[:2]
        ease = 1.0 - ((k + 1) / (self.moving + 1))
        frame = empty.copy()
        for x0, y0, patch, body, dx, dy, spin in paths:
            ph, pw = body.shape
            turn = cv2.getRotationMatrix2D((pw / 2, ph / 2), spin * ease, 1.0)
            turn[:, 2] += (x0 + dx * ease, y0 + dy * ease)
            moved = cv2.warpAffine(patch, turn, (w, h))
            where = cv2.warpAffine(body, turn, (w, h)) > 0
            frame[where] = moved[where]
        return frame

    def clear(self) -> None:
        """Take the dice out: the tray is empty until the next roll."""
        self._frames = []
        self._still = None
        self.truth = []
        self._empty = self._render_empty()

    def next_frame(self) -> tuple[np.ndarray, float]:
        now = self._now()
        if self.every is not None and (self._last_roll_time is None or now - self._last_roll_time >= self.every):
            self.roll()
        elif self.clear_after is not None and self._still is not None and \
                now - self._last_roll_time >= self.clear_after:
            self.clear()  # the player takes the dice out
        if self._frames:
            image = self._tumbling_frame(*self._frames.pop(0))
        else:
            image = self._add_noise(self._still if self._still is not None else self._empty)
        if self.realtime:
            # Pace like a camera: a frame every 1/fps seconds.
            due = self._start + (self._index + 1) / self.fps
            delay = due - time.monotonic()
            if delay > 0:
                time.sleep(delay)
        self._index += 1
        return image, now

    def _now(self) -> float:
        return time.monotonic() - self._start if self.realtime else self._index / self.fps

    def _render_empty(self) -> np.ndarray:
        tray = render_roll(np.random.default_rng(self._tray_seed), 0, 0, 1, self.size,
                           surface=self.surface, noise=0.0)
        return tray.frames[0]

    def _add_noise(self, image: np.ndarray) -> np.ndarray:
        if self.noise <= 0:
            return image.copy()
        # Drawn a band of rows at a time into one small float32 buffer: the whole frame's noise
        # at once (float64 first, float32 later) was a 7 then 3.7 MB passing peak per frame in the
        # app's memory. The bands take the generator's numbers in the same order: the same frame.
        out = np.empty_like(image)
        band = 32
        buf = np.empty((band,) + image.shape[1:], np.float32)
        for y in range(0, image.shape[0], band):
            rows = image[y:y + band]
            noisy = buf[:len(rows)]
            self._np.standard_normal(dtype=np.float32, out=noisy)
            noisy *= self.noise
            noisy += rows
            np.clip(noisy, 0, 255, out=noisy)
            out[y:y + band] = noisy
        return out


def parse_sim_options(text: str) -> dict:
    """'?dice=2&seed=1' (or 'dice=2&seed=1') -> keyword arguments of SimulatedTray."""
    query = text.lstrip("?")
    options = {}
    for key, values in parse_qs(query, keep_blank_values=True, strict_parsing=False).items():
        if key not in _OPTIONS:
            raise ValueError(f"The simulator has no option {key!r} (options: {', '.join(_OPTIONS)}).")
        value = values[-1]
        kind = _OPTIONS[key]
        try:
            if kind is bool:
                options[key] = value.lower() in ("1", "true", "yes", "")
            else:
                options[key] = kind(value)
        except ValueError:
            raise ValueError(f"The simulator's option {key} must be a {kind.__name__}, not {value!r}.") from None
    return options
