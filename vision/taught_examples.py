"""The taught examples of a table on disk: one sub-folder per face label, one picture each.

vision.taught reads dice by these (and re-exports TaughtExamples and ExampleError); the table's
checked reads (vision.earned) are kept beside the label folders, in CHECKED_FILE.
"""
from __future__ import annotations

import os
import re
import shutil
import tempfile
from pathlib import Path

import cv2
import numpy as np

from .earned import CheckedReads
from .sources import ImageTooBig, SourceUnavailable, read_image

__all__ = ["CHECKED_FILE", "IMAGE_SUFFIXES", "ExampleError", "TaughtExamples", "check_label"]

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".webp")
CHECKED_FILE = "checked-reads.csv"  # beside the label folders: the table's checked reads (vision.earned)


class ExampleError(ValueError):
    """A taught example or label that cannot be used; the message says which and why."""


_LABEL = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _+.,()-]{0,63}$")


def check_label(label: str) -> str:
    """A face label is a folder name: letters, digits, space and -_+.,(); no slashes, 64 at most."""
    if not isinstance(label, str) or not _LABEL.match(label) or label.endswith("."):
        raise ExampleError(f"{label!r} is not a usable face label: use letters, digits, spaces and - _ + . , ( ) "
                           f"(up to 64, starting with a letter or digit), e.g. \"red-vote\".")
    return label


class TaughtExamples:
    """Taught crops of dice faces, one sub-folder of root per face label, one image file each.

    A crop is a picture of one die showing the face, any size, a little background around it.
    Files are written whole (to a temporary name, then renamed), so a power cut leaves no half file.
    """

    def __init__(self, root: Path | str):
        self.root = Path(root)
        if self.root.exists() and not self.root.is_dir():
            raise ExampleError(f"The taught examples folder {self.root} is a file, not a folder.")
        self.version = 0  # bumped on every change (readers re-embed what changed)
        self.problems: list[str] = []  # example files left out as unreadable (images(skip_bad=True))
        self.checked = CheckedReads(self.root / CHECKED_FILE)  # what the table confirmed of the reads

    def labels(self) -> list[str]:
        if not self.root.is_dir():
            return []
        return sorted(p.name for p in self.root.iterdir() if p.is_dir() and _LABEL.match(p.name) and self.files(p.name))

    def files(self, label: str) -> list[Path]:
        folder = self.root / label
        if not folder.is_dir():
            return []
        return sorted(p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES and not p.name.startswith("."))

    def counts(self) -> dict[str, int]:
        """Examples taught per face label."""
        return {label: len(self.files(label)) for label in self.labels()}

    def images(self, label: str, skip_bad: bool = False) -> list[tuple[Path, np.ndarray]]:
        """(file, BGR image) of each example of label. A file that is no picture raises
        ExampleError, or with skip_bad is left out and its problem noted in self.problems."""
        out = []
        for path in self.files(label):
            unreadable = f"{path}: not a readable picture of a die (at least 8x8 pixels)."
            try:
                img = read_image(path)
                problem = "" if min(img.shape[:2]) >= 8 else unreadable
            except ImageTooBig as exc:   # refused by its header, before it is decoded
                problem = str(exc)
            except SourceUnavailable:
                problem = unreadable
            if problem:
                if not skip_bad:
                    raise ExampleError(problem)
                if problem not in self.problems:
                    self.problems.append(problem)
                continue
            out.append((path, img))
        return out

    def add(self, label: str, crop_bgr: np.ndarray) -> Path:
        """File crop_bgr (a picture of one die showing label) as a new example; returns its file."""
        check_label(label)
        if not isinstance(crop_bgr, np.ndarray) or crop_bgr.ndim != 3 or crop_bgr.shape[2] != 3 \
                or min(crop_bgr.shape[:2]) < 8 or crop_bgr.dtype != np.uint8:
            raise ExampleError(f"An example of {label!r} is an 8-bit BGR picture of at least 8x8 pixels, not "
                               f"{getattr(crop_bgr, 'shape', type(crop_bgr).__name__)}.")
        folder = self.root / label
        folder.mkdir(parents=True, exist_ok=True)
        taken = [int(p.stem) for p in folder.iterdir() if p.stem.isdigit()]
        path = folder / f"{max(taken, default=0) + 1:04d}.png"
        ok, data = cv2.imencode(".png", crop_bgr)
        if not ok:
            raise ExampleError(f"The example of {label!r} could not be encoded as PNG.")
        fd, tmp = tempfile.mkstemp(prefix=".new-", suffix=".png", dir=folder)
        with os.fdopen(fd, "wb") as f:
            f.write(data.tobytes())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
        self.version += 1
        return path

    def clear(self, label: str | None = None) -> None:
        """Forget every taught example (or those of one label)."""
        targets = [self.root / check_label(label)] if label is not None else \
            [p for p in self.root.iterdir() if p.is_dir()] if self.root.is_dir() else []
        for folder in targets:
            if folder.is_dir():
                shutil.rmtree(folder)
        # The checked reads judged the reader these examples made; a new set of examples is a
        # new reader, which earns its own looser pair.
        self.checked.clear()
        self.version += 1
