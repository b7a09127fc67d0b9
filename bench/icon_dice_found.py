"""Icon dice found: rendered trays of dice whose faces are icons, not pips (issue 14 / 15).

Welcome to Centerville's six icon dice (vision.synth.centerville, icons from its data file) and
dice of the glyph families vision.synth.glyphs holds out (the detector's icon trays train on
other families; Centerville's icons are never in its training). A die is found when a die read
holds its box's centre. Two readers: the learned detector's own peaks (DiceModel.detect), and
the reader as the app runs it (vision.reader.DiceReader: with `"faces": "reader"` its crop classifier may
drop a box it judges no die). Faces are not scored: an icon is no pip count.

    .venv/bin/python bench/icon_dice_found.py [--trays 60] [--json] [--classifier F ...] [--views V] [--second-look S]
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.model import load_detector  # noqa: E402
from vision.reader import DiceReader, add_face_options  # noqa: E402
from vision.realdata import score_photo  # noqa: E402
from vision.synth.centerville import render_centerville_tray  # noqa: E402
from vision.synth.glyphs import HELD_OUT_FAMILIES, render_glyph_tray  # noqa: E402

# Held-out families that are no pips (a ring-pip die is a pip die) and not Centerville's (its own set).
FAMILIES = tuple(f for f in HELD_OUT_FAMILIES if not f.startswith("pips") and f != "centerville")


KINDS = ("centerville", "held-out glyphs")


def trays(kind: str, n: int):
    for i in range(n):
        g = np.random.default_rng([2026, 15, i, 0 if kind == "centerville" else 1])
        if kind == "centerville":
            yield render_centerville_tray(g, (640, 480))
        else:
            yield render_glyph_tray(g, int(g.integers(1, 9)), (640, 480), families=FAMILIES, one_set=False)


def score(read, kind: str, n: int) -> dict:
    total: dict = {}
    for scene in trays(kind, n):
        labels = [(0, d.box) for d in scene.dice]
        for k, v in score_photo(read(scene.image), labels).items():
            total[k] = total.get(k, 0) + v
    return {"trays": n, "dice": total["dice"], "found": total["found"], "no_die": total["no_die"],
            "doubled": total["doubled"]}


def measure(detector, trays: int, peaks_only: bool = False, classifier=None, views=None,
            second_look=None) -> list[dict]:
    """Each kind's figures as the detector's own peaks find the dice and (unless peaks_only) as the
    reader does (classifier, views, second_look: DiceReader's face options)."""
    model = load_detector(detector)
    peaks = lambda image: SimpleNamespace(dice=[SimpleNamespace(face=d.face, box=d.box, uncertain=True)  # noqa: E731
                                               for d in model.detect(image)])
    readers = [("detector peaks", peaks)]
    if not peaks_only:
        reader = DiceReader(detector=model, keep_crops=False, model_path=classifier, views=views,
                            second_look=second_look)
        readers.append((f"reader ({reader.faces})", reader.read))
    return [dict(score(read, kind, trays), set=kind, reader=name)
            for kind in KINDS for name, read in readers]


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--trays", type=int, default=60)
    p.add_argument("--json", action="store_true")
    p.add_argument("--model", help="the dice detector (default models/dice_detector.tflite)")
    add_face_options(p)
    args = p.parse_args(argv)
    out = measure(args.model, args.trays, classifier=args.classifier, views=args.views,
                  second_look=args.second_look)
    if args.json:
        print(json.dumps(out))
        return 0
    for r in out:
        print(f"Icon dice, {r['set']} ({r['trays']} rendered 640x480 trays, {r['dice']} dice), {r['reader']}: "
              f"found {100 * r['found'] / max(r['dice'], 1):.1f} % ({r['found']}), boxes on no die {r['no_die']}, "
              f"doubled {r['doubled']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
