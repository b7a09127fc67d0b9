"""The reference firmware and the host agree on the protocol's constants (no Arduino compiler here,
so the sketch's tables are read as text and compared with hardware/protocol.py and the config)."""
from __future__ import annotations

import re
from pathlib import Path

from companion.events import TableLight
from hardware import protocol
from hardware.config import DEFAULT_PANEL_BUTTONS, PanelConfig

SKETCH = Path(__file__).resolve().parents[2] / "hardware" / "firmware" / "companion_panel" / "companion_panel.ino"
TEXT = SKETCH.read_text()


def test_line_limit_matches():
    assert int(re.search(r"MAX_LINE = (\d+);", TEXT).group(1)) == protocol.MAX_LINE


def test_baud_rate_matches_the_default():
    assert int(re.search(r"Serial\.begin\((\d+)\)", TEXT).group(1)) == PanelConfig().baudrate


def test_the_sketch_knows_every_table_state():
    states = re.findall(r'\{"([a-z_]+)", \d+, \d+, \d+\}', TEXT)
    assert sorted(states) == sorted(t.value for t in TableLight)


def test_button_names_match_the_panel_config():
    names = re.findall(r'\{"([A-Z_]+)", \d+, false, false, 0\}', TEXT)
    assert names == [b.name for b in DEFAULT_PANEL_BUTTONS]
    assert all(protocol.parse_board_line(f"BTN {n} DOWN") == protocol.ButtonEdge(n, True) for n in names)


def test_every_host_command_is_handled():
    handled = set(re.findall(r'strcmp\(text, "([A-Z]+)"\)', TEXT))
    assert handled == {"HELLO", "PING", "LED", "TRAY", "RING"}
