"""Which files a dice reader reads by: a short name for them, its own asking threshold, and whether a
table may earn a looser one (companion.pip_checks keeps a table's checked reads per name, so the
reads of one model never judge the next)."""
from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from .classify import DEFAULT_MODEL
from .model import DEFAULT_DETECTOR, detector_files
from .reader import DEFAULT_THRESHOLD

__all__ = ["ReaderIdentity", "reader_identity"]


@dataclass(frozen=True)
class ReaderIdentity:
    """Which files a DiceReader reads by (name: 12 hex digits of their hash), the threshold it
    asks below by default, and whether a table may earn a looser one (the .json's earn_ask_below,
    set by the round that judged it: models/DETECTOR_ROUNDS.md round 54)."""
    name: str
    ask_below: float
    earns: bool = False


def reader_identity(detector_path: Path | str | None = None) -> ReaderIdentity:
    """The identity of the files a DiceReader of detector_path reads by (the detector files, its
    .json, the classifier files it names or the shipped one): another model gives another name,
    so a table's checked reads of one (companion.pip_checks) never judge the next. Reads the files'
    bytes, loads no model; a missing file raises OSError."""
    path = Path(detector_path) if detector_path else DEFAULT_DETECTOR
    meta_path = path.with_suffix(".json")
    meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
    faces = [path.parent / name for name in meta.get("face_models") or ()] or [DEFAULT_MODEL]
    judge = [path.parent / meta["side_judge"]] if meta.get("side_judge") else []
    digest = hashlib.sha256()
    for file in [*detector_files(path), *([meta_path] if meta_path.is_file() else []), *faces, *judge]:
        digest.update(file.read_bytes())
    earns = meta.get("earn_ask_below", False)
    if not isinstance(earns, bool):
        raise ValueError(f"{meta_path}: earn_ask_below must be true or false, not {earns!r}.")
    # DiceReader's default, as it reads it: the .json's calibrated ask_below, else DEFAULT_THRESHOLD.
    return ReaderIdentity(digest.hexdigest()[:12], float(meta.get("ask_below", DEFAULT_THRESHOLD)), earns)
