"""Every photo of every shared real set goes through `python -m vision read` without a crash.

One process reads them all (354 files: 117 + 86 photos, 151 crops): a few seconds with the
learned detector on this 2-core machine (46 s with the rule cascade it replaced); in the
suite's budget, so not marked slow. The accuracy on
these photos is bench/vision_accuracy.py's business; here only "read, one JSON line each".
"""
import json
from pathlib import Path

import pytest

from .helpers import REAL_DICE
from .test_cli import _run

SUFFIXES = {".jpg", ".jpeg", ".png"}
# What else the sets hold (labels, licences, READMEs): a picture of any other kind would be left
# out of "every photo" silently.
NOT_PHOTOS = {".json", ".md", ".txt", ".csv", ".xml"}


def test_every_shared_real_photo_is_read_with_one_json_line():
    photos = sorted(str(p) for p in REAL_DICE.rglob("*") if p.suffix.lower() in SUFFIXES)
    if not photos:
        pytest.skip(f"the shared real dice photos are not on this machine ({REAL_DICE})")
    kinds = {p.suffix.lower() for p in REAL_DICE.rglob("*") if p.is_file()}
    assert kinds <= SUFFIXES | NOT_PHOTOS, f"files of a kind this test does not read: {kinds - SUFFIXES - NOT_PHOTOS}"
    sets = {d.name for d in REAL_DICE.iterdir() if d.is_dir()}
    assert {p.relative_to(REAL_DICE).parts[0] for p in map(Path, photos)} == sets
    result = _run("read", *photos, timeout=900)
    assert result.returncode == 0, result.stderr[-2000:]
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["path"] for line in lines] == photos
    assert "error" not in result.stderr
