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
import os
import time
from pathlib import Path

from companion.checked_photos import write_whole
from companion.engine import schema as S

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
            say(f"{str(exc).rstrip('.')}; the file is kept as {aside}, and those rolls are not in the statistics.")
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
    """A waiting roll's value as JSON (its shape is VALUES[kind])."""
    if kind == "fair":      # [(die, face)]
        return [{"die": die, "face": face} for die, face in value]
    if kind == "pip":       # companion.pip_checks.PipRead
        return {"reads": [{"face": face, "confidence": confidence} for face, confidence in value.reads],
                "checked": None if value.checked is None else list(value.checked),
                "boxes": [list(b) for b in value.boxes], "photo": _b64(value.photo),
                "kept": None if value.kept is None else list(value.kept)}
    photo, labels, faces, entered = value    # checked_photos.HeldPhotos: (photo, [(face, box)], faces, entered)
    return {"photo": _b64(photo), "labels": [{"face": face, "box": list(box)} for face, box in labels],
            "faces": list(faces), "entered": None if entered is None else list(entered)}


def _obj(**fields) -> S.Obj:
    return S.Obj(fields, required=tuple(fields))


FACE, LABEL = S.Int(1, 6), S.Str(nonempty=True)
NUMBER = S.Num(finite=True)
BOX = S.List(NUMBER, min=4, max=4)
VALUES = {   # each kind's value, as encode writes it
    "fair": S.List(_obj(die=S.Str(), face=S.Str())),
    "pip": _obj(reads=S.List(_obj(face=FACE, confidence=NUMBER)), checked=S.Null(S.List(FACE)), boxes=S.List(BOX),
                photo=S.Null(S.Str()), kept=S.Null(S.List(S.Int(0)))),
    "photo": _obj(photo=S.Str(), labels=S.List(_obj(face=S.Null(LABEL), box=BOX)), faces=S.List(LABEL),
                  entered=S.Null(S.List(LABEL))),
}
LIST = _obj(rolls=S.List(_obj(game=S.Int(0), at=S.Int(0), kind=S.Str(choices=KINDS), value=S.Anything())))


def parse(text: bytes) -> list[tuple[int, int, str, object]]:
    """(game, at, kind, value) of each roll written by `WaitingRolls.save`; WaitingError naming the
    roll and field for anything else (companion.engine.schema, then what the schema cannot say)."""
    try:
        data = S.check(LIST, json.loads(text.decode("utf-8")))
        rolls = data["rolls"]
        for i, roll in enumerate(rolls):
            S.check(VALUES[roll["kind"]], roll["value"], f"rolls[{i}].value")
        return [(roll["game"], roll["at"], roll["kind"], decode(roll["kind"], roll["value"], f"rolls[{i}].value"))
                for i, roll in enumerate(rolls)]
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise WaitingError(f"The rolls still waiting are not a list the app wrote ({exc})") from None
    except S.SchemaError as exc:
        raise WaitingError(f"The rolls still waiting, {exc}") from None


def decode(kind: str, data, path: str = "value") -> object:
    """The value `encode` wrote, `data` already fitting VALUES[kind]; SchemaError naming `path` for
    what the schema cannot check (a photo's base64, a kept die's index, an unnamed die's place)."""
    if kind == "fair":
        return [(die["die"], die["face"]) for die in data]
    if kind == "pip":
        from companion.pip_checks import PipRead

        reads = tuple((r["face"], float(r["confidence"])) for r in data["reads"])
        kept = data["kept"]
        if kept is not None and any(i >= len(reads) for i in kept):
            raise S.SchemaError(f"{path}.kept", f"must name the {len(reads)} dice read, not {kept}.")
        return PipRead(reads, None if data["checked"] is None else tuple(data["checked"]),
                       tuple(tuple(b) for b in data["boxes"]), _bytes(data["photo"], f"{path}.photo"),
                       None if kept is None else tuple(kept))
    entered = None if data["entered"] is None else tuple(data["entered"])
    if entered is None and any(label["face"] is None for label in data["labels"]):
        raise S.SchemaError(f"{path}.labels", "a labelled photo names every die's face.")
    return (_bytes(data["photo"], f"{path}.photo"), [(label["face"], tuple(label["box"])) for label in data["labels"]],
            tuple(data["faces"]), entered)


def _text(entries: list) -> str:
    """The list, one roll a line (a person can read which game and entry each waits for)."""
    return '{"rolls": [\n' + ",\n".join(json.dumps(entry) for entry in entries) + "\n]}\n"


def _b64(photo: bytes | None) -> str | None:
    return None if photo is None else base64.b64encode(photo).decode("ascii")


def _bytes(text: str | None, path: str) -> bytes | None:
    try:
        return None if text is None else base64.b64decode(text, validate=True)
    except binascii.Error:
        raise S.SchemaError(path, "must be a photo in base64.") from None
