"""Civility simulation benchmark: seeded random games per second (2-6 players), actions per
game, rounds per game, and the time to enumerate legal actions.

    .venv/bin/python bench/civility_sim.py [--games 20] [--seed 0]

Decisions are uniform among legal actions; the dice, Status cards and World Events are drawn
from a seeded random.Random (companion.engine.civility.sim). Prints figures; asserts nothing.
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from companion.engine import find_game  # noqa: E402
from companion.engine.civility.sim import play  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games per player count")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = find_game("civility")
    print(f"civility random play: {args.games} games per player count, seed {args.seed}")
    print("players  games/s  actions/s  actions/game  rounds/game  legal_actions ms (mean)")
    for n in range(2, 7):
        names = tuple(f"P{i + 1}" for i in range(n))
        start = time.perf_counter()
        results = [play(names, random.Random(args.seed * 1000 + i)) for i in range(args.games)]
        elapsed = time.perf_counter() - start
        actions = sum(len(r.actions) for r in results)
        # Enumeration time on the states of one replayed game.
        probe = results[0]
        state = game.new(names, {})
        timings = []
        for action in probe.actions:
            t0 = time.perf_counter()
            game.legal_actions(state)
            timings.append(time.perf_counter() - t0)
            state = game.apply(state, action)
        print(f"{n:>7}  {args.games / elapsed:7.1f}  {actions / elapsed:9.0f}  "
              f"{statistics.mean(len(r.actions) for r in results):12.0f}  "
              f"{statistics.mean(r.state.round for r in results):11.1f}  "
              f"{1000 * statistics.mean(timings):8.2f}")
        unfinished = sum(not r.state.winner for r in results)
        if unfinished:
            print(f"         {unfinished} game(s) reached the action cap without a winner")


if __name__ == "__main__":
    main()
