"""GPIO buttons and the table-state RGB LED, on gpiozero.

Each button turns into `InputEvent.command(..., source="gpio")` on the EventQueue handed to
`start()`. The callbacks run in gpiozero's threads and do nothing but enqueue: the UI thread
drains the queue (companion/table.py). On a laptop pass `pin_factory=MockFactory()` (or set
`[gpio] pin_factory = "mock"`); keyboard keys stand in for the buttons there.
"""
from __future__ import annotations

import threading
import time
from typing import Any

from gpiozero import Button, RGBLED

from companion.events import Command, EventQueue, InputEvent, TableLight
from hardware.config import ButtonSpec, GpioConfig

# (red, green, blue) on/off per table state; plain on/off so any LED and any pin factory works.
LIGHT_COLOURS: dict[TableLight, tuple[int, int, int]] = {
    TableLight.IDLE: (0, 0, 1),                # blue: nothing to do
    TableLight.WAITING_FOR_DICE: (0, 1, 0),    # green: roll now
    TableLight.READING: (1, 1, 0),             # yellow: hands off the tray
    TableLight.NEEDS_CONFIRMATION: (1, 0, 1),  # magenta: look at the screen
    TableLight.SCORING: (0, 1, 1),             # cyan
    TableLight.GAME_OVER: (1, 1, 1),           # white
}


def make_pin_factory(name: str) -> Any:
    """A gpiozero pin factory by config name ("mock", "lgpio", ...); "" lets gpiozero choose."""
    if not name:
        return None
    from importlib.metadata import entry_points

    for entry in entry_points(group="gpiozero_pin_factories"):
        if entry.name == name:
            return entry.load()()
    raise ValueError(f'no gpiozero pin factory called "{name}"')


class _PressOrHold:
    """One button's rule: a short press fires at once, or on release if the button also has a
    hold (so a long press never also counts as a short one); a hold fires after hold_time.

    A contact that chatters (re-closes within bounce_time of opening) stays one press: gpiozero's
    MockPin and some pin drivers ignore bounce_time, so the filter is here as well.
    """

    def __init__(self, spec: ButtonSpec, button: Button, owner: "TableButtons") -> None:
        self.spec, self.button, self.owner = spec, button, owner
        self.pressed = False          # the debounced state
        self.held = False
        self.settled = threading.Event()
        self.settled.set()
        self._timer: threading.Timer | None = None
        self._lock = threading.Lock()
        button.when_pressed = self._on_press
        button.when_released = self._on_release
        if spec.hold:
            button.when_held = self._on_held

    def _on_press(self) -> None:
        with self._lock:
            if self.pressed:          # re-closed before the release settled: chatter
                self.owner.bounces += 1
                return
            self.pressed, self.held = True, False
            self.settled.clear()
        if self.spec.press and not self.spec.hold:
            self.owner._emit(self.spec.press, self.spec.name, "press")

    def _on_release(self) -> None:
        # Only a contact that stays open for bounce_time is a release.
        timer = threading.Timer(self.owner.bounce_time, self._settle_release)
        timer.daemon = True
        self._timer = timer
        timer.start()

    def _settle_release(self) -> None:
        with self._lock:
            if not self.pressed or self.button.closed or self.button.is_pressed:
                return
            self.pressed = False
            short = bool(self.spec.press and self.spec.hold and not self.held)
        if short:
            self.owner._emit(self.spec.press, self.spec.name, "press")
        self.settled.set()

    def _on_held(self) -> None:
        with self._lock:
            if self.held or not self.pressed:
                return
            self.held = True
        self.owner._emit(self.spec.hold, self.spec.name, "hold")

    def cancel(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        self.settled.set()


class TableButtons:
    """The GPIO buttons and RGB LED. `start(queue)`, `set_light(state)`, `close()` (idempotent)."""

    def __init__(self, config: GpioConfig | None = None, *, pin_factory: Any = None) -> None:
        self.config = config or GpioConfig()
        self.bounce_time = self.config.bounce_time
        self.bounces = 0              # chatter filtered out, for `companion doctor` and tests
        self._queue: EventQueue | None = None
        self._closed = False
        factory = pin_factory if pin_factory is not None else make_pin_factory(self.config.pin_factory)
        self.buttons: dict[str, Button] = {}
        self._rules: list[_PressOrHold] = []
        self.led: RGBLED | None = None
        self.light = TableLight.IDLE
        try:
            for spec in self.config.buttons:
                # pull_up: the button connects the pin to ground, so no resistor is needed.
                button = Button(spec.pin, pull_up=True, bounce_time=self.config.bounce_time,
                                hold_time=self.config.hold_time, pin_factory=factory)
                self.buttons[spec.name] = button
                self._rules.append(_PressOrHold(spec, button, self))
            leds = (self.config.led_red, self.config.led_green, self.config.led_blue)
            if all(pin is not None for pin in leds):
                self.led = RGBLED(*leds, pwm=False, pin_factory=factory)
                self.led.value = LIGHT_COLOURS[self.light]
        except Exception:
            self.close()
            raise

    def start(self, queue: EventQueue) -> "TableButtons":
        """Begin putting button events on `queue`; returns self."""
        self._queue = queue
        return self

    def _emit(self, command: Any, button: str, how: str) -> None:
        queue = self._queue
        if queue is not None and not self._closed:
            queue.put(InputEvent("command", Command(command), "gpio",
                                 detail={"button": button, "gesture": how}))

    def set_light(self, light: TableLight | str) -> None:
        """Show the table's state on the RGB LED (safe from any thread)."""
        self.light = TableLight(light)
        if self.led is not None and not self._closed:
            self.led.value = LIGHT_COLOURS[self.light]

    def wait_settled(self, timeout: float | None = None) -> bool:
        """Wait until every button is let go and its release has settled (tests, shutdown)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        for rule in self._rules:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not rule.settled.wait(left):
                return False
        return True

    def close(self) -> None:
        """Release every pin; safe to call twice."""
        if self._closed:
            return
        self._closed = True
        for rule in self._rules:
            rule.cancel()
        for device in [*self.buttons.values(), self.led]:
            if device is not None:
                device.close()

    def __enter__(self) -> "TableButtons":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
