"""Two dice readers' CPU per photo, measured side by side so the machine's speed moves both alike.

    .venv/bin/python bench/cpu_pair.py CANDIDATE.tflite [--baseline models/dice_detector.tflite]
        [--part calib] [--reads 5] [--json FILE]

bench/detector_rule.py reads each calib photo once per file, all of one file's photos and then the
other's, minutes apart: on this machine the shipped file's own calib median moved from 20.2 to 40.5 ms
within an hour (models/DETECTOR_ROUNDS.md, round 33), so its CPU lines could not tell a 20 % difference in
cost. Here every photo is read by the two readers in turn, `--reads` times each, and a photo's CPU is the
least of its reads (what the reading costs when nothing else took the core; the other reads only add
what the machine took). Printed per set: each reader's median, p95 and max of those per-photo figures,
and the candidate's over the baseline's, photo by photo (the median of the ratios). Each reader is that
detector file with its .json's face settings, as the app would build it.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))


def photo_cpu(readers: list, image: np.ndarray, reads: int) -> list[float]:
    """Each reader's least CPU ms over `reads` reads of the image, the readers taking turns."""
    best = [float("inf")] * len(readers)
    for _ in range(reads):
        for k, reader in enumerate(readers):
            t0 = time.process_time()
            reader.read(image)
            best[k] = min(best[k], 1000 * (time.process_time() - t0))
    return best


def measure(candidate: Path, baseline: Path, part: str = "calib", reads: int = 5) -> list[dict]:
    """Per set: the photos' count, each reader's cpu_summary() (bench/real_sets.py: the p95 of the
    figures of record) and the median of the per-photo ratios."""
    import cv2
    from real_sets import cpu_summary

    from vision.reader import DiceReader
    from vision.realdata import SETS, photos_of_part

    readers = [DiceReader(keep_crops=False, detector_path=p) for p in (candidate, baseline)]
    warm = np.full((240, 320, 3), 128, np.uint8)
    for reader in readers:  # first-call costs (buffers, code paged in) are not a photo's
        reader.read(warm)
    rows = []
    for name in SETS:
        shots = photos_of_part(name, part)
        if not shots:
            continue
        cpu = [photo_cpu(readers, cv2.imread(str(s.path), cv2.IMREAD_COLOR), reads) for s in shots]
        cand, base = [c for c, _ in cpu], [b for _, b in cpu]
        rows.append({"set": name, "part": part, "photos": len(shots), "reads": reads,
                     "candidate": cpu_summary(cand), "baseline": cpu_summary(base),
                     "ratio_median": round(statistics.median(c / b for c, b in cpu if b > 0), 3)})
    return rows


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("candidate", type=Path)
    p.add_argument("--baseline", type=Path, default=ROOT / "models" / "dice_detector.tflite")
    p.add_argument("--part", default="calib", help="a split of the shared real sets (default calib)")
    p.add_argument("--reads", type=int, default=5, help="reads of each photo by each reader (default 5)")
    p.add_argument("--json", type=Path, metavar="FILE", help="also write the figures here")
    args = p.parse_args(argv)
    for path in (args.candidate, args.baseline):
        if not path.is_file():
            p.error(f"no detector file at {path}")
    if args.reads < 1:
        p.error(f"--reads must be at least 1, not {args.reads}")
    rows = measure(args.candidate, args.baseline, args.part, args.reads)
    for r in rows:
        c, b = r["candidate"], r["baseline"]
        print(f"{r['set']} ({r['part']}, {r['photos']} photos, least of {r['reads']} reads): candidate median "
              f"{c['median']} / p95 {c['p95']} / max {c['max']} ms; baseline {b['median']} / {b['p95']} / "
              f"{b['max']} ms; candidate / baseline per photo {r['ratio_median']}")
    if args.json:
        args.json.write_text(json.dumps(rows, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
