"""For `make pi-check`: which real photos to read, and how aarch64's readings differ from x86's.

`list DIR COUNT`: the photos of each labelled set under DIR in name order (the first COUNT of each,
or all with 0), one path a line. `diff A B`: compares two outputs of `python -m vision read` line by
line (matched by file name) and prints every difference; exit 1 if any reading differs beyond
the tolerances below (faces and colours exactly, boxes within BOX_TOLERANCE pixels, confidences
within CONFIDENCE_TOLERANCE).
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

SETS = ("tilted-webcam", "aws-workshop-dice")
# The two builds run the same model through different kernels (XNNPACK on x86 and on ARM sum in
# a different order), so a die's confidence and its box may move by float noise; what the player
# sees must not. Faces and colours are compared exactly; a box may move by BOX_TOLERANCE pixels
# on each edge and a confidence by CONFIDENCE_TOLERANCE (the first run saw 0.3867 against 0.3887
# on the same die). `uncertain` is not compared: it follows from the confidence and the threshold,
# and a die whose confidence sits on the threshold flips with that noise; its flips are counted.
BOX_TOLERANCE = 2
CONFIDENCE_TOLERANCE = 0.01


def photos(root: Path, count: int) -> list[Path]:
    chosen = []
    for name in SETS:
        files = sorted((root / name / "images").glob("*.jpg"), key=lambda p: p.name)
        chosen += files[:count] if count else files
    return chosen


def _readings(path: Path) -> dict[str, list[dict]]:
    out = {}
    for line in path.read_text(encoding="utf-8").split("\n"):
        if line.strip():
            reading = json.loads(line)
            out[Path(reading["path"]).parent.parent.name + "/" + Path(reading["path"]).name] = reading["dice"]
    return out


def _box_shift(a: dict, b: dict) -> int:
    return max(abs(p - q) for p, q in zip(a["box"], b["box"]))


def _same(a: dict, b: dict) -> bool:
    """One die read alike on both sides, within the tolerances."""
    return (a["face"] == b["face"] and a.get("color") == b.get("color") and _box_shift(a, b) <= BOX_TOLERANCE
            and abs(a["confidence"] - b["confidence"]) <= CONFIDENCE_TOLERANCE)


def _pairs(dice: list[dict], other: list[dict]) -> list[tuple[dict, dict]] | None:
    """Each x86 die with the aarch64 die whose box is nearest (each used once), or None when the
    counts differ or a die has no partner within BOX_TOLERANCE. By box, not by list order: the
    reader sorts dice by row, and a die on a row boundary may sort differently after a 1-pixel move."""
    if len(dice) != len(other):
        return None
    left, out = list(other), []
    for a in dice:
        best = min(left, key=lambda b: _box_shift(a, b))
        if _box_shift(a, best) > BOX_TOLERANCE:
            return None
        left.remove(best)
        out.append((a, best))
    return out


def compare(x86: dict, arm: dict) -> tuple[list[str], dict]:
    notes, counts = [], {"photos": len(x86), "identical": 0, "within_tolerance": 0, "different": 0,
                         "missing": 0, "dice": 0, "dice_differ": 0, "uncertain_flips": 0}
    worst = {"confidence": 0.0, "box": 0}
    for name, dice in sorted(x86.items()):
        counts["dice"] += len(dice)
        other = arm.get(name)
        if other is None:
            counts["missing"] += 1
            notes.append(f"{name}: no reading on aarch64")
            continue
        if other == dice:
            counts["identical"] += 1
            continue
        pairs = _pairs(dice, other)
        if pairs is not None and all(_same(a, b) for a, b in pairs):
            counts["within_tolerance"] += 1
            flips = sum(a.get("uncertain") != b.get("uncertain") for a, b in pairs)
            counts["uncertain_flips"] += flips
            conf = max(abs(a["confidence"] - b["confidence"]) for a, b in pairs)
            box = max(_box_shift(a, b) for a, b in pairs)
            worst = {"confidence": max(worst["confidence"], conf), "box": max(worst["box"], box)}
            notes.append(f"{name}: same dice; confidence differs by at most {conf:.4f}, a box edge by "
                         f"{box} px" + (f"; {flips} die flips uncertain" if flips else ""))
            continue
        counts["different"] += 1
        # A die differs when the other side has no die of its face and colour within the tolerances.
        counts["dice_differ"] += max(sum(not any(_same(a, b) for b in other) for a in dice),
                                     sum(not any(_same(a, b) for a in dice) for b in other))
        notes.append(f"{name}: x86 {json.dumps(dice)}\n{' ' * len(name)}  arm {json.dumps(other)}")
    for name in sorted(set(arm) - set(x86)):
        notes.append(f"{name}: read on aarch64 only")
    counts["worst_confidence"] = round(worst["confidence"], 4)
    counts["worst_box_px"] = worst["box"]
    return notes, counts


def main(argv: list[str]) -> int:
    if len(argv) == 3 and argv[0] == "list":
        for p in photos(Path(argv[1]), int(argv[2])):
            print(p)
        return 0
    if len(argv) == 3 and argv[0] == "diff":
        notes, counts = compare(_readings(Path(argv[1])), _readings(Path(argv[2])))
        for note in notes:
            print("   " + note)
        print(f"   tolerances: box {BOX_TOLERANCE} px, confidence {CONFIDENCE_TOLERANCE}; faces and colours exact")
        print("   " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        return 0 if counts["different"] == counts["missing"] == 0 and counts["photos"] else 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
