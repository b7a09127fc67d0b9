"""A QR code on screen (segno makes the symbol; no hand-written encoding), and the dialog that
shares a finished play with BG Stats: a phone scans it and BG Stats opens its import dialog."""
from __future__ import annotations

from kivy.graphics import Color, Rectangle
from kivy.graphics.texture import Texture
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from .. import theme
from .common import TouchButton

QUIET = 4  # modules of white around the symbol: the standard's quiet zone, scanners need it


def qr_texture(text: str) -> tuple[Texture, int]:
    """(texture, modules across including the quiet zone): one texel per module, black on white."""
    import segno

    # Error correction L (7% recoverable): a screen shows every module clean, and the lowest
    # level gives the fewest, largest modules for a phone to read across the table.
    code = segno.make(text, error="l", micro=False, boost_error=False)
    rows = list(code.matrix_iter(scale=1, border=QUIET))
    size = len(rows)
    # Kivy's textures start at the bottom row: the rows go in upside down.
    pixels = bytes(0 if dark else 255 for row in reversed(rows) for dark in row)
    texture = Texture.create(size=(size, size), colorfmt="luminance")
    texture.blit_buffer(pixels, colorfmt="luminance", bufferfmt="ubyte")
    texture.mag_filter = texture.min_filter = "nearest"  # sharp modules, no blur between them
    return texture, size


class QrCode(Widget):
    """The QR code of `text`, the largest whole number of pixels per module that fits."""

    def __init__(self, **kwargs):
        self.text = ""
        self._texture, self._modules = None, 0
        self.square = (0, 0, 0)  # where the symbol is drawn: x, y, side (quiet zone included)
        super().__init__(**kwargs)
        self.bind(pos=self._draw, size=self._draw)

    def show(self, text: str) -> None:
        self.text = text
        self._texture, self._modules = qr_texture(text) if text else (None, 0)
        self._draw()

    def _draw(self, *_args) -> None:
        self.canvas.clear()
        if self._texture is None:
            return
        per = max(1, int(min(self.width, self.height) // self._modules))
        side = per * self._modules
        # From pos and size, not center_x: on a `size` event Kivy's cached centre is still the old one.
        x, y = round(self.x + (self.width - side) / 2), round(self.y + (self.height - side) / 2)
        self.square = (x, y, side)
        with self.canvas:
            Color(1, 1, 1, 1)
            Rectangle(texture=self._texture, pos=(x, y), size=(side, side))


class ShareView(ModalView):
    """A finished play's BG Stats link as a QR code, with who played and who won beside it."""

    def __init__(self, link: str, title: str, lines: list[str], **kwargs):
        super().__init__(size_hint=(1, 1), auto_dismiss=False, background="",
                         background_color=theme.BACKGROUND, **kwargs)
        self.link = link
        box = BoxLayout(orientation="horizontal", padding=theme.scaled(12), spacing=theme.scaled(12))
        self.qr = QrCode(size_hint_x=None)
        self.qr.bind(height=lambda w, h: setattr(w, "width", h))
        self.qr.show(link)
        box.add_widget(self.qr)
        side = BoxLayout(orientation="vertical", spacing=theme.scaled(8))
        for text, size, colour, bold in ([(title, 22, theme.ACCENT, True),
                                          ("Scan with a phone: BG Stats opens this play to save it.",
                                           16, theme.TEXT_DIM, False)]
                                         + [(line, 18, theme.TEXT, False) for line in lines]):
            label = Label(text=text, font_size=theme.scaled(size), color=colour, bold=bold, halign="left",
                          valign="middle", size_hint_y=None)
            label.bind(width=lambda lab, w: setattr(lab, "text_size", (w, None)),
                       texture_size=lambda lab, s: setattr(lab, "height", s[1] + theme.scaled(6)))
            side.add_widget(label)
        side.add_widget(Widget())
        close = TouchButton(text="Close", size_hint_y=None, height=theme.scaled(56))
        close.bind(on_release=lambda *_: self.dismiss())
        side.add_widget(close)
        box.add_widget(side)
        self.add_widget(box)
