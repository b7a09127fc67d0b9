"""Centerville's dice over a game (issue 15): how often the camera asks as the table teaches it.

The table teaches each face once at set-up (bench/icon_dice.py's set-up trays), then the six dice
are rolled and read READINGS times (rendered trays under a random lamp, read whole by
vision.taught.TaughtReader). After each reading the players' answers teach the camera by the app's
own rule (companion.table.centerville_camera.lessons): every die it asked about or misread is
taught with its picture and the face it showed; dice read surely and let stand teach nothing;
dice it did not find are entered by hand and teach nothing. Every read die is also kept as a
checked read (companion.table.centerville_camera.checked), by which the table earns a looser
asking pair (vision.earned) as the app's table does. Printed per stretch of readings: read right,
asked, silent misreads (wrong and not asked), the examples taught so far and the pair asked by at
the stretch's end. Fixed seeds.

Then each shared real pip set (../shared/data/real-dice) as one table's stream: its train and
calib photos in name order (never test), each die's pip face an unknown icon, cut around its
label box. Nothing is taught first: a die showing a face not yet taught is asked and taught, as
is every die asked or misread, and every read the pair decided is kept as a checked read; the
pair is earned again after each die. The same stream read with the model's pair only is the
comparison. Real photos are where a looser pair could let misreads through unseen on renders.

    .venv/bin/python bench/icon_dice_play.py [--readings 240] [--stream 6]
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))

from icon_dice import SEED, pct, read_die, taught_at_setup, teach_read  # noqa: E402
from companion.table.centerville_camera import checked, lessons  # noqa: E402
from vision.synth.centerville import render_centerville_tray  # noqa: E402
from vision.taught import Embedder  # noqa: E402

# Readings: a turn rolls up to three times. A looser pair needs about 600 checked reads (100
# readings) with none wrong, so the last two stretches show what a table earns in a game or two.
STRETCHES = ((0, 6), (6, 18), (18, 36), (36, 60), (60, 120), (120, 240))
STREAM = 6  # the trays' seed stream [SEED, STREAM, i]


def play(embedder: Embedder, readings: int, root: Path, stream: int = STREAM) -> tuple[int, list[dict]]:
    """The examples taught at set-up, and per reading: dice, found, right, asked, silent, taught
    (examples added after it), step (the looser pair's step asked by after it)."""
    reader = taught_at_setup(embedder, 1, root, keep_crops=True)
    setup = sum(reader.examples.counts().values())
    out = []
    for i in range(readings):
        scene = render_centerville_tray(np.random.default_rng([SEED, stream, i]))
        reading = reader.read(scene.image)
        row = dict(dice=len(scene.dice), found=0, right=0, asked=0, silent=0, taught=0)
        read, entered = {}, {}
        for k, d in enumerate(scene.dice):
            entered[k] = d.label  # the players enter every die's face
            r = read_die(reading, d)
            if r is None:
                continue
            read[k] = r
            ok = r.label == d.label
            row["found"] += 1
            row["right"] += ok
            row["asked"] += r.uncertain
            row["silent"] += (not ok) and not r.uncertain
        taught = lessons(read, entered)  # what the app teaches once the roll is entered
        for label, crop in taught:
            teach_read(reader, label, crop)
        reader.examples.checked.add(checked(read, entered))
        row["taught"] = len(taught)
        row["step"] = reader.earned.step
        out.append(row)
    return setup, out


def real_table(embedder: Embedder, name: str, earn: bool = True, splits=("train", "calib")) -> dict | None:
    """One real set's photos of splits as one table's stream (see the module doc); None when the
    set is not on this machine. Per die read: whether asked, right, silent, and the step asked by."""
    import cv2

    from vision.crops import die_crop
    from vision.earned import CheckedRead, earned_pair
    from vision.realdata import photos
    from vision.taught import Thresholds, die_vectors, example_vectors, face_scores, judge

    shots = sorted((s for split in splits for s in photos(name, split)), key=lambda s: s.path.name)
    if not shots:
        return None
    faces, crops = [], []
    for shot in shots:
        img = cv2.imread(str(shot.path), cv2.IMREAD_COLOR)
        for face, box in shot.dice:
            faces.append(f"icon{face}")
            crops.append(die_crop(img, box, embedder.size))
    turned = np.concatenate([embedder.turned(np.stack(crops[i:i + 16])) for i in range(0, len(crops), 16)])
    base = Thresholds.of(embedder.meta)
    bank: dict[str, np.ndarray] = {}
    records: list = []
    th, step = base, 0
    rows = []
    for face, views in zip(faces, turned):
        scores = face_scores(die_vectors(views[None], embedder.views)[0], bank, list(bank))
        label, _, reason = judge(scores, th)
        untaught = len(bank) < 6
        asked = bool(reason) or untaught
        right = label == face
        rows.append({"asked": asked, "right": right, "silent": not right and not asked, "step": step})
        if asked or not right:
            example = example_vectors(views[None], embedder.views)
            bank[face] = np.concatenate([bank[face], example]) if face in bank else example
        if not untaught and len(scores) > 1:
            records.append(CheckedRead(scores[0][1], scores[0][1] - scores[1][1], right))
        if earn:
            got = earned_pair(records, base.far_below, base.close_below)
            th, step = Thresholds(got.far_below, got.close_below, base.scale), got.step
    return {"rows": rows, "photos": len(shots)}


def _real_line(name: str, earn: bool, got: dict) -> str:
    rows = got["rows"]
    n = len(rows)
    earned_at = next((i for i, r in enumerate(rows) if r["step"]), None)
    after = rows[earned_at:] if earned_at is not None else []
    tail = (f"; a looser pair from die {earned_at + 1} (step {rows[-1]['step']} at the end): after it asked "
            f"{pct(sum(r['asked'] for r in after) / len(after))}, silent {sum(r['silent'] for r in after)} of "
            f"{len(after)}" if after else ("; no looser pair earned" if earn else ""))
    return (f"  {name}, {'earning' if earn else 'model pair only'}: {n} dice in {got['photos']} photos, read "
            f"right {pct(sum(r['right'] for r in rows) / n)}, asked {pct(sum(r['asked'] for r in rows) / n)}, "
            f"silent misreads {sum(r['silent'] for r in rows)} ({pct(sum(r['silent'] for r in rows) / n)}){tail}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--readings", type=int, default=STRETCHES[-1][1])
    p.add_argument("--stream", type=int, default=STREAM, help="the trays' seed stream [1515, STREAM, i]")
    p.add_argument("--work", type=Path, default=Path("build") / "bench-icon-dice-play")
    args = p.parse_args(argv)
    setup, rows = play(Embedder(), args.readings, args.work, args.stream)
    print(f"Centerville's six dice over {args.readings} readings, 1 picture of each of the {setup} faces taught "
          "at set-up, then the asked and misread dice taught after each reading:")
    taught = setup
    for first, last in [s for s in STRETCHES if s[0] < args.readings]:
        part = rows[first:min(last, args.readings)]
        n = sum(r["dice"] for r in part)
        taught += sum(r["taught"] for r in part)
        print(f"  readings {first + 1:>2}-{first + len(part):<2}  read right {pct(sum(r['right'] for r in part) / n):>8}"
              f"  asked {pct(sum(r['asked'] for r in part) / n):>8}  silent misreads "
              f"{pct(sum(r['silent'] for r in part) / n):>6}  found {pct(sum(r['found'] for r in part) / n):>8}"
              f"  dice {n}  examples by then {taught}  pair step {part[-1]['step']}")
    from vision.realdata import SETS
    print("Real pip photos as one table's stream (train and calib splits in name order; pips as six unknown icons):")
    embedder = Embedder()
    for name in SETS:
        for earn in (False, True):
            got = real_table(embedder, name, earn)
            print(f"  {name}: not on this machine" if got is None else _real_line(name, earn, got))
            if got is None:
                break
    return 0


if __name__ == "__main__":
    sys.exit(main())
