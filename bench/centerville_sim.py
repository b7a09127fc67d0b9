"""Welcome to Centerville: complete simulated 3-player games per second (random legal decisions,
chance drawn with the real odds) on one core, and the time to enumerate a roll's legal spends.

Run: .venv/bin/python bench/centerville_sim.py [--games N] [--seconds S]
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.engine.core import find_game  # noqa: E402
from companion.engine.centerville.options import spend_actions  # noqa: E402
from companion.engine.centerville.plans import spend_plans  # noqa: E402
from companion.engine.centerville.simulate import awaits_chance, chance_action, play  # noqa: E402


def games_per_second(game, count: int) -> tuple[float, float, float]:
    actions = turns = 0
    # CPU time of this process: the figure for one core even when the machine is shared
    start, wall = time.process_time(), time.perf_counter()
    for seed in range(count):
        final, log = play(game, ("Ann", "Bo", "Cy"), random.Random(seed))
        actions += len(log)
        turns += final.turn
    cpu, wall = time.process_time() - start, time.perf_counter() - wall
    return count / cpu, count / wall, actions / count, turns / count


def spend_states(game, count: int):
    """States right after rolling is finished, from random games (a fresh roll each)."""
    rng = random.Random(99)
    out = []
    s = game.new(("Ann", "Bo", "Cy"))
    while len(out) < count:
        if game.finished(s):
            s = game.new(("Ann", "Bo", "Cy"))
        if s.phase == "spend" and not s.pending and not any(s.spent):
            out.append(s)
        if awaits_chance(s):
            a = chance_action(s, rng)
        else:
            options = list(game.legal_actions(s))
            keep = [o for o in options if o.type == "keep"]
            a = keep[0] if keep else rng.choice(options)  # keep the first roll: varied six-dice spends
        s = game.apply(s, a)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--rolls", type=int, default=200)
    args = parser.parse_args(argv)
    game = find_game("centerville")
    play(game, ("Ann", "Bo", "Cy"), random.Random(12345))  # warm-up: imports and data files
    rate, wall_rate, actions, turns = games_per_second(game, args.games)
    print(f"centerville: {rate:.1f} complete 3-player games/s of CPU on one core ({wall_rate:.1f}/s wall clock; "
          "random legal spending; target >= 20/s), "
          f"{actions:.0f} actions and {turns:.0f} turns per game, {args.games} games")
    states = spend_states(game, args.rolls)
    single, plans, counts, plan_counts = [], [], [], []
    for s in states:
        t = time.perf_counter()
        n = sum(1 for _ in spend_actions(s))
        single.append(time.perf_counter() - t)
        counts.append(n)
    for s in states[: max(1, args.rolls // 4)]:
        t = time.perf_counter()
        plan_counts.append(len(spend_plans(s)))
        plans.append(time.perf_counter() - t)
    ms = lambda xs: 1000 * statistics.median(xs)  # noqa: E731
    print(f"centerville: legal single spends of a fresh roll: median {ms(single):.3f} ms, "
          f"max {1000 * max(single):.3f} ms ({statistics.median(counts):.0f} actions median, {max(counts)} max; "
          f"{len(states)} rolls)")
    print(f"centerville: every complete spending plan of a roll: median {ms(plans):.1f} ms, "
          f"max {1000 * max(plans):.1f} ms ({statistics.median(plan_counts):.0f} plans median, "
          f"{max(plan_counts)} max; {len(plans)} rolls)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
