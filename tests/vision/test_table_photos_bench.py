"""bench/table_photos.py: the shipped reader on a table's own checked photos (companion.checked_photos),
here rendered trays kept as the app keeps them, labelled with their truth."""
from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import cv2

from companion.checked_photos import CheckedPhotos
from vision.sim import SimulatedTray

_SPEC = importlib.util.spec_from_file_location(
    "table_photos", Path(__file__).resolve().parents[2] / "bench" / "table_photos.py")
bench = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(bench)


def test_a_table_s_kept_photos_are_read_and_scored(tmp_path, capsys, monkeypatch):
    kept = CheckedPhotos(tmp_path / "checked-photos")
    dice = 0
    for seed in (3, 4, 5):
        tray = SimulatedTray(dice=3, seed=seed, noise=0.0)
        tray.roll()
        for _ in range(20):
            frame = tray.next_frame()[0]       # past the tumbling: the tray at rest
        photo = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()
        assert kept.add(photo, [(d.face, d.box) for d in tray.truth], when=1_800_000_000 + seed)
        dice += len(tray.truth)
    assert bench.main([str(kept.folder)]) == 0
    line = capsys.readouterr().out
    assert f"Real checked-photos [all] (3 photos, {dice} dice): read right" in line
    right, found = (int(n) for n in re.search(r"read right [\d.]+ % \((\d+)\), found [\d.]+ % \((\d+)\)", line).groups())
    assert found == dice and right >= dice - 1      # renders: the reader reads 99 % of their dice
    assert bench.main([str(tmp_path)]) == 1         # no labels.json there
    assert "holds no labels.json" in capsys.readouterr().err

    # Without a folder (make bench): this table's own, beside its games.db.
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "no-config.toml"))
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path / "a-new-table"))
    assert bench.main([]) == 0
    assert "This table keeps no checked photos" in capsys.readouterr().out
    monkeypatch.setenv("COMPANION_DATA_DIR", str(tmp_path))
    assert bench.main([]) == 0
    assert f"(3 photos, {dice} dice)" in capsys.readouterr().out
