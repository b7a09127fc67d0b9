"""The whole Welcome to Centerville board in one picture, drawn from an engine State, and the area
view a tap opens: that area large, who holds what there, and its rule in one sentence.

The board keeps a fixed plan (centerville_plan.PLAN, 470 x 380 units) scaled to its rectangle, so
at 800x480 it wants about 470 x 380 px and at 1280x720 about 700 x 570; from 440 x 364 px up (at
800x480) every tap area is still 48 px, and no text is ever under 18 px times the app's ui_scale.
"""
from __future__ import annotations

from kivy.graphics import Canvas, ClearBuffers, ClearColor, Color, Fbo, Rectangle, Translate
from kivy.properties import BooleanProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.widget import Widget

from .. import theme
from .centerville_areas import areas
from .centerville_holdings import holdings
from .centerville_paint import BOARD, DESIGN, Painter, min_text_px, tags
from .centerville_plan import PLAN, TOP_FIRST, paint_order, painter_for
from .common import TouchButton


class CentervilleBoard(Widget):
    """show(state, highlight) draws the board; a tap on an area fires on_area(area_name), whose
    default opens the AreaView (a handler bound to on_area that returns True keeps it closed)."""

    __events__ = ("on_area",)
    views = BooleanProperty(True)  # whether a tap opens the AreaView

    def __init__(self, **kwargs):
        self.state = None
        self.highlight: tuple[str, ...] = ()
        self.texts = []  # every text drawn last time (TextMark): for the layout checks
        self.view: AreaView | None = None
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw)

    def show(self, state, highlight=()) -> None:
        """Draw `state`, marking the areas named in `highlight`."""
        unknown = set(highlight) - set(PLAN)
        if unknown:
            raise KeyError(f"no such area on the Centerville board: {sorted(unknown)[0]}")
        self.state = state
        self.highlight = tuple(highlight)
        self.redraw()

    # -- geometry ----------------------------------------------------------------------------
    def scale(self) -> tuple[float, float, float]:
        """(left, bottom, u): the plan's origin and the pixels per plan unit."""
        u = min(self.width / DESIGN[0], self.height / DESIGN[1])
        return (self.x + (self.width - DESIGN[0] * u) / 2, self.y + (self.height - DESIGN[1] * u) / 2, u)

    def area_rect(self, name: str) -> tuple[float, float, float, float]:
        """(x, y, w, h) of an area in this widget's coordinates (also used by tests to tap it)."""
        ox, oy, u = self.scale()
        x, y, w, h = PLAN[name]
        return ox + x * u, oy + y * u, w * u, h * u

    def area_names(self) -> list[str]:
        return list(PLAN)

    def area_at(self, x: float, y: float) -> str | None:
        for name in list(TOP_FIRST) + [n for n in PLAN if n not in TOP_FIRST]:
            ax, ay, aw, ah = self.area_rect(name)
            if ax <= x < ax + aw and ay <= y < ay + ah:
                return name
        return None

    # -- drawing -----------------------------------------------------------------------------
    def redraw(self, *_args) -> None:
        """Paint the board. Each area has its own canvas and remembers which State fields its
        painter read: after a tap only the areas whose fields changed are painted again (fast,
        and few new graphics objects, so the garbage collector seldom has to run)."""
        if self.state is None or self.width < 60 or self.height < 60:
            self.canvas.clear()
            self._painted, self.texts = {}, []
            return
        s = self.state
        ox, oy, u = self.scale()
        frame = (ox, oy, u, min_text_px())
        if frame != getattr(self, "_frame", None):  # moved, resized, rescaled: everything again
            self._frame, self._painted = frame, {}
            self.canvas.clear()
            self._layers = {}
            # The board is painted into a texture of its own (an Fbo), and the window draws that
            # one picture each frame: a tap on a die face or a menu button redraws the screen
            # without the board's thousand instructions (on this machine's software renderer a
            # frame of the Centerville screen took 95 ms with them, 49 ms without them).
            self._fbo = fbo = Fbo(size=(max(1, int(self.width)), max(1, int(self.height))))
            with fbo:
                ClearColor(0, 0, 0, 0)
                ClearBuffers()
                Translate(-self.x, -self.y)  # the areas paint in the widget's coordinates
                Color(*BOARD)
                Rectangle(pos=(ox, oy), size=(DESIGN[0] * u, DESIGN[1] * u))
            for name in paint_order():
                self._layers[name] = layer = Canvas()
                fbo.add(layer)
            self.canvas.add(fbo)
            with self.canvas:
                Color(1, 1, 1, 1)
                Rectangle(texture=fbo.texture, pos=self.pos, size=fbo.size)
            # The highlights are drawn over the board's picture, not into it: a menu tap that only
            # moves them leaves the Fbo alone (re-rendering it doubled that frame's drawing here).
            self._highlight_layer = Canvas()
            self.canvas.add(self._highlight_layer)
        texts = []
        for name in paint_order():
            painted = self._painted.get(name)
            if painted is None or any(_changed(getattr(s, field), value) for field, value in painted[0]):
                painted = self._paint_area(name, s, ox, oy, u)
                self._painted[name] = painted
            texts += painted[1]
        layer = self._highlight_layer
        layer.clear()
        with layer:
            p = Painter(ox, oy, u)
            for name in self.highlight:
                p.highlight(*PLAN[name])
        self.texts = texts

    def _paint_area(self, name, s, ox, oy, u):
        """Paint one area into its layer: ((field, value) read, texts drawn)."""
        reads = _Reads(s)
        layer = self._layers[name]
        layer.clear()
        p = Painter(ox, oy, u, tags_=tags(s.names), min_px=min_text_px())
        with layer:
            painter_for(name)(p, reads, *PLAN[name])
        fields = tuple((field, getattr(s, field)) for field in sorted(reads.fields | {"names", "colours"}))
        return fields, p.texts

    # -- touch -------------------------------------------------------------------------------
    def on_touch_down(self, touch):
        if self.state is None or not self.collide_point(*touch.pos):
            return super().on_touch_down(touch)
        name = self.area_at(*touch.pos)
        if name is None:
            return super().on_touch_down(touch)
        self.dispatch("on_area", name)
        return True

    def on_area(self, area_name: str) -> None:
        if self.views:
            self.view = AreaView(self.state, area_name)
            self.view.open(animation=False)


def _changed(new, old) -> bool:
    return new is not old and new != old


class _Reads:
    """A State seen through a log of the fields read (so the board knows what an area shows)."""

    __slots__ = ("state", "fields")

    def __init__(self, state):
        self.state = state
        self.fields: set[str] = set()

    def __getattr__(self, name):
        self.fields.add(name)
        return getattr(self.state, name)


class AreaPicture(Widget):
    """One area of the board, painted by the board's own painter, as large as it fits."""

    def __init__(self, state, name: str, **kwargs):
        self.state, self.name, self.texts = state, name, []
        super().__init__(**kwargs)
        self.bind(pos=self.redraw, size=self.redraw)

    def redraw(self, *_args) -> None:
        self.canvas.clear()
        x, y, w, h = PLAN[self.name]
        if self.width < 20 or self.height < 20:
            return
        u = min(self.width / w, self.height / h)
        ox, oy = self.x + (self.width - w * u) / 2, self.y + (self.height - h * u) / 2
        p = Painter(ox, oy, u, rx=x, ry=y, tags_=tags(self.state.names), min_px=min_text_px())
        p.detail = True
        with self.canvas:
            p.box(x, y, w, h, BOARD)
            painter_for(self.name)(p, self.state, x, y, w, h)
        self.texts = p.texts


def _wrapped(label: Label) -> Label:
    label.bind(width=lambda lab, width: setattr(lab, "text_size", (width, None)),
               texture_size=lambda lab, size: setattr(lab, "height", size[1]))
    return label


class AreaView(ModalView):
    """An area large: its title, its picture, who holds what there, and its rule sentence.
    A tap on Close (or outside) closes it."""

    background_rgba = theme.PANEL

    def __init__(self, state, name: str, **kwargs):
        super().__init__(size_hint=(0.96, 0.94), auto_dismiss=True, background_color=(0, 0, 0, 0),
                         overlay_color=(0, 0, 0, 0.6), **kwargs)
        area = areas()[name]
        self.name = name
        s = theme.scaled
        root = BoxLayout(orientation="vertical", padding=s(10), spacing=s(6))
        with root.canvas.before:
            Color(*self.background_rgba)
            self._bg = Rectangle()
        root.bind(pos=lambda w, v: setattr(self._bg, "pos", v), size=lambda w, v: setattr(self._bg, "size", v))
        top = BoxLayout(size_hint_y=None, height=s(52), spacing=s(8))
        self.title = Label(text=area.title, bold=True, font_size=s(24), color=theme.ACCENT,
                           halign="left", valign="middle")
        self.title.bind(size=lambda lab, size: setattr(lab, "text_size", size))
        top.add_widget(self.title)
        close = TouchButton(text="Close", size_hint_x=None, width=s(110))
        close.font_size = s(20)  # after the kv rule's default
        close.bind(on_release=lambda *_: self.dismiss(animation=False))
        top.add_widget(close)
        self.close_button = close
        root.add_widget(top)
        # A wide area (a track, a row of tiles) goes above its lines, any other beside them.
        x, y, w, h = PLAN[name]
        wide = w / h > 2
        body = BoxLayout(orientation="vertical" if wide else "horizontal", spacing=s(12))
        self.picture = AreaPicture(state, name, **({"size_hint_y": 0.45} if wide else {"size_hint_x": 0.42}))
        body.add_widget(self.picture)
        lines = BoxLayout(orientation="vertical", spacing=s(2))
        for line in holdings(state, name):
            lines.add_widget(_wrapped(Label(text=line, font_size=s(18), color=theme.TEXT, halign="left",
                                            valign="top", size_hint_y=None)))
        lines.add_widget(Widget())
        body.add_widget(lines)
        root.add_widget(body)
        self.rule = _wrapped(Label(text=area.rule, font_size=s(20), color=theme.TEXT, halign="left",
                                   valign="middle", size_hint_y=None))
        root.add_widget(self.rule)
        self.add_widget(root)
