"""The reader on the real photos under the changes a new table brings: how far each one costs.

The changes are vision/shifts.py's (the camera turned, a 16:9 frame, smaller and bigger dice, another
light, blur, noise, strong JPEG). Each row reads the split's photos so changed and prints, per set, dice
read right, found, silent misreads, flagged and boxes on no die, as bench/real_sets.py counts them
(a die cut by a 16:9 crop or an enlarged middle, less than 90 % inside, counts neither as a die nor
as a box on no die).

    .venv/bin/python bench/real_shifts.py [--split calib] [--detector F] [--classifier F ...]

Choose on calib; test is for reporting a choice already made.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.reader import DiceReader, add_face_options  # noqa: E402
from vision.realdata import SETS, SPLITS, score_frame  # noqa: E402
from vision.shifts import MOSAICS, SHIFTS, changes, frames  # noqa: E402


def measure(reader, split: str, shifts=None) -> dict:
    """{shift: {set: counts}} for every shift (default: all) on every real set on this machine."""
    out = {}
    made = changes()
    for shift in shifts or [*SHIFTS, *MOSAICS]:
        out[shift] = {}
        for name in SETS:
            total: dict = {}
            for image, dice, partial in frames(name, split, shift, made):
                for k, v in score_frame(reader.read(image), dice, partial).items():
                    total[k] = total.get(k, 0) + v
            if total:
                out[shift][name] = total
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="calib", choices=[s for s in SPLITS if s != "all"])
    parser.add_argument("--detector", type=Path, help="the dice detector (default models/dice_detector.tflite)")
    add_face_options(parser)
    args = parser.parse_args()
    reader = DiceReader(detector_path=args.detector, keep_crops=False, model_path=args.classifier,
                        views=args.views, second_look=args.second_look)
    results = measure(reader, args.split)
    if not any(results.values()):
        print("No shared real set on this machine.")
        return 0
    print(f"The reader on the {args.split} split's real photos, changed as a new table would change them")
    print("(per set: read right / dice, found, silent misreads, flagged, boxes on no die)")
    for shift, sets in results.items():
        cells = [f"{name}: {t['correct']}/{t['dice']}, found {t['found']}, silent {t['silent_misreads']}, "
                 f"flagged {t['flagged']}, no die {t['no_die']}" for name, t in sets.items()]
        print(f"  {shift:40s} " + " | ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
