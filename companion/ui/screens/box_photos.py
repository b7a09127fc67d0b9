"""Box the camera's misses: the photos of rolls the camera boxed wrongly (a die missed, a box on no die;
companion.photos_to_box), one at a time, for a person to box. Each photo boxed joins the table's
checked photos, a labelled set of this table's own real photos (companion.checked_photos)."""
from __future__ import annotations

from pathlib import Path

from kivy.app import App
from kivy.uix.screenmanager import Screen

from companion.checked_photos import FOLDER, CheckedPhotos, PhotosError
from companion.photos_to_box import FOLDER as TO_BOX
from companion.photos_to_box import PhotosToBox, faces_left

from ..widgets.photo_boxes import PhotoBoxes  # noqa: F401  (box_photos.kv)
from . import load_kv

load_kv(__file__)

HOW = ("Tap a box to choose it, then its face, or Not a die. Drag across the photo to box a die the "
       "camera missed.")


def photo_folders(app) -> tuple[PhotosToBox, CheckedPhotos]:
    """The table's photos to box and its checked photos, beside games.db."""
    checked = Path(app.store.path).parent / FOLDER
    return PhotosToBox(checked / TO_BOX), CheckedPhotos(checked)


def count_to_box(app) -> int:
    """How many photos wait for a person's boxes (0 when none, or the file cannot be read)."""
    try:
        return len(photo_folders(app)[0].waiting())
    except (PhotosError, OSError):
        return 0


def _faces(items) -> str:
    return ", ".join(map(str, items))


class BoxPhotosScreen(Screen):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.to_box: PhotosToBox | None = None
        self.checked: CheckedPhotos | None = None
        self.names: list[str] = []
        self.index = 0
        self.entered: list[int] = []
        self.problem = ""

    def on_pre_enter(self, *_args) -> None:
        self.refresh()

    def refresh(self) -> None:
        self.to_box, self.checked = photo_folders(App.get_running_app())
        try:
            self.names, self.problem = self.to_box.waiting(), ""
        except (PhotosError, OSError) as exc:
            self.names, self.problem = [], f"The photos to box cannot be read: {exc}"
        self.index = min(self.index, max(0, len(self.names) - 1))
        self._show()

    @property
    def photo_name(self) -> str | None:
        return self.names[self.index] if self.names else None

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
        photo.show(image, [(d["face"], d["box"]) for d in entry["camera"]])
        self.ids.count.text = f"Photo {self.index + 1} of {len(self.names)}"
        self.ids.how.text = HOW
        self._buttons(True)
        self.update_said()

    def _buttons(self, on: bool) -> None:
        for button in (*(self.ids[f"face{n}"] for n in range(1, 7)), self.ids.not_a_die, self.ids.skip,
                       self.ids.done):
            button.disabled = not on

    def update_said(self, *_args) -> None:
        """What is left to do, and Done only once the boxes are the roll."""
        if self.photo_name is None:
            return
        boxes = self.ids.photo.boxes
        unknown = sum(1 for face, _box in boxes if face is None)
        missing, extra = faces_left(self.entered, [(face, box) for face, box in boxes if face is not None])
        lines = [f"The players entered {_faces(self.entered)}."]
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
        for n in range(1, 7):
            self.ids[f"face{n}"].chosen = chosen >= 0 and boxes[chosen][0] == n
        self.ids.not_a_die.disabled = chosen < 0
        self.ids.done.disabled = bool(unknown or missing or extra)

    def set_face(self, face: int) -> None:
        photo = self.ids.photo
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
        self.names.pop(self.index)
        self.index = min(self.index, max(0, len(self.names) - 1))
        try:
            kept = f" ({self.checked.count()} kept)"
        except (PhotosError, OSError):
            kept = ""
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
