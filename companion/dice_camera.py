"""The dice camera in the running app: a background thread reads frames from the configured
source, feeds a SettledReader, and posts each settled roll as a dice InputEvent.

The thread never touches Kivy or the session: readings and camera news go through `post`
(the table's thread-safe queue). A camera that is missing or stops giving frames becomes a
"status" event the screen shows as manual dice entry, and the thread retries with a growing
pause (a camera plugged back in is picked up without a restart). `read_now()` (the read-dice
button) makes the next still tray count as a fresh roll; on the simulator it also throws the
dice, since nobody can roll a simulated tray by hand.

`read_with(taught)` switches between the pip reader and one reading Centerville's icon dice by
the table's taught examples (companion.taught_dice): the thread swaps the reader inside its
SettledReader at the next frame, so the tray's settle state and last reading carry over (a
still tray is not read again because the lesson opened). The taught reader is built once per
TaughtDice and embeds the examples again by itself whenever they change.
"""
from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass, replace
from typing import Callable

import cv2
import numpy as np

from companion.events import InputEvent
from companion.memory import release_freed_memory

CONNECTED, UNAVAILABLE = "connected", "unavailable"
# [camera] rotation: degrees clockwise -> OpenCV's turn of the frame (0: none).
TURNS = {0: None, 90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}
# How long "read the dice now" waits for the tray to lie still before reading what is there.
FORCED_READ_WAIT = 4.0


@dataclass(frozen=True)
class TrayPicture:
    """What the live view shows: a small RGB picture with the read dice boxed, and how the
    tray is doing ("moving", "settling", "settled")."""

    image: np.ndarray
    frame_index: int
    state: str


class DiceCamera:
    """The camera thread. `start()`, `read_now()`, `picture(width)`, `close()` (idempotent)."""

    def __init__(self, source: str, post: Callable[[InputEvent], None], *, model: str = "",
                 fps: float = 15.0, backoff: tuple[float, float] = (0.5, 8.0),
                 open_source: Callable | None = None, make_reader: Callable | None = None,
                 rotation: int = 0, keep_photos: bool = False):
        if rotation not in TURNS:
            raise ValueError(f"The camera's rotation is one of 0, 90, 180, 270 degrees, not {rotation!r}.")
        self.spec = source
        self.rotation = rotation         # degrees clockwise each frame is turned before it is read
        self.keep_photos = keep_photos   # each reading carries its frame (companion.checked_photos)
        self.post = post
        self.model = model
        self.fps = fps
        self.backoff = backoff
        self._open_source = open_source
        self._make_reader = make_reader
        self.status = ""                 # "", CONNECTED or UNAVAILABLE (as last posted)
        self.message = ""
        self.frames = 0                  # frames read since start, for tests and doctor
        self.readings = 0                # readings posted
        self.source = None               # the open source (the simulator's tray, for tests)
        self._stop = threading.Event()
        self._force = threading.Event()
        self._lock = threading.Lock()
        self._latest: tuple[np.ndarray, int] | None = None
        self._boxes: tuple = ()          # (box, face, uncertain) of the reading on the tray now
        self._tray_state = "moving"
        self._thread: threading.Thread | None = None
        self._taught = None              # the TaughtDice to read icon dice by; None: pip dice
        self._reading_with = None        # the TaughtDice the reader in use reads by
        self._pip_reader = None
        self._ask_below: float | None = None   # the table's earned threshold for pip dice (None: the reader's own)
        self._own_threshold: float | None = None   # the pip reader's own, to go back to

    # -- the app's side (main thread) ---------------------------------------------------------
    def start(self) -> "DiceCamera":
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="dice-camera", daemon=True)
            self._thread.start()
        return self

    def read_with(self, taught) -> None:
        """Read icon dice by `taught` (a TaughtDice) from the next frame on; None: pip dice."""
        self._taught = taught

    def ask_below(self, threshold: float | None) -> None:
        """Ask about pip dice read below `threshold` from the next frame on (the threshold the
        table earned, companion.pip_checks); None keeps the reader's own."""
        self._ask_below = threshold

    def read_now(self) -> None:
        """Read the dice on the tray as a fresh roll, even if they show the last reading."""
        self._force.set()

    def picture(self, width: int = 320) -> TrayPicture | None:
        """The latest frame, scaled to `width`, RGB, with the dice of the last reading boxed."""
        with self._lock:
            latest, boxes, state = self._latest, self._boxes, self._tray_state
        if latest is None:
            return None
        frame, index = latest
        h, w = frame.shape[:2]
        scale = width / w
        small = cv2.resize(frame, (width, max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
        for box, face, uncertain in boxes:
            x0, y0, x1, y1 = (round(v * scale) for v in box)
            colour = (0, 170, 255) if uncertain else (60, 220, 60)   # BGR: orange = check it
            cv2.rectangle(small, (x0, y0), (x1, y1), colour, 2)
            cv2.putText(small, "?" if face is None else str(face), (x0, max(12, y0 - 3)),
                        cv2.FONT_HERSHEY_SIMPLEX, 0.5, colour, 1, cv2.LINE_AA)
        return TrayPicture(cv2.cvtColor(small, cv2.COLOR_BGR2RGB), index, state)

    def close(self) -> None:
        self._stop.set()
        thread = self._thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=10)

    # -- the thread ---------------------------------------------------------------------------
    def _tell(self, status: str, message: str) -> None:
        if status == self.status:
            return
        was = self.status
        self.status, self.message = status, message
        # The journal (under systemd) or the console: when the camera came and went.
        print(f"camera: {status}: {message if status == UNAVAILABLE else self.spec}", file=sys.__stderr__)
        if status == CONNECTED and was != UNAVAILABLE:
            message = ""                 # a camera that simply works needs no banner
        self.post(InputEvent("status", {"camera": status, "message": message}, "camera"))

    def _reader(self):
        if self._make_reader is not None:
            return self._make_reader()
        from vision.reader import DiceReader
        from vision.settle import SettledReader

        return SettledReader(DiceReader(self.model or None))

    def _source(self):
        if self._open_source is not None:
            return self._open_source(self.spec)
        from vision.sources import open_source

        return open_source(self.spec)

    def _run(self) -> None:
        from vision.sources import SourceError

        try:
            reader = self._reader()
        except Exception as exc:  # a missing or broken model: no retry can bring it back
            self._tell(UNAVAILABLE, f"The dice reader cannot start: enter the dice by hand. {exc}")
            return
        release_freed_memory()   # what loading the models took and let go
        delay = self.backoff[0]
        while not self._stop.is_set():
            try:
                source = self._source().open()
            except (SourceError, ValueError, OSError) as exc:
                self._tell(UNAVAILABLE, f"Camera unavailable: enter the dice by hand. {exc}")
                self._stop.wait(delay)
                delay = min(delay * 2, self.backoff[1])
                continue
            self.source = source
            release_freed_memory()   # what opening took and let go (the simulator draws its tray)
            try:
                self._read_frames(source, reader)
                delay = self.backoff[0]
            except (SourceError, OSError) as exc:
                self._tell(UNAVAILABLE, f"Camera unavailable: enter the dice by hand. {exc}")
                delay = self.backoff[0]   # it worked a moment ago: first retry soon
                self._stop.wait(delay)
            finally:
                self.source = None
                with self._lock:
                    self._latest, self._boxes = None, ()
                source.close()

    def _choose_reader(self, settled) -> None:
        """Put the reader the table wants now (pips, or icons by the taught examples) inside
        `settled`."""
        taught = self._taught
        if taught is self._reading_with:
            return
        if self._pip_reader is None:
            self._pip_reader = settled.reader
        self._reading_with = taught
        try:
            settled.reader = self._pip_reader if taught is None else taught.reader()
        except Exception as exc:  # a broken example or model: the dice are tapped instead
            settled.reader = self._pip_reader
            print(f"camera: the taught dice cannot be read: {exc}", file=sys.__stderr__)

    def _ask_as_earned(self, settled) -> None:
        """The pip reader asks below the table's earned threshold (its own kept until one is set)."""
        pips = settled.reader
        if self._reading_with is not None or not hasattr(pips, "threshold"):
            return
        if self._own_threshold is None:
            self._own_threshold = pips.threshold
        threshold = self._own_threshold if self._ask_below is None else self._ask_below
        if pips.threshold != threshold:
            print(f"camera: pip dice are asked about below {threshold:g} (was {pips.threshold:g})",
                  file=sys.__stderr__)
            pips.threshold = threshold

    def _read_frames(self, source, reader) -> None:
        forced_until: float | None = None   # a "read now" waits until then, on the frames' clock
        period = 1.0 / self.fps
        while not self._stop.is_set():
            started = time.monotonic()
            if hasattr(reader, "reader"):
                self._choose_reader(reader)
                self._ask_as_earned(reader)
            forced_now = self._force.is_set()
            if forced_now:
                self._force.clear()
                reader.reset()
                roll = getattr(source, "roll", None)
                if roll is not None:
                    roll()
                    release_freed_memory()   # the simulator drew a roll
            frame = source.read()
            if TURNS[self.rotation] is not None:   # the reader, the live view and the settle logic see it turned
                frame = replace(frame, image=cv2.rotate(frame.image, TURNS[self.rotation]))
            self.frames += 1
            self._tell(CONNECTED, "The dice camera is back.")
            if forced_now:
                forced_until = frame.timestamp + FORCED_READ_WAIT
            try:
                reading = reader.feed(frame.image, frame.timestamp, frame.index)
            except ValueError as exc:
                if self._reading_with is None:
                    raise
                # A taught example changing under the reader (forgotten mid-read): next frame.
                print(f"camera: a taught reading failed: {exc}", file=sys.__stderr__)
                reading = None
            if reading is None and forced_until is not None:
                if reader.state == "settled":
                    reading = reader.last    # the tray is still and empty (or shows no dice)
                elif frame.timestamp >= forced_until:
                    # Asked to read now and the tray never settled: read what lies there.
                    reading = reader.reader.read(frame.image, frame.index, frame.timestamp)
            moving = reader.state == "moving"
            with self._lock:
                self._latest = (frame.image, frame.index)
                self._tray_state = reader.state
                if reading is not None:
                    self._boxes = tuple((d.box, d.face, d.uncertain) for d in reading.dice)
                elif moving:
                    self._boxes = ()
            if reading is not None:
                forced_until = None
                self.readings += 1
                if self.keep_photos and reading.dice:
                    reading = replace(reading, photo=jpeg(frame.image))
                self.post(InputEvent("dice", reading, "camera"))
            # Pace like a camera; a real one blocks in read() and this waits no more.
            self._stop.wait(max(0.0, period - (time.monotonic() - started)))


PHOTO_QUALITY = 92   # a kept photo is for judging readers later: little of the sensor's detail lost


def jpeg(image) -> bytes | None:
    """A frame as JPEG bytes (None if OpenCV cannot encode it)."""
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, PHOTO_QUALITY])
    return data.tobytes() if ok else None
