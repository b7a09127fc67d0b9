"""A player's own Village Sheets and Projects! legends: the TOML files in the data folder.

`<data folder>/sheets/*.toml` are Village Sheets, `<data folder>/legends/*.toml` Projects! legends
(the folder of games.db; see companion/paths.py). The engine does no I/O, so the files are read
here and their text handed to `sheet_from_toml` / `legend_from_toml`; what goes into the game's
log header is the validated `to_dict()`, so the log (and a resumed game) carries the sheet itself,
not a file name that may change or vanish. No Kivy here: the set-up screen shows what this returns.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from companion.engine.rolling_village import SheetError, legend_from_toml, sheet_from_toml

SHEETS = "sheets"
LEGENDS = "legends"
DEFAULT_SHEET = "Printed sheet (default)"
DEFAULT_LEGEND = "Printed legend (default)"


@dataclass(frozen=True)
class Choice:
    """One entry of the list: `path` None is the printed default."""

    title: str
    path: Path | None = None


def choices(data_dir: Path, folder: str) -> list[Choice]:
    """The default, then every `*.toml` in `data_dir/folder`, by name (a missing folder: none)."""
    default = DEFAULT_SHEET if folder == SHEETS else DEFAULT_LEGEND
    where = Path(data_dir) / folder
    found = sorted(p for p in where.glob("*.toml") if p.is_file()) if where.is_dir() else []
    return [Choice(default)] + [Choice(p.stem, p) for p in found]


def shown_path(path: Path) -> str:
    """The file as errors name it: its folder and name ("sheets/big.toml"), which is what the
    player put in the data folder; the full path would not fit the banner."""
    return f"{path.parent.name}/{path.name}"


def key_line(text: str, key: str) -> int | None:
    """The line (1-based) of `key` ("choice_sums", "avenue[3].points", "project[2]") in a TOML
    text written in the plain shape of the shipped files; None when it cannot be found there
    (e.g. an inline table). Validation errors name a key; the line lets the player go to it."""
    found = re.fullmatch(r"(?:(\w+)\[(\d+)\]\.?)?(\w*)", key)
    if not found:
        return None
    table, number, leaf = found.group(1), int(found.group(2) or 0), found.group(3)
    lines = text.splitlines()
    seen, inside = 0, table is None  # top-level keys come before the first [[table]]
    for index, line in enumerate(lines, start=1):
        stripped = line.strip()
        if stripped.startswith("["):
            head = re.fullmatch(r"\[\[\s*(\w+)\s*\]\].*", stripped)
            if table is None:
                if leaf and head and head.group(1) == leaf:
                    return index  # a key naming the whole list: its first table
                inside = False
                continue
            if head and head.group(1) == table:
                seen += 1
                inside = seen == number
                if inside and not leaf:
                    return index
            else:
                inside = False
            continue
        if inside and leaf and re.match(rf"{re.escape(leaf)}\s*=", stripped):
            return index
    return None


def _read(path: Path) -> str:
    try:
        return Path(path).read_text("utf-8")
    except UnicodeDecodeError:
        raise SheetError("is not a text file (UTF-8).", shown_path(path)) from None
    except OSError as exc:
        raise SheetError(f"cannot be read ({exc.strerror or exc}).", shown_path(path)) from None


def _with_line(error: SheetError, text: str) -> SheetError:
    """The error with the line of its key added to the message (a syntax error has it already)."""
    if error.line is None and error.key:
        line = key_line(text, error.key)
        if line is not None:
            error.line = line
            error.args = (f"{error.args[0][:-1]}, line {line})",)
    return error


def load_sheet(path: Path) -> dict:
    """A sheet file validated, as the header's "sheet" dict; a bad file raises SheetError naming
    the file, the key and the line."""
    text = _read(path)
    try:
        return sheet_from_toml(text, shown_path(path)).to_dict()
    except SheetError as exc:
        raise _with_line(exc, text) from None


def load_legend(path: Path) -> dict:
    """A legend file validated, as the header's "projects" dict (SheetError as for a sheet)."""
    text = _read(path)
    try:
        return legend_from_toml(text, shown_path(path)).to_dict()
    except SheetError as exc:
        raise _with_line(exc, text) from None


def village_options(sheet: Choice, legend: Choice) -> dict:
    """The game header's options for the chosen sheet and legend (nothing for the defaults).
    Read at Start, so a file fixed after it was chosen is used as it is now."""
    options = {}
    if sheet.path is not None:
        options["sheet"] = load_sheet(sheet.path)
    if legend.path is not None:
        options["projects"] = load_legend(legend.path)
    return options
