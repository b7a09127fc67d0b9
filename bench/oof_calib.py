"""ask_below chosen on calib plus the train split read out of fold (DETECTOR_ROUNDS round 17).

Each part is a split, or one fold of the train split (vision.realdata.FOLDS), read by face
classifier variants (bench/face_variants.py's NAME=FILE[+FILE...]) behind the finder held as shipped
(--shipped-finder) or calibrated per part. A train fold is read by files trained without it
(`vision.train --real-hold-out-fold K`), so its dice are read out of fold. A variant's name joins its
parts into one pooled set; its ask_below is chosen on the pool by vision.train.calibrate's rule
(choose_ask_below: 10 x silent misreads + flagged), from the per-die curves face_variants records.

    .venv/bin/python bench/oof_calib.py --shipped-finder \\
        --part calib A=models/dice_faces.tflite AS=models/dice_faces.tflite+models/candidates/faces-steep/dice_faces.tflite \\
        --part train/0 A=build/faces-A0/dice_faces.tflite AS=build/faces-A0/dice_faces.tflite+build/faces-S0/dice_faces.tflite \\
        --part train/1 A=build/faces-A1/dice_faces.tflite AS=build/faces-A1/dice_faces.tflite+build/faces-S1/dice_faces.tflite \\
        [--json OUT] [--load EARLIER.json ...] [--baseline A --candidate AS --shipped-ask 0.99]

Per part and pooled: dice, read right, found, silent misreads and flagged at the pooled ask_below and
at --shipped-ask, boxes on no die (judged on calib only: the detector was trained on the train
split). Then round 17's rule for the candidate against the baseline.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from face_variants import measure, parse_variant, shipped_finder  # noqa: E402

from vision.realdata import parse_part  # noqa: E402
from vision.train.calibrate import ASK_GRID, choose_ask_below  # noqa: E402

# Figures that do not depend on ask_below (the finder and the faces read); silent and flagged do.
FIXED = ("dice", "found", "correct", "no_die", "doubled")


def part_name(split: str, fold) -> str:
    return split if fold is None else f"{split}/{fold}"


def figures_at(result: dict, ask_below: float) -> dict:
    """One part's figures at ask_below, from face_variants.measure's figures and curve (its keys
    floats, or strings once through JSON)."""
    curve = {float(t): v for t, v in result["curve"].items()}
    silent, flagged = curve[float(ask_below)]
    out = {k: result["figures"][k] for k in FIXED}
    out.update(silent_misreads=silent, flagged=flagged)
    return out


def pooled_at(results, ask_below: float) -> dict:
    """The parts' figures at ask_below, summed."""
    total: dict = {}
    for r in results:
        for k, v in figures_at(r, ask_below).items():
            total[k] = total.get(k, 0) + v
    return total


def choose_pooled(results) -> float:
    """ask_below chosen on the pooled parts by calibrate's own rule."""
    return choose_ask_below(lambda t: pooled_at(results, t))


def by_name(results) -> dict[str, list]:
    out: dict[str, list] = {}
    for r in results:
        out.setdefault(r["name"], []).append(r)
    return out


def rule(base: list, cand: list, shipped_ask: float, calib: str = "calib") -> dict:
    """Round 17's rule (DETECTOR_ROUNDS), fixed before measuring: the candidate at its pooled
    ask_below against the baseline at shipped_ask: read right >= + 5, silent and flagged no more,
    boxes on no die on calib <= 8."""
    t = choose_pooled(cand)
    c, b = pooled_at(cand, t), pooled_at(base, shipped_ask)
    calib_no_die = sum(r["figures"]["no_die"] for r in cand if part_name(r["split"], r["fold"]) == calib)
    checks = {"read right >= baseline + 5": (c["correct"], b["correct"] + 5, c["correct"] >= b["correct"] + 5),
              "silent misreads <= baseline's": (c["silent_misreads"], b["silent_misreads"],
                                                c["silent_misreads"] <= b["silent_misreads"]),
              "flagged <= baseline's": (c["flagged"], b["flagged"], c["flagged"] <= b["flagged"]),
              "calib boxes on no die <= 8": (calib_no_die, 8, calib_no_die <= 8)}
    return {"ask_below": t, "checks": checks, "passes": all(v[2] for v in checks.values())}


def table(results, shipped_ask: float) -> str:
    rows = ["| variant | part | dice | read right | found | pooled ask_below | silent / flagged there | "
            f"silent / flagged at {shipped_ask} | boxes on no die | doubled |",
            "|---|---|---|---|---|---|---|---|---|---|"]
    for name, parts in by_name(results).items():
        t = choose_pooled(parts)
        for r in parts + [None]:
            group = parts if r is None else [r]
            f, g = pooled_at(group, t), pooled_at(group, shipped_ask)
            where = "pooled" if r is None else part_name(r["split"], r["fold"])
            rows.append(f"| {name} | {where} | {f['dice']} | {f['correct']} | {f['found']} | {t} | "
                        f"{f['silent_misreads']} / {f['flagged']} | {g['silent_misreads']} / {g['flagged']} | "
                        f"{f['no_die']} | {f['doubled']} |")
    return "\n".join(rows)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--part", nargs="+", action="append", default=[], metavar="SPLIT[/FOLD] NAME=FILE[+FILE...]",
                   help="a split (or train/K: fold K of the train split) and the variants that read it")
    p.add_argument("--load", type=Path, nargs="*", default=[], help="parts measured earlier (--json files)")
    p.add_argument("--json", type=Path, help="write every part's figures, curve and per-die outcome here")
    p.add_argument("--shipped-finder", action="store_true",
                   help="hold find_from, drop_from, recheck_below and the mirrored frame as shipped")
    p.add_argument("--baseline", default="A")
    p.add_argument("--candidate", default="AS")
    p.add_argument("--shipped-ask", type=float, default=0.99, help="the baseline's shipped ask_below")
    args = p.parse_args(argv)
    if float(args.shipped_ask) not in {float(t) for t in ASK_GRID}:
        raise SystemExit(f"--shipped-ask {args.shipped_ask} is not on calibrate's ASK_GRID")
    if not args.part and not args.load:
        # make bench runs every script bare; this one needs classifier files trained out of fold.
        print("no parts given: it reads files trained by `vision.train --real-hold-out-fold K` "
              "(the command is in this script's docstring); nothing measured")
        return 0
    finder = shipped_finder() if args.shipped_finder else None
    results = [r for f in args.load for r in json.loads(f.read_text())]
    for split_fold, *variants in args.part:
        split, fold = parse_part(split_fold)
        for name, files, views, second_look, combine in map(parse_variant, variants):
            results.append(measure(name, files, views, split, second_look, combine, finder=finder, fold=fold))
    if args.json:
        args.json.write_text(json.dumps(results, default=lambda o: o.item()))
    print(table(results, args.shipped_ask))
    named = by_name(results)
    parts = {n: sorted(part_name(r["split"], r["fold"]) for r in rs) for n, rs in named.items()}
    if args.baseline in named and args.candidate in named and parts[args.baseline] != parts[args.candidate]:
        print(f"no verdict: {args.candidate} read {parts[args.candidate]}, {args.baseline} {parts[args.baseline]}")
    elif args.baseline in named and args.candidate in named:
        verdict = rule(named[args.baseline], named[args.candidate], args.shipped_ask)
        print(f"{args.candidate} at its pooled ask_below {verdict['ask_below']} against {args.baseline} at "
              f"{args.shipped_ask}: " + "; ".join(f"{k}: {v[0]} (bound {v[1]}) {'ok' if v[2] else 'FAILS'}"
                                                  for k, v in verdict["checks"].items())
              + f" -> {'passes' if verdict['passes'] else 'fails'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
