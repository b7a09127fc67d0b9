import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # the test-only race game
os.environ.setdefault("KIVY_NO_ARGS", "1")


def pytest_terminal_summary(terminalreporter):
    """The fuzz tests' tally (tests/fuzz.py), when any ran: inputs per reader and how they ended."""
    fuzz = sys.modules.get("fuzz")
    lines = fuzz.report() if fuzz else []
    if lines:
        terminalreporter.section("fuzz: bad inputs per interface")
        for line in lines:
            terminalreporter.write_line(line)
