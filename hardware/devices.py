"""Everything physical at the table behind one object, for the app's wiring (companion/table.py).

    devices = TableDevices(config).start(queue)   # buttons + LED, and the panel in the background
    devices.set_light(TableLight.WAITING_FOR_DICE)
    devices.tray_light(True)                      # while the dice are read
    devices.close()                               # on exit; idempotent

A part that cannot start (no GPIO on a laptop, pins busy) is left out and named in `problems`;
the table carries on with the touch screen and keys.
"""
from __future__ import annotations

from typing import Any

from companion.events import EventQueue, TableLight
from hardware.buttons import TableButtons
from hardware.config import Config
from hardware.panel import Panel


class TableDevices:
    """The GPIO buttons and LED, and the serial panel, started and stopped together."""

    def __init__(self, config: Config, *, pin_factory: Any = None) -> None:
        self.config = config
        self.pin_factory = pin_factory
        self.buttons: TableButtons | None = None
        self.panel = Panel(config.panel)
        self.problems: list[str] = []
        self._light = TableLight.IDLE

    def start(self, queue: EventQueue) -> "TableDevices":
        if self.config.gpio.enabled and self.buttons is None:
            try:
                self.buttons = TableButtons(self.config.gpio, pin_factory=self.pin_factory).start(queue)
                self.buttons.set_light(self._light)
            except Exception as exc:   # gpiozero has many failure types; none may stop the table
                self.problems.append(f"GPIO buttons left out: {exc} (see: companion doctor)")
        self.panel.start(queue)
        return self

    def set_light(self, light: TableLight | str) -> None:
        self._light = TableLight(light)
        if self.buttons is not None:
            self.buttons.set_light(self._light)
        self.panel.set_light(self._light)

    def tray_light(self, on: bool) -> None:
        self.panel.tray_light(on)

    def close(self) -> None:
        if self.buttons is not None:
            self.buttons.close()
        self.panel.close()

    def __enter__(self) -> "TableDevices":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
