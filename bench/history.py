"""History with 1,000 stored games: the history and statistics screens' open time to their first
drawn frame, and `companion history --csv` over the whole file.

Seeds a games file of 1,000 finished games (a third each of Rolling Village, Civility and
Welcome to Centerville: a few real games of each played through the Session, the rest copies of
them with other players and dates; tests/history_games.py), then opens the real app on an
800x480 window (needs a display: make bench starts Xvfb) and times, each of several times, from
the tap's call (app.go_history / app.go_stats) to the window's next flip, the first frame that
shows the screen. Targets: history under 300 ms, statistics under 500 ms, the CSV under 1 s.

    .venv/bin/python bench/history.py [--games 1000] [--runs 7]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

TARGETS = {"history": 0.300, "stats": 0.500, "csv": 1.0}


def seed_file(folder: Path, games: int) -> Path:
    from history_games import seed

    from companion.store import Store

    path = folder / "games.db"
    started = time.perf_counter()
    with Store.open(path) as store:
        seed(store, games, played=3)
        count = store.rows("SELECT game, COUNT(*) FROM games GROUP BY game ORDER BY game")
    print(f"seeded {sum(n for _, n in count)} games ({', '.join(f'{g} {n}' for g, n in count)}) "
          f"in {time.perf_counter() - started:.1f} s; file {path.stat().st_size / 1e6:.1f} MB")
    return path


def screen_times(data_dir: Path, runs: int) -> dict[str, list[float]]:
    """Seconds from asking for each screen to the first frame drawn with it, `runs` times each."""
    os.environ["KIVY_NO_ARGS"] = "1"
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")
    from companion.ui.app import configure_kivy, parse_args

    configure_kivy(parse_args([]))
    from kivy.base import EventLoop, runTouchApp
    from kivy.core.window import Window

    from companion.store import Store
    from companion.ui.main import CompanionApp

    store = Store.open(data_dir / "games.db")
    app = CompanionApp(store)
    app._run_prepare()
    runTouchApp(embedded=True)
    for _ in range(5):
        EventLoop.idle()
    flipped = []
    Window.bind(on_flip=lambda *_: flipped.append(time.perf_counter()))
    out: dict[str, list[float]] = {"history": [], "stats": []}
    for _ in range(runs):
        for name, go in (("history", app.go_history), ("stats", app.go_stats)):
            app.go_home()
            for _ in range(3):
                EventLoop.idle()
            flipped.clear()
            start = time.perf_counter()
            go()
            while not flipped:
                EventLoop.idle()
            assert app.screens.current == name
            out[name].append(flipped[0] - start)
    app.stop()
    store.close()
    return out


def csv_times(db: Path, runs: int) -> list[float]:
    """`companion history --csv` as a shell runs it: the whole process, Python's start included."""
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        done = subprocess.run([sys.executable, "-m", "companion", "history", "--csv", "--db", str(db)],
                              capture_output=True, text=True, cwd=ROOT)
        times.append(time.perf_counter() - start)
        if done.returncode != 0:
            raise SystemExit(f"companion history failed: {done.stderr}")
    rows = done.stdout.count("\n") - 1
    print(f"companion history --csv: {rows} rows (one per player per game)")
    return times


def report(what: str, times: list[float], target: float) -> bool:
    median, worst = statistics.median(times), max(times)
    ok = median < target
    print(f"{what}: median {median * 1000:.0f} ms, max {worst * 1000:.0f} ms over {len(times)} runs "
          f"(target under {target * 1000:.0f} ms: {'met' if ok else 'NOT met'})")
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = seed_file(Path(folder), args.games)
        csv = csv_times(db, args.runs)
        screens = screen_times(Path(folder), args.runs)
    print(f"800x480 window, {args.games} games:")
    met = [report("history screen, open to first frame", screens["history"], TARGETS["history"]),
           report("statistics screen, open to first frame", screens["stats"], TARGETS["stats"]),
           report("companion history --csv, whole process", csv, TARGETS["csv"])]
    return 0 if all(met) else 1


if __name__ == "__main__":
    sys.exit(main())
