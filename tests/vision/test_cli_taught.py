"""`python -m vision read --taught DIR [--dice centerville] IMAGE...` as a user runs it."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import cv2

from companion.engine.centerville.dice import default_dice

from .helpers import ROOT
from .taught_helpers import teach_every_face, tray


def _run(*args, timeout=180):
    return subprocess.run([sys.executable, "-m", "vision", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=timeout, env=dict(os.environ))


def _teach_folder(root):
    def teach(label, picture):
        folder = root / label
        folder.mkdir(parents=True, exist_ok=True)
        cv2.imwrite(str(folder / f"look {len(list(folder.iterdir())) + 1}.jpg"), picture)
    teach_every_face(teach, seed=21, rounds=2)


def test_read_taught_centerville_prints_labels_and_colours_and_goes_on_past_bad_files(tmp_path):
    taught = tmp_path / "our dice"
    _teach_folder(taught)
    (taught / "red-vote" / "smudge.png").write_bytes(b"not a png")
    images = []
    for seed in (0, 1):
        path = tmp_path / f"roll{seed}.png"
        cv2.imwrite(str(path), tray(seed).image)
        images.append(path)
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8 truncated")
    result = _run("read", "--taught", str(taught), "--dice", "centerville", str(images[0]), str(broken),
                  str(tmp_path / "missing.png"), str(images[1]))
    assert result.returncode == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["path"] for line in lines] == [str(p) for p in images]
    labels = set(default_dice().all_labels())
    for line in lines:
        assert sorted(d["color"] for d in line["dice"] if d["color"]) == sorted(default_dice().order)
        for d in line["dice"]:
            if not d["color"]:  # a box beyond the six dice is asked about, never read
                assert d["face"] is None and d["uncertain"]
                continue
            assert d["face"] in labels and d["face"].startswith(d["color"] + "-")
            assert {"face", "confidence", "box", "color", "uncertain"} <= set(d)
    assert "broken.jpg is not a readable picture" in result.stderr
    assert "missing.png does not exist" in result.stderr
    assert "smudge.png: not a readable picture of a die" in result.stderr


def test_read_taught_any_labels_reads_the_folders_names(tmp_path):
    taught = tmp_path / "t"
    _teach_folder(taught)
    for folder in taught.iterdir():  # rename the faces: any names will do
        folder.rename(taught / f"face {folder.name.upper()}")
    path = tmp_path / "roll.png"
    cv2.imwrite(str(path), tray(0).image)
    result = _run("read", "--taught", str(taught), str(path))
    assert result.returncode == 0, result.stderr
    (line,) = [json.loads(x) for x in result.stdout.splitlines()]
    names = {p.name for p in taught.iterdir()}
    assert len(line["dice"]) >= 6 and all(d["face"] in names for d in line["dice"])


def test_dice_without_taught_and_an_empty_folder_are_refused(tmp_path):
    result = _run("read", "--dice", "centerville", "x.png")
    assert result.returncode == 2 and "give --taught DIR too" in result.stderr
    result = _run("read", "--taught", str(tmp_path), "x.png")
    assert result.returncode == 2 and "no sub-folder holds a picture" in result.stderr
    result = _run("read", "--taught", str(tmp_path / "nowhere"), "x.png")
    assert result.returncode == 2 and "no such folder" in result.stderr
