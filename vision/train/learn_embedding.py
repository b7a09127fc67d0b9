"""python -m vision.train.learn_embedding: render glyph dice, train the face embedding, convert, calibrate.

`make train-embedding` runs this (with the defaults about 20 minutes of rendering and 55 minutes of
training on 2 shared CPU cores; `--until HH:MM` fits the schedule to a deadline; the log prints an
ETA). Stopped, it continues with --resume from its last checkpoint in --work (a
run whose steps are all done goes straight to conversion). The held-out glyph families
(vision.synth.glyphs.HELD_OUT_FAMILIES, Centerville's icons among them) are never rendered here.
With --real-train SHARE (0 by default, the shipped model's recipe) that share of each
episode's dice are real: one real set's six pip faces cut from the TRAIN split of the shared real
photos (vision.train.realfaces; calib and test are refused), so the real pip rows of
bench/icon_dice.py then measure test-split generalisation only.
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

from .calibrate_embedding import REAL_GUARDS

ROOT = Path(__file__).resolve().parents[2]


def parse(argv):
    p = argparse.ArgumentParser(prog="python -m vision.train.learn_embedding", description=__doc__)
    p.add_argument("--out", type=Path, default=ROOT / "models", help="folder for the model and its .json")
    p.add_argument("--name", default="dice_embedding")
    p.add_argument("--seed", type=int, default=15)
    p.add_argument("--sets", type=int, default=1800, help="rendered training dice (six faces each)")
    p.add_argument("--scribble-sets", type=int, default=1200,
                   help="rendered dice of made-up icons (vision.synth.glyphs.SCRIBBLES), seed + 100")
    p.add_argument("--extra-scribble-sets", type=int, default=0,
                   help="more dice of made-up icons, another seed (seed + 200): more distinct icons to tell apart")
    p.add_argument("--symbol-sets", type=int, default=0,
                   help="rendered dice of printed symbols (letters of other scripts and signs from Kivy's fonts, "
                        "vision.synth.symbols), seed + 400; like made-up icons they have no CosFace class")
    p.add_argument("--steep-sets", type=int, default=0,
                   help="more training dice of the training families (seed + 300), every render a steep view "
                        "leaning any way round (vision.synth.scene.STEEP_ANY); their glyphs share the CosFace "
                        "classes of ordinary dice, so --init still fits; 0 is the shipped recipe")
    p.add_argument("--val-scribble-sets", type=int, default=150,
                   help="rendered dice of made-up icons (seed + 101) calibrated on beside --val-sets: icons "
                        "the network never saw, as a table's own dice are")
    p.add_argument("--renders", type=int, default=4, help="renders of each face of a training die")
    p.add_argument("--val-sets", type=int, default=150, help="rendered dice (other seed) to calibrate flags on")
    p.add_argument("--steps", type=int, default=12000, help="episodes (at most, with --until)")
    p.add_argument("--until", default=None, metavar="HH:MM",
                   help="end training by this UTC time: after each 50 episodes the schedule is fitted to the "
                        "episodes the measured speed allows (a shared machine's speed is not known ahead)")
    p.add_argument("--dice", type=int, default=6, help="dice per episode (each 6 faces x renders crops)")
    p.add_argument("--width", type=int, default=16, help="channels of the first block (network size)")
    p.add_argument("--lr", type=float, default=3e-3, help="peak learning rate of the cosine schedule")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--cache", type=Path, default=ROOT / "build" / "embedding-data")
    p.add_argument("--work", type=Path, default=ROOT / "build" / "embedding-train", help="checkpoints")
    p.add_argument("--resume", action="store_true", help="continue from the last checkpoint in --work")
    p.add_argument("--init", type=Path, default=None, metavar="DIR",
                   help="start from the network (and its scale and class directions) of another run's last "
                        "checkpoint in DIR, e.g. a copy of the shipped model's: same --width, --seed and --sets; a "
                        "fresh optimizer and schedule over --steps (a warm restart)")
    p.add_argument("--blur", type=float, default=0.0,
                   help="share of training crops made smaller or blurred (vision.train.embedding.soften)")
    # 0 by default: the defaults reproduce the shipped model (renders only); round 5's candidate,
    # trained with 0.15, was not shipped (models/EMBEDDING_ROUNDS.md, round 5).
    p.add_argument("--real-train", type=float, default=0.0, metavar="SHARE",
                   help="share of each episode's dice that are real: one real set's six pip faces, each look a "
                        "crop of another labelled die of the TRAIN split of the shared real photos "
                        "(vision.train.realfaces); 0 trains on renders only")
    p.add_argument("--turn-any", type=float, default=0.0,
                   help="share of training crops turned by any angle and scaled 0.9-1.1, border reflected "
                        "(vision.train.embedding.spin); 0 keeps quarter turns only (the shipped recipe)")
    p.add_argument("--real-copies", type=int, default=8, help="jittered crops cut of each real train-split die")
    p.add_argument("--quantize", choices=("int8", "float16"), default="float16")
    # The reader's views and the real guard of the pair are the shipped file's (round 15: each taught
    # example kept in 24 views; the pair held down on the pool): written into the .json and calibrated
    # with, so the file this makes reads as it was calibrated, with no step by hand after it.
    p.add_argument("--example-turns", type=int, choices=(4, 8), default=8,
                   help="turns each taught example is kept at: 4 (quarters) or 8 (eighths too)")
    p.add_argument("--example-scales", type=_scales, default=(0.9, 1.0, 1.1), metavar="S,S,...",
                   help="scales each taught example is kept at, within 0.5..2 (vision.taught.Views)")
    p.add_argument("--real-guard", choices=REAL_GUARDS, default="pool",
                   help="the real reads the asking pair keeps silent (vision.train.calibrate_embedding)")
    return p.parse_args(argv)


def _scales(text: str) -> tuple[float, ...]:
    try:
        scales = tuple(float(s) for s in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"scales are numbers separated by commas, not {text!r}") from None
    if not all(0.5 <= s <= 2.0 for s in scales):
        raise argparse.ArgumentTypeError(f"scales lie in 0.5..2, not {text!r}")
    return scales


def _episodes(rng, sets, classes, dice, stop, blur=0.0, real=(), real_share=0.0, real_ids=None, turn_any=0.0):
    """An endless queue of (crops, class ids, shots) episodes built by a thread while TensorFlow trains.
    real: vision.train.realfaces.RealFaces sets; each of an episode's dice is one of them (a set
    drawn in proportion to its dice) with chance real_share, its faces of class real_ids."""
    from .embedding import augment
    from .realfaces import real_die
    q: queue.Queue = queue.Queue(maxsize=6)
    renders = sets.shape[2]
    weights = np.array([len(r.faces) for r in real], np.float64)

    def work():
        while not stop.is_set():
            n_real = int(rng.binomial(dice, real_share)) if len(real) else 0
            pick = rng.choice(len(sets), dice - n_real, replace=False)
            shots = int(rng.integers(1, renders))
            chosen, cls = sets[pick], classes[pick]
            if n_real:
                which = rng.choice(len(real), n_real, p=weights / weights.sum())
                chosen = np.concatenate([chosen, np.stack([real_die(rng, real[k], renders) for k in which])])
                cls = np.concatenate([cls, np.repeat(real_ids[None], n_real, axis=0)])
            order = np.stack([rng.permutation(renders) for _ in range(dice * 6)]).reshape(dice, 6, renders)
            crops = np.take_along_axis(chosen, order[..., None, None, None], axis=2)
            ids = np.repeat(cls[:, :, None], renders, axis=2).reshape(-1)
            q.put((augment(rng, crops.reshape(-1, *sets.shape[3:]), blur, turn_any), ids.astype(np.int32), shots))
    threading.Thread(target=work, daemon=True).start()
    return q


def _deadline(until: str | None) -> float | None:
    """--until HH:MM (UTC, today; tomorrow if already past) as a time.time() value."""
    if until is None:
        return None
    import datetime as dt
    hh, mm = (int(v) for v in until.split(":"))
    now = dt.datetime.now(dt.timezone.utc)
    end = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
    if end <= now:
        end += dt.timedelta(days=1)
    return end.timestamp()


def main(argv=None) -> int:
    args = parse(argv)
    log = lambda msg: print(msg, flush=True)  # noqa: E731
    started = time.monotonic()
    from ..synth.glyphs import SCRIBBLES, SYMBOLS
    from .glyph_sets import die_labels, rendered_sets
    log(f"Rendering {args.sets} training dice x 6 faces x {args.renders} with {args.threads} workers "
        f"(seed {args.seed}), and {args.val_sets} calibration dice (seed {args.seed + 1})")
    sets = rendered_sets(args.sets, args.seed, args.renders, args.threads, args.cache, log)
    val = rendered_sets(args.val_sets, args.seed + 1, args.renders, args.threads, args.cache, log)
    names = [die_labels(args.seed, i) for i in range(args.sets)]
    vocab = sorted({n for die in names for n in die})
    classes = np.array([[vocab.index(n) for n in die] for die in names])
    log(f"{len(vocab)} face classes among the training dice")
    # Every made-up icon is on one die only, and a printed symbol on a few among thousands: no
    # class for the CosFace head (-1), the episodes' prototypes alone teach them apart. The extra
    # sets (another seed) only add more of them.
    for count, seed, what, family in (
            (args.scribble_sets, args.seed + 100, "dice of made-up icons", SCRIBBLES),
            (args.extra_scribble_sets, args.seed + 200, "more dice of made-up icons", SCRIBBLES),
            (args.symbol_sets, args.seed + 400, "dice of printed symbols", SYMBOLS)):
        if count:
            log(f"Rendering {count} {what} (seed {seed})")
            more = rendered_sets(count, seed, args.renders, args.threads, args.cache, log, families=(family,))
            sets = np.concatenate([sets, more])
            classes = np.concatenate([classes, np.full((count, 6), -1)])
    if args.steep_sets:
        from ..synth.scene import STEEP_ANY
        seed = args.seed + 300
        log(f"Rendering {args.steep_sets} training dice seen steeply, leaning any way (seed {seed})")
        steep = rendered_sets(args.steep_sets, seed, args.renders, args.threads, args.cache, log, steep=STEEP_ANY)
        # The same classes as ordinary dice of these glyphs (a glyph no ordinary die prints: no class).
        steep_names = [die_labels(seed, i) for i in range(args.steep_sets)]
        steep_classes = np.array([[vocab.index(n) if n in vocab else -1 for n in die] for die in steep_names])
        log(f"{int((steep_classes < 0).sum())} steep faces of no ordinary die's class")
        sets = np.concatenate([sets, steep])
        classes = np.concatenate([classes, steep_classes])
    if args.val_scribble_sets:
        val = np.concatenate([val, rendered_sets(args.val_scribble_sets, args.seed + 101, args.renders, args.threads,
                                                 args.cache, log, families=(SCRIBBLES,))])
    real, real_ids = [], None
    if args.real_train > 0:
        from .realfaces import pip_classes, real_face_sets
        log(f"Cutting real train-split dice ({args.real_copies} crops each); {args.real_train:.0%} of episode dice real")
        real = real_face_sets("train", args.real_copies, seed=args.seed, log=log)
        real_ids = pip_classes(vocab)
    rendered_s = time.monotonic() - started

    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf
    from . import embedding as net
    from .detector import to_tflite
    tf.config.threading.set_intra_op_parallelism_threads(args.threads)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    tf.keras.utils.set_random_seed(args.seed)
    model = net.build(args.width)
    scale = tf.Variable(10.0, dtype=tf.float32, name="scale")
    class_weights = tf.Variable(tf.random.normal((net.DIM, len(vocab)), stddev=0.1, seed=args.seed), name="classes")
    total = tf.Variable(args.steps, dtype=tf.int64, name="total_steps")
    opt = tf.keras.optimizers.Adam(net.Cosine(args.lr, total, max(1, args.steps // 25)))
    step_var = tf.Variable(0, dtype=tf.int64)
    ckpt = tf.train.Checkpoint(model=model, optimizer=opt, step=step_var, scale=scale, classes=class_weights,
                               total=total)
    manager = tf.train.CheckpointManager(ckpt, str(args.work), max_to_keep=2)
    if args.resume and manager.latest_checkpoint:
        ckpt.restore(manager.latest_checkpoint)
        log(f"Resumed {manager.latest_checkpoint} at step {int(step_var.numpy())}")
    else:
        if args.work.exists():
            shutil.rmtree(args.work)
        if args.init is not None:
            start = tf.train.latest_checkpoint(str(args.init))
            if start is None:
                raise SystemExit(f"--init {args.init}: no checkpoint there")
            tf.train.Checkpoint(model=model, scale=scale, classes=class_weights).restore(start).expect_partial()
            log(f"Starting from the network of {start} (fresh optimizer, schedule over {args.steps} episodes)")
    log(f"Training a {model.count_params()}-parameter embedding for {int(total.numpy())} episodes of {args.dice} dice"
        + (f", ending by {args.until} UTC" if args.until else ""))
    variables = model.trainable_variables + [scale, class_weights]

    @tf.function(reduce_retracing=True)
    def train_step(x, ids, shots):
        with tf.GradientTape() as tape:
            emb = model(x, training=True)
            proto, acc = net.episode_loss(emb, args.dice, shots, args.renders - shots, scale)
            loss = proto + net.class_loss(emb, ids, class_weights)
        opt.apply_gradients(zip(tape.gradient(loss, variables), variables))
        return loss, acc

    stop = threading.Event()
    # A warm restart (--init) draws other episodes than the run it starts from.
    q = _episodes(np.random.default_rng([args.seed, int(step_var.numpy())] + ([1] if args.init else [])
                                        + ([2] if real else [])),
                  sets, classes, args.dice, stop, args.blur, real, args.real_train, real_ids, args.turn_any)
    t0, first = time.monotonic(), int(step_var.numpy())
    avg = None
    deadline = _deadline(args.until)
    step = first
    while step < int(total.numpy()):
        x, ids, shots = q.get()
        loss, acc = (float(v) for v in train_step(tf.constant(x), tf.constant(ids), tf.constant(shots)))
        step += 1
        step_var.assign(step)
        avg = np.array([loss, acc]) if avg is None else 0.98 * avg + 0.02 * np.array([loss, acc])
        if step % 50 == 0 or step == int(total.numpy()):
            per = (time.monotonic() - t0) / (step - first)
            if deadline is not None and step - first >= 100:
                # Fit the schedule's end to the time left at the speed measured so far: it
                # still decays to its floor by the deadline, however loaded the machine is.
                fits = step + int(max(0.0, deadline - time.time()) / per)
                total.assign(max(step, min(args.steps, fits)))
            log(f"step {step}/{int(total.numpy())} loss {avg[0]:.3f} episode accuracy {avg[1]:.3f} "
                f"scale {float(scale.numpy()):.1f}, lr {float(opt.learning_rate.numpy()):.5f}, "
                f"{per * 1000:.0f} ms/step, ETA {per * (int(total.numpy()) - step) / 60:.1f} min")
        if step % 250 == 0:
            manager.save()
    stop.set()
    manager.save()
    train_s = time.monotonic() - t0

    args.out.mkdir(parents=True, exist_ok=True)
    path = args.work / f"{args.name}.{args.quantize}.tflite"
    rep = sets[:: max(1, len(sets) // 100), :, 0].reshape(-1, *sets.shape[3:])[:300]
    path.write_bytes(to_tflite(model, args.quantize, rep))
    from .calibrate_embedding import calibrate
    views = {"example_turns": args.example_turns, "example_scales": list(args.example_scales)}
    path.with_suffix(".json").write_text(json.dumps(views) + "\n", encoding="utf-8")   # the reader calibrate runs
    cal = calibrate(path, val, float(scale.numpy()), log, foreign=args.val_scribble_sets, guard=args.real_guard)
    shutil.copyfile(path, args.out / f"{args.name}.tflite")
    meta = {"input": [net.SIZE, net.SIZE], "channels": f"RGB 0..255 float32 (vision.crops.die_crop at {net.SIZE})",
            "dim": net.DIM, "quantization": args.quantize, "scale": round(float(scale.numpy()), 4),
            **cal, **views, "recipe": {k: str(v).removeprefix(str(ROOT) + "/") for k, v in vars(args).items()},
            "parameters": model.count_params(), "tensorflow": tf.__version__,
            "render_seconds": round(rendered_s), "train_seconds": round(train_s),
            "total_seconds": round(time.monotonic() - started)}
    (args.out / f"{args.name}.json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    log(f"Wrote {args.out / args.name}.tflite ({args.quantize}) and .json in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
