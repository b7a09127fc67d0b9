"""bench/cpu_pair.py: two readers' CPU per photo, side by side (the shipped reader against itself on
the real calib photos, and the bookkeeping of turns and least reads)."""
import importlib.util
from pathlib import Path

import numpy as np
import pytest

_SPEC = importlib.util.spec_from_file_location(
    "cpu_pair", Path(__file__).resolve().parents[2] / "bench" / "cpu_pair.py")
pair = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(pair)
MODELS = Path(__file__).resolve().parents[2] / "models"


class Busy:
    """A stand-in reader that spends `loops` of Python work on each read and logs its turn."""

    def __init__(self, name, loops, log):
        self.name, self.loops, self.log = name, loops, log

    def read(self, image):
        self.log.append(self.name)
        sum(i * i for i in range(self.loops))


def test_readers_take_turns_and_each_photo_costs_its_least_read():
    log = []
    heavy, light = Busy("heavy", 200_000, log), Busy("light", 2_000, log)
    best = pair.photo_cpu([heavy, light], np.zeros((8, 8, 3), np.uint8), reads=3)
    assert log == ["heavy", "light"] * 3
    assert best[0] > 5 * best[1] >= 0


def test_the_shipped_reader_against_itself_costs_about_the_same_on_every_calib_set():
    rows = pair.measure(MODELS / "dice_detector.tflite", MODELS / "dice_detector.tflite", "calib", reads=1)
    assert [(r["set"], r["photos"]) for r in rows] == [("tilted-webcam", 22), ("aws-workshop-dice", 29)]
    for r in rows:
        assert 0 < r["candidate"]["median"] <= r["candidate"]["p95"] <= r["candidate"]["max"]
        assert 0.5 < r["ratio_median"] < 2.0, r


def test_the_command_refuses_a_missing_file_and_no_reads(tmp_path, capsys):
    with pytest.raises(SystemExit):
        pair.main([str(tmp_path / "none.tflite")])
    assert "no detector file" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        pair.main([str(MODELS / "dice_detector.tflite"), "--reads", "0"])
    assert "--reads must be at least 1" in capsys.readouterr().err
