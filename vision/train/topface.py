"""python -m vision.train.topface: round 16's top-face locator and top-face classifier.

    locator     48 px die crop -> the top face's box in it (cx, cy, w, h, 0..1), trained on renders
                (ordinary, steep, steep any way: vision.train.topdata) and tilted-webcam TRAIN
                photos (the shipped detector's box on a die gives the crop, the label the top face)
    classifier  48 px top-face crop (vision.crops.die_crop around the top face at TOP_MARGIN) ->
                pip1..pip6 / none; continued from A's network (models/dice_faces.keras) on renders'
                top-face crops and real TRAIN crops (tilted-webcam: the label box is the top face;
                aws-workshop-dice: the locator's top face inside the label's die crop)

Only the train split of the real sets is ever learned from; calib is read for diagnostics only
(the locator's IoU), never trained on.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from ..crops import CROP_MARGIN, INPUT_SIZE, die_crop
from ..realdata import photos
from ..synth.topface import TOP_MARGIN
from ..topface import Locator, box_in_crop
from .realcrops import _no_die_boxes, jitter_box
from .topdata import NONE_INDEX, top_set

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path("/work/main/build/top-cache") if Path("/work/main/build").is_dir() else ROOT / "build" / "top-cache"
OUT = ROOT / "models" / "candidates" / "top-face"
LABELS = ["pip1", "pip2", "pip3", "pip4", "pip5", "pip6", "none"]


def iou(a, b) -> float:
    """IoU of two boxes (x0, y0, x1, y1)."""
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def norm_iou(p, t) -> np.ndarray:
    """IoU per row of normalised (cx, cy, w, h) boxes."""
    def corners(b):
        return np.stack([b[:, 0] - b[:, 2] / 2, b[:, 1] - b[:, 3] / 2, b[:, 0] + b[:, 2] / 2, b[:, 1] + b[:, 3] / 2], 1)
    a, b = corners(np.asarray(p, np.float64)), corners(np.asarray(t, np.float64))
    iw = np.clip(np.minimum(a[:, 2], b[:, 2]) - np.maximum(a[:, 0], b[:, 0]), 0, None)
    ih = np.clip(np.minimum(a[:, 3], b[:, 3]) - np.maximum(a[:, 1], b[:, 1]), 0, None)
    inter = iw * ih
    union = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1]) + (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1]) - inter
    return inter / np.maximum(union, 1e-9)


def detected_top_faces(split: str, detector=None):
    """tilted-webcam photos of split: [(image, detector box, label top-face box, face)] for each label
    whose centre a detection of the shipped detector holds (the nearest such), and the count missed."""
    from ..model import DiceModel
    from ..realdata import match_labels
    from types import SimpleNamespace
    model = detector or DiceModel()
    out, missed = [], 0
    for shot in photos("tilted-webcam", split):
        image = cv2.imread(str(shot.path), cv2.IMREAD_COLOR)
        dets = model.detect(image)
        reading = SimpleNamespace(dice=[SimpleNamespace(box=d.box) for d in dets])
        pairs, _ = match_labels(reading, shot.dice)
        for face, box, die in pairs:
            if die is None:
                missed += 1
            else:
                out.append((image, tuple(float(v) for v in die.box), tuple(float(v) for v in box), face))
    return out, missed


def real_locator_crops(copies: int, seed: int, log=print):
    """tilted-webcam TRAIN: die crops from the detector's matched box (jittered after the first copy)
    and the label's top face in them."""
    if copies <= 0:
        return np.zeros((0, INPUT_SIZE, INPUT_SIZE, 3), np.uint8), np.zeros((0, 4), np.float32)
    rng = np.random.default_rng(seed)
    found, missed = detected_top_faces("train")
    xs, bs = [], []
    for image, det, top, _face in found:
        for c in range(copies):
            box = det if c == 0 else jitter_box(rng, det, shift=0.05, scale=(0.9, 1.15))
            xs.append(die_crop(image, box))
            bs.append(box_in_crop(top, box))
    log(f"  real locator crops: {len(found)} tilted-webcam train dice x {copies} ({missed} not found by the detector)")
    return np.stack(xs), np.stack(bs).astype(np.float32)


def build_locator(width: int = 24):
    import tensorflow as tf
    L = tf.keras.layers

    def conv(x, filters):
        x = L.Conv2D(filters, 3, padding="same", use_bias=False)(x)
        x = L.BatchNormalization()(x)
        return L.ReLU()(x)

    inp = tf.keras.Input((INPUT_SIZE, INPUT_SIZE, 3), name="crop")
    x = L.Rescaling(1.0 / 255.0)(inp)
    x = conv(x, width // 2)
    x = L.MaxPooling2D()(x)
    x = conv(conv(x, width), width)
    x = L.MaxPooling2D()(x)
    x = conv(conv(x, width * 2), width * 2)
    x = L.MaxPooling2D()(x)
    x = conv(conv(x, width * 3), width * 3)
    # Where the top face lies is a spatial answer: keep the 6x6 layout, not only its average.
    x = L.Conv2D(16, 1, activation="relu")(x)
    x = L.Flatten()(x)
    x = L.Dense(32, activation="relu")(x)
    out = L.Dense(4, activation="sigmoid", name="top_box")(x)
    return tf.keras.Model(inp, out)


def _locator_augment(x, b):
    import tensorflow as tf
    flip = tf.random.uniform([]) < 0.5
    x = tf.cond(flip, lambda: tf.image.flip_left_right(x), lambda: x)
    b = tf.cond(flip, lambda: tf.stack([1.0 - b[0], b[1], b[2], b[3]]), lambda: b)
    pad = 3
    dx = tf.random.uniform([], 0, 2 * pad + 1, dtype=tf.int32)
    dy = tf.random.uniform([], 0, 2 * pad + 1, dtype=tf.int32)
    x = tf.pad(x, [[pad, pad], [pad, pad], [0, 0]], mode="REFLECT")[dy:dy + INPUT_SIZE, dx:dx + INPUT_SIZE]
    b = b + tf.stack([tf.cast(pad - dx, tf.float32), tf.cast(pad - dy, tf.float32), 0.0, 0.0]) / INPUT_SIZE
    x = tf.cast(x, tf.float32)
    x = x * tf.random.uniform([], 0.8, 1.2) + tf.random.uniform([], -20.0, 20.0)
    return tf.clip_by_value(x, 0.0, 255.0), b


def _fit(model, ds_train, x_val, y_val, epochs, steps_per_epoch, loss, metrics, peak_lr, log):
    import tensorflow as tf
    steps = epochs * steps_per_epoch
    lr = tf.keras.optimizers.schedules.CosineDecay(0.0, steps, alpha=0.02, warmup_target=peak_lr,
                                                   warmup_steps=max(1, steps // 20))
    model.compile(optimizer=tf.keras.optimizers.Adam(lr), loss=loss, metrics=metrics)
    start = time.monotonic()

    class Progress(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            logs = logs or {}
            log(f"  epoch {epoch + 1}/{epochs}: " + " ".join(f"{k} {v:.4f}" for k, v in logs.items())
                + f" ({time.monotonic() - start:.0f} s)")

    model.fit(ds_train, epochs=epochs, validation_data=(x_val, y_val), verbose=0, callbacks=[Progress()])
    return time.monotonic() - start


def convert(model, quantize: str, rep) -> bytes:
    from .model import to_tflite
    return to_tflite(model, quantize, rep)


def locator_diagnostics(path: Path, log=print, sets: dict | None = None) -> dict:
    """Mean IoU of the locator's box with the truth: held-out renders (ordinary, steep) and
    tilted-webcam calib (the shipped detector's matched box gives the crop; the label is the top face)."""
    loc = Locator(path, num_threads=2)
    out = {}
    for kind in ("ordinary", "steep"):
        s = sets[kind] if sets else top_set(kind, True, 1400, cache=CACHE, log=lambda *_: None)
        keep = ~np.isnan(s["box"][:, 0])
        p = loc.boxes(s["x"][keep])
        v = norm_iou(p, s["box"][keep])
        out[f"held-out renders {kind}"] = {"dice": int(keep.sum()), "mean_iou": round(float(v.mean()), 4),
                                            "iou_ge_0.5": int((v >= 0.5).sum())}
    found, missed = detected_top_faces("calib")
    ious = []
    for image, det, top, _face in found:
        pred = loc.top_boxes(image, [det])[0]
        ious.append(iou(pred, top))
    ious = np.array(ious)
    out["tilted-webcam calib"] = {"dice": len(found) + missed, "matched": len(found),
                                  "mean_iou": round(float(ious.mean()), 4), "iou_ge_0.5": int((ious >= 0.5).sum()),
                                  "median_iou": round(float(np.median(ious)), 4)}
    # The detector's own box as the top face (the baseline a locator must beat).
    base = np.array([iou(det, top) for _i, det, top, _f in found])
    out["tilted-webcam calib, detector box as is"] = {"mean_iou": round(float(base.mean()), 4),
                                                      "iou_ge_0.5": int((base >= 0.5).sum())}
    for k, v in out.items():
        log(f"  {k}: {v}")
    return out


def train_locator(args, log) -> int:
    import tensorflow as tf
    tf.config.threading.set_intra_op_parallelism_threads(args.threads)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    started = time.monotonic()
    parts = [top_set(k, False, n, args.seed, args.threads, CACHE, log)
             for k, n in (("ordinary", args.ordinary), ("steep", args.steep), ("any", args.any_way)) if n > 0]
    xs = [p["x"][~np.isnan(p["box"][:, 0])] for p in parts]
    bs = [p["box"][~np.isnan(p["box"][:, 0])] for p in parts]
    rx, rb = real_locator_crops(args.real_copies, args.seed, log)
    x, b = np.concatenate(xs + [rx]), np.concatenate(bs + [rb]).astype(np.float32)
    held = {k: top_set(k, True, 1400, args.seed, args.threads, CACHE, log) for k in ("ordinary", "steep")}
    xv = np.concatenate([h["x"][~np.isnan(h["box"][:, 0])] for h in held.values()]).astype(np.float32)
    bv = np.concatenate([h["box"][~np.isnan(h["box"][:, 0])] for h in held.values()])
    log(f"Locator: {len(x)} training crops ({len(rx)} real), {len(xv)} held out")
    tf.keras.utils.set_random_seed(args.seed)
    model = build_locator(args.width)
    log(f"  {model.count_params()} parameters")
    ds = (tf.data.Dataset.from_tensor_slices((x, b)).shuffle(len(x), seed=args.seed)
          .map(_locator_augment, num_parallel_calls=1).batch(args.batch).prefetch(2))
    secs = _fit(model, ds, xv, bv, args.epochs, int(np.ceil(len(x) / args.batch)), tf.keras.losses.Huber(delta=0.1),
                ["mae"], args.lr, log)
    args.out.mkdir(parents=True, exist_ok=True)
    keras_path = CACHE / "top_locator.keras"
    model.save(keras_path)
    path = args.out / "top_locator.tflite"
    path.write_bytes(convert(model, "float16", x[:200]))
    log(f"Wrote {path} ({path.stat().st_size} bytes, float16); training {secs:.0f} s, all {time.monotonic() - started:.0f} s")
    locator_diagnostics(path, log, held)
    return 0


def real_top_crops(locator_path: Path, copies: int, none_per_photo: int, seed: int, log=print):
    """Top-face crops of the real TRAIN split, the top face found by the locator as the reader finds
    it: inside the die crop of aws-workshop-dice's label box (the whole die), and of the shipped
    detector's box on each tilted-webcam die (its label boxes the top face's pips only, tighter
    than the face the locator learned from renders). Each jittered (after the first copy) as a
    locator's box; plus boxes on no die cut about a top face's size."""
    from ..model import DiceModel
    from ..realdata import match_labels
    from types import SimpleNamespace
    from ..synth.topface import jitter_top
    rng = np.random.default_rng(seed)
    loc = Locator(locator_path, num_threads=2)
    detector = DiceModel()
    xs, ys = [], []
    counts = {}
    for name in ("tilted-webcam", "aws-workshop-dice"):
        for shot in photos(name, "train"):
            image = cv2.imread(str(shot.path), cv2.IMREAD_COLOR)
            if image is None or not shot.dice:
                continue
            labels = [tuple(float(v) for v in b) for _f, b in shot.dice]
            if name == "tilted-webcam":
                reading = SimpleNamespace(dice=[SimpleNamespace(box=d.box) for d in detector.detect(image)])
                pairs, _ = match_labels(reading, shot.dice)
                dice = [(face, tuple(float(v) for v in die.box)) for face, _b, die in pairs if die is not None]
            else:
                dice = [(face, b) for (face, _), b in zip(shot.dice, labels)]
            tops = loc.top_boxes(image, [b for _f, b in dice])
            for (face, _b), top in zip(dice, tops):
                counts[name] = counts.get(name, 0) + 1
                for c in range(copies):
                    xs.append(die_crop(image, top if c == 0 else jitter_top(rng, top), INPUT_SIZE, TOP_MARGIN))
                    ys.append(face - 1)
            # Boxes on no die only around whole-die labels: beside tilted-webcam's pip boxes lies the die's body.
            for box in (_no_die_boxes(rng, image.shape, labels, none_per_photo) if name != "tilted-webcam" else []):
                xs.append(die_crop(image, box, INPUT_SIZE, float(rng.uniform(0.6, 0.95))))
                ys.append(NONE_INDEX)
    log(f"  real top-face crops: {counts} dice x {copies}, {len(ys) - sum(counts.values()) * copies} boxes on no die")
    return np.stack(xs), np.asarray(ys, np.int64)


def real_none_through_locator(locator_path: Path, copies: int, per_photo: int, seed: int, log=print):
    """NOT_A_DIE top-face crops of the real TRAIN split cut as the reader cuts them (a box -> its
    die crop -> the locator's top face -> a crop around it): the shipped detector's own boxes on no
    die (vision.realdata.on_no_die; a plug, a big die's side face), jittered after the first copy,
    and aws-workshop-dice's boxes beside and between its whole-die labels."""
    from ..model import DiceModel
    from ..realdata import on_no_die
    from types import SimpleNamespace
    rng = np.random.default_rng(seed + 1)
    loc = Locator(locator_path, num_threads=2)
    detector = DiceModel()
    xs, found, drawn = [], 0, 0
    for name in ("tilted-webcam", "aws-workshop-dice"):
        for shot in photos(name, "train"):
            image = cv2.imread(str(shot.path), cv2.IMREAD_COLOR)
            if image is None or not shot.dice:
                continue
            wrong = [d.box for d in detector.detect(image) if on_no_die(SimpleNamespace(box=d.box), shot.dice)]
            found += len(wrong)
            boxes = [b if c == 0 else jitter_box(rng, b) for b in wrong for c in range(copies)]
            if name != "tilted-webcam":
                extra = _no_die_boxes(rng, image.shape, [tuple(float(v) for v in b) for _f, b in shot.dice], per_photo)
                drawn += len(extra)
                boxes += extra
            h, w = image.shape[:2]
            boxes = [b for b in boxes if b[2] > 0 and b[3] > 0 and b[0] < w and b[1] < h]
            for top in loc.top_boxes(image, boxes):
                xs.append(die_crop(image, top, INPUT_SIZE, TOP_MARGIN))
    log(f"  real NOT_A_DIE through the locator: {found} detector boxes on no die x {copies}, {drawn} drawn boxes")
    return np.stack(xs)


def train_classifier(args, log) -> int:
    import tensorflow as tf
    from . import model as net
    from ..classify import FaceClassifier, write_crop_convention
    tf.config.threading.set_intra_op_parallelism_threads(args.threads)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    started = time.monotonic()
    parts = [top_set(k, False, n, args.seed, args.threads, CACHE, log)
             for k, n in (("ordinary", args.ordinary), ("steep", args.steep), ("any", args.any_way)) if n > 0]
    rx, ry = real_top_crops(args.locator, args.real_copies, args.real_none, args.seed, log)
    x = np.concatenate([p["t"] for p in parts] + [rx])
    y = np.concatenate([p["y"] for p in parts] + [ry])
    if args.none_through_locator > 0:
        from .topdata import none_set
        shares = {"ordinary": args.ordinary, "steep": args.steep, "any": args.any_way}
        total = sum(shares.values())
        extra = [none_set(k, int(round(args.none_through_locator * n / total)), args.locator, args.seed,
                          args.threads, CACHE, log) for k, n in shares.items() if n > 0]
        extra.append(real_none_through_locator(args.locator, args.real_copies // 2, args.real_none, args.seed, log))
        extra = np.concatenate(extra)
        x, y = np.concatenate([x, extra]), np.concatenate([y, np.full(len(extra), NONE_INDEX, np.int64)])
    held = {k: top_set(k, True, 1400, args.seed, args.threads, CACHE, log) for k in ("ordinary", "steep")}
    xv = np.concatenate([h["t"] for h in held.values()])
    yv = np.concatenate([h["y"] for h in held.values()])
    log(f"Top-face classifier: {len(x)} training crops ({len(rx)} real), {len(xv)} held out")
    if args.resume:
        model = tf.keras.models.load_model(args.resume)
        log(f"  continuing {args.resume} ({model.count_params()} parameters) for {args.epochs} epochs")
    else:
        model = net.build(len(LABELS), INPUT_SIZE, 32)
    secs = net.train(model, x, y, xv, yv, args.epochs, args.batch, args.seed, log, peak_lr=args.lr)
    model.save(CACHE / f"{args.name}.keras")
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{args.name}.tflite"
    path.write_bytes(net.to_tflite(model, args.quantize, x[:: max(1, len(x) // 300)]))
    (args.out / f"{args.name}.labels.txt").write_text("\n".join(LABELS) + "\n", encoding="utf-8")
    write_top_convention(path, args.locator)
    log(f"Wrote {path} ({path.stat().st_size} bytes, {args.quantize}); training {secs:.0f} s, "
        f"all {time.monotonic() - started:.0f} s")
    clf = FaceClassifier(path)
    for k, h in held.items():
        p = clf.probabilities(h["t"]).argmax(1)
        dice = h["y"] != NONE_INDEX
        log(f"  held-out top-face crops ({k}, true top box jittered): dice {int((p[dice] == h['y'][dice]).sum())} "
            f"of {int(dice.sum())}, none {int((p[~dice] == NONE_INDEX).sum())} of {int((~dice).sum())}")
    return 0


def write_top_convention(model_path: Path, locator_path: Path) -> Path:
    """The classifier file's .crop.json: it reads top-face crops at TOP_MARGIN, located by locator_path
    (a name beside it)."""
    import json
    from ..classify import crop_path_for
    p = crop_path_for(model_path)
    rel = os.path.relpath(locator_path, model_path.parent)
    p.write_text(json.dumps({"crop_margin": TOP_MARGIN, "top_locator": rel}) + "\n", encoding="utf-8")
    return p


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.train.topface", description=__doc__.splitlines()[0])
    p.add_argument("what", choices=("locator", "classifier", "diagnose"))
    p.add_argument("--out", type=Path, default=OUT)
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--ordinary", type=int, default=14000)
    p.add_argument("--steep", type=int, default=10000)
    p.add_argument("--any-way", type=int, default=4000)
    p.add_argument("--real-copies", type=int, default=8)
    p.add_argument("--real-none", type=int, default=6)
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--width", type=int, default=24)
    p.add_argument("--lr", type=float, default=3e-3)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--quantize", default="float16", choices=("float16", "float32", "int8"))
    p.add_argument("--resume", type=Path)
    p.add_argument("--none-through-locator", type=int, default=0,
                   help="rendered NOT_A_DIE crops cut through the locator as the reader cuts them (16b), "
                        "with the real train split's detector boxes on no die")
    p.add_argument("--name", default="top_faces", help="the classifier file's name in --out")
    p.add_argument("--locator", type=Path, default=OUT / "top_locator.tflite")
    args = p.parse_args(argv)
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    log = lambda m: print(m, flush=True)  # noqa: E731
    if args.what == "locator":
        return train_locator(args, log)
    if args.what == "classifier":
        return train_classifier(args, log)
    locator_diagnostics(args.locator, log)
    return 0


if __name__ == "__main__":
    sys.exit(main())
