"""A small live view of the dice tray with the read dice boxed (orange: the camera is unsure).

The camera thread keeps its latest frame (companion/dice_camera.py); this widget asks for a
scaled copy a few times a second on the main thread and blits it into its texture, and only
while it is on screen, so the view costs the reader next to nothing. A tap opens a larger view
with a "Read dice" button.
"""
from __future__ import annotations

from kivy.app import App
from kivy.clock import Clock
from kivy.graphics import Color, Line, Rectangle
from kivy.graphics.texture import Texture
from kivy.metrics import dp
from kivy.properties import NumericProperty, ObjectProperty, StringProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

import numpy as np

from companion.events import Command

from .. import theme
from .common import TouchButton


class TrayView(ButtonBehavior, Widget):
    """The tray as the camera sees it. `camera`: a DiceCamera (or None: an empty grey box)."""

    camera = ObjectProperty(None, allownone=True)
    rate = NumericProperty(4.0)       # pictures per second
    picture_width = NumericProperty(160)
    note = StringProperty("")         # e.g. "camera unavailable"
    frame_index = NumericProperty(-1)  # of the picture shown, for tests

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._texture: Texture | None = None
        self._label = Label(font_size=theme.scaled(16), color=theme.TEXT, halign="center", valign="middle")
        self._tick = Clock.schedule_interval(self.update, 1.0 / self.rate)
        self.bind(pos=self.redraw, size=self.redraw, note=self.redraw,
                  rate=lambda *_a: self._reschedule())
        self.redraw()

    def _reschedule(self) -> None:
        self._tick.cancel()
        self._tick = Clock.schedule_interval(self.update, 1.0 / self.rate)

    def update(self, *_args) -> None:
        """Fetch the camera's latest picture if this view is on screen and it is a new one."""
        if self.camera is None or self.opacity == 0 or self.get_root_window() is None:
            return
        picture = self.camera.picture(int(self.picture_width))
        if picture is None or picture.frame_index == self.frame_index:
            return
        rows = np.ascontiguousarray(picture.image[::-1])
        h, w = rows.shape[:2]
        if self._texture is None or tuple(self._texture.size) != (w, h):
            self._texture = Texture.create(size=(w, h), colorfmt="rgb")
        self._texture.blit_buffer(rows.tobytes(), colorfmt="rgb", bufferfmt="ubyte")
        self.frame_index = picture.frame_index
        self.redraw()

    def redraw(self, *_args) -> None:
        self.canvas.clear()
        with self.canvas:
            Color(*theme.PANEL_LIGHT)
            Rectangle(pos=self.pos, size=self.size)
            if self._texture is not None and not self.note:
                tw, th = self._texture.size
                scale = min(self.width / tw, self.height / th)
                w, h = tw * scale, th * scale
                Color(1, 1, 1, 1)
                Rectangle(texture=self._texture, pos=(self.center_x - w / 2, self.center_y - h / 2), size=(w, h))
            Color(*theme.TEXT_DIM)
            Line(rectangle=(self.x, self.y, self.width, self.height), width=1)
        self._label.text = self.note or ("" if self._texture is not None else "camera\nstarting")
        self._label.font_size = theme.scaled(16)
        self._label.size = self.size
        self._label.pos = self.pos
        self._label.text_size = (self.width - dp(4), None)
        self._label.texture_update()
        if self._label.text:
            tex = self._label.texture
            with self.canvas:
                Color(1, 1, 1, 1)
                Rectangle(texture=tex, size=tex.size,
                          pos=(self.center_x - tex.width / 2, self.center_y - tex.height / 2))

    def on_release(self) -> None:
        if self.camera is not None:
            TrayPopup(self.camera).open(animation=False)

    def stop(self) -> None:
        self._tick.cancel()


def _note(text: str) -> Label:
    """A centred dim line under the large view, as tall as its wrapped text."""
    note = Label(text=text, size_hint_y=None, font_size=theme.scaled(16), color=theme.TEXT_DIM, halign="center")
    note.bind(width=lambda w, width: setattr(w, "text_size", (width, None)),
              texture_size=lambda w, size: setattr(w, "height", size[1]))
    return note


class TrayPopup(ModalView):
    """The tray at a size to set the camera up by: the live view, Read dice, Close."""

    def __init__(self, camera, **kwargs):
        super().__init__(size_hint=(0.8, 0.9), background_color=(0, 0, 0, 0.6), **kwargs)
        box = BoxLayout(orientation="vertical", padding=dp(8), spacing=dp(6))
        with box.canvas.before:  # the dialog's own panel, as the dice check's
            Color(*theme.PANEL)
            panel = Rectangle(pos=box.pos, size=box.size)
        box.bind(pos=lambda _w, pos: setattr(panel, "pos", pos), size=lambda _w, size: setattr(panel, "size", size))
        self.view = TrayView(camera=camera, picture_width=480, rate=8)
        box.add_widget(self.view)
        # A source that can throw its own dice is the simulator (sim:, or auto: on a laptop).
        if getattr(getattr(camera, "source", None), "roll", None) is not None or \
                str(getattr(camera, "spec", "")).startswith("sim:"):
            # Nobody can roll a simulated tray: its Read dice (or the R key) throws the dice.
            box.add_widget(_note("Simulated camera: Read dice throws the dice, then reads them."))
        asking = self.asking_said()
        if asking:
            # Why the camera asks so often at a new table, and when it will ask less (companion.pip_checks).
            self.asking = _note(asking)
            box.add_widget(self.asking)
        row = BoxLayout(size_hint_y=None, height=theme.scaled(56), spacing=dp(8))
        read = TouchButton(text="Read dice", fill=theme.CONFIRM)
        read.bind(on_release=lambda _b: App.get_running_app().post("command", Command.READ_DICE))
        close = TouchButton(text="Close")
        close.bind(on_release=lambda _b: self.dismiss(animation=False))
        row.add_widget(read)
        row.add_widget(close)
        box.add_widget(row)
        self.add_widget(box)

    @staticmethod
    def asking_said() -> str:
        """The table's pip asking in words, while pip dice are read ("" for icon dice, or none)."""
        from companion.taught_dice import icon_dice_in_play

        table = getattr(App.get_running_app(), "table", None)
        checks = getattr(table, "pip_checks", None)
        if checks is None or icon_dice_in_play(table) is not None:
            return ""
        return checks.said()

    def on_dismiss(self) -> None:
        self.view.stop()
