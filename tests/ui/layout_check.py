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


# -- drawn text and tap areas (widgets that paint their own text: the Centerville board) --------
MIN_TEXT_PX = 18  # every word at 800x480
FLOOR_TEXT_PX = 16  # every word at any window size
MIN_CONTRAST = 4.5  # WCAG 2 AA for text


def relative_luminance(rgba) -> float:
    """WCAG 2 relative luminance of an sRGB colour with channels 0-1."""
    def lin(c):
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (lin(c) for c in rgba[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast_ratio(a, b) -> float:
    high, low = sorted((relative_luminance(a), relative_luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


def text_problems(marks, min_px: float = MIN_TEXT_PX, bounds=None) -> list[str]:
    """Problems of drawn texts (objects with text, px, size, colour, background, pos): too small
    (font size, or a rendered texture shorter than it), too little contrast, outside `bounds`."""
    found = []
    for m in marks:
        if m.px < min_px or m.px < FLOOR_TEXT_PX:
            found.append(f"text {m.text!r} is {m.px} px: at least {max(min_px, FLOOR_TEXT_PX):.0f} px")
        if m.size[1] < min(m.px, min_px):
            found.append(f"text {m.text!r} renders {m.size[1]} px tall, less than {min(m.px, min_px):.0f}")
        ratio = contrast_ratio(m.colour, m.background)
        if ratio < MIN_CONTRAST:
            found.append(f"text {m.text!r}: contrast {ratio:.2f} with its background, at least {MIN_CONTRAST}")
        if bounds is not None:
            x, y, w, h = bounds
            tx, ty = m.pos
            if tx < x - 1 or ty < y - 1 or tx + m.size[0] > x + w + 1 or ty + m.size[1] > y + h + 1:
                found.append(f"text {m.text!r} at {tx:.0f},{ty:.0f} ({m.size[0]}x{m.size[1]}) is outside "
                             f"{x:.0f},{y:.0f} {w:.0f}x{h:.0f}")
    return found


def target_problems(rects: dict, min_px: float = TOUCH_PX) -> list[str]:
    """Tap areas (name -> x, y, w, h) smaller than a fingertip either way."""
    return [f"tap area {name} is {w:.0f}x{h:.0f} px: a touch target needs {min_px} px each way"
            for name, (x, y, w, h) in rects.items() if min(w, h) < min_px - 0.5]


def label_problems(root, background, min_px: float = MIN_TEXT_PX) -> list[str]:
    """Labels under `root` (shown, with text) too small or with too little contrast on `background`
    (buttons are checked against their own fill)."""
    from kivy.uix.label import Label

    found = []
    for w in root.walk():
        if not isinstance(w, Label) or not w.text or w.opacity == 0:
            continue
        if w.font_size < min_px or w.font_size < FLOOR_TEXT_PX:
            found.append(f"{type(w).__name__}({w.text[:30]!r}) font {w.font_size:.0f} px: at least {min_px:.0f}")
        fill = getattr(w, "fill", None) or background
        ratio = contrast_ratio(w.color, fill)
        if ratio < MIN_CONTRAST:
            found.append(f"{type(w).__name__}({w.text[:30]!r}): contrast {ratio:.2f}, at least {MIN_CONTRAST}")
    return found
