"""The tray set-up viewer: camera picture with the dice found, their faces and the settle state.

OpenCV here is headless (no highgui), so the window is a small Kivy app whose Image texture is
refreshed by Clock; with frames_dir set, annotated frames are written as JPEG files instead.
"""
from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from .reader import DiceReader, DiceReading
from .settle import SettleDetector
from .sources import EndOfSource, FrameSource, SourceError

__all__ = ["annotate", "watch"]

_SURE, _UNSURE = (60, 200, 60), (0, 165, 255)


def annotate(image_bgr: np.ndarray, reading: DiceReading, status: str = "") -> np.ndarray:
    """A copy of the frame with each die's box and face (orange when uncertain)."""
    out = image_bgr.copy()
    for die in reading.dice:
        color = _UNSURE if die.uncertain else _SURE
        x0, y0, x1, y1 = die.box
        cv2.rectangle(out, (x0, y0), (x1 - 1, y1 - 1), color, 2)
        text = f"{die.face if die.face is not None else die.label} {die.confidence:.2f}"
        cv2.putText(out, text, (x0, max(12, y0 - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, color, 1, cv2.LINE_AA)
    if status:
        cv2.putText(out, status, (8, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (255, 255, 255), 2, cv2.LINE_AA)
    return out


class _Viewer:
    """Reads one frame, annotates it; shared by the window and the file writer."""

    def __init__(self, source: FrameSource, reader: DiceReader):
        self.source = source
        self.reader = reader
        self.settle = SettleDetector()

    def step(self) -> np.ndarray:
        frame = self.source.read()
        self.settle.update(frame.image, frame.timestamp)
        reading = self.reader.read(frame.image, frame.index, frame.timestamp)
        faces = " ".join(str(d.face) for d in reading.dice)
        return annotate(frame.image, reading, f"{self.settle.state}: {len(reading.dice)} dice {faces}")


def watch(source: FrameSource, reader: DiceReader, frames_dir: str | None = None, count: int = 0) -> int:
    viewer = _Viewer(source, reader)
    try:
        if frames_dir is not None:
            return _write_frames(viewer, Path(frames_dir), count)
        return _window(viewer, count)
    finally:
        source.close()


def _write_frames(viewer: _Viewer, folder: Path, count: int) -> int:
    folder.mkdir(parents=True, exist_ok=True)
    n = 0
    while count <= 0 or n < count:
        try:
            image = viewer.step()
        except EndOfSource:
            break
        except SourceError as exc:
            print(f"error: {exc}")
            return 2
        cv2.imwrite(str(folder / f"frame{n:05d}.jpg"), image)
        n += 1
    return 0


def _window(viewer: _Viewer, count: int) -> int:
    import os
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    from kivy.app import App
    from kivy.clock import Clock
    from kivy.graphics.texture import Texture
    from kivy.uix.image import Image

    status = {"code": 0, "frames": 0}

    class WatchApp(App):
        title = f"Dice tray: {viewer.source.name}"

        def build(self):
            self.image = Image(fit_mode="contain")
            Clock.schedule_interval(self.update, 1 / 15)
            return self.image

        def update(self, _dt):
            try:
                frame = viewer.step()
            except EndOfSource:
                self.stop()
                return
            except SourceError as exc:
                print(f"error: {exc}")
                status["code"] = 2
                self.stop()
                return
            h, w = frame.shape[:2]
            texture = self.image.texture
            if texture is None or texture.size != (w, h):
                texture = Texture.create(size=(w, h), colorfmt="bgr")
                texture.flip_vertical()
                self.image.texture = texture
            texture.blit_buffer(frame.tobytes(), colorfmt="bgr", bufferfmt="ubyte")
            self.image.canvas.ask_update()
            status["frames"] += 1
            if count and status["frames"] >= count:
                self.stop()

    WatchApp().run()
    return status["code"]
