"""A table earning fewer questions from its own checked reads (companion.pip_checks), on real photos.

Each shared real set under each change of bench/real_shifts.py (as taken and vision/shifts.py's 16
changes) is one table: its photos, every split (nothing here is trained or chosen: each roll is asked
by the threshold the rolls before it earned, vision.earned.earned_below), one roll each in a fixed
shuffled order (seed 0). Every found die is judged by its label, as the players would enter it; a
roll whose count of dice read is not its count of dice (a die missed, a box on no die, a die cut by
the frame) is left out of the checked reads, as the table leaves it out, but its dice are still
counted as asked or let through. Printed per table and pooled: dice found, the rung reached and
after how many checked reads, asked and silent misreads under the reader's own threshold against
under the earned ones. Then two long tables (round 54): each set's 15 rows other than the turned camera,
every frame one roll, shuffled together, as a table played over many evenings; the same photos
changed, so their checked reads are not independent (the bound's optimistic side: the silent
misreads are counted on the rolls that follow, never taken from the bound). The rules it is judged
by are models/DETECTOR_ROUNDS.md rounds 53 and 54.

    .venv/bin/python bench/pip_earning.py [--tables N] [--reads-cache F]

Reading the 3,451 frames takes about ten minutes here; --reads-cache keeps each die's confidence and
whether it was right (keyed by the reader's identity) so that the simulation can be run again.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.earned import SILENT_BOUND, CheckedRead, earned_below  # noqa: E402
from vision.reader import DiceReader  # noqa: E402
from vision.reader_files import reader_identity  # noqa: E402
from vision.realdata import SETS, match_labels  # noqa: E402
from vision.shifts import MOSAICS, SHIFTS, TURNED, changes, frames  # noqa: E402

SEED = 0


def rolls_of(reader, name: str, shift: str, made: dict) -> list[dict]:
    """Per frame: the found dice as [confidence, right], how many were missed, and how many boxes took no
    labelled die (on no die, doubled, or on a die the cut left partly outside)."""
    out = []
    for image, labels, _partial in frames(name, "all", shift, made):
        reading = reader.read(image)
        pairs, spare = match_labels(reading, labels)
        found = [[float(d.confidence), d.face == face] for face, _, d in pairs if d is not None]
        out.append({"found": found, "missed": sum(d is None for _, _, d in pairs), "spare": len(spare)})
    return out


def play(rolls: list[dict], own: float) -> dict:
    """One table's rolls in the fixed shuffled order, each asked by the threshold earned before it."""
    order = list(range(len(rolls)))
    random.Random(SEED).shuffle(order)
    records: list[CheckedRead] = []
    below, first = own, {}
    t = {"found": 0, "asked_own": 0, "asked": 0, "silent_own": 0, "silent": 0}
    for index in order:
        roll = rolls[index]
        for confidence, right in roll["found"]:
            t["found"] += 1
            t["asked_own"] += confidence < own
            t["silent_own"] += (not right) and confidence >= own
            t["asked"] += confidence < below
            t["silent"] += (not right) and confidence >= below
        if roll["missed"] or roll["spare"]:
            continue   # another count of dice than the roll's: the table leaves it out
        records += [CheckedRead(c, None, r) for c, r in roll["found"]]
        earned = earned_below(records, own)
        below = earned.ask_below
        if earned.step and earned.step not in first:
            first[earned.step] = len(records)
    t.update(checked=len(records), ask_below=below, first=first)
    return t


def report(tables: list, own: float) -> tuple[dict, dict, list[str]]:
    """Print each table's line; (pooled counts, pooled over the tables the right way round, the
    tables where the earned thresholds let through more than SILENT_BOUND of the dice more)."""
    print(f"  {'table':64s} {'found':>5s} {'checked':>7s} {'rung (after reads)':>28s} {'asked own/earned':>17s} "
          f"{'silent own/earned':>18s}")
    keys = ("found", "asked_own", "asked", "silent_own", "silent")
    pool, upright, worse = dict.fromkeys(keys, 0), dict.fromkeys(keys, 0), []
    for label, rolls, right_way in tables:
        t = play(rolls, own)
        for k in keys:
            pool[k] += t[k]
            upright[k] += t[k] if right_way else 0
        rungs = ", ".join(f"{s}@{n}" for s, n in sorted(t["first"].items())) or "-"
        rung = f"{t['ask_below']:g} ({rungs})"
        print(f"  {label:64s} {t['found']:5d} {t['checked']:7d} {rung:>28s} "
              f"{t['asked_own']:8d}/{t['asked']:<8d} {t['silent_own']:9d}/{t['silent']:<8d}")
        if t["silent"] - t["silent_own"] > SILENT_BOUND * t["found"]:
            worse.append(label)
    return pool, upright, worse


def described(pool: dict) -> str:
    found = max(pool["found"], 1)
    return (f"{pool['found']} dice found; asked {pool['asked_own']} -> {pool['asked']} "
            f"({100 * pool['asked_own'] / found:.1f} % -> {100 * pool['asked'] / found:.1f} %); silent misreads "
            f"{pool['silent_own']} -> {pool['silent']} ({100 * pool['silent_own'] / found:.2f} % -> "
            f"{100 * pool['silent'] / found:.2f} %)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, help="only the first N changes (a quick look)")
    parser.add_argument("--reads-cache", type=Path, help="a JSON file of the reads, written once, then read")
    args = parser.parse_args()
    identity = reader_identity()
    cached = {}
    if args.reads_cache and args.reads_cache.is_file():
        cached = json.loads(args.reads_cache.read_text())
        if cached.get("reader") != identity.name:
            print(f"{args.reads_cache} holds another reader's reads ({cached.get('reader')}): read again.")
            cached = {}
    shifts = [*SHIFTS, *MOSAICS][:args.tables]
    reader = None
    tables = cached.get("tables", {})
    started = time.monotonic()
    for shift in shifts:
        for name in SETS:
            key = f"{name} | {shift}"
            if key in tables:
                continue
            if reader is None:
                reader = DiceReader(keep_crops=False)
            made = changes()
            tables[key] = rolls_of(reader, name, shift, made)
            print(f"  read {key}: {len(tables[key])} frames ({time.monotonic() - started:.0f} s)", flush=True)
    if not any(tables.get(f"{name} | {shift}") for shift in shifts for name in SETS):
        print("No shared real set on this machine.")
        return 0
    if args.reads_cache:
        args.reads_cache.write_text(json.dumps({"reader": identity.name, "tables": tables}))
    print(f"A table earning fewer questions: the shipped reader, asking below {identity.ask_below} until a rung is "
          f"earned; every split; each table's photos in a fixed shuffled order (seed {SEED})")
    short = [(f"{name}, {shift}", tables[f"{name} | {shift}"], shift not in TURNED)
             for shift in shifts for name in SETS if tables.get(f"{name} | {shift}")]
    print("Round 53: each set under each change, one table")
    pooled, upright, worse = report(short, identity.ask_below)
    print(f"  pooled: {described(pooled)}")
    held = pooled["silent"] < SILENT_BOUND * max(pooled["found"], 1) and not worse
    print(f"  round 53's lines: pooled silent under {100 * SILENT_BOUND:.1f} % of the dice found, and no table "
          f"worse than under its own threshold by more than {100 * SILENT_BOUND:.1f} % of its dice: "
          f"{'held' if held else 'NOT held'}" + (f" (worse: {'; '.join(worse)})" if worse else ""))
    if args.tables is None:
        long = [(f"{name}, every change but the turned camera", [roll for shift in shifts if shift not in TURNED
                                                                  for roll in tables[f"{name} | {shift}"]], True)
                for name in SETS if all(tables.get(f"{name} | {shift}") for shift in shifts)]
        print("Round 54: two long tables, each set's frames under every change but the turned camera, shuffled together")
        pooled_long, upright_long, worse_long = report(long, identity.ask_below)
        everything = {k: pooled[k] + pooled_long[k] for k in pooled}
        right_way = {k: upright[k] + upright_long[k] for k in upright}
        print(f"  pooled over all {len(short) + len(long)} tables: {described(everything)}")
        print(f"  pooled over the {sum(u for *_, u in short) + len(long)} tables the right way round: "
              f"{described(right_way)}")
        added = everything["silent"] - everything["silent_own"] <= SILENT_BOUND * everything["found"]
        line_1 = added and not worse and not worse_long
        line_2 = right_way["silent"] < SILENT_BOUND * max(right_way["found"], 1)
        print(f"  round 54's lines: (1) the ladder adds at most {100 * SILENT_BOUND:.1f} % of the dice found as "
              f"silent misreads, on every table and pooled: {'held' if line_1 else 'NOT held'}; (2) pooled "
              f"over the tables the right way round, silent under {100 * SILENT_BOUND:.1f} %: "
              f"{'held' if line_2 else 'NOT held'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
