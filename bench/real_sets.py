"""Per-set figures of a reader on the shared real photos (used by vision_accuracy.py).

Every labelled die is matched (vision.realdata.score_photo) to at most one die read: among the dice read whose box holds the
label box's centre (labels sometimes box only the top face), the nearest one not yet taken.
  read right     matched, and the face read is the label's (asked about or not)
  found          matched
  flagged        matched and marked uncertain: the table is asked (a right or a wrong face)
  silent misread matched, the wrong face, not marked uncertain: a wrong score nobody checks
  boxes on no die  dice read that match no label and whose centre lies in no label box
                   (a second box on a labelled die is counted as "doubled", not here)
CPU time is time.process_time() around reader.read (all threads of this process), per photo.
"""
from __future__ import annotations

import statistics
import time

import cv2

from vision.realdata import photos_of_part, score_photo


def _draw(path, image, reading, labels) -> None:
    """The photo with the labels (thin green: read right; red: missed or misread, with the
    label's face) and the dice read (blue, face and confidence; a flagged one is dashed-thin)."""
    image = image.copy()
    for die in reading.dice:
        cv2.rectangle(image, die.box[:2], die.box[2:], (255, 80, 0), 1 if die.uncertain else 2)
        cv2.putText(image, f"{die.face}:{die.confidence:.2f}", (die.box[0], die.box[1] - 2),
                    cv2.FONT_HERSHEY_SIMPLEX, 0.35, (255, 80, 0), 1)
    for face, box in labels:
        c = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        ok = any(d.face == face and d.box[0] <= c[0] <= d.box[2] and d.box[1] <= c[1] <= d.box[3]
                 for d in reading.dice)
        b = [int(v) for v in box]
        cv2.rectangle(image, (b[0], b[1]), (b[2], b[3]), (0, 200, 0) if ok else (0, 0, 255), 1)
        if not ok:
            cv2.putText(image, str(face), (b[0], b[3] + 10), cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 255), 1)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), image)


def score_set(reader, name: str, part: str, misses=None, root=None) -> dict | None:
    """Figures of reader on one part of a set: a split, or one fold of the train split ("train/1";
    None when the set is not on this machine); misses: a folder for each photo with a die missed or
    misread, or a box on no die, drawn; root: the folder holding the set (default: the shared sets')."""
    shots = photos_of_part(name, part, root)
    if not shots:
        return None
    total: dict = {}
    cpu = []
    for shot in shots:
        image = cv2.imread(str(shot.path), cv2.IMREAD_COLOR)
        t0 = time.process_time()
        reading = reader.read(image)
        cpu.append(1000 * (time.process_time() - t0))
        counts = score_photo(reading, shot.dice)
        for k, v in counts.items():
            total[k] = total.get(k, 0) + v
        if misses is not None and (counts["correct"] < counts["dice"] or counts["no_die"]):
            _draw(misses / name / shot.path.name, image, reading, shot.dice)
    total.update(set=name, split=part, photos=len(shots), cpu_ms=cpu_summary(cpu))
    return total


def cpu_summary(cpu_ms: list[float]) -> dict:
    """Median, p95 and max of per-photo CPU ms, rounded to 0.1: p95 is the photo at rank
    int(0.95 n) of the sorted times (of 29 photos the second slowest), as every CPU figure of
    record in models/DETECTOR_ROUNDS.md was taken."""
    cpu = sorted(cpu_ms)
    return {"median": round(statistics.median(cpu), 1), "p95": round(cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))], 1),
            "max": round(cpu[-1], 1)}


def format_set(r: dict) -> str:
    n = r["dice"]
    pct = lambda k: f"{100 * r[k] / n:.1f} %"  # noqa: E731
    t = r["cpu_ms"]
    return (f"Real {r['set']} [{r['split']}] ({r['photos']} photos, {n} dice): read right {pct('correct')} "
            f"({r['correct']}), found {pct('found')} ({r['found']}), boxes on no die {r['no_die']} "
            f"({r['no_die'] / r['photos']:.2f} per photo), doubled {r['doubled']}, flagged {r['flagged']} "
            f"({r['flagged_right']} of them right), silent misreads {r['silent_misreads']} "
            f"({100 * r['silent_misreads'] / n:.2f} %); CPU ms/photo median {t['median']} p95 {t['p95']} max {t['max']}")
