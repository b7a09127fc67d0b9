"""Input events: everything that happens at the table, from any source, in one shape.

Threads of gpiozero, pyserial and the camera never touch Kivy or the session: they `put`
events on an `EventQueue`, which the Kivy main thread drains (see companion/table.py).
"""
from __future__ import annotations

import queue
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Command(str, Enum):
    """The table's physical commands, the same from a key, a GPIO button or the serial panel."""

    NEXT = "next"            # next phase / done
    CONFIRM = "confirm"
    UNDO = "undo"
    REDO = "redo"
    READ_DICE = "read_dice"  # read the dice tray now


class TableLight(str, Enum):
    """What the table is waiting for, shown on LEDs and the panel's ring."""

    IDLE = "idle"
    WAITING_FOR_DICE = "waiting_for_dice"
    READING = "reading"
    NEEDS_CONFIRMATION = "needs_confirmation"
    SCORING = "scoring"
    GAME_OVER = "game_over"


@dataclass(frozen=True)
class InputEvent:
    """kind: "command" (value: Command), "dice" (value: a dice reading), "tap", "key", "status".

    source: "touch", "keyboard", "gpio", "panel", "camera" -- for the log line and diagnostics.
    """

    kind: str
    value: Any = None
    source: str = ""
    detail: dict = field(default_factory=dict, compare=False)

    @classmethod
    def command(cls, command: Command | str, source: str) -> "InputEvent":
        return cls("command", Command(command), source)


class EventQueue:
    """A thread-safe queue of InputEvents: any thread puts, the UI thread drains."""

    def __init__(self) -> None:
        self._queue: queue.SimpleQueue[InputEvent] = queue.SimpleQueue()

    def put(self, event: InputEvent) -> None:
        self._queue.put(event)

    def drain(self, limit: int = 100) -> list[InputEvent]:
        events = []
        while len(events) < limit:
            try:
                events.append(self._queue.get_nowait())
            except queue.Empty:
                break
        return events

    def get(self, timeout: float | None = None) -> InputEvent:
        """Block until an event arrives (for tests and headless loops); queue.Empty on timeout."""
        return self._queue.get(timeout=timeout)
