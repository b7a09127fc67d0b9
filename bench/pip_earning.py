"""A table earning fewer questions from its own checked reads (companion.pip_checks), on real photos.

Each shared real set under each change of bench/real_shifts.py (as taken and vision/shifts.py's 16
changes) is one table: its photos, every split (nothing here is trained or chosen: each roll is asked
by the threshold the rolls before it earned, vision.earned.earned_below), one roll each in a fixed
shuffled order (seed 0). Every found die is judged by its label, as the players would enter it; a
roll whose count of dice read is not its count of dice (a die missed, a box on no die, a die cut by
the frame) is left out of the checked reads, as the table leaves it out, but its dice are still
counted as asked or let through. Printed per table and pooled: dice found, the rung reached and
after how many checked reads, asked and silent misreads under the reader's own threshold against
under the earned ones. The rule it is judged by is models/DETECTOR_ROUNDS.md round 53.

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
from vision.reader import DiceReader, reader_identity  # noqa: E402
from vision.realdata import SETS, match_labels, on_no_die  # noqa: E402
from vision.shifts import MOSAICS, SHIFTS, changes, frames  # noqa: E402

SEED = 0


def rolls_of(reader, name: str, shift: str, made: dict) -> list[dict]:
    """Per frame: the found dice as [confidence, right], how many were missed, how many boxes took no
    labelled die (on no die, doubled, or on a die the cut left partly outside)."""
    out = []
    for image, labels, _partial in frames(name, "all", shift, made):
        reading = reader.read(image)
        pairs, spare = match_labels(reading, labels)
        found = [[float(d.confidence), d.face == face] for face, _, d in pairs if d is not None]
        out.append({"found": found, "missed": sum(d is None for _, _, d in pairs), "spare": len(spare),
                    "no_die": sum(on_no_die(d, labels) for d in spare)})
    return out


def play(rolls: list[dict], own: float) -> dict:
    """One table's rolls in the fixed shuffled order, each asked by the threshold earned before it."""
    order = list(range(len(rolls)))
    random.Random(SEED).shuffle(order)
    records: list[CheckedRead] = []
    below, step, first = own, 0, {}
    t = {"found": 0, "asked_own": 0, "asked": 0, "silent_own": 0, "silent": 0, "checked": 0, "left_out": 0}
    for index in order:
        roll = rolls[index]
        for confidence, right in roll["found"]:
            t["found"] += 1
            t["asked_own"] += confidence < own
            t["silent_own"] += (not right) and confidence >= own
            t["asked"] += confidence < below
            t["silent"] += (not right) and confidence >= below
        if roll["missed"] or roll["spare"]:
            t["left_out"] += 1
            continue
        records += [CheckedRead(c, None, r) for c, r in roll["found"]]
        earned = earned_below(records, own)
        below, step = earned.ask_below, earned.step
        if step and step not in first:
            first[step] = len(records)
    t.update(checked=len(records), step=step, ask_below=below, first=first)
    return t


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
    print(f"A table earning fewer questions (models/DETECTOR_ROUNDS.md round 53): the shipped reader, asking "
          f"below {identity.ask_below} until a rung is earned; every split; each table's photos in a fixed "
          f"shuffled order (seed {SEED})")
    print(f"  {'table':64s} {'found':>5s} {'checked':>7s} {'rung (after reads)':>22s} {'asked own/earned':>17s} "
          f"{'silent own/earned':>18s}")
    pool = {"found": 0, "asked_own": 0, "asked": 0, "silent_own": 0, "silent": 0}
    worse = []
    for shift in shifts:
        for name in SETS:
            rolls = tables.get(f"{name} | {shift}")
            if not rolls:
                continue
            t = play(rolls, identity.ask_below)
            for k in pool:
                pool[k] += t[k]
            rungs = ", ".join(f"{s}@{n}" for s, n in sorted(t["first"].items())) or "-"
            label, rung = f"{name}, {shift}", f"{t['ask_below']:g} ({rungs})"
            print(f"  {label:64s} {t['found']:5d} {t['checked']:7d} {rung:>22s} "
                  f"{t['asked_own']:8d}/{t['asked']:<8d} {t['silent_own']:9d}/{t['silent']:<8d}")
            if t["silent"] - t["silent_own"] > SILENT_BOUND * t["found"]:
                worse.append(label)
    found = pool["found"] or 1
    print(f"  pooled: {pool['found']} dice found; asked {pool['asked_own']} -> {pool['asked']} "
          f"({100 * pool['asked_own'] / found:.1f} % -> {100 * pool['asked'] / found:.1f} %); silent misreads "
          f"{pool['silent_own']} -> {pool['silent']} ({100 * pool['silent_own'] / found:.2f} % -> "
          f"{100 * pool['silent'] / found:.2f} %)")
    held = pool["silent"] < SILENT_BOUND * found and not worse
    print(f"  round 53's lines: pooled silent under {100 * SILENT_BOUND:.1f} % of the dice found, and no table "
          f"worse than under its own threshold by more than {100 * SILENT_BOUND:.1f} % of its dice: "
          f"{'held' if held else 'NOT held'}" + (f" (worse: {'; '.join(worse)})" if worse else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
