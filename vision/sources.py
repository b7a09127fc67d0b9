"""Frame sources: one interface, several backends, chosen by a URL-like string.

    picamera2:            the Pi camera (picamera2 imported only here, only when opened)
    v4l2:0  /dev/video0   a USB webcam through OpenCV's V4L2 backend
    file:path.jpg         one image, given again on every read (a camera looking at a still tray)
    folder:dir            the images of a folder in name order
    video:path.mp4        a video file
    sim:?dice=2&seed=1    the simulator: rendered rolls (tumbling, then still), an empty tray between
    auto:                 on a Raspberry Pi its camera (the Pi camera, else a USB webcam); elsewhere
                          (a laptop) the simulator, never the laptop's own webcam

Every read returns a Frame(image BGR uint8, timestamp seconds, index). A source that cannot be
opened raises SourceUnavailable; one that stops giving frames raises SourceLost (EndOfSource
when a file or folder simply ran out). Their messages are sentences the app can show before
switching to manual dice entry; the app's camera thread (companion/dice_camera.py) retries
in the background with backoff.
"""
from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from .image_size import MAX_PIXELS, declared_size, too_big
from .sim import SimulatedTray, parse_sim_options

__all__ = ["Frame", "FrameSource", "SourceError", "SourceUnavailable", "SourceLost", "EndOfSource",
           "ImageFileSource", "FolderSource", "VideoSource", "V4L2Source", "Picamera2Source",
           "SimulatedSource", "AutoSource", "open_source", "on_raspberry_pi", "IMAGE_SUFFIXES", "ImageTooBig",
           "read_image"]

IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".webp", ".tif", ".tiff")


class SourceError(RuntimeError):
    """A frame source problem, told in a sentence."""


class SourceUnavailable(SourceError):
    """The source cannot be opened (no such camera, file or folder; missing library)."""


class SourceLost(SourceError):
    """The source was working and stopped (camera unplugged, folder removed)."""


class EndOfSource(SourceLost):
    """A finite source (video, folder) has no more frames."""


@dataclass(frozen=True)
class Frame:
    image: np.ndarray
    timestamp: float
    index: int


class FrameSource:
    """Base: open() once, read() frames, close() (idempotent); also a context manager."""

    name = "source"

    def __init__(self):
        self._index = 0
        self._opened = False

    def open(self) -> "FrameSource":
        if not self._opened:
            self._open()
            self._opened = True
        return self

    def read(self) -> Frame:
        if not self._opened:
            self.open()
        image, timestamp = self._read()
        frame = Frame(image, timestamp, self._index)
        self._index += 1
        return frame

    def close(self) -> None:
        if self._opened:
            self._opened = False
            self._close()

    def __enter__(self):
        return self.open()

    def __exit__(self, *exc):
        self.close()

    def __iter__(self):
        """Frames until the source ends (EndOfSource ends the iteration; SourceLost is raised)."""
        while True:
            try:
                yield self.read()
            except EndOfSource:
                return

    def _open(self) -> None:
        pass

    def _read(self) -> tuple[np.ndarray, float]:
        raise SourceError(f"{type(self).__name__} gives no frames.")

    def _close(self) -> None:
        pass


# Where declared_size looks: a JPEG's frame header follows its EXIF and colour profile, which can take
# tens of kilobytes.
HEADER_BYTES = 1 << 20


class ImageTooBig(SourceUnavailable):
    """An image file larger than vision.image_size.MAX_PIXELS."""


def _refuse_if_too_big(p: Path, size: tuple[int, int] | None) -> None:
    if too_big(size):
        raise ImageTooBig(f"The image {p} is {size[0]} x {size[1]} pixels: photos of up to "
                          f"{MAX_PIXELS // 1_000_000} megapixels are read. Scale it down.")


def read_image(path: Path | str) -> np.ndarray:
    """An image file as BGR uint8; SourceUnavailable with the path when it cannot be read, or when
    it is larger than vision.image_size.MAX_PIXELS (told from its header, before it is decoded)."""
    p = Path(path)
    if not p.is_file():
        raise SourceUnavailable(f"The image {p} does not exist.")
    try:
        data = np.fromfile(str(p), np.uint8)
    except OSError as exc:
        raise SourceUnavailable(f"The image {p} cannot be read: {exc.strerror or exc}.") from exc
    _refuse_if_too_big(p, declared_size(data[:HEADER_BYTES].tobytes()))
    try:
        image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    except (cv2.error, MemoryError) as exc:
        # OpenCV refuses a header declaring more than CV_IO_MAX_IMAGE_PIXELS (2**30) pixels
        # before it allocates anything: a 100000x100000 PNG must not stop a batch of photos.
        raise SourceUnavailable(f"The image {p} cannot be decoded (too big or damaged).") from exc
    if image is None:
        raise SourceUnavailable(f"The image {p} is not a readable picture (JPEG, PNG, ...).")
    _refuse_if_too_big(p, (image.shape[1], image.shape[0]))   # a header declared_size could not read
    return image


class ImageFileSource(FrameSource):
    """One image as a still camera: every read gives it again (timestamps advance by 1/fps)."""

    def __init__(self, path: Path | str, fps: float = 30.0):
        super().__init__()
        self.path = Path(path)
        self.fps = fps
        self.name = f"file:{self.path}"
        self._image: np.ndarray | None = None

    def _open(self):
        self._image = read_image(self.path)

    def _read(self):
        if not self.path.exists():
            raise SourceLost(f"The image {self.path} has disappeared.")
        return self._image.copy(), self._index / self.fps


class FolderSource(FrameSource):
    """The images of a folder in name order (loop=True starts over at the end)."""

    def __init__(self, folder: Path | str, fps: float = 30.0, loop: bool = False):
        super().__init__()
        self.folder = Path(folder)
        self.fps = fps
        self.loop = loop
        self.name = f"folder:{self.folder}"
        self._files: list[Path] = []
        self._next = 0

    def _open(self):
        if not self.folder.is_dir():
            raise SourceUnavailable(f"The folder {self.folder} does not exist.")
        self._files = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self._files:
            raise SourceUnavailable(f"The folder {self.folder} holds no images ({', '.join(IMAGE_SUFFIXES)}).")

    def _read(self):
        if not self.folder.is_dir():
            raise SourceLost(f"The folder {self.folder} has disappeared.")
        if self._next >= len(self._files):
            if not self.loop:
                raise EndOfSource(f"The folder {self.folder} has no more images.")
            self._next = 0
        path = self._files[self._next]
        self._next += 1
        try:
            image = read_image(path)
        except SourceUnavailable as exc:
            raise SourceLost(str(exc)) from None
        return image, self._index / self.fps


class _CaptureSource(FrameSource):
    """Shared by video files and webcams: an OpenCV VideoCapture."""

    def __init__(self):
        super().__init__()
        self._cap: cv2.VideoCapture | None = None

    def _close(self):
        if self._cap is not None:
            self._cap.release()
            self._cap = None


class VideoSource(_CaptureSource):
    """A video file; timestamps are the video's own (frame position / fps)."""

    def __init__(self, path: Path | str):
        super().__init__()
        self.path = Path(path)
        self.name = f"video:{self.path}"
        self._fps = 30.0

    def _open(self):
        if not self.path.is_file():
            raise SourceUnavailable(f"The video {self.path} does not exist.")
        cap = cv2.VideoCapture(str(self.path))
        if not cap.isOpened():
            cap.release()
            raise SourceUnavailable(f"The video {self.path} cannot be opened (not a video OpenCV can decode).")
        self._cap = cap
        fps = cap.get(cv2.CAP_PROP_FPS)
        self._fps = fps if fps and fps > 0 else 30.0

    def _read(self):
        ok, image = self._cap.read()
        if not ok or image is None:
            raise EndOfSource(f"The video {self.path} has ended.")
        return image, self._index / self._fps


class V4L2Source(_CaptureSource):
    """A USB webcam by index (0) or device path (/dev/video0), through OpenCV's V4L2 backend."""

    def __init__(self, device: int | str = 0, size: tuple[int, int] = (640, 480), clock=time.monotonic):
        super().__init__()
        self.device = device
        self.size = size
        self.clock = clock
        self.name = f"v4l2:{device}"

    def _path(self) -> str:
        return f"/dev/video{self.device}" if isinstance(self.device, int) else str(self.device)

    def _open(self):
        path = self._path()
        if not os.path.exists(path):
            raise SourceUnavailable(f"There is no camera at {path}: is the webcam plugged in?")
        cap = cv2.VideoCapture(self.device if isinstance(self.device, int) else path, cv2.CAP_V4L2)
        if not cap.isOpened():
            cap.release()
            raise SourceUnavailable(f"The camera at {path} cannot be opened (in use by another program?).")
        cap.set(cv2.CAP_PROP_FRAME_WIDTH, self.size[0])
        cap.set(cv2.CAP_PROP_FRAME_HEIGHT, self.size[1])
        self._cap = cap

    def _read(self):
        ok, image = self._cap.read()
        if not ok or image is None:
            raise SourceLost(f"The camera at {self._path()} stopped giving pictures: was it unplugged?")
        return image, self.clock()


class Picamera2Source(FrameSource):
    """The Raspberry Pi camera through picamera2 (installed from apt on the Pi)."""

    name = "picamera2:"

    def __init__(self, size: tuple[int, int] = (640, 480), clock=time.monotonic):
        super().__init__()
        self.size = size
        self.clock = clock
        self._camera = None

    def _open(self):
        try:
            from picamera2 import Picamera2
        except ImportError:
            raise SourceUnavailable("The Pi camera library picamera2 is not installed "
                                    "(on a Raspberry Pi: sudo apt install python3-picamera2).") from None
        try:
            camera = Picamera2()
            # libcamera names formats by word order: "RGB888" is stored B, G, R byte by byte,
            # the order OpenCV calls BGR (picamera2 manual; "BGR888" would swap red and blue).
            camera.configure(camera.create_video_configuration(main={"size": self.size, "format": "RGB888"}))
            camera.start()
        except (RuntimeError, IndexError, OSError) as exc:
            raise SourceUnavailable(f"The Pi camera cannot be opened: {exc}") from exc
        self._camera = camera

    def _read(self):
        try:
            image = self._camera.capture_array("main")
        except (RuntimeError, OSError) as exc:
            raise SourceLost(f"The Pi camera stopped giving pictures: {exc}") from exc
        return np.ascontiguousarray(image[..., :3]), self.clock()

    def _close(self):
        if self._camera is not None:
            try:
                self._camera.stop()
                self._camera.close()
            finally:
                self._camera = None


class SimulatedSource(FrameSource):
    """The simulator as a camera: see vision.sim.SimulatedTray (roll(), clear(), periodic rolls)."""

    def __init__(self, tray: SimulatedTray | None = None, **options):
        super().__init__()
        self.tray = tray or SimulatedTray(**options)
        self.name = "sim:"

    def roll(self, faces=None) -> None:
        self.tray.roll(faces)

    def clear(self) -> None:
        self.tray.clear()

    def _read(self):
        return self.tray.next_frame()


def on_raspberry_pi(model_file: Path = Path("/proc/device-tree/model")) -> bool:
    try:
        return "raspberry pi" in model_file.read_text(errors="ignore").lower()
    except OSError:
        return False


def usb_webcams(by_id: Path = Path("/dev/v4l/by-id")) -> list[str]:
    """USB webcams' capture nodes (a Pi's own codec and ISP nodes have no by-id name)."""
    return sorted(str(p) for p in by_id.glob("*-video-index0")) if by_id.is_dir() else []


class AutoSource(FrameSource):
    """The table's camera, found: on a Raspberry Pi the Pi camera, else its first USB webcam
    (none: SourceUnavailable, and the app retries until one is plugged in); elsewhere the
    simulator, so that a laptop's own webcam is never taken for the tray camera."""

    name = "auto:"

    def __init__(self, on_pi=on_raspberry_pi, webcams=usb_webcams, simulator_options: dict | None = None):
        super().__init__()
        self._on_pi, self._webcams = on_pi, webcams
        self._options = simulator_options or {}
        self.inner: FrameSource | None = None

    def _candidates(self) -> list[FrameSource]:
        if not self._on_pi():
            return [SimulatedSource(**self._options)]
        return [Picamera2Source()] + [V4L2Source(path) for path in self._webcams()]

    def _open(self):
        reasons = []
        for source in self._candidates():
            try:
                self.inner = source.open()
            except SourceUnavailable as exc:
                reasons.append(str(exc))
                continue
            self.name = f"auto: {source.name}"
            return
        raise SourceUnavailable("No camera found: " + " ".join(reasons))

    def _read(self):
        frame = self.inner.read()
        return frame.image, frame.timestamp

    def _close(self):
        if self.inner is not None:
            self.inner.close()
            self.inner = None

    def __getattr__(self, name):
        # What the chosen source can do besides reading (the simulator's roll() and clear()).
        inner = self.__dict__.get("inner")
        if inner is None:
            raise AttributeError(name)
        return getattr(inner, name)


def open_source(spec: str) -> FrameSource:
    """A source from its URL-like name (see the module docstring); not opened yet."""
    spec = spec.strip()
    scheme, sep, rest = spec.partition(":")
    if not sep or len(scheme) < 2:  # a bare path (also Windows-like "C:..." is not a scheme here)
        return _source_for_path(spec)
    scheme = scheme.lower()
    if scheme == "picamera2":
        return Picamera2Source()
    if scheme == "v4l2":
        rest = rest or "0"
        return V4L2Source(int(rest) if rest.isdigit() else rest)
    if scheme == "file":
        return ImageFileSource(rest)
    if scheme == "folder":
        return FolderSource(rest)
    if scheme == "video":
        return VideoSource(rest)
    if scheme == "sim":
        return SimulatedSource(**parse_sim_options(rest))
    if scheme == "auto":
        return AutoSource(simulator_options=parse_sim_options(rest))
    raise SourceUnavailable(f"Unknown camera source {spec!r}: use auto:, picamera2:, v4l2:0, /dev/video0, "
                            "file:image.jpg, folder:dir, video:clip.mp4 or sim:?dice=2.")


def _source_for_path(spec: str) -> FrameSource:
    if spec.startswith("/dev/video"):
        return V4L2Source(spec)
    if spec.isdigit():
        return V4L2Source(int(spec))
    p = Path(spec)
    if p.is_dir():
        return FolderSource(p)
    if p.suffix.lower() in IMAGE_SUFFIXES:
        return ImageFileSource(p)
    if p.suffix.lower() in (".mp4", ".avi", ".mkv", ".mov", ".webm", ".mjpeg"):
        return VideoSource(p)
    raise SourceUnavailable(f"Unknown camera source {spec!r}: not a camera, image, folder or video.")
