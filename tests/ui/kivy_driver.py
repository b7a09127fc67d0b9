"""Drive the real app in this process: real window, real touches, the Clock advanced frame by frame."""
from __future__ import annotations

import os
from pathlib import Path

ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"


class Driver:
    def __init__(self, data_dir: Path, argv=()):
        from companion.ui.app import configure_kivy, parse_args

        configure_kivy(parse_args(list(argv)))
        from kivy.base import EventLoop, runTouchApp

        from companion.store import Store
        from companion.ui.main import CompanionApp

        self.store = Store.open(data_dir / "games.db")
        self.app = CompanionApp(self.store)
        self.app._run_prepare()
        runTouchApp(embedded=True)
        self.loop = EventLoop
        self.frames(3)

    @property
    def window(self):
        return self.loop.window

    @property
    def screen(self):
        return self.app.screens.current_screen

    @property
    def table(self):
        return self.app.table

    def frames(self, n: int = 2) -> None:
        for _ in range(n):
            self.loop.idle()

    def wait_for(self, ready, seconds: float = 10.0) -> bool:
        """Run frames until `ready()` (work on the table's worker thread posts back through the
        pump), at most `seconds`; True if it came."""
        import time

        end = time.monotonic() + seconds
        while not ready():
            if time.monotonic() > end:
                return False
            self.frames(1)
        return True

    def touch(self, x: float, y: float) -> None:
        from kivy.tests.common import UnitTestTouch

        touch = UnitTestTouch(x, y)
        touch.touch_down()
        touch.touch_up()  # no frame between: nothing acts on a press before its release (centerville_play.tap)
        self.frames(2)  # the tap's event is drained by the pump, then the screen redrawn

    def drag(self, start: tuple[float, float], end: tuple[float, float], steps: int = 6) -> None:
        """A finger put down at `start`, moved to `end` over `steps` frames, lifted (window coordinates)."""
        from kivy.tests.common import UnitTestTouch

        touch = UnitTestTouch(*start)
        touch.touch_down()
        self.frames(1)
        for step in range(1, steps + 1):
            touch.touch_move(start[0] + (end[0] - start[0]) * step / steps,
                             start[1] + (end[1] - start[1]) * step / steps)
            self.frames(1)
        touch.touch_up()
        self.frames(2)

    def tap(self, widget) -> None:
        assert widget.opacity > 0 and not widget.disabled, f"{widget} is not tappable now"
        x, y = widget.to_window(*widget.center)
        self.touch(x, y)

    def scroll_to_see(self, view, widget) -> bool:
        """Scroll `view` until `widget`'s centre is inside it and the list is still, as a finger
        would before tapping (a touch while a list still glides only stops it); False if it
        could not be brought into view."""
        def visible():
            bottom, top = view.to_window(*view.pos)[1], view.to_window(view.x, view.top)[1]
            return bottom < widget.to_window(*widget.center)[1] < top

        for _ in range(20):
            if visible() and not view.effect_y.velocity:
                return True
            if not visible():
                view.scroll_to(widget, padding=0, animate=False)
            self.frames(1)
        return visible()

    def tap_square(self, row: int, street: int) -> None:
        sheet = self.screen.ids.sheet
        x, y, side = sheet.square_rect(row, street)
        self.touch(*sheet.to_window(x + side / 2, y + side / 2))

    def tap_avenue(self, row: int) -> None:
        sheet = self.screen.ids.sheet
        x, y, w, h = sheet.label_rect(row)
        self.touch(*sheet.to_window(x + w / 2, y + h / 2))

    def screenshot(self, name: str) -> Path:
        ARTIFACTS.mkdir(exist_ok=True)
        self.frames(2)
        target = ARTIFACTS / f"{name}.png"
        made = self.window.screenshot(name=str(target))
        os.replace(made, target)
        return target

    def resize(self, width: int, height: int) -> None:
        self.window.size = (width, height)
        self.frames(4)

    def close(self) -> None:
        self.app.stop()
        self.store.close()
