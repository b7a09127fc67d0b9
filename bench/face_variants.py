"""Face classifier variants through the reader on one real split (issue 14 round 5): each variant
(one file or several averaged, with test-time views, vision.classify.VIEWS) is calibrated on the
split as vision.train.calibrate does it (find_from, the classifier's drop_from and recheck_below,
ask_below), then read once more at its own settings by vision.reader.DiceReader.

    .venv/bin/python bench/face_variants.py NAME=FILE[+FILE...][:VIEWS[:SECOND_LOOK[:COMBINE]]] ... [--split calib] [--json OUT]

e.g. `A=build/faces-r4a/dice_faces.tflite AB-mirror=build/faces-r4a/dice_faces.tflite+build/faces-r4b/dice_faces.tflite:mirror`
or `A-mirror-always=build/faces-r4a/dice_faces.tflite:mirror:always` (every die also read at the
1.2x crop, vision.reader.SECOND_LOOKS; default unsure) or `AS-least=A.tflite+S.tflite:one:unsure:least`
(the files' probabilities combined by vision.classify.COMBINES; default mean). --shipped-finder
holds the finder's thresholds as shipped and chooses only ask_below (round 11b).
The first variant is the baseline. Per variant: the thresholds chosen, read right, silent misreads,
flagged, boxes on no die, found; the flags needed to keep silent misreads at or under the
baseline's; dice read right by it and not by the baseline and the other way round (a paired
count over the same labelled dice); CPU ms per photo (time.process_time() around reader.read).
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.model import DEFAULT_DETECTOR, load_detector  # noqa: E402
from vision.reader import DROP_FROM, RECHECK_BELOW, DiceReader  # noqa: E402
from vision.realdata import SETS, match_labels, photos, score_photo  # noqa: E402
from vision.train.calibrate import ASK_GRID, calibrate  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))
from real_sets import cpu_summary  # noqa: E402


def parse_variant(text: str):
    name, _, spec = text.partition("=")
    files, _, rest = spec.partition(":")
    views, _, rest = rest.partition(":")
    second_look, _, combine = rest.partition(":")
    return name, [Path(f) for f in files.split("+")], views or "one", second_look or "unsure", combine or "mean"


def shipped_ask_below(detector=DEFAULT_DETECTOR) -> float:
    """The shipped reader's own ask_below (its detector's .json)."""
    return float(json.loads(Path(detector).with_suffix(".json").read_text(encoding="utf-8"))["ask_below"])


def shipped_finder(detector=DEFAULT_DETECTOR) -> dict:
    """find_from, the mirrored frame, drop_from and recheck_below as the shipped reader reads them
    (its .json's, else the reader's constants)."""
    reader = DiceReader(detector=load_detector(detector), keep_crops=False)
    return {"find_from": reader.detector.find_from, "flip": reader.detector.flip, "drop_from": reader.drop_from,
            "recheck_below": reader.recheck_below}


def measure(name, files, views, split, second_look="unsure", combine="mean", detector=DEFAULT_DETECTOR, log=print,
            finder: dict | None = None, fold: int | None = None) -> dict:
    chosen = calibrate(detector, split, log=lambda *_: None, classifier_path=files, views=views, sources=("reader",),
                       finder=finder,
                       second_look=second_look, fold=fold, combine=combine)
    model = load_detector(detector, find_from=chosen["find_from"], flip=chosen["flip"])
    reader = DiceReader(files, detector=model, views=views, threshold=0.0, keep_crops=False, faces="reader",
                        second_look=second_look, drop_from=chosen["drop_from"], recheck_below=chosen["recheck_below"],
                        combine=combine)
    outcome, cpu, shots = {}, [], []
    for set_name in SETS:
        for shot in photos(set_name, split, fold=fold):
            image = cv2.imread(str(shot.path), cv2.IMREAD_COLOR)
            t0 = time.process_time()
            reading = reader.read(image)
            cpu.append(1000 * (time.process_time() - t0))
            shots.append((reading, shot.dice))
            pairs, _ = match_labels(reading, shot.dice)
            for k, (face, _box, die) in enumerate(pairs):
                outcome[f"{set_name}/{shot.path.name}#{k}"] = (
                    "missed" if die is None else "right" if die.face == face else "wrong",
                    None if die is None else round(die.confidence, 8))

    def at(ask_below):
        total: dict = {}
        for reading, labels in shots:
            flagged = SimpleNamespace(dice=[SimpleNamespace(face=d.face, box=d.box, uncertain=d.confidence < ask_below)
                                            for d in reading.dice])
            for k, v in score_photo(flagged, labels).items():
                total[k] = total.get(k, 0) + v
        return total

    curve = {float(t): (lambda r: (r["silent_misreads"], r["flagged"]))(at(t)) for t in ASK_GRID}
    result = {"name": name, "split": split, "fold": fold, "files": [str(f) for f in files], "views": views,
              "second_look": second_look, "combine": combine,
              "find_from": chosen["find_from"], "drop_from": chosen["drop_from"],
              "recheck_below": chosen["recheck_below"],
              "flip": chosen["flip"], "ask_below": chosen["ask_below"], "figures": at(chosen["ask_below"]),
              "calibrate_figures": chosen["figures"], "curve": curve, "outcome": outcome,
              "cpu_ms": cpu_summary(cpu),
              "photos": len(shots)}
    log(f"{name}: " + json.dumps({k: result[k] for k in ('find_from', 'drop_from', 'recheck_below', 'flip', 'ask_below',
                                                        'figures', 'calibrate_figures', 'cpu_ms')},
                                 default=lambda o: o.item()), flush=True)
    return result


def flags_to_keep_silent(result, at_most: int):
    """The fewest questions with at most at_most silent misreads (and the ask_below giving them)."""
    fits = [(flagged, float(t)) for t, (silent, flagged) in result["curve"].items() if silent <= at_most]
    return min(fits) if fits else (None, None)


def table(results) -> str:
    base = results[0]
    rows = ["| variant | files | views | second look | find_from / drop_from / recheck_below / ask_below | read right | "
            "silent misreads | flagged | "
            f"boxes on no die | found | flags for silent <= {base['figures']['silent_misreads']} | "
            f"right vs {base['name']}: gained / lost | CPU ms median / p95 / max |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in results:
        f = r["figures"]
        flags, t = flags_to_keep_silent(r, base["figures"]["silent_misreads"])
        gained = sum(o[0] == "right" and base["outcome"].get(k, ("",))[0] != "right" for k, o in r["outcome"].items())
        lost = sum(o[0] != "right" and base["outcome"].get(k, ("",))[0] == "right" for k, o in r["outcome"].items())
        least = " (least)" if r.get("combine") == "least" else ""
        rows.append(f"| {r['name']} | {len(r['files'])}{least} | {r['views']} | {r.get('second_look', 'unsure')} | "
                    f"{r['find_from']} / {r.get('drop_from', DROP_FROM)} / {r.get('recheck_below', RECHECK_BELOW)} / "
                    f"{r['ask_below']} | "
                    f"{f['correct']} | {f['silent_misreads']} | {f['flagged']} | {f['no_die']} | {f['found']} | "
                    f"{flags} (at {t}) | +{gained} / -{lost} | {r['cpu_ms']['median']} / {r['cpu_ms']['p95']} / "
                    f"{r['cpu_ms']['max']} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # Without variants (as `make bench` runs every script): the shipped classifier alone, with the
    # thresholds this bench chooses for it (not the shipped reader's: its name says so).
    p.add_argument("variants", nargs="*", default=["shipped-classifier-recalibrated=models/dice_faces.tflite"],
                   help="NAME=FILE[+FILE...][:VIEWS]; the first is the baseline (default: the shipped classifier)")
    p.add_argument("--split", default="calib")
    p.add_argument("--json", type=Path, help="also write every variant's figures, curve and per-die outcome here")
    p.add_argument("--load", type=Path, nargs="*", default=[],
                   help="variants measured earlier (--json files) to put in the table before the new ones")
    p.add_argument("--shipped-finder", action="store_true",
                   help="hold find_from, drop_from, recheck_below and the mirrored frame as shipped (the detector's "
                        ".json); choose only ask_below (a new classifier behind the same finder)")
    args = p.parse_args(argv)
    finder = shipped_finder() if args.shipped_finder else None
    results = [r for f in args.load for r in json.loads(f.read_text())]
    results += [measure(name, files, views, args.split, second_look, combine, finder=finder)
                for name, files, views, second_look, combine in map(parse_variant, args.variants)]
    print(f"split {args.split} of {', '.join(SETS)} ({results[0]['photos']} photos, "
          f"{results[0]['figures']['dice']} dice); faces 'reader'; each variant's thresholds chosen here "
          f"on that split (the shipped reader asks below {shipped_ask_below()}: bench/real_sets.py reads it)")
    print(table(results))
    if args.json:
        args.json.write_text(json.dumps(results, default=lambda o: o.item()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
