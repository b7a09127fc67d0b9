"""`python -m hardware.simboard`: the simulated board as a separate process, driven from its stdin."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from companion.events import Command, EventQueue, InputEvent
from hardware.config import PanelConfig
from hardware.panel import Panel

ROOT = Path(__file__).resolve().parents[2]


def test_simboard_process_serves_a_panel(tmp_path):
    link = tmp_path / "panel"
    proc = subprocess.Popen([sys.executable, "-m", "hardware.simboard", "--link", str(link)],
                            cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        first = proc.stdout.readline()
        assert first.startswith("simulated panel on /dev/pts/") and str(link) in first
        events = EventQueue()
        with Panel(PanelConfig(port=str(link)), backoff=(0.05, 0.2)).start(events) as panel:
            assert panel.wait_ready(10)
            proc.stdin.write("press next\n")
            proc.stdin.flush()
            assert events.get(timeout=10) == InputEvent.command(Command.NEXT, source="panel")
            assert panel.status().version == "1.0-sim"
        proc.stdin.write("quit\n")
        proc.stdin.flush()
        assert proc.wait(timeout=10) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
