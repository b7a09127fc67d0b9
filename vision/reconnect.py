"""A camera that comes back: retries opening a source in the background after it is lost.

The app reads through `ReconnectingSource`; while the camera is away `read()` raises SourceLost at
once (the app shows manual dice entry) and a daemon thread tries to open a fresh source every
`retry_seconds`. `state` tells the screen what is going on: "connecting" (first try still
running), "connected", "lost" (with `last_error`, the sentence to show) or "closed".
"""
from __future__ import annotations

import threading
from typing import Callable

from .sources import Frame, FrameSource, SourceError, SourceLost, open_source

__all__ = ["ReconnectingSource", "CONNECTING", "CONNECTED", "LOST", "CLOSED"]

CONNECTING, CONNECTED, LOST, CLOSED = "connecting", "connected", "lost", "closed"


class ReconnectingSource:
    def __init__(self, factory: Callable[[], FrameSource] | str, retry_seconds: float = 2.0):
        self._factory = (lambda: open_source(factory)) if isinstance(factory, str) else factory
        self.retry_seconds = retry_seconds
        self._lock = threading.Lock()
        self._source: FrameSource | None = None
        self._state = CONNECTING
        self.last_error: str | None = None
        self._changed = threading.Condition(self._lock)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._retry_loop, name="camera-reconnect", daemon=True)
        self._thread.start()

    @property
    def state(self) -> str:
        with self._lock:
            return self._state

    def wait_connected(self, timeout: float | None = None) -> bool:
        """Block until connected (True) or timeout (False)."""
        with self._changed:
            return self._changed.wait_for(lambda: self._state in (CONNECTED, CLOSED), timeout) \
                and self._state == CONNECTED

    def read(self) -> Frame:
        with self._lock:
            source = self._source
            if source is None:
                raise SourceLost(self.last_error or "The camera is not connected yet.")
        try:
            return source.read()
        except SourceError as exc:
            self._lose(source, str(exc))
            raise SourceLost(str(exc)) from exc

    def close(self) -> None:
        self._stop.set()
        with self._changed:
            source, self._source = self._source, None
            self._state = CLOSED
            self._changed.notify_all()
        if source is not None:
            source.close()
        self._thread.join(timeout=5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def _lose(self, source: FrameSource, message: str) -> None:
        with self._changed:
            if self._source is source:
                self._source = None
                self._state = LOST
                self.last_error = message
                self._changed.notify_all()
        source.close()

    def _retry_loop(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                need = self._source is None
            if need:
                try:
                    source = self._factory().open()
                except SourceError as exc:
                    with self._changed:
                        self.last_error = str(exc)
                        self._state = LOST
                        self._changed.notify_all()
                else:
                    with self._changed:
                        if self._stop.is_set():
                            source.close()
                            return
                        self._source = source
                        self._state = CONNECTED
                        self.last_error = None
                        self._changed.notify_all()
            self._stop.wait(self.retry_seconds)
