"""Rolling Village advisor benchmark: mean final score of seeded solo games per policy, and the
advisor's decision time.

    .venv/bin/python bench/rolling_village_advisor.py [--games 1000] [--seed 0]

Policies: "advisor" (advisor.advise), "greedy" (best expected score this turn), "random" (a
uniformly random legal build / Bonus). Every policy sees the same dice for the same game seed.
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
from companion.engine.rolling_village.advisor import LOOKAHEAD, advise  # noqa: E402
from companion.engine.rolling_village.state import Activate, Roll  # noqa: E402

GAME = find_game("rolling-village")
PLAYER = "Solo"


def play(policy: str, seed: int, timings: list[float] | None = None, lookahead: float = LOOKAHEAD) -> int:
    dice_rng = random.Random(seed)          # the table's dice: same for every policy
    choice_rng = random.Random(seed + 10**6)  # the random policy's choices
    state = GAME.new((PLAYER,))
    while not GAME.finished(state):
        phase = state.phase
        if phase in ("roll", "activate"):
            dice = (dice_rng.randint(1, 6), dice_rng.randint(1, 6))
            state = GAME.apply(state, Roll(dice) if phase == "roll" else Activate(dice))
        elif policy == "random":
            state = GAME.apply(state, choice_rng.choice(GAME.player_actions(state, PLAYER)))
        else:
            started = time.perf_counter()
            advice = advise(state, PLAYER, greedy=(policy == "greedy"), lookahead=lookahead)
            if timings is not None:
                timings.append(time.perf_counter() - started)
            for action in advice.actions:
                state = GAME.apply(state, action)
    return state.village(PLAYER).score


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="solo games per policy (default 1000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the first game")
    parser.add_argument("--lookahead", type=float, default=LOOKAHEAD, help="advisor lookahead weight")
    args = parser.parse_args(argv)
    seeds = range(args.seed, args.seed + args.games)
    print(f"Rolling Village, {args.games} seeded solo games per policy (seeds {seeds.start}..{seeds.stop - 1})")
    timings: list[float] = []
    results = {}
    for policy in ("advisor", "greedy", "random"):
        started = time.perf_counter()
        scores = [play(policy, s, timings if policy == "advisor" else None, args.lookahead) for s in seeds]
        results[policy] = scores
        print(f"  {policy:8s} mean final score {statistics.fmean(scores):6.2f}  "
              f"(sd {statistics.pstdev(scores):5.2f}, min {min(scores)}, max {max(scores)}; "
              f"{time.perf_counter() - started:.1f} s)")
    timings.sort()
    median = statistics.median(timings) * 1000
    p95 = timings[min(len(timings) - 1, int(0.95 * len(timings)))] * 1000
    print(f"  advisor decision time: median {median:.1f} ms, p95 {p95:.1f} ms, max {timings[-1] * 1000:.1f} ms "
          f"over {len(timings)} decisions")
    wins = sum(a > g for a, g in zip(results["advisor"], results["greedy"]))
    losses = sum(a < g for a, g in zip(results["advisor"], results["greedy"]))
    print(f"  advisor vs greedy, same dice: {wins} games better, {losses} worse, "
          f"{args.games - wins - losses} equal")
    print(f"  targets: advisor beats greedy: {'yes' if statistics.fmean(results['advisor']) > statistics.fmean(results['greedy']) else 'NO'}; "
          f"median decision <= 250 ms: {'yes' if median <= 250 else 'NO'}")


if __name__ == "__main__":
    main()
