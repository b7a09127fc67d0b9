"""Buttons sized for fingers, and the banner that shows a refusal's rule sentence."""
from __future__ import annotations

from functools import partial

from kivy.clock import Clock
from kivy.lang import Builder
from kivy.metrics import dp
from kivy.properties import BooleanProperty, ColorProperty, NumericProperty
from kivy.uix.behaviors import ButtonBehavior
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from .. import theme

Builder.load_string(f"""
<TouchButton>:
    background_normal: ''
    background_down: ''
    background_color: 0, 0, 0, 0
    color: {list(theme.TEXT)}
    font_size: sp(self.text_px) * app.ui_scale
    size_hint_min: dp({theme.TOUCH}), dp({theme.TOUCH})
    halign: 'center'
    valign: 'middle'
    text_size: self.width - self.margin, None
    canvas.before:
        Color:
            rgba: self.fill if self.state == 'normal' and not self.chosen else (self.chosen_fill if self.chosen else {list(theme.BUTTON_DOWN)})
        RoundedRectangle:
            pos: self.x + dp(2), self.y + dp(2)
            size: self.width - dp(4), self.height - dp(4)
            radius: [dp(8)]
        Color:
            rgba: {list(theme.TEXT)} if self.chosen and self.ring else (0, 0, 0, 0)
        Line:
            rounded_rectangle: (self.x + dp(4), self.y + dp(4), self.width - dp(8), self.height - dp(8), dp(7))
            width: dp(2.2)
        Color:
            rgba: ({list(theme.BACKGROUND[:3])} + [0.55]) if self.disabled else (0, 0, 0, 0)
        RoundedRectangle:
            pos: self.x + dp(2), self.y + dp(2)
            size: self.width - dp(4), self.height - dp(4)
            radius: [dp(8)]

<Banner>:
    size_hint: 1, None
    height: max(dp({theme.BAR}) * app.ui_scale, self.texture_size[1] + dp(20)) if self.text else 0
    text_size: self.width - dp(32), None
    halign: 'center'
    valign: 'middle'
    font_size: sp(18) * app.ui_scale
    color: 1, 1, 1, 1
    opacity: 1 if self.text else 0
    canvas.before:
        Color:
            rgba: ({list(theme.ERROR)} if self.error else {list(theme.INFO)}) if self.text else (0, 0, 0, 0)
        RoundedRectangle:
            pos: self.x + dp(6), self.y + dp(6)
            size: self.width - dp(12), self.height - dp(12)
            radius: [dp(10)]
""")


def shown(widget, visible: bool, height: float) -> None:
    """Show or fold away a fixed-height row (folded rows take no room and take no taps)."""
    widget.height = height if visible else 0
    widget.opacity = 1 if visible else 0
    widget.disabled = not visible


class TouchButton(Button):
    """A button at least 48 px each way, with a rounded fill; `chosen` marks the current pick."""

    fill = ColorProperty(theme.BUTTON)
    chosen_fill = ColorProperty(theme.ACCENT)
    chosen = BooleanProperty(False)
    ring = BooleanProperty(False)  # draw a ring when chosen (keeps the colour: Project chips)
    # The text's size at 800x480 (grown with the window). A font_size given to the constructor
    # is overridden by the rule above, which follows the window's scale: give text_px instead.
    text_px = NumericProperty(18)
    margin = NumericProperty(dp(24))  # room left and right of the text


class Banner(ButtonBehavior, Label):
    """A message across the bottom: red for a refused move (the rule sentence), blue for info.
    A tap hides it until the next message."""

    error = BooleanProperty(False)
    serial = -1

    def say(self, message: str, error: bool = False, serial: int = 0) -> None:
        """Show `message` unless this very message (same serial) was dismissed by a tap."""
        if serial != self.serial:
            self.serial = serial
            self.error = error
            self.text = message

    def on_release(self) -> None:
        self.text = ""

    def collide_point(self, x, y):
        # An empty banner must not eat the taps meant for the buttons under it.
        return bool(self.text) and super().collide_point(x, y)


class TapScrollView(ScrollView):
    """A ScrollView whose tap reaches the button under the finger at once. Kivy's ScrollView
    sends a short tap's release 0.2 s after the finger lifts (Clock.schedule_once(..., .2) in
    its on_scroll_stop), so every tap on a scrolling menu took at least 200 ms to act. The
    release is sent here on the next frame (once the touch is back in window coordinates, as
    Kivy's own call expects); Kivy's late copy then finds no button holding the touch and does
    nothing."""

    def on_scroll_stop(self, touch, check_children=True):
        ud = touch.ud.get(self._get_uid())
        tap = ud is not None and ud.get("mode") == "unknown" and not ud.get("user_stopped")
        result = super().on_scroll_stop(touch, check_children)
        if tap:
            Clock.schedule_once(partial(self._do_touch_up, touch), 0)
        return result
