"""Face classifiers on steep views (issue 14 round 9): dice seen by a camera leaning 45-65 degrees
toward image-down (vision.synth.scene.die_scene(steep=True)), where the top face the label names
is often smaller in view than the side face below it, against as many ordinary held-out renders.

    .venv/bin/python bench/steep_views.py NAME=FILE[+FILE...] [NAME=...] [--count 700] [--json OUT]

(FILE+FILE: the files' probabilities averaged, as the reader's face_models. --count 3500 reads the
whole of split 1, the trainer's held-out figures: 3,000 dice and 500 boxes without a die.)

Both sets are the trainer's cached sets (vision.train.data.render_set, seed 7): the steep one
is its own held-out split (STEEP_HELD_OUT_SPLIT, never trained on), the ordinary one the first
--count crops of the classifier's held-out split 1. Per set: dice read right (NOT_A_DIE counts
wrong, as vision.train.evaluate.rendered), dice misread at a confidence of SURE or more (the
reader's ask_below 0.99 lets them through silently), boxes without a die judged so, and for the
steep set how many misreads name a side face in view and the biggest one (the scene is drawn
again from the crop's seed to know what each face showed).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.engine.dice import PIP_FACES  # noqa: E402
from vision.classify import NOT_A_DIE, FaceClassifier  # noqa: E402
from vision.synth.scene import die_scene  # noqa: E402
from vision.train.data import STEEP_HELD_OUT_SPLIT, render_set  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
SEED = 7
SURE = 0.99  # the shipped calibration's ask_below: a misread at or above it is silent


def side_faces(index: int, face: int) -> tuple[set[int], int, bool]:
    """The side faces in view of steep held-out crop index, the biggest one's value, and whether
    it is bigger in view than the top face: the scene drawn again from the crop's seed
    (render_die_crop's first draws are die_scene's)."""
    _, placed, _ = die_scene(np.random.default_rng([SEED, STEEP_HELD_OUT_SPLIT, index]), face, steep=True)
    sprite = placed[0].sprite
    sides = {k: a for k, a in sprite.areas.items() if k != "top"}
    big = max(sides, key=sides.get)
    return {sprite.values[k] for k in sides}, sprite.values[big], sides[big] > sprite.areas.get("top", 0.0)


def measure(clf: FaceClassifier, x: np.ndarray, y: np.ndarray, labels, steep: bool) -> dict:
    probs = clf.probabilities(x)
    read = probs.argmax(axis=1)
    dice = [i for i, k in enumerate(y) if labels[k] != NOT_A_DIE]
    boxes = [i for i, k in enumerate(y) if labels[k] == NOT_A_DIE]
    wrong = [i for i in dice if read[i] != y[i]]
    out = {"dice": len(dice), "read right": len(dice) - len(wrong),
           "misread at >= 0.99": sum(probs[i, read[i]] >= SURE and labels[read[i]] != NOT_A_DIE for i in wrong),
           "boxes without a die": len(boxes), "judged no die": sum(labels[read[i]] == NOT_A_DIE for i in boxes)}
    if steep:
        in_view = biggest = side_bigger = side_bigger_right = 0
        for i in dice:
            seen, big, bigger = side_faces(i, int(labels[y[i]][3:]))
            side_bigger += bigger
            side_bigger_right += bigger and i not in wrong
            if i in wrong and labels[read[i]] != NOT_A_DIE:
                said = int(labels[read[i]][3:])
                in_view += said in seen
                biggest += said == big
        out["misreads naming a side face in view"] = in_view
        out["misreads naming the biggest side face"] = biggest
        out["dice whose biggest face in view is a side face"] = side_bigger
        out["of them read right"] = side_bigger_right
        out["other dice"] = len(dice) - side_bigger
        out["of those read right"] = out["read right"] - side_bigger_right
    return {k: int(v) for k, v in out.items()}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    # Without variants (as `make bench` runs every script): the shipped classifier alone.
    p.add_argument("variants", nargs="*", default=["shipped=models/dice_faces.tflite"],
                   help="NAME=FILE[+FILE...] (a .tflite face classifier, or several averaged; default: the shipped one)")
    p.add_argument("--count", type=int, default=700, help="crops per set (6 of every 7 a die)")
    p.add_argument("--cache", type=Path, default=ROOT / "build" / "dice-data")
    p.add_argument("--json", type=Path)
    args = p.parse_args(argv)
    labels = list(PIP_FACES) + [NOT_A_DIE]
    quiet = lambda msg: None  # noqa: E731
    sets = {"steep views (45-65 degrees)": (*render_set(labels, args.count, SEED, STEEP_HELD_OUT_SPLIT, 2,
                                                        args.cache, quiet, steep=True), True)}
    xo, yo = render_set(labels, 3500, SEED, 1, 2, args.cache, quiet)
    sets["ordinary held-out renders"] = (xo[:args.count], yo[:args.count], False)
    results = {}
    for spec in args.variants:
        name, _, file = spec.partition("=")
        clf = FaceClassifier([Path(f) for f in file.split("+")], num_threads=2)
        if list(clf.labels) != labels:
            raise SystemExit(f"{file} reads {clf.labels}, not {labels}")
        results[name] = {s: measure(clf, x, y, labels, steep) for s, (x, y, steep) in sets.items()}
        for s, r in results[name].items():
            print(f"{name} {s}: " + "; ".join(f"{k} {v}" for k, v in r.items()), flush=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
