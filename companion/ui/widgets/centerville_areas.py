"""The tap areas of the Centerville board (names, titles, one rule sentence each) from
centerville_areas.toml, validated on load: a bad file raises DataFileError naming the key."""
from __future__ import annotations

import difflib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from companion.engine.core import DataFileError, load_data_toml

PATH = "companion/ui/widgets/centerville_areas.toml"
KEYS = ("name", "title", "rule")


@dataclass(frozen=True)
class Area:
    name: str
    title: str
    rule: str


def _fail(path: str, key: str, message: str):
    raise DataFileError(f"{path}: {key}: {message}", path=path, key=key)


def parse_areas(text: str | bytes, path: str = PATH) -> dict[str, Area]:
    """Areas by name, in file order; DataFileError on bad TOML, a missing or unknown key, a
    repeated name, or a rule that is not one sentence."""
    data = load_data_toml(text, path)
    for key in data:
        if key != "area":
            _fail(path, key, "unknown key; the file lists [[area]] tables only.")
    entries = data.get("area")
    if not isinstance(entries, list) or not entries:
        _fail(path, "area", "is missing: list the areas as [[area]] tables.")
    areas: dict[str, Area] = {}
    for i, entry in enumerate(entries):
        where = f"area[{i}]"
        for key in entry:
            if key not in KEYS:
                near = difflib.get_close_matches(key, KEYS, n=1)
                hint = f"; did you mean {near[0]}?" if near else f" (keys: {', '.join(KEYS)})."
                _fail(path, f"{where}.{key}", f"unknown key{hint}")
        for key in KEYS:
            value = entry.get(key)
            if not isinstance(value, str) or not value.strip():
                _fail(path, f"{where}.{key}", "is missing or empty: give it as text in quotes.")
        rule = entry["rule"].strip()
        if not rule.endswith(".") or ". " in rule[:-1] or "\n" in rule:
            _fail(path, f"{where}.rule", "must be one sentence ending with a full stop.")
        if entry["name"] in areas:
            _fail(path, f"{where}.name", f'"{entry["name"]}" is named twice.')
        areas[entry["name"]] = Area(entry["name"], entry["title"].strip(), rule)
    return areas


@lru_cache(maxsize=1)
def areas() -> dict[str, Area]:
    """The shipped areas file."""
    return parse_areas(resources.files(__package__).joinpath("centerville_areas.toml").read_bytes())
