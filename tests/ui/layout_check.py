"""Layout checks on a live widget tree: inside the window, fingertip-sized, text not cut off."""
from __future__ import annotations

TOUCH_PX = 48


def problems(root, window) -> list[str]:
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView
    from kivy.uix.textinput import TextInput

    from companion.ui.widgets.sheet import VillageSheet

    width, height = window.size
    found = []

    def name(w):
        text = getattr(w, "text", "")
        return f"{type(w).__name__}({text[:30]!r})" if text else type(w).__name__

    def walk(widget):
        for child in widget.children:
            if child.opacity == 0 or child.width <= 0 or child.height <= 0:
                continue
            x, y = child.to_window(*child.pos)
            if x < -1 or y < -1 or x + child.width > width + 1 or y + child.height > height + 1:
                found.append(f"{name(child)} at {x:.0f},{y:.0f} size {child.width:.0f}x{child.height:.0f} "
                             f"is outside the {width}x{height} window")
            if isinstance(child, (ButtonBehavior, TextInput)) and min(child.size) < TOUCH_PX:
                found.append(f"{name(child)} is {child.width:.0f}x{child.height:.0f}: a touch target "
                             f"needs {TOUCH_PX} px each way")
            if isinstance(child, VillageSheet) and child.view is not None:
                cell = child.geometry()[2]
                if cell < TOUCH_PX:
                    found.append(f"the sheet's squares are {cell:.0f} px: a touch target needs {TOUCH_PX}")
            if isinstance(child, Label) and child.text and child.text_size[0] and not child.shorten:
                if child.texture_size[1] > child.height + 2 and not isinstance(child.parent, ScrollView):
                    found.append(f"{name(child)}: its text is {child.texture_size[1]:.0f} px tall in a "
                                 f"{child.height:.0f} px box (cut off)")
            if not isinstance(child, ScrollView):
                walk(child)

    walk(root)
    return found


def assert_layout(drv) -> None:
    """Fail with every layout problem of the app's current screen (see `problems`)."""
    found = problems(drv.app.root, drv.window)
    assert not found, "\n".join(found)
