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


@pytest.mark.parametrize("option,what", [("--model", "detector"), ("--faces-model", "model")])
def test_missing_model_is_a_clear_error(tmp_path, option, what):
    path = tmp_path / "x.png"
    cv2.imwrite(str(path), scene(702, 1).image)
    # The shipped detector may read faces itself; --faces-model is loaded (and checked) only
    # when it reads with the classifier, so ask for that.
    result = _run("read", option, str(tmp_path / "gone.tflite"), str(path))
    if option == "--faces-model" and result.returncode == 0:
        pytest.skip("the shipped detector reads faces itself: the crop classifier is not loaded")
    assert result.returncode == 2
    assert f"The dice {what} {tmp_path / 'gone.tflite'} does not exist" in result.stderr
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


def _png_header_only(path, width, height):
    """A PNG that declares width x height pixels and holds almost none of them."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(b"\0" * 64))
                     + chunk(b"IEND", b""))


def test_read_gives_a_per_file_error_for_odd_images_and_goes_on(tmp_path):
    import numpy as np
    tiny, strip, huge = tmp_path / "one.png", tmp_path / "strip.png", tmp_path / "huge.png"
    cv2.imwrite(str(tiny), np.zeros((1, 1, 3), np.uint8))
    cv2.imwrite(str(strip), np.full((1, 8000, 3), 128, np.uint8))
    _png_header_only(huge, 100000, 100000)
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"\xff\xd8\xff\xe0 this is not a JPEG after its first bytes")
    good = tmp_path / "tray.png"
    cv2.imwrite(str(good), scene(701, 2, faces=[1, 5], tilt_max=10.0, touching=0.0, surface="felt").image)
    result = _run("read", str(tiny), str(strip), str(huge), str(junk), str(good))
    assert result.returncode == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [line["path"] for line in lines] == [str(good)]
    assert sorted(d["face"] for d in lines[-1]["dice"]) == [1, 5]
    errors = [line for line in result.stderr.splitlines() if line.startswith("error:")]
    assert len(errors) == 4
    for p, error in zip((tiny, strip, huge, junk), errors):
        assert str(p) in error
