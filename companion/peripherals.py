"""The table's hardware in the running app: `attach(table)` is what `companion run` hands to
companion.ui.app.run.

- Buttons, the RGB LED and the serial panel (hardware.devices.TableDevices) put their commands
  on the table's queue; the LEDs and the panel's ring follow the table's light, and the tray
  light is on while the dice are read.
- The service manager hears READY once the first frame is drawn, and watchdog pings from the
  Kivy main loop (a Clock interval), so a hung screen stops the pings and systemd restarts it.
- The dice camera (companion/dice_camera.py) reads the configured source in its own thread.

Everything is closed by the callable `attach` returns, in the reverse order of starting.
"""
from __future__ import annotations

import sys
from typing import Any

from companion.checked_photos import FOLDER as PHOTOS
from companion.checked_photos import ICON_FOLDER as ICON_PHOTOS
from companion.checked_photos import CheckedPhotos, HeldPhotos
from companion.dice_camera import DiceCamera
from companion.events import TableLight
from companion.photos_to_box import FOLDER as TO_BOX
from companion.photos_to_box import PhotosToBox
from companion.pip_checks import PipChecks
from companion.taught_dice import icon_dice_in_play
from hardware.config import Config, load_config
from hardware.devices import TableDevices
from hardware.notify import Notifier


class Peripherals:
    """What `attach` started; calling it closes everything (idempotent)."""

    def __init__(self, table, config: Config, *, pin_factory: Any = None,
                 notifier: Notifier | None = None, camera: DiceCamera | None = None) -> None:
        self.table = table
        self.config = config
        self.devices = TableDevices(config, pin_factory=pin_factory)
        self.notifier = notifier or Notifier()
        self.camera = camera if camera is not None else (
            DiceCamera(config.camera.source, table.post, model=config.camera.model,
                       rotation=config.camera.rotation, keep_photos=config.camera.keep_photos)
            if config.camera.source else None)
        self.problems: list[str] = []
        self._camera_said = ""
        self._ticks = None
        self._closed = False

    def start(self) -> "Peripherals":
        self.devices.start(self.table.queue)
        self.problems.extend(self.devices.problems)
        self.table.on_light(self.show_light)
        self.show_light(self.table.light)
        if self.camera is not None:
            self.table.camera = self.camera
            self.table.dice_reader = self.camera.read_now
            checks = self.table.pip_checks   # the app's, beside games.db (companion.ui.main)
            if checks is not None and checks.model != self.config.camera.model:
                self.table.pip_checks = checks = PipChecks(checks.data_dir, self.config.camera.model)
            if checks is not None and self.config.camera.keep_photos:
                checks.photos = CheckedPhotos(checks.data_dir / PHOTOS)
                checks.to_box = PhotosToBox(checks.data_dir / PHOTOS / TO_BOX)
                self.table.icon_photos = HeldPhotos(CheckedPhotos(checks.data_dir / ICON_PHOTOS, icons=True),
                                                    PhotosToBox(checks.data_dir / ICON_PHOTOS / TO_BOX, icons=True))
            self.table.subscribe(self._camera_status)
            self.table.subscribe(self._camera_dice)
            self._camera_dice(self.table)
            self.camera.start()
        self._follow_main_loop()
        return self

    def show_light(self, light: TableLight) -> None:
        """The table's light on the LED and the panel's ring; the tray lit while reading."""
        if self._closed:
            return      # the table has no way to unsubscribe; closed devices stay dark
        self.devices.set_light(light)
        self.devices.tray_light(light is TableLight.READING)

    def _camera_status(self, table) -> None:
        """The camera's state as the service's STATUS= (`systemctl status companion` shows it)."""
        if self._closed or table.camera is not self.camera or table.camera_status == self._camera_said:
            return
        self._camera_said = table.camera_status
        detail = self.camera.message if table.camera_status == "unavailable" else self.camera.spec
        self.notifier.status(f"dice camera {table.camera_status}: {detail}")

    def _camera_dice(self, table) -> None:
        """Icon dice by the taught examples while Centerville is played or taught; pips else,
        asked about below the threshold the table's checked reads earned."""
        if not self._closed and table.camera is self.camera:
            self.camera.read_with(icon_dice_in_play(table))
            if table.pip_checks is not None:
                self.camera.ask_below(table.pip_checks.ask_below())

    def _follow_main_loop(self) -> None:
        from kivy.clock import Clock
        from kivy.core.window import Window

        ready = []

        def first_frame(*_args) -> None:
            Window.unbind(on_flip=first_frame)
            ready.append(self.notifier.ready("Tabletop Companion is on the screen"))

        def tick(_dt) -> None:
            if ready:       # pings only once READY went out: the watchdog starts from there
                self.notifier.tick()

        Window.bind(on_flip=first_frame)
        interval = self.notifier.watchdog_interval
        # Ticks well inside half the watchdog interval: tick() itself sends at the half.
        every = 1.0 if interval is None else max(0.05, min(1.0, interval / 4))
        self._ticks = Clock.schedule_interval(tick, every)

    def __call__(self) -> None:
        self.close()

    def __enter__(self) -> "Peripherals":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.notifier.stopping()
        if self._ticks is not None:
            self._ticks.cancel()
        if self.camera is not None:
            self.camera.close()
            if self.table.camera is self.camera:
                self.table.camera, self.table.dice_reader, self.table.camera_status = None, None, ""
                if self.table.pip_checks is not None:
                    self.table.pip_checks.settle()   # the last roll's checks are kept
        self.devices.tray_light(False)
        self.devices.close()


def attach(table, config: Config | None = None, *, pin_factory: Any = None,
           notifier: Notifier | None = None, camera: DiceCamera | None = None) -> Peripherals:
    """Start the table's devices and dice camera for `table`; returns the closer."""
    if config is None:
        config, _warnings = load_config()   # the app has already printed these warnings
    peripherals = Peripherals(table, config, pin_factory=pin_factory, notifier=notifier,
                              camera=camera).start()
    for problem in peripherals.problems:
        # sys.__stderr__: Kivy has swapped sys.stderr for its own log by now; this is for the
        # console and, under systemd, the journal.
        print(f"hardware: {problem}", file=sys.__stderr__)
    return peripherals
