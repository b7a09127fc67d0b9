"""Box the camera's misses: the photos of rolls the camera boxed wrongly (a die missed, a box on no die;
companion.photos_to_box), one at a time, for a person to box. Each photo boxed joins the table's
checked photos, a labelled set of this table's own real photos (companion.checked_photos)."""
from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.uix.screenmanager import Screen

from companion.checked_photos import FOLDER, ICON_FOLDER, CheckedPhotos, PhotosError
from companion.photos_to_box import FOLDER as TO_BOX
from companion.photos_to_box import PhotosToBox, faces_left

from .. import theme
from ..widgets.icon_die import DIE_FILL, LIGHT_DICE, icon_colour
from ..widgets.photo_boxes import PhotoBoxes  # noqa: F401  (box_photos.kv)
from . import load_kv

load_kv(__file__)

HOW = ("Tap a box to choose it, then its face, or Not a die. Drag across the photo to box a die the "
       "camera missed.")


def photo_folders(app) -> list[tuple[PhotosToBox, CheckedPhotos]]:
    """The table's photos to box and the checked photos they join, beside games.db: pip dice's,
    then Centerville's icon dice's."""
    data = Path(app.store.path).parent
    return [(PhotosToBox(data / folder / TO_BOX, icons), CheckedPhotos(data / folder, icons))
            for folder, icons in ((FOLDER, False), (ICON_FOLDER, True))]


def count_to_box(app) -> int:
    """How many photos wait for a person's boxes (a folder that cannot be read counts none)."""
    count = 0
    for to_box, _checked in photo_folders(app):
        try:
            count += len(to_box.waiting())
        except (PhotosError, OSError):
            pass
    return count


def face_words(face) -> str:
    """A face as the players say it: 4, or "red vote" for a Centerville die's."""
    return str(face).replace("-", " ")


def _faces(items) -> str:
    return ", ".join(map(face_words, items))


class BoxPhotosScreen(Screen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.folders: list[tuple[PhotosToBox, CheckedPhotos]] = []
        self.names: list[tuple[int, str]] = []    # (which folders, photo name), oldest first
        self.index = 0
        self.entered: list = []
        self.choices: list = []                   # the faces the six face buttons give
        self.problem = ""

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def refresh(self) -> None:
        self.folders = photo_folders(App.get_running_app())
        self.names, problems = [], []
        for k, (to_box, _checked) in enumerate(self.folders):
            try:
                self.names += [(k, name) for name in to_box.waiting()]
            except (PhotosError, OSError) as exc:
                problems.append(f"The photos to box cannot be read: {exc}")
        self.names.sort(key=lambda item: (item[1], item[0]))
        self.problem = " ".join(problems)
        self.index = min(self.index, max(0, len(self.names) - 1))
        self._show()

    @property
    def photo_name(self) -> str | None:
        return self.names[self.index][1] if self.names else None

    @property
    def to_box(self) -> PhotosToBox | None:
        return self.folders[self.names[self.index][0]][0] if self.names else None

    @property
    def checked(self) -> CheckedPhotos | None:
        return self.folders[self.names[self.index][0]][1] if self.names else None

    def _show(self) -> None:
        photo = self.ids.photo
        if self.photo_name is None:
            photo.show(None)
            self.entered = []
            self.ids.count.text = ""
            self.ids.said.text = self.problem or "No photos to box: the camera boxed every roll it kept."
            self.ids.how.text = ""
            self._buttons(False)
            return
        try:
            image = _decoded(self.to_box.photo(self.photo_name))
            entry = self.to_box.entries()[self.photo_name]
        except (PhotosError, OSError, KeyError, ValueError) as exc:
            self.ids.said.text = f"{self.photo_name} cannot be shown: {exc}"
            photo.show(None)
            self._buttons(False)
            self.ids.skip.disabled = len(self.names) < 2
            return
        self.entered = list(entry["entered"])
        # Pip dice: any face. Centerville's: the faces of the dice in the tray, each die once.
        self.choices = sorted(set(self.entered), key=self.entered.index) if self.to_box.icons else [1, 2, 3, 4, 5, 6]
        for n in range(1, 7):
            self._face_button(self.ids[f"face{n}"], self.choices[n - 1] if n <= len(self.choices) else None)
        photo.show(image, [(d["face"], d["box"]) for d in entry["camera"]])
        self.ids.count.text = f"Photo {self.index + 1} of {len(self.names)}"
        self.ids.how.text = HOW
        self._buttons(True)
        self.update_said()

    @staticmethod
    def _face_button(button, face) -> None:
        """A pip face as its number; a Centerville die's face as its icon's name on the die's colour."""
        button.opacity = 0 if face is None else 1
        if isinstance(face, str):
            colour, _, icon = face.partition("-")
            button.text, button.text_px, button.margin, button.bold = icon, 18, theme.scaled(4), False
            fill = DIE_FILL.get(colour, theme.BUTTON)
            if colour not in LIGHT_DICE:     # a shade darker: white words on the green die's own fill are 3.8:1
                fill = (*(c * 0.8 for c in fill[:3]), 1)
            button.fill, button.color = fill, icon_colour(colour)
        else:
            button.text, button.text_px, button.margin = ("" if face is None else str(face)), 22, theme.scaled(24)
            button.fill, button.color, button.bold = theme.BUTTON, theme.TEXT, True

    def _buttons(self, on: bool) -> None:
        for n in range(1, 7):
            self.ids[f"face{n}"].disabled = not on or n > len(self.choices)
        for button in (self.ids.not_a_die, self.ids.skip, self.ids.done):
            button.disabled = not on

    def update_said(self, *_args) -> None:
        """What is left to do, and Done only once the boxes are the roll."""
        if self.photo_name is None:
            return
        boxes = self.ids.photo.boxes
        unknown = sum(1 for face, _box in boxes if face is None)
        missing, extra = faces_left(self.entered, [(face, box) for face, box in boxes if face is not None])
        # The players' faces: said for pip dice; Centerville's stand on the face buttons already.
        lines = [] if self.to_box.icons else [f"The players entered {_faces(self.entered)}."]
        if unknown:
            lines.append(f"{unknown} box{'es' if unknown > 1 else ''} without a face (?): tap its face.")
        if missing:
            lines.append(f"Still to box: {_faces(missing)}.")
        if extra:
            lines.append(f"Boxed but not entered: {_faces(extra)} (a box on no die? Not a die).")
        if not (unknown or missing or extra):
            lines.append("Every die is boxed: Done keeps this photo.")
        self.ids.said.text = " ".join(lines)
        chosen = self.ids.photo.chosen
        for n, face in enumerate(self.choices, 1):
            self.ids[f"face{n}"].chosen = chosen >= 0 and boxes[chosen][0] == face
        self.ids.not_a_die.disabled = chosen < 0
        self.ids.done.disabled = bool(unknown or missing or extra)

    def set_face(self, button: int) -> None:
        """Face button `button` (1-6) tapped: the chosen box shows that button's face."""
        photo = self.ids.photo
        if not 1 <= button <= len(self.choices):
            return
        face = self.choices[button - 1]
        if photo.chosen < 0:
            App.get_running_app().say("Tap a box first, then its face.")
            return
        boxes = [list(b) for b in photo.boxes]
        boxes[photo.chosen][0] = face
        photo.boxes = boxes

    def not_a_die(self) -> None:
        photo = self.ids.photo
        if photo.chosen >= 0:
            boxes = [b for i, b in enumerate(photo.boxes) if i != photo.chosen]
            photo.chosen = -1
            photo.boxes = boxes

    def skip(self) -> None:
        if self.names:
            self.index = (self.index + 1) % len(self.names)
            self._show()

    def done(self) -> None:
        app = App.get_running_app()
        dice = [(face, box) for face, box in self.ids.photo.boxes]
        if not self.to_box.boxed(self.photo_name, dice, self.checked):
            app.say(self.to_box.problem, error=True)
            return
        try:
            kept = f" ({self.checked.count()} kept)"
        except (PhotosError, OSError):
            kept = ""
        self.names.pop(self.index)
        self.index = min(self.index, max(0, len(self.names) - 1))
        app.say(f"Boxed: the photo joins this table's checked photos{kept}.")
        self._show()


def _decoded(photo: bytes):
    """A JPEG's pixels as RGB rows, top first (ValueError when it is no picture)."""
    import cv2
    import numpy as np

    image = cv2.imdecode(np.frombuffer(photo, np.uint8), cv2.IMREAD_COLOR)
    if image is None:
        raise ValueError("not a picture the app can read")
    return cv2.cvtColor(image, cv2.COLOR_BGR2RGB)
