"""Centerville board redraw: CentervilleBoard.show() on the real app window, in milliseconds.

Two figures at 800x480 (470 x 380 board) and 1280x720 (705 x 570):
- after each action of seeded random 4-player games (what a tap costs: only the areas whose
  State fields changed are painted again);
- a whole redraw (every area painted: first show, resize), with the garbage collector as the app
  leaves it, and after gc.freeze() (start-up objects set aside, so a full collection is short).
Target: a whole redraw well under 30 ms. Needs a display (make bench starts Xvfb).

    .venv/bin/python bench/centerville_board.py [--games 3]
"""
from __future__ import annotations

import argparse
import gc
import os
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "ui"))
os.environ["KIVY_NO_ARGS"] = "1"
os.environ.setdefault("KIVY_NO_CONSOLELOG", "1")


def game_states(game, seed: int, actions: int = 400):
    rng = random.Random(seed)
    state = game.new(("Ana", "Ben", "Cy", "Dee"))
    out = []
    for _ in range(actions):
        if game.finished(state):
            break
        state = game.apply(state, rng.choice(list(game.legal_actions(state))))
        out.append(state)
    return out


def figures(samples: list[float]) -> str:
    samples = sorted(samples)
    p95 = samples[min(len(samples) - 1, int(len(samples) * 0.95))]
    return f"p50 {statistics.median(samples):6.2f} ms  p95 {p95:6.2f} ms  max {samples[-1]:6.2f} ms"


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    args = parser.parse_args(argv)
    from kivy_driver import Driver

    from companion.engine.core import find_game
    from companion.ui.widgets.centerville_board import CentervilleBoard

    game = find_game("centerville")
    states = [s for seed in range(args.games) for s in game_states(game, seed)]
    drv = Driver(Path(tempfile.mkdtemp()))
    board = CentervilleBoard(size_hint=(None, None))
    drv.window.add_widget(board)
    for size, (width, height) in (((800, 480), (470, 380)), ((1280, 720), (705, 570))):
        drv.resize(*size)
        board.size, board.pos = (width, height), (6, 50)
        board.show(states[0])
        per_action = []
        for state in states:
            start = time.perf_counter()
            board.show(state)
            per_action.append((time.perf_counter() - start) * 1000)
        print(f"{size[0]}x{size[1]}, board {width}x{height}, after each of {len(states)} actions: "
              f"{figures(per_action)}")
        for label in ("whole redraw", "whole redraw after gc.freeze()"):
            if "freeze" in label:
                gc.collect()
                gc.freeze()
            whole = []
            for state in states[::5]:
                board._frame = None  # forget the painted areas: everything again
                start = time.perf_counter()
                board.show(state)
                whole.append((time.perf_counter() - start) * 1000)
            print(f"{size[0]}x{size[1]}, {label} ({len(whole)} states): {figures(whole)}")
        gc.unfreeze()
    drv.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
