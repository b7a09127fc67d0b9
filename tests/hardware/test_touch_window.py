"""One tap is one event, through a real Kivy window (needs a display: make test runs Xvfb)."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from hardware.config import TouchConfig
from hardware.touch import kivy_input_entries

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [
    pytest.mark.ui,
    pytest.mark.skipif(not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")),
                       reason="needs a display: run under tools/with-display (make test does)"),
]


def touches_for(entries: dict[str, str], tmp_path) -> list[str]:
    # A child process: Kivy has one window per process, and the UI tests own this one.
    env = dict(os.environ, KIVY_HOME=str(tmp_path), PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "hardware" / "touch_probe.py"),
                             json.dumps(entries)], capture_output=True, text=True, timeout=120, env=env)
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])["touches"]


def test_a_tap_is_one_touch_with_the_table_config(tmp_path):
    assert touches_for(kivy_input_entries(TouchConfig()), tmp_path) == ["mouse"]


def test_the_probe_sees_a_doubled_provider(tmp_path):
    # The failure this guards against: two providers for one device turn one tap into two.
    doubled = {"mouse": "mouse", "again": "mouse"}
    assert len(touches_for(doubled, tmp_path)) == 2
