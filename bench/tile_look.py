"""An experiment, not the reader (DETECTOR_ROUNDS, session 29): does a closer look at the frame's
four quarters find the small dice the detector misses, and what does it cost in boxes on no die?

The detector reads a frame shrunk to 320x240, where a die of a camera far up (or a crowd of small
dice) is a few pixels across, smaller than most of its training dice. TiledModel also reads the
four overlapping quarters of the frame (each QUARTER of its width and height, shrunk to the same
320x240, so twice the pixels per die) and adds each quarter's detections whose middle lies in no
box found so far and whose box keeps clear of the quarter's inner edges (a die cut by them is
found whole by the quarter beside it, or by the whole frame). Read through vision.reader.DiceReader
with the shipped classifier and thresholds, on the real split (calib by default) as taken and as
bench/real_shifts.py's mosaics of 4 and 9 photos (dice at 1/2 and 1/3 of their size).

    .venv/bin/python bench/tile_look.py [--split calib]
"""
from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from vision.realdata import score_frame  # noqa: E402
from vision.shifts import frames  # noqa: E402
from vision.model import DiceModel, fitted_size  # noqa: E402
from vision.synth.wild import EDGE_MIN  # noqa: E402
from vision.reader import DiceReader  # noqa: E402
from vision.realdata import SETS  # noqa: E402

QUARTER = 0.6    # a quarter's side as a share of the frame's: 0.6 overlaps the middle by 0.2
CLEAR = 0.02     # how far (share of the frame) a quarter's box must keep from its inner edges


# Round 13's gate: the quarters are read when the median die the whole frame found is under this
# many pixels on the detector's input (twice the smallest die its training trays draw).
SMALL_BELOW = 2 * EDGE_MIN


def _holds(box, x: float, y: float, grow: float = 0.0) -> bool:
    """(x, y) lies in box grown by grow times its width and height on each side (round 13b)."""
    gx, gy = grow * (box[2] - box[0]), grow * (box[3] - box[1])
    return box[0] - gx <= x <= box[2] + gx and box[1] - gy <= y <= box[3] + gy


class TiledModel(DiceModel):
    """below: look at the quarters only when the whole frame's median box side (square root of its
    area, in the detector's input pixels) is under it, and never when it found nothing; None: always."""

    def __init__(self, *args, below: float | None = None, gate: str = "median", grow: float = 0.0, **kwargs):
        super().__init__(*args, **kwargs)
        self.below, self.gate, self.grow = below, gate, grow

    def small(self, frame_bgr, dets) -> bool:
        """Round 13 (gate "median"): the median die found is small; round 13b ("any"): any one is."""
        if self.below is None:
            return True
        if not dets:
            return False
        h, w = frame_bgr.shape[:2]
        scale = self.input_w / fitted_size(w, h, self.input_w / self.input_h)[0]
        sides = sorted(((d.box[2] - d.box[0]) * (d.box[3] - d.box[1])) ** 0.5 * scale for d in dets)
        return (sides[0] if self.gate == "any" else sides[len(sides) // 2]) < self.below

    def detect(self, frame_bgr, find_from=None, plain=None):
        dets = super().detect(frame_bgr, find_from, plain)
        if not self.small(frame_bgr, dets):
            return dets
        h, w = frame_bgr.shape[:2]
        qw, qh = int(w * QUARTER), int(h * QUARTER)
        for x0, y0 in ((0, 0), (w - qw, 0), (0, h - qh), (w - qw, h - qh)):
            inner = (x0 > 0, y0 > 0, x0 + qw < w, y0 + qh < h)  # which of the quarter's edges lie inside the frame
            for d in super().detect(frame_bgr[y0:y0 + qh, x0:x0 + qw], find_from):
                bx0, by0, bx1, by1 = d.box
                if ((inner[0] and bx0 < CLEAR * w) or (inner[1] and by0 < CLEAR * h)
                        or (inner[2] and bx1 > qw - CLEAR * w) or (inner[3] and by1 > qh - CLEAR * h)):
                    continue
                box = (bx0 + x0, by0 + y0, bx1 + x0, by1 + y0)
                cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
                if any(_holds(o.box, cx, cy, self.grow) for o in dets):
                    continue
                dets.append(replace(d, box=box))
        return dets


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="calib")
    args = parser.parse_args()
    readers = {"whole frame": DiceReader(keep_crops=False),
               "and its quarters": DiceReader(detector=TiledModel(), keep_crops=False),
               "quarters if small": DiceReader(detector=TiledModel(below=SMALL_BELOW), keep_crops=False),
               "Q2 (13b)": DiceReader(detector=TiledModel(below=SMALL_BELOW, gate="any", grow=0.25),
                                      keep_crops=False)}
    for shift, label in (("as taken", "as taken"), ("dice at 1/2 size (mosaics of 4 photos)", "dice at 1/2"),
                         ("dice at 1/3 size (mosaics of 9 photos)", "dice at 1/3")):
        for name, reader in readers.items():
            total, cpu = {}, []
            for set_name in SETS:
                for image, dice, partial in frames(set_name, args.split, shift):
                    t0 = time.process_time()
                    reading = reader.read(image)
                    cpu.append(1000 * (time.process_time() - t0))
                    for k, v in score_frame(reading, dice, partial).items():
                        total[k] = total.get(k, 0) + v
            cpu.sort()
            print(f"{args.split} {label:11} {name:17} dice {total['dice']}: read right {total['correct']}, found "
                  f"{total['found']}, silent misreads {total['silent_misreads']}, flagged {total['flagged']}, "
                  f"boxes on no die {total['no_die']}; CPU ms median {cpu[len(cpu) // 2]:.1f} p95 "
                  f"{cpu[min(len(cpu) - 1, int(0.95 * len(cpu)))]:.1f} max {cpu[-1]:.1f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
