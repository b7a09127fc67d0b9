"""python -m vision.train.learn_detector: render wild trays, train the dice detector, convert, calibrate.

`make train` runs this from scratch (about 75 minutes on 2 CPU cores with the defaults; the log
prints an ETA). Stopped, it continues with --resume from its last checkpoint in --work. A short
fine-tune from the shipped weights: --init models/dice_detector.weights.h5 --steps 1500.
--real-small 0.4 shows 40 % of the real train images with smaller dice (mosaics, a wider zoom-out);
--real-big 0.3 30 % of them with bigger dice (zoomed in 1.5-2.5x).
--steep 2 puts 2 images of each batch from --steep-trays trays seen 45-65 degrees off vertical, where a
die's side faces show pips as large as its top face and only the top face is a die (default 0: none).
--pasted 4 puts 4 images of each batch from wild trays with real train-split dice pasted onto them
(vision/train/pasted.py; default 0: none).
--real-hold-out-fold K leaves fold K of the real train split out of both, so that fold is read out of
fold (`bench/vision_accuracy.py --splits train/K`): a lever judged on calib and the train split together.
Only a detector trained from scratch so is out of fold: the shipped weights have seen every train photo.
--input 512x384 trains a network that reads frames at that size (default 320x240): trays are rendered
at it and the real photos shrunk to it; --init weights of another size load (every layer is convolutional).
--deepest 32 adds a 1/32 level (the input then a multiple of 32 each way, e.g. 448x352), so a close-up die
at a large input lies inside one cell's view; --init weights of a 1/16 network grow into it.
"""
from __future__ import annotations

import argparse
import json
import os
import queue
import shutil
import sys
import threading
import time
from pathlib import Path

import numpy as np

from ..realdata import FOLDS, SETS, table_set

ROOT = Path(__file__).resolve().parents[2]


def input_size(text: str) -> tuple[int, int]:
    """--input's WxH, as (width, height) the network can take (vision.train.trays.check_size)."""
    from .trays import check_size
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--input {text!r}: it must look like 512x384") from None
    try:
        return check_size((w, h))
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"--input {text!r}: {exc}") from None


def parse(argv):
    from .calibrate import FLIPS
    from .trays import DEEPEST_LEVELS, check_size
    p = argparse.ArgumentParser(prog="python -m vision.train.learn_detector", description=__doc__)
    p.add_argument("--out", type=Path, default=ROOT / "models", help="folder for the model and its .json")
    p.add_argument("--name", default="dice_detector")
    p.add_argument("--seed", type=int, default=14)
    p.add_argument("--trays", type=int, default=8000, help="rendered training trays")
    p.add_argument("--icon-trays", type=int, default=1500,
                   help="rendered trays with icon dice (faces that are no pips: found, face OTHER)")
    p.add_argument("--icons", type=int, default=2, help="images per batch from the icon trays; 0: none")
    p.add_argument("--steep-trays", type=int, default=2000,
                   help="rendered wild trays seen steeply (vision.synth.wild, steep=True), when --steep is on")
    p.add_argument("--steep", type=int, default=0, help="images per batch from the steep trays; 0: none")
    p.add_argument("--pasted", type=int, default=0,
                   help="images per batch: wild trays with real train-split dice pasted on; 0: none")
    p.add_argument("--steps", type=int, default=6000)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--width", type=int, default=24, help="channels at 1/4 scale (network size)")
    p.add_argument("--input", type=input_size, default="320x240", metavar="WxH",
                   help="the network's input, width x height, each a multiple of 16 (of 32 with --deepest 32; "
                        "default 320x240)")
    p.add_argument("--deepest", type=int, choices=DEEPEST_LEVELS, default=16,
                   help="the network's deepest level, 1/16 or 1/32 of the input; --init weights of a 1/16 "
                        "network grow into a 1/32 one (vision.train.detector.grow)")
    p.add_argument("--lr", type=float, default=2e-3, help="peak learning rate of the cosine schedule")
    p.add_argument("--real", type=int, default=4,
                   help="images per batch from the real train split (vision.realdata); 0: renders only")
    p.add_argument("--real-hold-out-fold", type=int, choices=range(FOLDS), metavar="K",
                   help="show (and paste) the real train photos not in fold K only (vision.realdata.FOLDS "
                        "folds: a set's i-th train photo is in fold i %% FOLDS), so fold K can be read out of fold")
    p.add_argument("--table-photos", type=table_set, action="append", default=[], metavar="DIR",
                   help="a table's own labelled photos (checked-photos/ beside its games.db) shown with the real "
                        "sets, their train split only (calib and test judge: bench/table_photos.py); repeatable")
    p.add_argument("--real-small", type=float, default=0.0,
                   help="share of the real images shown with smaller dice (2x2 or 3x3 mosaics of train "
                        "photos, or one zoomed out to 0.4-0.7; vision.train.trays.small_real); 0: none")
    p.add_argument("--real-big", type=float, default=0.0,
                   help="share of the real images shown with bigger dice (one photo zoomed in 1.5-2.5x; "
                        "vision.train.trays.BIG_ZOOM); 0: none")
    p.add_argument("--head-weight", type=float, default=2.0,
                   help="weight of the face head's cross-entropy in the loss")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--cache", type=Path, default=ROOT / "build" / "detector-data")
    p.add_argument("--work", type=Path, default=ROOT / "build" / "detector-train", help="checkpoints")
    p.add_argument("--resume", action="store_true", help="continue from the last checkpoint in --work")
    p.add_argument("--init", type=Path, help="weights (.weights.h5) to start from: a fine-tune")
    p.add_argument("--quantize", choices=("auto", "int8", "float16"), default="auto",
                   help="auto: int8 unless it reads fewer calib dice right than float16")
    p.add_argument("--flip", choices=FLIPS, default="either",
                   help="whether the reader reads the mirrored frame too: chosen on calib (either), or held "
                        "(no: one pass, half the detector's CPU time)")
    args = p.parse_args(argv)
    if not (0.0 <= args.real_small and 0.0 <= args.real_big and args.real_small + args.real_big <= 1.0):
        p.error(f"--real-small {args.real_small} and --real-big {args.real_big} are shares of the real images: "
                f"each at least 0, together at most 1")
    try:
        check_size(args.input, args.deepest)
    except ValueError as exc:
        p.error(f"--input {args.input[0]}x{args.input[1]} with --deepest {args.deepest}: {exc}")
    return args


def init_deepest(weights: Path) -> int:
    """The deepest level of the network whose weights these are: their .json's recipe (name.json
    beside name.weights.h5), 16 for a file of a recipe before --deepest or with no .json."""
    from .trays import recipe_deepest, weights_meta
    meta = weights_meta(weights)
    return recipe_deepest(json.loads(meta.read_text(encoding="utf-8")) if meta.is_file() else {})


def _batches(rng, synth, real, batch, stop, slots, real_small=0.0, pieces=None, real_big=0.0):
    """An endless queue of (x, heat, reg) batches built by a thread while TensorFlow trains: each
    batch's images in the order of slots ((pool, count) pairs: real photos, icon trays, steep trays,
    the real dice in pieces (pasted.cuts) pasted onto wild trays), the rest wild trays."""
    from .detector import targets
    from .pasted import paste
    from .trays import augment, real_image
    q: queue.Queue = queue.Queue(maxsize=6)

    def work():
        while not stop.is_set():
            xs, hs, rs = [], [], []
            for k in range(batch):
                pool = _pool_of(k, synth, slots)
                if pool is real:
                    x, d = real_image(rng, real, real_small, real_big)
                elif pool is pieces:
                    i = int(rng.integers(len(synth[0])))
                    x, d = augment(rng, *paste(rng, synth[0][i], synth[1][i], pieces))
                else:
                    i = int(rng.integers(len(pool[0])))
                    x, d = augment(rng, pool[0][i], pool[1][i])
                h, r = targets(d[:, :4], d[:, 4].astype(int), (x.shape[1], x.shape[0]))
                xs.append(x), hs.append(h), rs.append(r)
            q.put((np.stack(xs), np.stack(hs), np.stack(rs)))
    threading.Thread(target=work, daemon=True).start()
    return q


def _pool_of(k: int, synth, slots):
    """Which pool a batch's k-th image comes from: slots are (pool, count) in batch order; past
    them, or where a pool is missing or empty, the wild trays (synth). A pool is (images, dice), or
    the list of real dice to paste."""
    first = 0
    for pool, count in slots:
        if first <= k < first + count:
            empty = pool is None or not len(pool[0] if isinstance(pool, tuple) else pool)
            return synth if empty else pool
        first += count
    return synth


def main(argv=None) -> int:
    args = parse(argv)
    log = lambda msg: print(msg, flush=True)  # noqa: E731
    started = time.monotonic()
    from .pasted import cuts
    from .trays import real_train, rendered
    size = args.input
    log(f"Rendering {args.trays} wild trays at {size[0]}x{size[1]} with {args.threads} workers (seed {args.seed})")
    synth = rendered(args.trays, args.seed, size, args.threads, args.cache, log)
    icons = rendered(args.icon_trays, args.seed, size, args.threads, args.cache, log, icons=True) \
        if args.icons and args.icon_trays else None
    steep = rendered(args.steep_trays, args.seed, size, args.threads, args.cache, log, steep=True) \
        if args.steep and args.steep_trays else None
    real = real_train(size, SETS + tuple(args.table_photos), hold_out_fold=args.real_hold_out_fold) \
        if args.real or args.pasted \
        else (np.zeros((0,)), [])
    held = "" if args.real_hold_out_fold is None else f", fold {args.real_hold_out_fold} held out"
    tables = "".join(f" and {folder}" for folder in args.table_photos)
    dice = sum(len(d) for d in real[1])
    log(f"Real train split{held} of {', '.join(SETS)}{tables}: {len(real[0])} photos, {dice} dice "
        f"({args.real} per batch of {args.batch}, {args.real_small:.0%} of them with smaller dice, "
        f"{args.real_big:.0%} with bigger)")
    pieces = cuts(real) if args.pasted else None
    if pieces is not None:
        log(f"Pasting {args.pasted} per batch: {len(pieces)} real dice cut from the train split")
    rendered_s = time.monotonic() - started

    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf
    from . import detector as net
    tf.config.threading.set_intra_op_parallelism_threads(args.threads)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.keras.utils.set_random_seed(args.seed)
    model, base = net.build_pair(args.width, size=size, deepest=args.deepest)
    from_deepest = init_deepest(args.init) if args.init else args.deepest
    if from_deepest != args.deepest:
        if (from_deepest, args.deepest) != (16, 32):
            raise SystemExit(f"--init {args.init}: a 1/{from_deepest} network's weights do not grow "
                             f"into a 1/{args.deepest} one")
        model, base = net.grow(args.init, args.width, size, args.deepest)
        log(f"Fine-tuning from {args.init}, grown to a 1/32 level (its layers start afresh, its way back at zero)")
    elif args.init:
        # Keras 3 stores layers by kind and order ("conv2d_19"), not by name, so whether the file
        # has a face head shows only by loading it: a three-head file loads whole, a two-head one
        # (no face head) does not, and then everything but the face head starts from it.
        try:
            model.load_weights(str(args.init))
            log(f"Fine-tuning from {args.init}")
        except ValueError:
            base.load_weights(str(args.init))
            log(f"Fine-tuning from {args.init} (a two-head file: the face head starts afresh)")
    lr = tf.keras.optimizers.schedules.CosineDecay(0.0, args.steps, alpha=0.02, warmup_target=args.lr,
                                                   warmup_steps=max(1, args.steps // 25))
    opt = tf.keras.optimizers.Adam(lr)
    step_var = tf.Variable(0, dtype=tf.int64)
    ckpt = tf.train.Checkpoint(model=model, optimizer=opt, step=step_var)
    manager = tf.train.CheckpointManager(ckpt, str(args.work), max_to_keep=2)
    if args.resume and manager.latest_checkpoint:
        ckpt.restore(manager.latest_checkpoint)
        log(f"Resumed {manager.latest_checkpoint} at step {int(step_var.numpy())}")
    elif args.work.exists():
        shutil.rmtree(args.work)
    log(f"Training a {model.count_params()}-parameter detector for {args.steps} steps of {args.batch}")

    @tf.function(reduce_retracing=True)
    def train_step(x, heat, reg):
        with tf.GradientTape() as tape:
            h, b, f = model(x, training=True)
            total, focal, boxes = net.loss(heat, reg, h, b, f, head_weight=args.head_weight)
        opt.apply_gradients(zip(tape.gradient(total, model.trainable_variables), model.trainable_variables))
        return total, focal, boxes

    stop = threading.Event()
    slots = [(real, args.real), (icons, args.icons), (steep, args.steep), (pieces, args.pasted)]
    q = _batches(np.random.default_rng([args.seed, int(step_var.numpy())]), synth, real, args.batch, stop, slots,
                 args.real_small, pieces, args.real_big)
    t0, first = time.monotonic(), int(step_var.numpy())
    avg = None
    for step in range(first, args.steps):
        x, heat, reg = q.get()
        total, focal, boxes = (float(v) for v in train_step(x, heat, reg))
        step_var.assign(step + 1)
        avg = np.array([total, focal, boxes]) if avg is None else 0.98 * avg + 0.02 * np.array([total, focal, boxes])
        if (step + 1) % 100 == 0 or step + 1 == args.steps:
            per = (time.monotonic() - t0) / (step + 1 - first)
            log(f"step {step + 1}/{args.steps} loss {avg[0]:.3f} (heat {avg[1]:.3f}, box {avg[2]:.3f}) "
                f"{args.batch / per:.1f} img/s, ETA {per * (args.steps - step - 1) / 60:.1f} min")
        if (step + 1) % 250 == 0:
            manager.save()
    stop.set()
    manager.save()
    train_s = time.monotonic() - t0
    args.out.mkdir(parents=True, exist_ok=True)
    model.save_weights(str(args.out / f"{args.name}.weights.h5"))

    from .calibrate import FLIPS, calibrate, reader_settings
    rep = net.representative_renders(synth[0])
    chosen, results = None, {}
    for variant in ("int8", "float16") if args.quantize == "auto" else (args.quantize,):
        path = args.work / f"{args.name}.{variant}.tflite"
        path.write_bytes(net.to_tflite(model, variant, rep))
        results[variant] = calibrate(path, log=log, flips=FLIPS[args.flip])
        log(f"{variant}: {path.stat().st_size} bytes; calib {results[variant]['figures']}")
    chosen = max(results, key=lambda v: (results[v]["figures"]["correct"], v == "int8"))
    shutil.copyfile(args.work / f"{args.name}.{chosen}.tflite", args.out / f"{args.name}.tflite")
    meta = {"input": list(size), "channels": "BGR 0..255 float32", "quantization": chosen,
            "find_from": results[chosen]["find_from"], "ask_below": results[chosen]["ask_below"],
            "flip": results[chosen]["flip"], "faces": results[chosen]["faces"],
            "calibrated_on": results[chosen]["calibrated_on"], "calib_figures": results[chosen]["figures"],
            **reader_settings(results[chosen]),
            "recipe": {k: str(v).removeprefix(str(ROOT) + "/") for k, v in vars(args).items()}, "parameters": model.count_params(),
            "tensorflow": tf.__version__, "render_seconds": round(rendered_s), "train_seconds": round(train_s),
            "total_seconds": round(time.monotonic() - started)}
    (args.out / f"{args.name}.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    log(f"Wrote {args.out / args.name}.tflite ({chosen}) and .json in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
