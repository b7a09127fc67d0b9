"""Layout checks on a live widget tree: inside the window, fingertip-sized, text not cut off."""
from __future__ import annotations

import re

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
                found.extend(_split_words(child, name(child)))
            if not isinstance(child, ScrollView):
                walk(child)

    walk(root)
    return found


def _split_words(label, shown_as: str) -> list[str]:
    """A word wider than the label's wrapping width: Kivy breaks it across lines ("contra / ct")."""
    room = label.text_size[0] - label.padding[0] - label.padding[2]
    text = re.sub(r"\[/?[a-z_]+(=[^\]]*)?\]", "", label.text) if label.markup else label.text
    words = set(text.split())
    wide = [w for w in words if label._label.get_extents(w)[0] > room + 1]
    return [f"{shown_as}: the word {w!r} is wider than its {room:.0f} px line (cut off, split across lines)"
            for w in sorted(wide)]


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


# -- the screen audit: every label, every target, every input of a shown widget tree -----------
LARGE_WORDS = ("name", "score", "points", "total")  # ids of labels held to the buttons' size


def _blend(top, under):
    a = top[3] if len(top) > 3 else 1
    return tuple(t * a + u * (1 - a) for t, u in zip(top[:3], under[:3])) + (1,)


def _own_fill(widget, point=None):
    """The colour `widget` paints behind its children, or None: a TouchButton's fill, a
    ModalView's background colour, the last solid Color before a rectangle in its canvas.before."""
    from kivy.graphics import Color, Rectangle, RoundedRectangle
    from kivy.uix.modalview import ModalView

    if hasattr(widget, "fill") and hasattr(widget, "chosen_fill"):
        return tuple(widget.chosen_fill if widget.chosen else widget.fill)
    if isinstance(widget, ModalView):
        return tuple(widget.background_color)
    plain = Rectangle().texture.id  # the texture of a rectangle given none: a plain fill
    colour, found = None, None
    for canvas in (widget.canvas.before, widget.canvas):
        if canvas is None:
            continue
        for instruction in canvas.children:
            if isinstance(instruction, Color):
                colour = tuple(instruction.rgba)
            elif isinstance(instruction, (Rectangle, RoundedRectangle)) and colour is not None \
                    and colour[3] > 0 and (instruction.texture is None or instruction.texture.id == plain) and min(instruction.size) > 0:
                if point is not None:  # a stripe or a badge beside the text is not behind it
                    x, y = widget.to_window(*instruction.pos)
                    w, h = instruction.size
                    if not (x - 1 <= point[0] <= x + w + 1 and y - 1 <= point[1] <= y + h + 1):
                        continue
                found = colour
    return found


def backdrop(widget, default):
    """The nearest fill drawn behind `widget` (itself or an ancestor), blended down to `default`."""
    fills, w = [], widget
    point = widget.to_window(*widget.center)
    while w is not None and w is not w.parent:
        fill = _own_fill(w, point)
        if fill is not None:
            fills.append(fill)
            if fill[3] >= 0.999:
                break
        w = w.parent
    colour = tuple(default)
    for fill in reversed(fills):
        colour = _blend(fill, colour)
    return colour


def _shown(widget) -> bool:
    w = widget
    while w is not None and w is not w.parent:
        if w.opacity == 0 or w.width <= 0 or w.height <= 0:
            return False
        w = w.parent
    return True


def _ident(w) -> str | None:
    """`w`'s id in the kv rule that made it (looked up in its nearest ancestors' ids)."""
    p = w.parent
    for _ in range(8):
        if p is None:
            return None
        for key, value in getattr(p, "ids", {}).items():
            if value is w:
                return key
        p = p.parent
    return None


def _describe(w) -> str:
    text = getattr(w, "text", "")
    ident = _ident(w)
    return f"{type(w).__name__}{'#' + ident if ident else ''}({text[:30]!r})"


def audit_problems(root, window, scale: float = 1.0, background=None) -> list[str]:
    """Every problem of the shown tree under `root`: `problems` (outside the window, small targets,
    text taller than its box) and text wider than its box or shortened, font sizes (16 px each word,
    18 px buttons, inputs, names and scores, times `scale`), WCAG contrast of each text on the fill
    behind it, touch targets overlapping each other."""
    from kivy.core.text import Label as CoreLabel
    from kivy.uix.behaviors import ButtonBehavior
    from kivy.uix.label import Label
    from kivy.uix.scrollview import ScrollView
    from kivy.uix.textinput import TextInput

    from companion.ui import theme

    background = background or theme.BACKGROUND
    found = list(problems(root, window))
    targets = []
    for w in root.walk(restrict=True):
        if w is root or not _shown(w):
            continue
        tappable = isinstance(w, (ButtonBehavior, TextInput)) and not w.disabled
        if tappable and not (isinstance(w, Label) and type(w).__name__ == "Banner"):
            targets.append(w)
        if not isinstance(w, (Label, TextInput)) or not w.text or w.disabled:
            continue
        large = tappable or isinstance(w, TextInput) or any(word in (_ident(w) or "").lower()
                                                             for word in LARGE_WORDS)
        least = (MIN_TEXT_PX if large else FLOOR_TEXT_PX) * scale
        if w.font_size < least - 0.5:
            found.append(f"{_describe(w)}: font {w.font_size:.1f} px, at least {least:.0f} px")
        fg = w.foreground_color if isinstance(w, TextInput) else w.color
        bg = backdrop(w.parent if isinstance(w, TextInput) else w, background)
        if isinstance(w, TextInput):  # its own field, tinted by background_color
            bg = _blend(w.background_color, bg)
        ratio = contrast_ratio(_blend(fg, bg), bg)
        if ratio < MIN_CONTRAST - 0.005:
            found.append(f"{_describe(w)}: contrast {ratio:.2f} on its background, at least {MIN_CONTRAST}")
        if isinstance(w, Label) and not isinstance(w.parent, ScrollView):
            tw, th = w.texture_size
            if tw > w.width + 2:
                found.append(f"{_describe(w)}: its text is {tw:.0f} px wide in a {w.width:.0f} px box (cut off)")
            if th > w.height + 2 and not w.text_size[0]:
                found.append(f"{_describe(w)}: its text is {th:.0f} px tall in a {w.height:.0f} px box (cut off)")
            if w.shorten and w.text_size[0]:
                full = CoreLabel(text=w.text, font_size=w.font_size, bold=w.bold, font_name=w.font_name)
                full.refresh()
                if full.texture.size[0] > w.text_size[0] + 1:
                    found.append(f"{_describe(w)}: shortened, the full text needs {full.texture.size[0]} px "
                                 f"of {w.text_size[0]:.0f}")
    found += overlap_problems(targets)
    found += drawn_text_problems(root, scale)
    return found


def drawn_text_problems(root, scale: float = 1.0) -> list[str]:
    """Text painted on a canvas with drawing.draw_text by a widget's `redraw` (city boards,
    sheets, charts): each at least 16 px (times `scale`). Widgets keeping their own marks
    (`texts`: the Centerville board) are checked by their own tests with `text_problems`."""
    from kivy.uix.label import Label

    from companion.ui.widgets import drawing

    found = []
    for w in root.walk(restrict=True):
        if isinstance(w, Label) or not callable(getattr(w, "redraw", None)) or not _shown(w) \
                or hasattr(w, "texts"):
            continue
        drawing.drawn = []
        try:
            w.redraw()
            marks = drawing.drawn
        finally:
            drawing.drawn = None
        small = sorted({(px, text) for text, px, _ in marks if px < FLOOR_TEXT_PX * scale - 0.5})
        if small:
            found.append(f"{type(w).__name__}: drawn text at {small[0][0]} px ({small[0][1][:30]!r}"
                         f"{f' and {len(small) - 1} more' if len(small) > 1 else ''}), "
                         f"at least {FLOOR_TEXT_PX * scale:.0f} px")
    return found


def overlap_problems(targets) -> list[str]:
    """Touch targets (widgets) whose window rectangles overlap, one inside the other excepted."""
    rects = []
    for w in targets:
        x, y = w.to_window(*w.pos)
        rects.append((w, x, y, x + w.width, y + w.height))
    found = []
    for i, (a, ax, ay, ax2, ay2) in enumerate(rects):
        for b, bx, by, bx2, by2 in rects[i + 1:]:
            if a in b.walk(restrict=True) or b in a.walk(restrict=True):
                continue
            w, h = min(ax2, bx2) - max(ax, bx), min(ay2, by2) - max(ay, by)
            if w > 1 and h > 1:
                found.append(f"{_describe(a)} and {_describe(b)} overlap by {w:.0f}x{h:.0f} px")
    return found


def docked_keyboard_height(window) -> float:
    """The height of Kivy's docked on-screen keyboard (keyboard_mode systemanddock) in `window`."""
    from companion.ui.keyboard_lift import keyboard_height

    return keyboard_height(window)


def keyboard_problems(drv, root) -> list[str]:
    """Each shown text input under `root`, focused with the keyboard docked as on the table's
    touchscreen (keyboard_mode systemanddock): is it above the keyboard's top?"""
    from kivy.config import Config
    from kivy.uix.textinput import TextInput

    top = docked_keyboard_height(drv.window)
    found = []
    mode = Config.get("kivy", "keyboard_mode")
    Config.set("kivy", "keyboard_mode", "systemanddock")
    try:
        for w in [w for w in root.walk(restrict=True) if isinstance(w, TextInput) and _shown(w) and not w.disabled]:
            w.focus = True
            drv.frames(2)
            y = w.to_window(*w.pos)[1]
            if y < top - 1:
                found.append(f"{_describe(w)} focused is at y={y:.0f}: under the keyboard (its top at {top:.0f} px)")
            w.focus = False
            drv.frames(1)
    finally:
        Config.set("kivy", "keyboard_mode", mode)
    return found
