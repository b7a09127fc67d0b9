"""A table that learns its dice size (vision.table_size): each real set read as one table from its camera's
height as taken and from lower down (the photo's middle enlarged 1.5x and 2x, bench/real_shifts.py's rows).

The dice camera reads one table's rolls in turn, each read teaching the detector the table's dice size. Here
each (set, look) is one table: its photos read in name order (the order taken) twice around by one reader
that learns (the first round: a table's first rolls; the second: the table once learned), next to the reader
that reads each photo as it comes (as `python -m vision read` does). Per table: dice read right, found,
silent misreads, flagged, boxes on no die, doubled, and the shrink it learned.

    .venv/bin/python bench/table_size.py [--split calib] [--detector F] [--sim ROLLS]

--sim also reads the app's own simulated camera (vision.sim, whose dice are 11-15 % of the width): ROLLS settled
rolls of 1-12 dice in turn, scored against the simulator's truth, by both readers.

The detector's .json must name a table_size. Choose on calib; test is for reporting a choice already made.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from real_shifts import frames  # noqa: E402
from vision.model import DEFAULT_DETECTOR, load_detector  # noqa: E402
from vision.reader import DiceReader  # noqa: E402
from vision.realdata import SETS, SPLITS, score_frame  # noqa: E402
from vision.table_size import DiceAtTableSize  # noqa: E402

LOOKS = {"as taken": "as taken", "1.5x": "dice at 1.5x size (the middle enlarged)",
         "2x": "dice at 2x size (the middle enlarged)"}
FIGURES = ("correct", "dice", "found", "silent_misreads", "flagged", "no_die", "doubled")


def read_table(reader, shots) -> dict:
    """The figures of reader over shots: (image, labels, partial) of one table, in turn."""
    total = dict.fromkeys(FIGURES, 0)
    for image, dice, partial in shots:
        for k, v in score_frame(reader.read(image), dice, partial).items():
            if k in total:
                total[k] += v
    return total


def measure(detector: Path, split: str, rounds: int = 2) -> list[dict]:
    """Per table (set, look): the per-photo reader's figures, then the learning reader's each round and its
    shrink after it."""
    table_reader = DiceReader(detector_path=detector, keep_crops=False, one_table=True)
    if not isinstance(table_reader.detector, DiceAtTableSize):
        raise SystemExit(f"{detector.with_suffix('.json')} names no table_size: there is no table's size to learn")
    photo_reader = DiceReader(detector=load_detector(detector), keep_crops=False)
    table = table_reader.detector.table
    out = []
    for look, shift in LOOKS.items():
        for name in SETS:
            shots = list(frames(name, split, shift))
            if not shots:
                continue
            row = {"set": name, "look": look, "photos": len(shots), "each photo": read_table(photo_reader, shots)}
            table.forget()
            for k in range(rounds):
                row[f"round {k + 1}"] = read_table(table_reader, shots)
                row[f"shrink after round {k + 1}"] = round(table.ratio, 3)
            out.append(row)
    return out


def simulated(detector: Path, rolls: int) -> dict:
    """Both readers' figures over rolls settled simulator rolls (1-12 dice, a roll's seed 1000 + its number), and
    the learning reader's largest and last shrink."""
    from vision.sim import SimulatedTray
    learning = DiceReader(detector_path=detector, keep_crops=False, one_table=True)
    each = DiceReader(detector=load_detector(detector), keep_crops=False)
    totals = {"each roll": dict.fromkeys(FIGURES, 0), "learning": dict.fromkeys(FIGURES, 0)}
    shrinks = []
    for k in range(rolls):
        tray = SimulatedTray(dice=k % 12 + 1, seed=1000 + k)
        tray.roll()
        for _ in range(40):          # past the tumble: the still tray the camera reads
            image, _ = tray.next_frame()
        labels = [(d.face, d.box) for d in tray.truth]
        for key, reader in (("each roll", each), ("learning", learning)):
            for name, v in score_frame(reader.read(image), labels).items():
                if name in FIGURES:
                    totals[key][name] += v
        shrinks.append(learning.detector.table.ratio)
    return {**totals, "largest shrink": max(shrinks), "last shrink": shrinks[-1]}


def _line(f: dict) -> str:
    return (f"{f['correct']}/{f['dice']} right, {f['found']} found, {f['silent_misreads']} silent, {f['flagged']} "
            f"flagged, {f['no_die']} on no die, {f['doubled']} doubled")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="calib", choices=[s for s in SPLITS if s != "all"])
    parser.add_argument("--detector", type=Path, default=DEFAULT_DETECTOR)
    parser.add_argument("--sim", type=int, default=0, metavar="ROLLS", help="also read ROLLS simulator rolls")
    args = parser.parse_args()
    if args.sim:
        sim = simulated(args.detector, args.sim)
        print(f"simulator, {args.sim} rolls in turn (largest shrink {sim['largest shrink']:.2f}x, last "
              f"{sim['last shrink']:.2f}x)")
        for key in ("each roll", "learning"):
            print(f"  {key:10s}: {_line(sim[key])}")
    rows = measure(args.detector, args.split)
    sums: dict = {}
    for row in rows:
        print(f"{args.split}, {row['set']}, {row['look']} ({row['photos']} frames)")
        for key in ("each photo", "round 1", "round 2"):
            extra = f" (then shrunk {row['shrink after ' + key]:.2f}x)" if key != "each photo" else ""
            print(f"  {key:10s}: {_line(row[key])}{extra}")
            total = sums.setdefault((row["look"], key), dict.fromkeys(FIGURES, 0))
            for k in FIGURES:
                total[k] += row[key][k]
    print(f"{args.split}, both sets:")
    for (look, key), total in sums.items():
        print(f"  {look:8s} {key:10s}: {_line(total)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
