"""Centerville's dice over a game (issue 15): how often the camera asks as the table teaches it.

The table teaches each face once at set-up (bench/icon_dice.py's set-up trays), then the six dice
are rolled and read READINGS times (rendered trays under a random lamp, read whole by
vision.taught.TaughtReader). After each reading the players' answers teach the camera by the app's
own rule (companion.table.centerville_camera.lessons): every die it asked about or misread is
taught with its picture and the face it showed; dice read surely and let stand teach nothing;
dice it did not find are entered by hand and teach nothing. Printed per stretch of readings: read right,
asked, silent misreads (wrong and not asked), and the examples taught so far. Fixed seeds.

    .venv/bin/python bench/icon_dice_play.py [--readings 60]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from icon_dice import SEED, pct, read_die, taught_at_setup  # noqa: E402
from companion.table.centerville_camera import lessons  # noqa: E402
from vision.synth.centerville import render_centerville_tray  # noqa: E402
from vision.taught import Embedder  # noqa: E402

STRETCHES = ((0, 6), (6, 18), (18, 36), (36, 60))  # readings: a turn rolls up to three times


def play(embedder: Embedder, readings: int, root: Path) -> tuple[int, list[dict]]:
    """The examples taught at set-up, and per reading: dice, found, right, asked, silent, taught
    (examples added after it)."""
    reader = taught_at_setup(embedder, 1, root, keep_crops=True)
    setup = sum(reader.examples.counts().values())
    out = []
    for i in range(readings):
        scene = render_centerville_tray(np.random.default_rng([SEED, 6, i]))
        reading = reader.read(scene.image)
        row = dict(dice=len(scene.dice), found=0, right=0, asked=0, silent=0, taught=0)
        read, entered = {}, {}
        for k, d in enumerate(scene.dice):
            entered[k] = d.label  # the players enter every die's face
            r = read_die(reading, d)
            if r is None:
                continue
            read[k] = r
            ok = r.label == d.label
            row["found"] += 1
            row["right"] += ok
            row["asked"] += r.uncertain
            row["silent"] += (not ok) and not r.uncertain
        taught = lessons(read, entered)  # what the app teaches once the roll is entered
        for label, crop in taught:
            reader.teach(label, crop)
        row["taught"] = len(taught)
        out.append(row)
    return setup, out


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--readings", type=int, default=STRETCHES[-1][1])
    p.add_argument("--work", type=Path, default=Path("build") / "bench-icon-dice-play")
    args = p.parse_args(argv)
    setup, rows = play(Embedder(), args.readings, args.work)
    print(f"Centerville's six dice over {args.readings} readings, 1 picture of each of the {setup} faces taught "
          "at set-up, then the asked and misread dice taught after each reading:")
    taught = setup
    for first, last in [s for s in STRETCHES if s[0] < args.readings]:
        part = rows[first:min(last, args.readings)]
        n = sum(r["dice"] for r in part)
        taught += sum(r["taught"] for r in part)
        print(f"  readings {first + 1:>2}-{first + len(part):<2}  read right {pct(sum(r['right'] for r in part) / n):>8}"
              f"  asked {pct(sum(r['asked'] for r in part) / n):>8}  silent misreads "
              f"{pct(sum(r['silent'] for r in part) / n):>6}  found {pct(sum(r['found'] for r in part) / n):>8}"
              f"  dice {n}  examples by then {taught}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
