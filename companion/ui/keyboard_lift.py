"""A focused text field is never under the docked on-screen keyboard.

On the touchscreen Kivy docks its keyboard along the bottom of the window (keyboard_mode
"dock" or "systemanddock"), over whatever is there: the lower player-name fields of the set-up
and of Score our board. While such a field has the keyboard, the app's screens move up by as
much as the field would be under the keyboard's top (and a margin), and come back down when
typing ends. Kivy's own softinput_mode "below_target" measures the field in its parent's
coordinates, which puts the fields of nested layouts in the wrong place: hence this.
"""
from __future__ import annotations

MARGIN = 8  # px between the field and the keyboard's top


def docked(config) -> bool:
    return config.get("kivy", "keyboard_mode") in ("dock", "systemanddock")


def keyboard_height(window) -> float:
    """The docked keyboard's height: Kivy's VKeyboard stretched to the window's width."""
    from kivy.uix.vkeyboard import VKeyboard

    for child in window.children:
        if isinstance(child, VKeyboard):
            return child.height * child.scale
    keyboard = VKeyboard()
    return keyboard.height * window.width / keyboard.width


class KeyboardLift:
    """Moves the window's child holding a text field (the screens, or a dialog) up while the
    field, under the docked keyboard, has it."""

    @classmethod
    def on(cls, window) -> "KeyboardLift":
        """The window's one lift (an app made again on the same window, as the tests do, must
        not wrap the keyboard calls twice: two lifts would move a field twice)."""
        lift = getattr(window, "_companion_keyboard_lift", None)
        if lift is None:
            lift = cls(window)
            window._companion_keyboard_lift = lift
        return lift

    def __init__(self, window):
        self.window = window
        self.lifted = None  # (widget moved, its y before)
        request, release = window.request_keyboard, window.release_keyboard

        def requested(callback, target, *args, **kwargs):
            keyboard = request(callback, target, *args, **kwargs)
            self.follow(target)
            return keyboard

        def released(*args, **kwargs):
            done = release(*args, **kwargs)
            self.follow(None)
            return done

        # Every focused field asks the window for the keyboard (kivy FocusBehavior): the one
        # place that hears of them all, whichever screen or dialog made them.
        window.request_keyboard, window.release_keyboard = requested, released

    def _holder(self, target):
        w = target
        while w is not None and w.parent is not None and w.parent is not self.window:
            w = w.parent
        return w if w is not None and w.parent is self.window else None

    def follow(self, target) -> None:
        from kivy.config import Config
        from kivy.uix.textinput import TextInput

        if self.lifted is not None:
            widget, y = self.lifted
            widget.y, self.lifted = y, None
        if not isinstance(target, TextInput) or not docked(Config):
            return
        holder = self._holder(target)
        if holder is None:
            return
        bottom = target.to_window(target.x, target.y)[1]
        lift = keyboard_height(self.window) + MARGIN - bottom
        if lift > 0:
            self.lifted = (holder, holder.y)
            holder.y += lift
