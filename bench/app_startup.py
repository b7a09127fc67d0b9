"""App cold start: time from launching the process to the first drawn frame, and peak memory.

Runs the real app as a subprocess (`--exit-after-first-frame`) a few times with an empty data
folder and prints the figures, twice: the app alone (companion.ui.app.run), and as `companion run`
starts it, with the buttons, the serial panel and the dice camera attached (the camera's default
source is the simulator, which loads the TFLite model). Targets: under 4 s; at most 250 MB alone,
200 MB as `companion run` (issue 14).
Needs a display (make bench starts Xvfb through tools/with-display).

    .venv/bin/python bench/app_startup.py [--runs 5]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time

TARGET_SECONDS = 4.0
# (what is started, its peak memory target in MB): the app alone from the start-up issue; the
# app as `companion run` starts it from issue 14 (the dice reader's), with the camera and devices.
CHILDREN = {
    "the app alone": ("import sys; from companion.ui.app import run; "
                      "sys.exit(run(['--exit-after-first-frame']))", 250.0),
    "companion run (devices and camera attached)": ("import sys; from companion.cli import main; "
                                                    "sys.exit(main(['run', '--exit-after-first-frame']))", 200.0),
}


def one_run(data_dir: str, child: str) -> tuple[float, float]:
    """(seconds from spawn to the first frame, peak resident MB of the app process)."""
    env = dict(os.environ, COMPANION_DATA_DIR=data_dir, KIVY_NO_CONSOLELOG="1")
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", child], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline()
    seconds = time.perf_counter() - start
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if not line.startswith("first frame") or proc.returncode != 0:
        raise SystemExit(f"the app did not draw a frame (exit {proc.returncode}): {line}{proc.stderr.read()}")
    return seconds, usage.ru_maxrss / 1024


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    within = True
    print("app start-up (launch -> first frame), 800x480 window, empty data folder")
    for what, (child, target_mb) in CHILDREN.items():
        times, peaks = [], []
        with tempfile.TemporaryDirectory() as data_dir:
            for _ in range(args.runs):
                seconds, peak = one_run(data_dir, child)
                times.append(seconds)
                peaks.append(peak)
        print(f"{what}:")
        print(f"  first run      {times[0]:.2f} s")
        print(f"  median of {args.runs}    {statistics.median(times):.2f} s  (max {max(times):.2f} s; "
              f"target < {TARGET_SECONDS:.0f} s)")
        print(f"  peak memory    {max(peaks):.0f} MB  (target <= {target_mb:.0f} MB; the process's whole "
              f"life: the camera goes on loading and reading after the first frame)")
        within = within and max(times) < TARGET_SECONDS and max(peaks) <= target_mb
    print(f"{'within' if within else 'OVER'} target")
    return 0


if __name__ == "__main__":
    sys.exit(main())
