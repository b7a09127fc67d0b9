"""Serial panel: time from a button edge on the (simulated) board to the event on the app's queue,
and time to reconnect after an unplug, over a real pseudo-terminal. Prints figures; asserts nothing.

    .venv/bin/python bench/panel_latency.py [--presses 300] [--replugs 10]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.events import EventQueue  # noqa: E402
from hardware.config import PanelConfig  # noqa: E402
from hardware.panel import Panel  # noqa: E402
from hardware.simboard import SimBoard  # noqa: E402


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--presses", type=int, default=300)
    parser.add_argument("--replugs", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        link = Path(tmp) / "panel"
        events = EventQueue()
        board = SimBoard(link).plug()
        panel = Panel(PanelConfig(port=str(link)), backoff=(0.05, 0.5)).start(events)
        assert panel.wait_ready(10), "the panel never connected"
        latencies = []
        for _ in range(args.presses):
            started = time.perf_counter()
            board.press("NEXT")
            events.get(timeout=5)
            latencies.append((time.perf_counter() - started) * 1000)
        replugs = []
        for _ in range(args.replugs):
            board.unplug()
            panel.wait_status(lambda s: not s.connected, 10)
            started = time.perf_counter()
            board.plug()
            panel.wait_ready(10)
            replugs.append((time.perf_counter() - started) * 1000)
        panel.close()
        board.unplug()
    print(f"panel button -> queue, {args.presses} presses over a pty: median {statistics.median(latencies):.2f} ms, "
          f"p95 {percentile(latencies, 95):.2f} ms, max {max(latencies):.2f} ms")
    print(f"panel re-plug -> READY again, {args.replugs} times (backoff 0.05-0.5 s): median "
          f"{statistics.median(replugs):.0f} ms, max {max(replugs):.0f} ms")
    print(f"counters: {panel.status().counters}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
