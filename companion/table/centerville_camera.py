"""Centerville's dice from the camera: a reading fills the dice row, and what the players
confirm or correct teaches the camera.

A reading names each die by its colour (the camera tells the six dice apart by colour) and its
face by the table's taught examples. A die read surely fills its place in the row; a die the
camera is unsure of (its nearest examples disagree or are far) is left for the face pad, with
the camera's guess marked, so the players are asked and never silently given a guess. When the
roll is entered, every die the players were asked about or corrected is taught with its picture:
the reader gets better as the game goes on (issue 15). Dice read surely and let stand are not
added: they teach the reader nothing it did not know, and would only grow the examples.
"""
from __future__ import annotations

from companion.engine.centerville.state import DIE_ORDER

from .teach import die_colour, die_label


def fill(wanted, reading, faces: dict[int, str]) -> tuple[dict[int, str], dict[int, object], str]:
    """The faces of the dice being rolled after `reading`, the read die of each, and what to say.

    `faces` are the faces entered so far; a die the camera read replaces its entry, a die it
    is unsure of is cleared (to be asked on the pad), a die it did not find keeps its entry."""
    faces = dict(faces)
    read: dict[int, object] = {}
    for die in reading.dice:
        colour = die_colour(die)
        index = DIE_ORDER.index(colour) if colour is not None else None
        if index not in wanted or index in read:
            continue  # a die not being rolled (kept, set aside) or a second one of a colour
        read[index] = die
        label = die_label(die, colour)
        if label is not None and not die.uncertain:
            faces[index] = label
        else:
            faces.pop(index, None)
    unsure = [DIE_ORDER[d] for d in wanted if d in read and d not in faces]
    unseen = [DIE_ORDER[d] for d in wanted if d not in read]
    parts = []
    if not read:
        parts.append("The camera found none of the dice being rolled: tap each die's face.")
    else:
        parts.append(f"The camera read {len(read) - len(unsure)} of {len(wanted)} dice.")
    if unsure:
        parts.append(f"Check the {', '.join(unsure)} {_dice(unsure)}: tap the face "
                     f"{'it shows' if len(unsure) == 1 else 'each shows'} (the camera's guess is marked).")
    if unseen and read:
        parts.append(f"It did not find the {', '.join(unseen)} {_dice(unseen)}: tap "
                     f"{'its face' if len(unseen) == 1 else 'their faces'}.")
    if not unsure and not unseen:
        parts.append("Tap a die to correct it, or enter the roll.")
    return faces, read, " ".join(parts)


def _dice(colours) -> str:
    return "die" if len(colours) == 1 else "dice"


def lessons(read: dict[int, object], entered: dict[int, str]) -> list[tuple[str, object]]:
    """(face, picture) to teach once a roll is entered: each die the camera was unsure of or
    misread, with the face the players entered for it."""
    out = []
    for index, die in read.items():
        face = entered.get(index)
        crop = getattr(die, "crop", None)
        if face is None or crop is None:
            continue
        if die.uncertain or getattr(die, "label", None) != face:
            out.append((face, crop))
    return out


def checked(read: dict[int, object], entered: dict[int, str]) -> list:
    """The camera's reads as the players checked them once a roll is entered (each read die with
    the face entered for it): the evidence by which the table earns a looser asking pair
    (vision.earned). Reads the asking pair did not decide are left out."""
    out = []
    for index, die in read.items():
        face = entered.get(index)
        check = getattr(die, "checked", None)
        got = check(face) if face is not None and check is not None else None
        if got is not None:
            out.append(got)
    return out


def photo_labels(reading, entered: dict[int, str], kept: dict[int, str]) -> list[tuple[str, tuple]] | None:
    """Each die of `reading` with the face the game holds for it once the roll is entered: the face
    entered for a die rolled, the face kept for a die left in the tray; for a kept photo's labels
    (companion.checked_photos). None when a die's colour was not measured surely as one of the six,
    a colour shows twice or a die has no face: a label would then hang on the camera's guess of
    which die it is."""
    from vision.taught import COLOUR_ASK_BELOW

    out, seen = [], set()
    for die in getattr(reading, "dice", ()):
        colour = getattr(die, "color", None)
        if colour not in DIE_ORDER or colour in seen or getattr(die, "colour_confidence", 1.0) < COLOUR_ASK_BELOW:
            return None
        seen.add(colour)
        index = DIE_ORDER.index(colour)
        face = entered.get(index) or kept.get(index)
        if face is None:
            return None
        out.append((face, tuple(die.box)))
    return out or None


def roll_photo(reading, entered: dict[int, str], kept: dict[int, str]) -> tuple | None:
    """(photo, labels, None) of a roll whose reading can be labelled (photo_labels), else (photo, the
    camera's boxes, every die's face) for a person to box (to_box_labels); None without a photo."""
    photo = getattr(reading, "photo", None)
    if not photo:
        return None
    labels = photo_labels(reading, entered, kept)
    if labels is not None:
        return photo, labels, None
    faces, boxes = to_box_labels(reading, entered, kept)
    return photo, boxes, faces


def to_box_labels(reading, entered: dict[int, str], kept: dict[int, str]) -> tuple[list, list]:
    """(the face of every die in the tray as the game holds it once the roll is entered, the
    camera's boxes each with the face it read or None) of a roll whose photo cannot be labelled
    (photo_labels gives None): kept for a person to box (companion.photos_to_box)."""
    faces = {**kept, **entered}
    camera = []
    for die in getattr(reading, "dice", ()):
        colour = die_colour(die)
        camera.append((die_label(die, colour), tuple(die.box)))
    return [faces[d] for d in sorted(faces)], camera


def learned(taught, found: list[tuple[str, object]], reads: list = ()) -> str:
    """Teach `found` to the table's examples and keep the checked `reads`; the sentence saying
    what was learned ("" for nothing)."""
    if taught is None:
        return ""
    surer = bool(reads) and taught.check(reads)
    for face, crop in found:
        taught.add(face, crop)
    names = ", ".join(face.replace("-", " ") for face, _ in found)
    said = [f"The camera learned {names}."] if found else []
    if surer:
        said.append("It has read this table's dice right often enough to ask about fewer of them.")
    return " ".join(said)
