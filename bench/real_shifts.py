"""The reader on the real photos under the changes a new table brings: how far each one costs.

The shared real sets are two tables. A table the reader has never seen differs from them in ways
that can be made from their own photos, labels and all: the camera turned (mounted upside down,
a portrait phone photo), a 16:9 frame, smaller dice (a camera higher up: mosaics of 4 or 9 photos
in one frame), bigger dice (a camera lower down: the photo's middle enlarged), another light, blur,
sensor noise, strong JPEG. Each row reads the split's photos so changed and prints, per set, dice
read right, found, silent misreads, flagged and boxes on no die, as bench/real_sets.py counts them
(a die cut by a 16:9 crop or an enlarged middle, less than 90 % inside, counts neither as a die nor
as a box on no die).

    .venv/bin/python bench/real_shifts.py [--split calib] [--detector F] [--classifier F ...]

Choose on calib; test is for reporting a choice already made.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from vision.reader import DiceReader, add_face_options  # noqa: E402
from vision.realdata import SETS, SPLITS, match_labels, on_no_die, photos, score_photo  # noqa: E402

# A die less than this share inside a cut frame is neither a die to find nor a box on no die.
INSIDE = 0.9


def _moved(dice, fn):
    return tuple((face, fn(box)) for face, box in dice)


def turned_180(img, dice):
    h, w = img.shape[:2]
    return img[::-1, ::-1].copy(), _moved(dice, lambda b: (w - b[2], h - b[3], w - b[0], h - b[1])), ()


def turned_90(img, dice):
    h = img.shape[0]
    return cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE), _moved(dice, lambda b: (h - b[3], b[0], h - b[1], b[2])), ()


def _cut(dice, ox: float, oy: float, cw: float, ch: float, sx: float = 1.0, sy: float = 1.0):
    """The labels of a cw x ch cut at (ox, oy) of a photo, then scaled by sx, sy: (kept, partial), kept the dice
    at least INSIDE of them in the cut (face, box), partial the boxes of the others that show (no face)."""
    kept, partial = [], []
    for face, b in dice:
        x0, y0, x1, y1 = max(b[0] - ox, 0), max(b[1] - oy, 0), min(b[2] - ox, cw), min(b[3] - oy, ch)
        if x1 <= x0 or y1 <= y0:
            continue
        box = (x0 * sx, y0 * sy, x1 * sx, y1 * sy)
        if (x1 - x0) * (y1 - y0) >= INSIDE * (b[2] - b[0]) * (b[3] - b[1]):
            kept.append((face, box))
        else:
            partial.append(box)
    return tuple(kept), tuple(partial)


def wide(where: float):
    """A 16:9 band of the photo, from its top (0), middle (0.5) or bottom (1)."""
    def cut(img, dice):
        h, w = img.shape[:2]
        nh = round(w * 9 / 16)
        oy = int((h - nh) * where)
        return (img[oy:oy + nh].copy(), *_cut(dice, 0, oy, w, nh))
    return cut


def closer(zoom: float):
    """The photo's middle 1/zoom enlarged to the photo's size: dice zoom times bigger, as a camera zoom
    times lower sees them (softer than a real close camera: the pixels are enlarged, not resolved)."""
    def enlarge(img, dice):
        h, w = img.shape[:2]
        ch, cw = round(h / zoom), round(w / zoom)
        oy, ox = (h - ch) // 2, (w - cw) // 2
        big = cv2.resize(img[oy:oy + ch, ox:ox + cw], (w, h), interpolation=cv2.INTER_LINEAR)
        return (big, *_cut(dice, ox, oy, cw, ch, w / cw, h / ch))
    return enlarge


def light(gains):
    """Each BGR channel times its gain: a warmer or cooler lamp."""
    g = np.array(gains, np.float32)
    return lambda img, dice: (np.clip(img * g, 0, 255).astype(np.uint8), dice, ())


def tone(gamma: float, gain: float = 1.0):
    return lambda img, dice: (np.clip(255 * gain * (img / 255.0) ** gamma, 0, 255).astype(np.uint8), dice, ())


def blur(sigma: float):
    return lambda img, dice: (cv2.GaussianBlur(img, (0, 0), sigma), dice, ())


def noise(sigma: float):
    rng = np.random.default_rng(0)
    return lambda img, dice: (np.clip(img + rng.normal(0, sigma, img.shape), 0, 255).astype(np.uint8), dice, ())


def jpeg(quality: int):
    def squeeze(img, dice):
        ok, data = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])
        return cv2.imdecode(data, cv2.IMREAD_COLOR), dice, ()
    return squeeze


def changes() -> dict:
    """The changes by name, made afresh: the noise's generator starts again at its seed, so that
    two readers measured in one process (bench/detector_rule.py) read the same noisy photos."""
    return {
        "as taken": lambda img, dice: (img, dice, ()),
        "turned 180 (camera upside down)": turned_180,
        "turned 90 (portrait)": turned_90,
        "16:9, top band": wide(0.0),
        "16:9, middle band": wide(0.5),
        "16:9, bottom band": wide(1.0),
        "warm lamp (B x0.65, G x0.9, R x1.1)": light((0.65, 0.9, 1.1)),
        "cool light (B x1.1, R x0.7)": light((1.1, 1.0, 0.7)),
        "dim (gamma 1.8, x0.8)": tone(1.8, 0.8),
        "bright (gamma 0.6)": tone(0.6),
        "blur (sigma 1.5)": blur(1.5),
        "noise (sigma 10)": noise(10),
        "JPEG quality 25": jpeg(25),
        "dice at 1.5x size (the middle enlarged)": closer(1.5),
        "dice at 2x size (the middle enlarged)": closer(2.0),
    }


SHIFTS = changes()
MOSAICS = {"dice at 1/2 size (mosaics of 4 photos)": 2, "dice at 1/3 size (mosaics of 9 photos)": 3}


def mosaics(shots, k: int):
    """Frames of k x k photos each shrunk to 1/k, with their labels: dice 1/k the size, as seen by a
    camera k times higher (photos in name order, k * k to a frame; a short last group is left out)."""
    for i in range(0, len(shots) - k * k + 1, k * k):
        group = shots[i:i + k * k]
        images = [cv2.imread(str(shot.path), cv2.IMREAD_COLOR) for shot in group]
        h, w = images[0].shape[:2]
        th, tw = h // k, w // k
        canvas = np.zeros((th * k, tw * k, 3), np.uint8)
        dice = []
        for j, (shot, img) in enumerate(zip(group, images)):
            sy, sx = th / img.shape[0], tw / img.shape[1]
            oy, ox = (j // k) * th, (j % k) * tw
            canvas[oy:oy + th, ox:ox + tw] = cv2.resize(img, (tw, th), interpolation=cv2.INTER_AREA)
            dice += [(face, (b[0] * sx + ox, b[1] * sy + oy, b[2] * sx + ox, b[3] * sy + oy)) for face, b in shot.dice]
        yield canvas, tuple(dice), ()


def count(reading, dice, partial) -> dict:
    counts = score_photo(reading, dice)
    if partial:
        _, spare = match_labels(reading, dice)
        centre = lambda d: ((d.box[0] + d.box[2]) / 2, (d.box[1] + d.box[3]) / 2)  # noqa: E731
        inside = lambda p, b: b[0] <= p[0] <= b[2] and b[1] <= p[1] <= b[3]  # noqa: E731
        counts["no_die"] = sum(on_no_die(d, dice) and not any(inside(centre(d), b) for b in partial)
                               for d in spare)
    return counts


def frames(name: str, split: str, shift: str, made: dict | None = None):
    """The split's photos of set name so changed (made: a changes() of the caller's, else SHIFTS)."""
    shots = photos(name, split)
    if shift in MOSAICS:
        yield from mosaics(shots, MOSAICS[shift])
        return
    for shot in shots:
        yield (made or SHIFTS)[shift](cv2.imread(str(shot.path), cv2.IMREAD_COLOR), shot.dice)


def measure(reader, split: str, shifts=None) -> dict:
    """{shift: {set: counts}} for every shift (default: all) on every real set on this machine."""
    out = {}
    made = changes()
    for shift in shifts or [*SHIFTS, *MOSAICS]:
        out[shift] = {}
        for name in SETS:
            total: dict = {}
            for image, dice, partial in frames(name, split, shift, made):
                for k, v in count(reader.read(image), dice, partial).items():
                    total[k] = total.get(k, 0) + v
            if total:
                out[shift][name] = total
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="calib", choices=[s for s in SPLITS if s != "all"])
    parser.add_argument("--detector", type=Path, help="the dice detector (default models/dice_detector.tflite)")
    add_face_options(parser)
    args = parser.parse_args()
    reader = DiceReader(detector_path=args.detector, keep_crops=False, model_path=args.classifier,
                        views=args.views, second_look=args.second_look)
    results = measure(reader, args.split)
    if not any(results.values()):
        print("No shared real set on this machine.")
        return 0
    print(f"The reader on the {args.split} split's real photos, changed as a new table would change them")
    print("(per set: read right / dice, found, silent misreads, flagged, boxes on no die)")
    for shift, sets in results.items():
        cells = [f"{name}: {t['correct']}/{t['dice']}, found {t['found']}, silent {t['silent_misreads']}, "
                 f"flagged {t['flagged']}, no die {t['no_die']}" for name, t in sets.items()]
        print(f"  {shift:40s} " + " | ".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
