"""Photos of the rolls a table checked, each die labelled with the face the players entered.

The dice reader is judged on real photos it never saw, and the shared sets hold a few hundred
(models/DETECTOR_CARD.md: "more labelled real photos, not another lever, is what would let the next
one be judged"). Every roll a table enters checks the camera's reading of it (companion.pip_checks),
so with `[camera] keep_photos = true` the app keeps the photo of each such roll and its labels in the
shared sets' format (`images/NAME.jpg` and `labels.json`: {"NAME.jpg": [{"face": 1..6, "box": [x0,
y0, x1, y1]}, ...]}), readable by vision.realdata and `bench/table_photos.py`. Centerville's rolls go
to a folder of their own (ICON_FOLDER), each face a die's label ("red-vote"): the first real photos of
those dice there are.

What a label is: the box the camera drew around each die, and the face the players entered for it
(die by die where they confirmed it in the dice check, else matched face for face, which cannot see
two dice misread as each other's faces). A photo is kept only when the camera boxed as many dice as
the players entered, so a missed die or a box on no die never makes a wrong label; such a roll is
kept for a person to box (companion.photos_to_box) and joins these photos once boxed.

At most MOST photos are kept, then no more (a full folder is said by `companion doctor`, never
emptied by the app). labels.json is rewritten whole through a temporary file and a rename, so a
power cut leaves the old file or the new one; one the app cannot read is left as it is and no photo
is added until it is mended or moved away. A photo is added on the main thread as its roll is
judged: the 1,000th took 4.3 ms here (median of the last 100 of 1,000 added), its labels kept from the
last read or write unless the file changed.
"""
from __future__ import annotations

import itertools
import json
import math
import os
import time
from functools import cache
from pathlib import Path
from typing import Callable

from companion.pending_rolls import PendingRolls

FOLDER = "checked-photos"              # beside games.db: pip rolls
ICON_FOLDER = "checked-icon-photos"    # Centerville's icon dice: each face a label such as "red-vote"
MOST = 1000                            # a folder's photos at most; at about 100 KB a 640 x 480 photo: 100 MB


class PhotosError(ValueError):
    """labels.json cannot be read as the shared sets' labels: the sentence names the place."""


def read_labels(path: Path, icons: bool = False) -> dict:
    """{photo name: [{"face", "box"}]} of a labels.json; {} when there is none yet. A file that is
    not the shared sets' labels raises PhotosError naming the photo and field. With `icons` a face
    is a Centerville die's label ("red-vote"), else 1 to 6."""
    labels = read_photo_file(path)
    for name, dice in labels.items():
        check_dice(f"{path}: {name}", dice, icons)
    return labels


def read_photo_file(path: Path) -> dict:
    """A photo folder's file as JSON, an object of photo names; {} when there is none yet; PhotosError
    naming the file and line for anything else."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    except UnicodeDecodeError as exc:
        raise PhotosError(f"{path}: not UTF-8 text (byte {exc.start})") from None
    try:
        entries = json.loads(text)
    except json.JSONDecodeError as exc:
        raise PhotosError(f"{path} line {exc.lineno}: not JSON ({exc.msg})") from None
    except RecursionError:
        raise PhotosError(f"{path}: nested too deeply to be labels") from None
    if not isinstance(entries, dict):
        raise PhotosError(f"{path}: an object of photo names is expected, not {type(entries).__name__}")
    return entries


def check_dice(where: str, dice, icons: bool = False, unknown: bool = False) -> None:
    """PhotosError naming `where` and the die unless `dice` is a list of {"face", "box"} (a face null
    too with `unknown`: a die the camera could not name)."""
    if not isinstance(dice, list):
        raise PhotosError(f"{where}: a list of dice is expected")
    is_face = face_check(icons)
    for k, die in enumerate(dice):
        face, box = (die.get("face"), die.get("box")) if isinstance(die, dict) else (None, None)
        if not (is_face(face) or (unknown and face is None and isinstance(die, dict) and "face" in die)):
            kind = "a Centerville die's face" if icons else "1 to 6"
            raise PhotosError(f"{where} die {k}: face must be {kind}, not {face!r}")
        if not (isinstance(box, list) and len(box) == 4 and all(
                isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in box)):
            raise PhotosError(f"{where} die {k}: box must be four numbers, not {box!r}")


def face_check(icons: bool):
    """Whether a value is a face: a Centerville die's label ("red-vote") with `icons`, else 1 to 6."""
    return _icon if icons else is_pip_face


def is_pip_face(face) -> bool:
    return isinstance(face, int) and not isinstance(face, bool) and 1 <= face <= 6


def _icon(face) -> bool:
    return isinstance(face, str) and face in _icon_labels()


@cache
def _icon_labels() -> frozenset:
    from companion.engine.centerville.dice import default_dice

    return frozenset(default_dice().all_labels())


class PhotoFolder:
    """A folder of photos (`images/NAME.jpg`) and one JSON file (FILE) of what is known of each,
    {NAME: entry}, both written through a temporary file and a rename; at most MOST photos. `parse`
    reads the file (raising PhotosError naming the photo and field); KEPT says what a photo not kept
    is. Nothing here raises for a roll's sake: a photo that cannot be kept now sets `problem` (the
    sentence doctor gives too) and `_keep` returns False."""

    FILE = "labels.json"
    KEPT = "the checked photos are not kept"

    def __init__(self, folder: Path | str, parse: Callable[[Path], dict]):
        self.folder = Path(folder)
        self.problem = ""
        self._parse = parse
        self._read: tuple | None = None   # (the file's stat, its entries) as last read or written here

    @property
    def file_path(self) -> Path:
        return self.folder / self.FILE

    def count(self) -> int:
        """Photos kept (raises PhotosError or OSError when the file cannot be read)."""
        return len(self.entries())

    def entries(self) -> dict:
        """The file's entries, read again only when the file changed since this object last read or
        wrote it (parsing 1,000 photos' labels took 3.5 ms of the 7.7 a photo cost here). Raises
        PhotosError or OSError."""
        stamp = _stamp(self.file_path)
        if self._read is None or self._read[0] != stamp or stamp is None:
            self._read = (stamp, self._parse(self.file_path))
        return self._read[1]

    def _keep(self, photo: bytes, entry, when: float | None, name: str | None = None) -> bool:
        try:
            entries = dict(self.entries())   # a copy: a write that fails leaves the known entries as they were
            if len(entries) >= MOST:
                self.problem = f"{self.folder} holds {MOST} photos, as many as are kept: no more are added"
                return False
            if name is None or name in entries or (self.folder / "images" / name).exists():
                name = self._name(entries, time.time() if when is None else when)
            images = self.folder / "images"
            images.mkdir(parents=True, exist_ok=True)
            write_whole(images / name, photo)
            entries[name] = entry
            self._write(entries)
        except (PhotosError, OSError) as exc:
            self.problem = f"{self.KEPT}: {exc}"
            return False
        self.problem = ""
        return True

    def _write(self, entries: dict) -> None:
        write_whole(self.file_path, _labels_text(entries).encode("utf-8"))
        self._read = (_stamp(self.file_path), entries)

    def _name(self, entries: dict, when: float) -> str:
        """A new photo's name: when it was taken, so that names sort as the photos were taken
        (vision.realdata splits a set in name order)."""
        stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(when))
        # A photo written just before a power cut, its entry not yet, keeps its name too.
        return next(name for name in (f"{stamp}-{n}.jpg" for n in itertools.count())
                    if name not in entries and not (self.folder / "images" / name).exists())


class CheckedPhotos(PhotoFolder):
    """The folder of one table's checked photos (pip faces, or with `icons` Centerville's)."""

    def __init__(self, folder: Path | str, icons: bool = False):
        super().__init__(folder, lambda path: read_labels(path, icons))
        self.icons = icons

    @property
    def labels_path(self) -> Path:
        return self.file_path

    def add(self, photo: bytes, dice, when: float | None = None, name: str | None = None) -> bool:
        """Keep `photo` (JPEG bytes) with its dice, each (face, (x0, y0, x1, y1)) in its pixels; named
        `name` if given and free (a photo boxed later keeps the name of when it was taken), else by
        `when` (default now)."""
        return self._keep(photo, [{"face": str(face) if self.icons else int(face), "box": rounded_box(box)}
                                  for face, box in dice], when, name)


class HeldPhotos:
    """Photos of entered rolls held until the game has moved past them (companion.pending_rolls), then
    kept in `photos` if the entry still holds the faces they were labelled with: a roll undone and
    entered with other faces keeps no photo. Centerville's rolls come here; pip rolls are held by
    companion.pip_checks, which judges them."""

    def __init__(self, photos: CheckedPhotos, to_box=None):
        self.photos = photos
        self.to_box = to_box        # companion.photos_to_box.PhotosToBox for the rolls boxed wrongly
        self.rolls = PendingRolls()

    def hold(self, photo: bytes, labels, faces: tuple, session, at: int, entered: tuple | None = None) -> None:
        """The photo of the roll entered at index `at` of `session`'s actions, whose dice are `faces`.
        With `entered` (the face of every die in the tray, as the game holds them) it is a photo to
        box (companion.photos_to_box): `labels` are then the camera's boxes, a face None where it
        could not name the die."""
        self.rolls.add((photo, labels, tuple(faces), None if entered is None else tuple(entered)),
                       session, at, one_per_entry=True)

    def settle(self, everything: bool = False) -> None:
        """Keep the photos of the rolls the game has moved past (all of them with `everything`)."""
        for roll in self.rolls.due(everything):
            photo, labels, faces, entered = roll.value
            entry = roll.entry()
            if entry is None or getattr(entry, "dice", None) != faces:
                continue
            if entered is None:
                self.photos.add(photo, labels)
            elif self.to_box is not None:
                self.to_box.add(photo, entered, labels)


def rounded_box(box) -> list[float]:
    return [round(float(v), 1) for v in box]


def _labels_text(labels: dict) -> str:
    """labels.json, one photo a line in name order: as readable as an indented file, written by json's
    C encoder (an indented dump of 1,000 photos took 8.9 ms here, this 1.8 ms)."""
    lines = (f"{json.dumps(name)}: {json.dumps(dice)}" for name, dice in sorted(labels.items()))
    return "{\n" + ",\n".join(lines) + "\n}\n"


def _stamp(path: Path) -> tuple | None:
    """What tells a file changed: its inode, size and modification time (None: no file)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return None
    return st.st_ino, st.st_size, st.st_mtime_ns


def write_whole(path: Path, data: bytes) -> None:
    """Write through a temporary file and a rename: the old file or the new one, never half of one."""
    part = path.with_name(path.name + ".part")
    try:
        with open(part, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
        os.replace(part, path)
    except OSError:
        part.unlink(missing_ok=True)   # a full disk leaves no half photo behind
        raise
