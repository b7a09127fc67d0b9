"""Dice reader accuracy: held-out rendered trays, the shared real photos, empty trays.

    .venv/bin/python bench/vision_accuracy.py [--json] [--trays N] [--seed S] [--misses DIR]

Figures (targets from issue 3):
  synthetic per-die face accuracy (end to end: a missed die is an error)       >= 99.5 %
  tilted-webcam per-die accuracy (label centre inside a detected die's box)    >= 97 %
  webcam-crops accuracy (the whole crop classified as one die)                 >= 98 %
  dice found (synthetic + tilted-webcam)                                       >= 99 %
  empty trays with a die reported                                              0
Also two-dice trays (Rolling Village's roll): accuracy, and trays where a third box shows.

Real sets (issue 14; bench/real_sets.py defines the figures, vision/realdata.py the splits):
for tilted-webcam and aws-workshop-dice, per split (train / calib / test, see vision.realdata),
read right, found, boxes on no die, flagged, silent misreads and CPU ms per photo. Targets on
unseen photos: read right >= 97 % (>= 98.5 % on each of these two sets), found >= 99 %, boxes on
no die <= 1 per 25 photos, silent misreads < 0.5 %, CPU ms median/p95/max <= 30/60/200.
The reader is vision.reader.DiceReader on the learned detector (the rule cascade it replaced
was retired in issue 14; its last figures are in models/DETECTOR_CARD.md). Beside the shipped
detector, `make bench` measures the detector it replaced (models/previous/, when there).
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.reader import DiceReader, add_face_options  # noqa: E402
from vision.realdata import SETS, photos  # noqa: E402
from vision.synth import render_tray  # noqa: E402

from real_sets import format_set, score_set  # noqa: E402

# The shared real photos lie beside the checkout (../shared); COMPANION_REAL_DICE overrides.
REAL = Path(os.environ.get("COMPANION_REAL_DICE",
                           Path(__file__).resolve().parents[2] / "shared" / "data" / "real-dice"))
# Seeds far from anything training uses: a set the model has never seen. (The first 300 trays of
# "vision-accuracy-held-out-2026" were looked at while tuning the detector, so they are no longer
# held out; tune on --seed dev-1 or any other seed, never on this one.)
HELD_OUT_SEED = "vision-accuracy-held-out-2026-b"


def _match(reading, box):
    """The die read whose box holds the centre of box (the nearest such die when boxes overlap)."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    holders = [die for die in reading.dice
               if die.box[0] <= cx <= die.box[2] and die.box[1] <= cy <= die.box[3]]
    return min(holders, key=lambda d: (d.box[0] + d.box[2] - 2 * cx) ** 2 + (d.box[1] + d.box[3] - 2 * cy) ** 2,
               default=None)


def synthetic(reader: DiceReader, trays: int, misses: Path | None = None, seed: str = HELD_OUT_SEED,
              dice_per_tray: int | None = None) -> dict:
    """Rendered trays of 1-12 dice (or dice_per_tray each), every die matched to a die read."""
    rng = random.Random(seed)
    dice = found = correct = extra = trays_with_extra = 0
    for tray in range(trays):
        scene = render_tray(rng, dice_per_tray or rng.randint(1, 12))
        reading = reader.read(scene.image)
        matched = 0
        missed, misread = [], []
        for truth in scene.dice:
            die = _match(reading, truth.box)
            dice += 1
            if die is not None:
                found += 1
                matched += 1
                correct += die.face == truth.face
                if die.face != truth.face:
                    misread.append(truth.box)
            else:
                missed.append(truth.box)
        extra += max(0, len(reading.dice) - matched)
        trays_with_extra += len(reading.dice) > matched
        if misses is not None and (missed or misread):
            _draw_misses(misses / f"tray-{tray:04d}.png", scene.image, reading, missed, misread)
    return {"trays": trays, "dice": dice, "found": found, "correct": correct, "extra": extra,
            "trays_with_extra": trays_with_extra, "accuracy": correct / dice, "found_rate": found / dice,
            "accuracy_of_found": correct / max(found, 1)}


def _draw_misses(path: Path, image, reading, missed, misread) -> None:
    """The tray with the reader's boxes (green), missed dice (red) and misread ones (orange)."""
    image = image.copy()
    for die in reading.dice:
        cv2.rectangle(image, die.box[:2], die.box[2:], (0, 200, 0), 1)
    for boxes, colour in ((missed, (0, 0, 255)), (misread, (0, 140, 255))):
        for x0, y0, x1, y1 in boxes:
            cv2.rectangle(image, (x0, y0), (x1, y1), colour, 2)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), image)


def empty_trays(reader: DiceReader, trays: int) -> dict:
    rng = random.Random(HELD_OUT_SEED + "-empty")
    with_dice = sum(bool(reader.read(render_tray(rng, 0).image).dice) for _ in range(trays))
    return {"trays": trays, "trays_with_dice_reported": with_dice}


def tilted_webcam(reader: DiceReader) -> dict | None:
    shots = photos("tilted-webcam", "all", REAL)  # labels with vision.realdata's errata applied
    if not shots:
        return None
    dice = found = correct = extra = 0
    for shot in shots:
        reading = reader.read(cv2.imread(str(shot.path)))
        hit = set()
        for face, box in shot.dice:
            die = _match(reading, box)
            dice += 1
            if die is not None:
                found += 1
                hit.add(id(die))
                correct += die.face == face
        extra += len(reading.dice) - len(hit)
    return {"photos": len(shots), "dice": dice, "found": found, "correct": correct, "extra": extra,
            "accuracy": correct / dice, "found_rate": found / dice,
            "accuracy_of_found": correct / max(found, 1)}


def webcam_crops(reader: DiceReader) -> dict | None:
    root = REAL / "webcam-crops"
    paths = sorted(root.glob("*/*.jpg"))
    if not paths or not hasattr(reader, "read_crop"):  # the learned detector reads trays, not crops
        return None
    correct = sum(reader.read_crop(cv2.imread(str(p))).face == int(p.parent.name) for p in paths)
    return {"crops": len(paths), "correct": correct, "accuracy": correct / len(paths)}


# The detector the shipped one replaced, kept so that the bench prints both side by side.
PREVIOUS = Path(__file__).resolve().parent.parent / "models" / "previous" / "dice_detector.tflite"


def _synthetic_line(s: dict) -> str:
    return (f"Synthetic held-out ({s['trays']} trays, {s['dice']} dice): face accuracy {100 * s['accuracy']:.2f} % "
            f"(target >= 99.5 %); found {100 * s['found_rate']:.2f} % (target >= 99 %), "
            f"{100 * s['accuracy_of_found']:.2f} % of those read right; {s['extra']} extra detections")


def _reader(args):
    return DiceReader(keep_crops=False, detector_path=args.model, model_path=args.classifier,
                      threshold=args.ask_below, views=args.views, second_look=args.second_look,
                      combine=args.combine)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--trays", type=int, default=1000, help="held-out rendered trays (default 1000)")
    parser.add_argument("--model", help="the dice detector (default models/dice_detector.tflite)")
    add_face_options(parser)
    parser.add_argument("--ask-below", type=float, help="the confidence threshold (default: the detector's .json)")
    parser.add_argument("--splits", default="train,calib,test",
                        help="real-set splits to report (comma-separated; train/K: fold K of the train split)")
    parser.add_argument("--real-only", action="store_true", help="only the real sets (no renders)")
    parser.add_argument("--renders-only", action="store_true",
                        help="only the held-out rendered trays: no real photo is read (the real tilted-webcam "
                             "line reads every split, test among them), for a file not yet chosen")
    parser.add_argument("--seed", default=HELD_OUT_SEED,
                        help="seed of the rendered trays (tune the detector on another seed than the held-out one)")
    parser.add_argument("--misses", type=Path, metavar="DIR",
                        help="write each rendered tray with a missed (red) or misread (orange) die to DIR, and each "
                             "real photo with a die missed or misread or a box on no die")
    args = parser.parse_args(argv)
    reader = _reader(args)
    t0 = time.perf_counter()
    if args.renders_only:
        s = synthetic(reader, args.trays, args.misses, args.seed)
        print(json.dumps(s) if args.json else _synthetic_line(s))
        return 0
    real = [r for name in SETS for split in args.splits.split(",")
            if (r := score_set(reader, name, split, args.misses and args.misses / f"real-{split}"))]
    if not (args.model or args.classifier or args.views or args.second_look or args.combine
            or args.ask_below is not None) \
            and PREVIOUS.is_file():
        previous = DiceReader(keep_crops=False, detector_path=PREVIOUS)
        real += [dict(r, set=f"{r['set']} (previous detector)") for name in SETS for split in args.splits.split(",")
                 if (r := score_set(previous, name, split))]
    if args.real_only:
        result = {"real": real, "seconds": round(time.perf_counter() - t0, 1)}
        print(json.dumps(result) if args.json else "\n".join(format_set(r) for r in real))
        return 0
    result = {"real": real, "synthetic": synthetic(reader, args.trays, args.misses, args.seed),
              # Rolling Village's roll: two dice, and a third box makes the players tap the dice in.
              "two_dice": synthetic(reader, max(1, args.trays // 3), None, args.seed + "-two", dice_per_tray=2),
              "empty": empty_trays(reader, 50),
              "tilted_webcam": tilted_webcam(reader), "webcam_crops": webcam_crops(reader)}
    result["seconds"] = round(time.perf_counter() - t0, 1)
    if args.json:
        print(json.dumps(result))
        return 0
    s, e, t, c = result["synthetic"], result["empty"], result["tilted_webcam"], result["webcam_crops"]
    print(_synthetic_line(s))
    two = result["two_dice"]
    print(f"Two-dice trays ({two['trays']} trays): face accuracy {100 * two['accuracy']:.2f} %, found "
          f"{100 * two['found_rate']:.2f} %; {two['trays_with_extra']} trays with an extra detection")
    print(f"Empty trays: {e['trays_with_dice_reported']} of {e['trays']} with a die reported (target 0)")
    if t:
        print(f"Real tilted-webcam ({t['photos']} photos, {t['dice']} dice): accuracy {100 * t['accuracy']:.2f} % "
              f"(target >= 97 %); found {100 * t['found_rate']:.2f} %, {100 * t['accuracy_of_found']:.2f} % "
              f"of those read right; {t['extra']} detections matching no label")
    else:
        print("Real tilted-webcam: photos not found at", REAL / "tilted-webcam")
    if c:
        print(f"Real webcam-crops ({c['crops']} crops): accuracy {100 * c['accuracy']:.2f} % (target >= 98 %)")
    else:
        print("Real webcam-crops: photos not found at", REAL / "webcam-crops")
    for r in real:
        print(format_set(r))
    print(f"({result['seconds']} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
