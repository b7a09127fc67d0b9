"""Run in a child process by test_touch_window.py: open a real Kivy window with an [input]
section, press the window's mouse once (what SDL reports for a tap on a touch screen), and print
how many touches the widget tree received, as JSON on the last line of stdout."""
from __future__ import annotations

import json
import os
import sys

os.environ.setdefault("KIVY_NO_ARGS", "1")
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")

from kivy.config import Config  # noqa: E402

from hardware.touch import apply_kivy_input  # noqa: E402

apply_kivy_input(Config, json.loads(sys.argv[1]))

from kivy.base import EventLoop, runTouchApp, stopTouchApp  # noqa: E402
from kivy.clock import Clock  # noqa: E402
from kivy.uix.widget import Widget  # noqa: E402

touches: list[str] = []


class Table(Widget):
    def on_touch_down(self, touch):
        touches.append(touch.device)
        return True


def tap(_dt):
    window = EventLoop.window
    window.dispatch("on_mouse_down", 100, 100, "left", [])
    window.dispatch("on_mouse_up", 100, 100, "left", [])
    frames = [0]

    def after_frames(_dt):
        # Providers deliver on the next frames; a few frames later every copy has arrived.
        frames[0] += 1
        if frames[0] < 5:
            Clock.schedule_once(after_frames, 0)
        else:
            stopTouchApp()

    Clock.schedule_once(after_frames, 0)


Clock.schedule_once(tap, 0)
runTouchApp(Table())
print(json.dumps({"touches": touches}))
