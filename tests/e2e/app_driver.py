"""The real app in this process with the table's hardware attached (tests/e2e).

Kivy reads its environment at import, so this module sets it before anything imports kivy.
`until(drv, predicate)` advances the Kivy clock frame by frame until the predicate holds: the
camera and panel threads post events, and only the app's own main loop drains them.
"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

os.environ["KIVY_NO_ARGS"] = "1"
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
os.environ.setdefault("KIVY_NO_FILELOG", "1")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "ui"))

from kivy_driver import Driver  # noqa: E402,F401

WAIT = 30.0   # generous: a loaded CI machine; a pass takes a fraction of it


def until(drv, predicate, timeout: float = WAIT, what: str = "") -> None:
    """Run the app's main loop until `predicate()` is true; fail naming `what` after `timeout`."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out waiting for {what or predicate}; "
                                 f"banner: {drv.table.message!r}")
        drv.frames(1)
