"""The app's dice camera thread on the simulator: how long from "read the dice" to the dice,
and what the thread costs while the tray sits still.

    .venv/bin/python bench/dice_camera.py [--rolls 10]

Prints: model load and first frame; per roll the time from read_now() (the simulator throws
the dice: about 0.5 s of tumbling at 15 fps, then 0.3 s still) to the dice event (median and
worst); the dice read right against the simulator's truth; CPU use of the whole process while
the tray lies still (the camera paced at 15 frames a second).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.dice_camera import DiceCamera  # noqa: E402
from companion.events import EventQueue  # noqa: E402


def next_event(events: EventQueue, kind: str, timeout: float = 30.0):
    deadline = time.monotonic() + timeout
    while True:
        event = events.get(timeout=max(0.0, deadline - time.monotonic()))
        if event.kind == kind:
            return event


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rolls", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    events = EventQueue()
    started = time.monotonic()
    camera = DiceCamera(f"sim:?seed={args.seed}", events.put).start()
    next_event(events, "status")
    print(f"camera connected (model loaded, first frame) after {time.monotonic() - started:.2f} s")
    latencies, right, total, counts_right = [], 0, 0, 0
    try:
        for _ in range(args.rolls):
            asked = time.monotonic()
            camera.read_now()
            reading = next_event(events, "dice").value
            latencies.append(time.monotonic() - asked)
            truth = sorted(d.face for d in camera.source.tray.truth)
            read = sorted(f for f in reading.faces)
            counts_right += len(read) == len(truth)
            total += len(truth)
            right += sum(min(read.count(f), truth.count(f)) for f in set(truth))
        print(f"read the dice -> dice event: median {statistics.median(latencies):.3f} s, "
              f"worst {max(latencies):.3f} s over {len(latencies)} rolls")
        print(f"rolls with every die found: {counts_right}/{args.rolls}; dice read right: {right}/{total}")
        cpu0, wall0 = time.process_time(), time.monotonic()
        time.sleep(5.0)   # measuring: the tray lies still while the thread keeps watching it
        cpu = (time.process_time() - cpu0) / (time.monotonic() - wall0)
        print(f"CPU while the tray lies still: {cpu * 100:.0f}% of one core ({camera.frames} frames so far)")
    finally:
        camera.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
