"""Teach the camera: a full-screen view over the set-up or the Centerville table while the camera
learns the table's own icon dice (companion/table/teach.py holds the lesson, no Kivy).

Left: the picture of the die the camera read, what it reads, the last news. Right: the die's
colour (tap another if the camera named it wrong) and its faces to tap. Below: which faces are
still to teach, "Skip this die" and "Read the dice". Everything is redrawn from the table after
each change; taps only post events, so the GPIO read-dice button and confirm work here too.
"""
from __future__ import annotations

from kivy.app import App
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.image import Image
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView

from companion.engine.centerville.dice import COLOURS
from companion.events import Command
from companion.taught_dice import faces_of, per_colour

from .. import theme
from .centerville_paint import ink_on
from .common import TouchButton
from .dice_check import crop_texture
from .icon_die import DIE_FILL, IconFace


def still_to_teach(missing: dict[str, tuple[str, ...]]) -> str:
    """"Still to teach: red fate, tree; yellow 5 faces" (short enough for two lines)."""
    if not missing:
        return "Every face is taught. Roll again to teach more, or Done."
    parts = []
    for colour, faces in missing.items():
        if len(faces) == len(faces_of(colour)):
            parts.append(f"{colour}: all {len(faces)}")
        elif len(faces) <= 2:
            parts.append(f"{colour}: {', '.join(f.split('-', 1)[1] for f in faces)}")
        else:
            parts.append(f"{colour}: {len(faces)} faces")
    return "Still to teach: " + "; ".join(parts)


def _text(text: str, px: int = 18, **kwargs) -> Label:
    label = Label(text=text, font_size=theme.scaled(px), color=kwargs.pop("color", theme.TEXT),
                  halign=kwargs.pop("halign", "left"), valign=kwargs.pop("valign", "middle"), **kwargs)
    label.bind(size=lambda lab, size: setattr(lab, "text_size", size))
    return label


class TeachView(ModalView):
    """The lesson on screen. `follow(table)` after each change; Done ends the lesson."""

    def __init__(self, table, **kwargs):
        super().__init__(size_hint=(1, 1), auto_dismiss=False, background="",
                         background_color=theme.BACKGROUND, **kwargs)
        self.table = table
        s = theme.scaled
        root = BoxLayout(orientation="vertical", padding=s(8), spacing=s(6))
        top = BoxLayout(size_hint_y=None, height=s(52), spacing=s(8))
        top.add_widget(_text("Teach the camera your dice", 20, bold=True, color=theme.ACCENT))
        self.forget = TouchButton(text_px=18, text="Forget taught", size_hint_x=None, width=s(170))
        self.forget.bind(on_release=lambda *_: self.post("tap", ("teach_clear",)))
        top.add_widget(self.forget)
        self.done = TouchButton(text_px=18, text="Done", bold=True, fill=theme.CONFIRM_DEEP,
                                size_hint_x=None, width=s(110))
        self.done.bind(on_release=lambda *_: self.finish())
        top.add_widget(self.done)
        root.add_widget(top)

        body = BoxLayout(spacing=s(10))
        left = BoxLayout(orientation="vertical", size_hint_x=0.36, spacing=s(4))
        self.crop = Image(fit_mode="contain")
        left.add_widget(self.crop)
        self.read = _text("", 18, size_hint_y=None, height=s(78), valign="top")  # up to 3 lines
        left.add_widget(self.read)
        self.news = _text("", 16, color=theme.TEXT_DIM, size_hint_y=None, height=s(62), valign="top")
        left.add_widget(self.news)
        body.add_widget(left)

        right = BoxLayout(orientation="vertical", spacing=s(6))
        self.question = _text("", 18, bold=True, size_hint_y=None, height=s(30))
        right.add_widget(self.question)
        self.colours = BoxLayout(size_hint_y=None, height=s(50), spacing=s(4))
        self.colour_chips: dict[str, TouchButton] = {}
        for colour in COLOURS:
            fill = DIE_FILL[colour]
            chip = TouchButton(text_px=18, text=colour, fill=fill, color=ink_on(fill),
                               margin=s(4), chosen_fill=fill, ring=True)
            chip.bind(on_release=lambda _b, c=colour: self.post("tap", ("teach_colour", c)))
            self.colours.add_widget(chip)
            self.colour_chips[colour] = chip
        right.add_widget(self.colours)
        self.faces = GridLayout(cols=2, spacing=s(6))
        self.face_buttons: list[IconFace] = []
        right.add_widget(self.faces)
        body.add_widget(right)
        root.add_widget(body)

        bottom = BoxLayout(size_hint_y=None, height=s(56), spacing=s(8))
        self.needed = _text("", 16)
        bottom.add_widget(self.needed)
        self.skip = TouchButton(text_px=18, text="Skip this die", size_hint_x=None, width=s(150))
        self.skip.bind(on_release=lambda *_: self.post("tap", ("teach_skip",)))
        bottom.add_widget(self.skip)
        self.read_dice = TouchButton(text_px=18, text="Read the dice", bold=True, fill=theme.INFO,
                                     size_hint_x=None, width=s(170))
        self.read_dice.bind(on_release=lambda *_: self.post("command", Command.READ_DICE))
        bottom.add_widget(self.read_dice)
        root.add_widget(bottom)
        self.add_widget(root)
        self._faces_shown: tuple = ()
        table.subscribe(self.follow)
        self.follow(table)

    def post(self, kind: str, value) -> None:
        App.get_running_app().post(kind, value)

    def finish(self) -> None:
        self.dismiss()

    def on_dismiss(self) -> None:
        # However the view goes (Done, or closed over it), the lesson goes with it: a lesson
        # left open would keep taking the dice readings and confirms meant for the game.
        self.table.unsubscribe(self.follow)
        if self.table.teaching is not None:
            self.table.stop_teaching()

    def follow(self, table) -> None:
        """Redraw from the lesson; closes itself if the lesson was ended elsewhere."""
        lesson = table.teaching
        if lesson is None:
            self.dismiss()
            return
        die = lesson.die
        self.crop.texture = crop_texture(getattr(die, "crop", None)) if die is not None else None
        self.crop.opacity = 1 if self.crop.texture is not None else 0
        if die is None:
            self.question.text = "Roll the dice into the tray"
            self.read.text = "Then tap Read the dice." if table.dice_reader is not None \
                else "No dice camera is connected."
        else:
            guess = lesson.guess()
            self.question.text = f"Die {lesson.index + 1} of {lesson.count}: which face is up?"
            seen = guess.split("-", 1)[1] if guess else "? (not taught)"
            self.read.text = f"{lesson.colour or 'colour unknown'} die\ncamera reads: {seen}"
        self.news.text = table.message
        for colour, chip in self.colour_chips.items():
            chip.chosen = die is not None and colour == lesson.colour
            chip.disabled = die is None
        self._show_faces(lesson)
        self.skip.disabled = die is None
        self.read_dice.disabled = table.dice_reader is None or table.reading
        counts = lesson.taught.counts()
        self.forget.disabled = not counts
        taught = per_colour(counts)
        self.needed.text = still_to_teach(lesson.taught.missing()) + \
            f"  ({sum(taught.values())} pictures kept)"

    def _show_faces(self, lesson) -> None:
        choices, guess = lesson.choices(), lesson.guess()
        if choices != self._faces_shown:
            self._faces_shown = choices
            self.faces.clear_widgets()
            self.face_buttons = []
            for face in choices:
                button = IconFace(face=face, beside=True, font_size=theme.scaled(18))
                button.bind(on_release=lambda _b, f=face: self.post("tap", ("teach", f)))
                self.faces.add_widget(button)
                self.face_buttons.append(button)
        for button in self.face_buttons:
            button.marked = button.face == guess


def open_teaching(app) -> TeachView:
    """Start a lesson at `app`'s table and show it."""
    app.table.start_teaching()
    try:
        view = TeachView(app.table)
    except Exception:
        app.table.stop_teaching()  # no view, no lesson: the game's readings stay the game's
        raise
    view.open(animation=False)
    return view
