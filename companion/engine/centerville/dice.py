"""Centerville's six icon dice, as data (`data/dice.toml`).

A face label is "<die colour>-<icon>", e.g. "yellow-contract", "green-hourglass", "black-vote":
the same labels the dice reader's classifier uses (see companion/engine/dice.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ..core import data_file_error, load_data_toml
from ..keys import check_keys

ICONS = ("vote", "fate", "contract", "education", "tree", "bench", "hourglass")
COLOURS = ("red", "yellow", "blue", "purple", "green", "black")


@dataclass(frozen=True)
class DiceSet:
    order: tuple[str, ...]  # die colours, in the engine's die order
    faces: tuple[tuple[str, ...], ...]  # per die: its six icons (repeats kept, for odds)

    def labels(self, die: int) -> tuple[str, ...]:
        """The distinct face labels of one die, e.g. ("red-vote", "red-fate", ...)."""
        seen = dict.fromkeys(f"{self.order[die]}-{icon}" for icon in self.faces[die])
        return tuple(seen)

    def all_labels(self) -> tuple[str, ...]:
        return tuple(label for die in range(len(self.order)) for label in self.labels(die))

    def index(self, colour: str) -> int:
        return self.order.index(colour)


def split_face(label: str) -> tuple[str, str]:
    """("yellow", "contract") from "yellow-contract"; ValueError for anything else."""
    colour, _, icon = label.partition("-")
    if colour not in COLOURS or icon not in ICONS:
        raise ValueError(f'"{label}" is not a Centerville die face (like "yellow-contract").')
    return colour, icon


def dice_from_data(data, path: str = "dice.toml") -> DiceSet:
    error = data_file_error(path)

    def fail(key, message):
        raise error(key, message)

    if not isinstance(data, dict):
        fail("(top)", "a dice file is a table with order and [faces].")
    check_keys(data, ("order", "icons", "faces"), "", error)  # icons: the file's own key to its faces
    order = data.get("order")
    if not isinstance(order, list) or sorted(order) != sorted(COLOURS) or len(order) != 6:
        fail("order", f"must list the six die colours {', '.join(COLOURS)} once each.")
    faces_table = data.get("faces")
    if not isinstance(faces_table, dict):
        fail("faces", "must be a table of die colour = [six icons].")
    check_keys(faces_table, COLOURS, "faces", error)
    faces = []
    for colour in order:
        icons = faces_table.get(colour)
        if not isinstance(icons, list) or len(icons) != 6:
            fail(f"faces.{colour}", "must list the die's six icons.")
        for icon in icons:
            if icon not in ICONS:
                fail(f"faces.{colour}", f'"{icon}" is not an icon ({", ".join(ICONS)}).')
        faces.append(tuple(icons))
    return DiceSet(tuple(order), tuple(faces))


@lru_cache(maxsize=1)
def default_dice() -> DiceSet:
    return dice_from_toml(resources.files(__package__).joinpath("data/dice.toml").read_bytes())


def dice_from_toml(data: str | bytes, path: str = "companion/engine/centerville/data/dice.toml") -> DiceSet:
    """The dice of a dice.toml text; DataFileError naming the file, the line or key on a bad one."""
    return dice_from_data(load_data_toml(data, path), path)
