"""For `make pi-check`: which real photos to read, and how aarch64's readings differ from x86's.

`list DIR COUNT`: the photos of each labelled set under DIR in name order (the first COUNT of each,
or all with 0), one path a line. `diff A B`: compares two outputs of `python -m vision read` line by
line (matched by file name) and prints every difference; exit 1 if any reading differs.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

SETS = ("tilted-webcam", "aws-workshop-dice")
# Boxes are whole pixels and confidences are rounded to 4 places by the reader: anything beyond
# this is a real difference between the two builds, not float noise.
CONFIDENCE_TOLERANCE = 0.002


def photos(root: Path, count: int) -> list[Path]:
    chosen = []
    for name in SETS:
        files = sorted((root / name / "images").glob("*.jpg"), key=lambda p: p.name)
        chosen += files[:count] if count else files
    return chosen


def _readings(path: Path) -> dict[str, list[dict]]:
    out = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            reading = json.loads(line)
            out[Path(reading["path"]).parent.parent.name + "/" + Path(reading["path"]).name] = reading["dice"]
    return out


def compare(x86: dict, arm: dict) -> tuple[list[str], dict]:
    notes, counts = [], {"photos": len(x86), "identical": 0, "within_tolerance": 0, "different": 0,
                         "missing": 0, "dice": 0, "faces_differ": 0}
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
        same_shape = len(other) == len(dice) and all(
            a["face"] == b["face"] and a["box"] == b["box"] and a.get("uncertain") == b.get("uncertain")
            and abs(a["confidence"] - b["confidence"]) <= CONFIDENCE_TOLERANCE for a, b in zip(dice, other))
        if same_shape:
            counts["within_tolerance"] += 1
            worst = max(abs(a["confidence"] - b["confidence"]) for a, b in zip(dice, other))
            notes.append(f"{name}: same dice, confidence differs by at most {worst:.4f}")
            continue
        counts["different"] += 1
        counts["faces_differ"] += sum(1 for a, b in zip(dice, other) if a["face"] != b["face"]) \
            + abs(len(dice) - len(other))
        notes.append(f"{name}: x86 {json.dumps(dice)}\n{' ' * len(name)}  arm {json.dumps(other)}")
    for name in sorted(set(arm) - set(x86)):
        notes.append(f"{name}: read on aarch64 only")
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
        print("   " + ", ".join(f"{k} {v}" for k, v in counts.items()))
        return 0 if counts["different"] == counts["missing"] == 0 and counts["photos"] else 1
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
