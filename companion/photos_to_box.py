"""Photos of the rolls the camera boxed wrongly, kept for a person to box (models/DETECTOR_CARD.md, next step 31).

A checked photo (companion.checked_photos) is kept only when the camera boxed as many dice as the
players entered, so that each box's face is the players' word. When the counts differ, the camera
missed a die or boxed something that is no die: the photos a dice finder learns most from, and the
ones no label can be guessed for. With `[camera] keep_photos = true` these are kept in FOLDER inside
the checked photos' folder: the photo, the faces the players entered (any order), and the camera's
boxes with the faces it read. A person boxes them on the table's screen (companion.ui.screens.
box_photos): each photo boxed joins the checked photos with its labels, then leaves this folder.

The file (FILE): {"NAME.jpg": {"entered": [faces 1-6], "camera": [{"face", "box"}, ...]}}, one photo a
line, written as the checked photos' labels.json is (a temporary file and a rename; at most MOST).
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from companion.checked_photos import (CheckedPhotos, PhotoFolder, PhotosError, check_dice, face_check,
                                      read_photo_file, rounded_box)

FOLDER = "to-box"      # inside companion.checked_photos.FOLDER
FILE = "to-box.json"


def read_to_box(path: Path, icons: bool = False) -> dict:
    """{photo name: {"entered", "camera"}} of a to-box.json ({} when there is none yet); PhotosError
    naming the photo and field for anything else. With `icons` the faces are Centerville dice's
    labels ("red-vote"), and a camera's face may be null (a die it could not name)."""
    entries = read_photo_file(path)
    is_face = face_check(icons)
    for name, entry in entries.items():
        if not isinstance(entry, dict) or set(entry) != {"entered", "camera"}:
            raise PhotosError(f'{path}: {name}: {{"entered", "camera"}} is expected')
        entered = entry["entered"]
        if not (isinstance(entered, list) and entered and all(is_face(face) for face in entered)):
            kind = "Centerville dice's faces" if icons else "faces 1 to 6"
            raise PhotosError(f"{path}: {name}: entered must be a list of {kind}, not {entered!r}")
        check_dice(f"{path}: {name} camera", entry["camera"], icons, unknown=icons)
    return entries


def faces_left(entered, dice) -> tuple[list[int], list[int]]:
    """(faces entered that no box has yet, faces boxed that were not entered), each sorted: what a
    person still has to do before a photo's boxes match the roll."""
    wanted, given = Counter(entered), Counter(face for face, _box in dice)
    return sorted((wanted - given).elements()), sorted((given - wanted).elements())


class PhotosToBox(PhotoFolder):
    """The photos of one table waiting for a person's boxes."""

    FILE = FILE
    KEPT = "the photos to box are not kept"

    def __init__(self, folder: Path | str, icons: bool = False):
        super().__init__(folder, lambda path: read_to_box(path, icons))
        self.icons = icons

    def _face(self, face):
        return face if face is None else str(face) if self.icons else int(face)

    def add(self, photo: bytes, entered, camera, when: float | None = None) -> bool:
        """Keep `photo` (JPEG bytes) of a roll entered as the faces `entered`, read by the camera as
        `camera`: each (face, (x0, y0, x1, y1)) in its pixels (with `icons`, a face None where the
        camera could not name the die)."""
        read = [{"face": self._face(face), "box": rounded_box(box)} for face, box in camera]
        return self._keep(photo, {"entered": [self._face(face) for face in entered], "camera": read}, when)

    def waiting(self) -> list[str]:
        """The photos still to box, oldest first (raises PhotosError or OSError)."""
        return sorted(self.entries())

    def photo(self, name: str) -> bytes:
        return (self.folder / "images" / name).read_bytes()

    def boxed(self, name: str, dice, into: CheckedPhotos) -> bool:
        """A person boxed photo `name`: `dice` ((face, box) each, the faces those entered) join the
        checked photos `into`, then the photo leaves this folder. False (with `problem` said) when it
        cannot be done now. A power cut between the two steps leaves the photo in both, never in none,
        and boxing it again then only takes it out of this folder: it is kept once, as first boxed."""
        try:
            entry = self.entries()[name]
            missing, extra = faces_left(entry["entered"], dice)
            if missing or extra:
                roll = ", ".join(map(str, entry["entered"]))
                raise PhotosError(f"{name}: the boxes' faces are not the roll's ({roll})")
            photo = self.photo(name)
        except (PhotosError, OSError, KeyError) as exc:
            self.problem = f"the photo is not boxed: {exc}"
            return False
        # Under the name it was taken by: vision.realdata splits a set in name order, so a photo boxed
        # late still falls in the split its neighbours in time do.
        if not _holds(into, name, photo) and not into.add(photo, dice, name=name):
            self.problem = into.problem
            return False
        try:
            entries = dict(self.entries())
            del entries[name]
            self._write(entries)
            (self.folder / "images" / name).unlink(missing_ok=True)   # a copy is in the checked photos now
        except (PhotosError, OSError, KeyError) as exc:
            self.problem = f"the photo was boxed, but is still listed to box: {exc}"
            return False
        self.problem = ""
        return True


def _holds(checked: CheckedPhotos, name: str, photo: bytes) -> bool:
    """Whether `checked` already keeps this very photo under `name` (a Done cut short by a power cut)."""
    try:
        return name in checked.entries() and (checked.folder / "images" / name).read_bytes() == photo
    except (PhotosError, OSError):
        return False
