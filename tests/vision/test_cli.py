"""`python -m vision read|bench|watch` as a user runs it."""
import json
import os
import subprocess
import sys

import cv2
import pytest

from .helpers import ROOT, scene


def _run(*args, timeout=120):
    # Kivy's console log is how the watch window says it opened and closed; an app test earlier
    # in the same pytest process may have switched it off in os.environ.
    env = {k: v for k, v in os.environ.items() if k != "KIVY_NO_CONSOLELOG"}
    return subprocess.run([sys.executable, "-m", "vision", *args], cwd=ROOT, capture_output=True,
                          text=True, timeout=timeout, env=env)


def test_read_prints_one_json_line_per_image_and_exit_2_for_unreadable(tmp_path):
    s = scene(700, 3, faces=[2, 4, 6], tilt_max=10.0, touching=0.0, surface="felt")
    good = tmp_path / "tray.png"
    cv2.imwrite(str(good), s.image)
    big = tmp_path / "tray-big.jpg"
    cv2.imwrite(str(big), cv2.resize(s.image, (1280, 960)))
    bad = tmp_path / "broken.jpg"
    bad.write_bytes(b"\xff\xd8 truncated")
    result = _run("read", str(good), str(bad), str(big), str(tmp_path / "missing.png"))
    assert result.returncode == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["path"] for line in lines] == [str(good), str(big)]
    for line, scale in zip(lines, (1, 2)):
        assert sorted(d["face"] for d in line["dice"]) == [2, 4, 6]
        for d in line["dice"]:
            assert set(d) == {"face", "confidence", "box", "color", "uncertain"}
            assert max(d["box"]) <= 640 * scale
    assert "broken.jpg is not a readable picture" in result.stderr
    assert "missing.png does not exist" in result.stderr


def test_read_all_good_exits_0(tmp_path):
    path = tmp_path / "empty.png"
    cv2.imwrite(str(path), scene(701, 0).image)
    result = _run("read", str(path))
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == {"path": str(path), "dice": []}


def test_missing_model_is_a_clear_error(tmp_path):
    path = tmp_path / "x.png"
    cv2.imwrite(str(path), scene(702, 1).image)
    result = _run("read", "--model", str(tmp_path / "gone.tflite"), str(path))
    assert result.returncode == 2
    assert f"The dice model {tmp_path / 'gone.tflite'} does not exist" in result.stderr
    assert "Traceback" not in result.stderr


def test_bench_json(tmp_path):
    result = _run("bench", "--json", "--frames", "3")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert set(data["latency"]) == {"1", "6", "12"}
    assert all(r["p50_ms"] > 0 and r["p95_ms"] >= r["p50_ms"] for r in data["latency"].values())
    assert data["peak_rss_mb"] > 0


def test_watch_writes_annotated_frames(tmp_path):
    out = tmp_path / "frames"
    result = _run("watch", "--source", "sim:?dice=2&seed=3&every=0.2", "--frames", str(out), "--count", "6")
    assert result.returncode == 0, result.stderr
    frames = sorted(out.glob("*.jpg"))
    assert len(frames) == 6
    assert cv2.imread(str(frames[-1])).shape == (480, 640, 3)


def test_watch_bad_source_exit_2():
    result = _run("watch", "--source", "/dev/video99", "--count", "1")
    assert result.returncode == 2
    assert "no camera at /dev/video99" in result.stderr


@pytest.mark.ui
def test_watch_window_shows_frames_then_closes():
    if not os.environ.get("DISPLAY"):
        pytest.skip("no display: run under tools/with-display (make test does)")
    result = _run("watch", "--source", "sim:?dice=2&seed=5&every=0.5", "--count", "8")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "Leaving application" in result.stderr
