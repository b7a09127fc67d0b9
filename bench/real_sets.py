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

from vision.realdata import photos, score_photo


def score_set(reader, name: str, split: str) -> dict | None:
    """Figures of reader on one set and split (None when the set is not on this machine)."""
    shots = photos(name, split)
    if not shots:
        return None
    total: dict = {}
    cpu = []
    for shot in shots:
        image = cv2.imread(str(shot.path), cv2.IMREAD_COLOR)
        t0 = time.process_time()
        reading = reader.read(image)
        cpu.append(1000 * (time.process_time() - t0))
        for k, v in score_photo(reading, shot.dice).items():
            total[k] = total.get(k, 0) + v
    cpu.sort()
    total.update(set=name, split=split, photos=len(shots),
                 cpu_ms={"median": round(statistics.median(cpu), 1),
                         "p95": round(cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))], 1), "max": round(cpu[-1], 1)})
    return total


def format_set(r: dict) -> str:
    n = r["dice"]
    pct = lambda k: f"{100 * r[k] / n:.1f} %"  # noqa: E731
    t = r["cpu_ms"]
    return (f"Real {r['set']} [{r['split']}] ({r['photos']} photos, {n} dice): read right {pct('correct')} "
            f"({r['correct']}), found {pct('found')} ({r['found']}), boxes on no die {r['no_die']} "
            f"({r['no_die'] / r['photos']:.2f} per photo), doubled {r['doubled']}, flagged {r['flagged']} "
            f"({r['flagged_right']} of them right), silent misreads {r['silent_misreads']} "
            f"({100 * r['silent_misreads'] / n:.2f} %); CPU ms/photo median {t['median']} p95 {t['p95']} max {t['max']}")
