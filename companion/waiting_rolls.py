"""The camera rolls still waiting to be final, written down so that a power cut does not lose them.

A camera roll waits (companion.pending_rolls) until the game has moved past it: for the fairness
statistics (companion.table.fair_rolls), the table's checked pip reads (companion.pip_checks) and its
kept photos (companion.checked_photos). A closed app settles them (Table.settle_rolls); a power cut
or a kill used to lose them: the game's last roll (the game itself is in the store, never lost).
So the table writes what waits to FILE beside games.db whenever it changes, through a temporary file
and a rename (the old list or the new one), and at the next start the app settles the rolls written
there against their games as the store holds them: as the app closing would have settled them.

A list that cannot be written now (a full disk, read-only) costs only those rolls: said once in
`problem`, the game goes on. One that cannot be read at start (damaged) is moved aside, never
deleted, and said; one that cannot be opened now (permissions) is left as it is.
"""
from __future__ import annotations

import base64
import binascii
import json
import math
import os
import time
from numbers import Real
from pathlib import Path

from companion.checked_photos import write_whole

FILE = "waiting-rolls.json"
KINDS = ("fair", "pip", "photo")   # fair_rolls, pip_checks, icon_photos (checked_photos.HeldPhotos)


class WaitingError(ValueError):
    """The list cannot be read as one the app wrote: the sentence names the roll and field."""


def holders(table) -> dict:
    """The table's companion.pending_rolls.PendingRolls by kind (those it has)."""
    found = {"fair": table.fair_rolls, "pip": table.pip_checks, "photo": table.icon_photos}
    return {kind: holder.rolls for kind, holder in found.items() if holder is not None}


class WaitingRolls:
    """FILE in `folder` (beside games.db), kept by the app as its rolls wait."""

    def __init__(self, folder: Path | str):
        self.path = Path(folder) / FILE
        self.problem = ""
        self._written = None     # the holders' changes when last written
        self._may_write = None   # False while a list from before is there, not read yet

    def save(self, table) -> None:
        """Write down what waits now, if it changed since the last write; never raises. A list left
        from before that `settle` has not read is never replaced: its rolls would be lost."""
        if self._may_write is None:
            self._may_write = not os.path.lexists(self.path)
        if not self._may_write:
            return
        rolls = holders(table)
        changes = tuple((kind, id(r), r.changes) for kind, r in rolls.items())
        if changes == self._written:
            return
        entries = [{"game": roll.session.game_id, "at": roll.at, "kind": kind, "value": encode(kind, roll.value)}
                   for kind, holder in rolls.items() for roll in holder.waiting
                   if getattr(roll.session, "game_id", None) is not None]
        try:
            if entries:
                write_whole(self.path, _text(entries).encode())
            else:
                self.path.unlink(missing_ok=True)
        except OSError as exc:
            self.problem = f"the rolls still waiting could not be written to {self.path}: {exc.strerror or exc}"
            return
        self.problem = ""
        self._written = changes

    def settle(self, table, store, report=None) -> int:
        """Settle the rolls written down before the app last stopped (the table must have no game
        open), each against its game as `store` holds it; returns how many were settled. A list that
        cannot be read is reported through `report(sentence)` and kept."""
        from companion.session import Session

        say = report or (lambda _sentence: None)
        try:
            text = self.path.read_bytes()
        except FileNotFoundError:
            self._may_write = True
            return 0
        except OSError as exc:      # cannot be opened now: left for a later start, not damaged
            self._may_write = False
            self.problem = f"the rolls still waiting in {self.path} cannot be read now: {exc.strerror or exc}"
            say(f"The rolls still waiting in {self.path} cannot be read now: {exc.strerror or exc}; "
                f"until it can, the camera's rolls still waiting are not written down.")
            return 0
        try:
            entries = parse(text)
        except WaitingError as exc:
            aside = self.path.with_name(f"{self.path.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}")
            try:
                os.replace(self.path, aside)
                self._may_write = True
            except OSError:
                aside, self._may_write = self.path, False
            say(f"{exc}; the file is kept as {aside}, and those rolls are not in the statistics.")
            return 0
        self._may_write = True
        rolls, sessions, settled = holders(table), {}, 0
        for game, at, kind, value in entries:
            if kind not in rolls:
                continue     # photos the table no longer keeps
            if game not in sessions:
                try:
                    sessions[game] = Session.resume(store, game)
                except Exception as exc:    # the game deleted or unreadable: its rolls cannot be judged
                    sessions[game] = None
                    say(f"The rolls still waiting for saved game {game} were left out: {exc}")
            if sessions[game] is not None:
                rolls[kind].restore(value, sessions[game], at)
                settled += 1
        table.settle_rolls()
        self._written = None
        self.save(table)    # nothing waits now: the file goes
        return settled


def encode(kind: str, value) -> object:
    """A waiting roll's value as JSON."""
    if kind == "fair":      # [(die, face)]
        return [list(pair) for pair in value]
    if kind == "pip":       # companion.pip_checks.PipRead
        return {"reads": [list(r) for r in value.reads],
                "checked": None if value.checked is None else list(value.checked),
                "boxes": [list(b) for b in value.boxes], "photo": _b64(value.photo),
                "kept": None if value.kept is None else list(value.kept)}
    photo, labels, faces, entered = value    # checked_photos.HeldPhotos: (photo, [(face, box)], faces, entered)
    return {"photo": _b64(photo), "labels": [[face, list(box)] for face, box in labels], "faces": list(faces),
            "entered": None if entered is None else list(entered)}


def parse(text: bytes) -> list[tuple[int, int, str, object]]:
    """(game, at, kind, value) of each roll written by `WaitingRolls.save`; WaitingError naming the
    roll and field for anything else."""
    try:
        data = json.loads(text.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise WaitingError(f"The rolls still waiting are not a list the app wrote ({exc})") from None
    if not isinstance(data, dict) or set(data) != {"rolls"} or not isinstance(data["rolls"], list):
        raise WaitingError('The rolls still waiting are not a list the app wrote (no "rolls" list)')
    out = []
    for number, entry in enumerate(data["rolls"], 1):
        where = f"The rolls still waiting, roll {number}"
        if not isinstance(entry, dict) or set(entry) != {"game", "at", "kind", "value"}:
            raise WaitingError(f'{where}: not {{"game", "at", "kind", "value"}}')
        for field in ("game", "at"):
            if not _count(entry[field]):
                raise WaitingError(f'{where}: "{field}" is not a whole number from 0')
        if entry["kind"] not in KINDS:
            raise WaitingError(f'{where}: "kind" is not one of {", ".join(KINDS)}')
        try:
            value = decode(entry["kind"], entry["value"])
        except (TypeError, ValueError, KeyError, binascii.Error) as exc:
            raise WaitingError(f'{where}: "value" is not a {entry["kind"]} roll ({exc})') from None
        out.append((entry["game"], entry["at"], entry["kind"], value))
    return out


def decode(kind: str, data) -> object:
    """The value `encode` wrote; TypeError or ValueError for anything else."""
    if kind == "fair":
        pairs = [tuple(pair) for pair in _list(data)]
        if not all(len(p) == 2 and all(isinstance(s, str) for s in p) for p in pairs):
            raise ValueError("each die is not [die, face]")
        return pairs
    if kind == "pip":
        from companion.pip_checks import PipRead

        _keys(data, {"reads", "checked", "boxes", "photo", "kept"})
        reads = tuple((_face(f), float(_number(c))) for f, c in map(_pair, _list(data["reads"])))
        checked = None if data["checked"] is None else tuple(_face(f) for f in _list(data["checked"]))
        kept = None if data["kept"] is None else tuple(_index(i, len(reads)) for i in _list(data["kept"]))
        return PipRead(reads, checked, tuple(_box(b) for b in _list(data["boxes"])), _bytes(data["photo"]), kept)
    _keys(data, {"photo", "labels", "faces", "entered"})
    entered = None if data["entered"] is None else tuple(_label(f) for f in _list(data["entered"]))
    # A photo to box (entered given) may hold dice the camera could not name.
    labels = [(None if face is None and entered is not None else _label(face), _box(box))
              for face, box in map(_pair, _list(data["labels"]))]
    photo = _bytes(data["photo"])
    if photo is None:
        raise ValueError("no photo")
    return photo, labels, tuple(_label(f) for f in _list(data["faces"])), entered


def _text(entries: list) -> str:
    """The list, one roll a line (a person can read which game and entry each waits for)."""
    return '{"rolls": [\n' + ",\n".join(json.dumps(entry) for entry in entries) + "\n]}\n"


def _b64(photo: bytes | None) -> str | None:
    return None if photo is None else base64.b64encode(photo).decode("ascii")


def _bytes(text) -> bytes | None:
    if text is None:
        return None
    if not isinstance(text, str):
        raise TypeError("a photo is not base64 text")
    return base64.b64decode(text, validate=True)


def _count(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _list(value) -> list:
    if not isinstance(value, list):
        raise TypeError(f"{type(value).__name__} where a list belongs")
    return value


def _pair(value) -> list:
    if len(_list(value)) != 2:
        raise ValueError("not a pair")
    return value


def _keys(value, keys: set) -> None:
    if not isinstance(value, dict) or set(value) != keys:
        raise ValueError(f"not {sorted(keys)}")


def _number(value) -> Real:
    if isinstance(value, bool) or not isinstance(value, Real) or not math.isfinite(value):
        raise ValueError(f"{value!r} is not a number")
    return value


def _index(value, count: int) -> int:
    if not _count(value) or value >= count:
        raise ValueError(f"{value!r} is not one of the {count} dice read")
    return value


def _face(value) -> int:
    if not _count(value) or not 1 <= value <= 6:
        raise ValueError(f"{value!r} is not a face 1-6")
    return value


def _label(value) -> str:
    if not isinstance(value, str) or not value:
        raise ValueError(f"{value!r} is not a face's label")
    return value


def _box(value) -> tuple:
    box = tuple(_number(v) for v in _list(value))
    if len(box) != 4:
        raise ValueError("a box is not 4 numbers")
    return box
