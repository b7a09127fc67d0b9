"""The Village Sheet and the Projects! legend: game data read from TOML and validated on load.

The default files live in `data/`; a player can use their own (the text of a TOML file, or a
dict in the same shape given as the log header's "sheet" / "projects" option). Every problem is a
`SheetError` naming the file, the key and, for a TOML syntax error, the line.
"""
from __future__ import annotations

import functools
import importlib.resources
import re
import tomllib
from dataclasses import dataclass
from typing import Any, Mapping

from .. import edge
from ..core import DataFileError, SetupError
from ..keys import check_keys

STREETS = 6  # one Street per die face: a die picks the Street
SUMS = tuple(range(2, 13))
# Squares a game fills: 2 start Projects + 2 per turn for 9 turns + 3 Bonus Projects.
SQUARES_NEEDED = 2 + 2 * 9 + 3


class SheetError(SetupError, DataFileError):
    """A sheet or legend that fails validation.

    Both a `DataFileError` (names `path` and `key`) and a `SetupError`, so that a bad "sheet"
    in a log header is refused like any other bad set-up (log.replay reports its line).
    """

    def __init__(self, message: str, path: str = "", key: str = "", line: int | None = None):
        where = path or "the sheet"
        text = f"{where}: {message}" + (f" (key: {key})" if key else "")
        ValueError.__init__(self, text)
        self.rule = "Village Sheet"
        self.path = path
        self.key = key
        self.line = line


@dataclass(frozen=True)
class Sheet:
    """A Village Grid: Avenues (rows, top to bottom) x 6 Streets, points per square."""

    labels: tuple[str, ...]
    sums: tuple[tuple[int, ...], ...]
    points: tuple[tuple[int, ...], ...]
    choice_sums: tuple[int, ...]

    @property
    def avenues(self) -> int:
        return len(self.points)

    @property
    def streets(self) -> int:
        return STREETS

    def avenue_for_sum(self, total: int) -> int | None:
        """The Avenue (1-based) a dice sum Activates, or None when each player chooses."""
        for row, sums in enumerate(self.sums, start=1):
            if total in sums:
                return row
        return None

    def label(self, row: int) -> str:
        return f"[{self.labels[row - 1]}]"

    def to_dict(self) -> dict:
        """The sheet in the shape of data/sheet.toml (and of a header's "sheet" option)."""
        return {
            "choice_sums": list(self.choice_sums),
            "avenue": [
                {"label": lab, "sums": list(s), "points": list(p)}
                for lab, s, p in zip(self.labels, self.sums, self.points)
            ],
        }


@dataclass(frozen=True)
class Legend:
    """The Projects! legend: Project names (as logged), titles (as shown), die face -> Project."""

    names: tuple[str, ...]
    titles: tuple[str, ...]
    faces: tuple[str, ...]  # faces[d - 1] is the Project of die face d

    def project_for_die(self, face: int) -> str:
        return self.faces[face - 1]

    def title(self, name: str) -> str:
        return self.titles[self.names.index(name)]

    def to_dict(self) -> dict:
        return {
            "project": [
                {"name": n, "title": t, "dice": [d for d in range(1, 7) if self.faces[d - 1] == n]}
                for n, t in zip(self.names, self.titles)
            ]
        }


# ---------------------------------------------------------------------------------------------
# Loading
# ---------------------------------------------------------------------------------------------
def _read_toml(text: str, path: str) -> dict:
    try:
        return edge.read_toml(text)  # bounded first: a deep or huge value names its key and line
    except edge.EdgeError as exc:
        raise SheetError(f"line {exc.line}: {exc.message}", path=path, line=exc.line) from None
    except tomllib.TOMLDecodeError as exc:
        found = re.search(r"line (\d+)", str(exc))
        line = int(found.group(1)) if found else None
        raise SheetError(f"not valid TOML: {exc}", path=path, line=line) from None


# The engine does no I/O: the app reads a player's file and hands its text over.
def sheet_from_toml(text: str, path: str = "") -> Sheet:
    """Validate a sheet TOML text (a player's file, named `path` in errors)."""
    return sheet_from_dict(_read_toml(text, path), path)


def legend_from_toml(text: str, path: str = "") -> Legend:
    """Validate a Projects! legend TOML text (a player's file, named `path` in errors)."""
    return legend_from_dict(_read_toml(text, path), path)


def _packaged(name: str) -> tuple[dict, str]:
    text = importlib.resources.files(__package__).joinpath("data", name).read_text("utf-8")
    return _read_toml(text, f"data/{name}"), f"data/{name}"


@functools.cache
def default_sheet() -> Sheet:
    return sheet_from_dict(*_packaged("sheet.toml"))


@functools.cache
def default_legend() -> Legend:
    return legend_from_dict(*_packaged("projects.toml"))


# ---------------------------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------------------------
def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int_list(value, key: str, path: str, low: int, high: int | None, what: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not all(_is_int(v) for v in value):
        raise SheetError(f"{what} must be a list of whole numbers.", path, key)
    for v in value:
        if v < low or (high is not None and v > high):
            limit = f"from {low} to {high}" if high is not None else f"{low} or more"
            raise SheetError(f"{what} must be {limit}, not {v}.", path, key)
    return tuple(value)


def _check_keys(table: Mapping, allowed: tuple[str, ...], where: str, path: str) -> None:
    # The key's path leads the message, as every reader of the project words an unknown key.
    check_keys(table, allowed, where, lambda key, problem: SheetError(f"{key}: {problem}", path, key))


def sheet_from_dict(data: Any, path: str = "") -> Sheet:
    """Validate a sheet given as a dict (parsed TOML or a log header's "sheet")."""
    if not isinstance(data, Mapping):
        raise SheetError("a sheet must be a table with [[avenue]] entries.", path, "sheet")
    _check_keys(data, ("choice_sums", "avenue"), "", path)
    choice = _int_list(data.get("choice_sums", []), "choice_sums", path, 2, 12, "choice_sums")
    avenues = data.get("avenue")
    if not isinstance(avenues, list) or not all(isinstance(a, Mapping) for a in avenues):
        raise SheetError("the sheet needs a list of [[avenue]] tables, top to bottom.", path, "avenue")
    rows_needed = -(-SQUARES_NEEDED // STREETS)
    if len(avenues) < rows_needed:
        raise SheetError(
            f"a game builds {SQUARES_NEEDED} Projects, so the grid needs at least {rows_needed} "
            f"Avenues of {STREETS} squares, not {len(avenues)}.", path, "avenue")
    labels, sums, points = [], [], []
    owner: dict[int, str] = {s: "choice_sums" for s in choice}
    if len(owner) != len(choice):
        raise SheetError("choice_sums lists a sum twice.", path, "choice_sums")
    for number, avenue in enumerate(avenues, start=1):
        prefix = f"avenue[{number}]."
        _check_keys(avenue, ("label", "sums", "points"), f"avenue[{number}]", path)
        label = avenue.get("label")
        if not isinstance(label, str) or not label.strip():
            raise SheetError(f"Avenue {number} needs a label (text).", path, prefix + "label")
        row_sums = _int_list(avenue.get("sums"), prefix + "sums", path, 2, 12, f"Avenue {number}'s sums")
        if not row_sums:
            raise SheetError(f"Avenue {number} needs at least one dice sum.", path, prefix + "sums")
        for s in row_sums:
            if s in owner:
                raise SheetError(f"the sum {s} is given to Avenue {number} and to {owner[s]}.",
                                 path, prefix + "sums")
            owner[s] = f"Avenue {number}"
        row_points = _int_list(avenue.get("points"), prefix + "points", path, 0, None,
                               f"Avenue {number}'s points")
        if len(row_points) != STREETS:
            raise SheetError(f"Avenue {number} needs points for {STREETS} Streets, "
                             f"not {len(row_points)}.", path, prefix + "points")
        labels.append(label.strip())
        sums.append(row_sums)
        points.append(row_points)
    missing = [s for s in SUMS if s not in owner]
    if missing:
        raise SheetError(f"no Avenue is Activated by the sum(s) {missing}; give each sum from 2 "
                         "to 12 to an Avenue or to choice_sums.", path, "avenue")
    return Sheet(tuple(labels), tuple(sums), tuple(points), choice)


def legend_from_dict(data: Any, path: str = "") -> Legend:
    """Validate a Projects! legend given as a dict."""
    if not isinstance(data, Mapping):
        raise SheetError("a legend must be a table with [[project]] entries.", path, "projects")
    _check_keys(data, ("project",), "", path)
    projects = data.get("project")
    if not isinstance(projects, list) or not all(isinstance(p, Mapping) for p in projects):
        raise SheetError("the legend needs a list of [[project]] tables.", path, "project")
    # Three Bonus turns, each type once as a Bonus: at least three Project types.
    if len(projects) < 3:
        raise SheetError(f"the legend needs at least 3 Projects, not {len(projects)}.", path, "project")
    names, titles, faces = [], [], [None] * 6
    for number, project in enumerate(projects, start=1):
        prefix = f"project[{number}]."
        _check_keys(project, ("name", "title", "dice"), f"project[{number}]", path)
        name = project.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"[a-z][a-z_-]*", name):
            raise SheetError(f"Project {number} needs a name in lower-case letters.", path, prefix + "name")
        if name in names:
            raise SheetError(f'the Project "{name}" is listed twice.', path, prefix + "name")
        title = project.get("title", name.title())
        if not isinstance(title, str) or not title.strip():
            raise SheetError(f"Project {number}'s title must be text.", path, prefix + "title")
        dice = _int_list(project.get("dice"), prefix + "dice", path, 1, 6, f"Project {number}'s dice")
        for face in dice:
            if faces[face - 1] is not None:
                raise SheetError(f"die face {face} stands for both {faces[face - 1]} and {name}.",
                                 path, prefix + "dice")
            faces[face - 1] = name
        names.append(name)
        titles.append(title.strip())
    missing = [d for d in range(1, 7) if faces[d - 1] is None]
    if missing:
        raise SheetError(f"die face(s) {missing} stand for no Project.", path, "project")
    return Legend(tuple(names), tuple(titles), tuple(faces))
