"""python -m vision.train: render dice, train the face classifier, convert, measure, write models/."""
from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from companion.engine.dice import PIP_FACES

from ..classify import NOT_A_DIE
from ..crops import CROP_MARGIN, INPUT_SIZE
from ..realdata import FOLDS, SETS, table_set
from .card import write_card
from ..synth.scene import STEEP_ANY
from .data import (PUSHED_HELD_OUT_SPLIT, SIDE_HELD_OUT_SPLIT, STEEP_TRAIN_SPLIT, render_not_a_die_set,
                   render_pushed_set, render_set)

ROOT = Path(__file__).resolve().parents[2]


def parse(argv):
    p = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__)
    p.add_argument("--out", type=Path, default=ROOT / "models", help="folder for the model, labels and card")
    p.add_argument("--name", default="dice_faces")
    p.add_argument("--seed", type=int, default=7)
    p.add_argument("--train", type=int, default=50000, help="rendered training crops")
    p.add_argument("--val", type=int, default=3500, help="held-out rendered crops")
    p.add_argument("--steep", type=int, default=0,
                   help="rendered crops of steep views (a camera 45-65 degrees off vertical, "
                        "vision.synth.scene.die_scene) added to the training crops, in their own cached set")
    p.add_argument("--steep-any-way", action="store_true",
                   help="the --steep views lean any way round instead of toward image-down (their own cached set)")
    p.add_argument("--clutter", type=int, default=0,
                   help="rendered crops of things that are not dice (coins, tokens, pencils, cards, cloth, "
                        "a cable's plug: vision.synth.nodie.render_clutter_crop) added as NOT_A_DIE")
    p.add_argument("--side-faces", type=int, default=0,
                   help="crops of boxes on a tipped die's side face (vision.synth.nodie.render_side_face_crop) "
                        "added as NOT_A_DIE")
    p.add_argument("--side-faces-any-way", action="store_true",
                   help="the --side-faces crops turned a random quarter turn each (the side face above, beside "
                        "or below its top face; their own cached set)")
    p.add_argument("--pushed", type=int, default=0,
                   help="crops of dice touching a neighbour, each boxed pushed toward it "
                        "(vision.synth.scene.render_pushed_die_crop), added as their faces")
    p.add_argument("--epochs", type=int, default=18)
    p.add_argument("--batch", type=int, default=128)
    p.add_argument("--width", type=int, default=32, help="channels of the first full conv block")
    p.add_argument("--threads", type=int, default=2, help="CPU threads for rendering and TensorFlow")
    p.add_argument("--cache", type=Path, default=ROOT / "build" / "dice-data", help="rendered sets cache")
    p.add_argument("--quantize", choices=("auto", "int8", "float16", "float32"), default="auto",
                   help="auto: the smallest variant that keeps the float32 accuracy")
    p.add_argument("--lr", type=float, default=3e-3, help="peak learning rate of the cosine schedule")
    p.add_argument("--real-copies", type=int, default=8,
                   help="add each die of the real photos' TRAIN split (vision.train.realcrops) this many times, "
                        "its box jittered as a detector's (0: renders only)")
    p.add_argument("--table-photos", type=table_set, action="append", default=[], metavar="DIR",
                   help="a table's own labelled photos (checked-photos/ beside its games.db) cut with the real "
                        "sets, their train split only (calib and test judge: bench/table_photos.py); repeatable")
    p.add_argument("--real-none", type=int, default=6,
                   help="boxes on no die cut from each real train photo (with --real-copies)")
    p.add_argument("--real-mined", type=int, default=0, metavar="COPIES",
                   help="also cut the shipped finder's own boxes on no die in the train split's photos "
                        "(vision.train.realcrops.mined_no_die_boxes) as NOT_A_DIE, COPIES jittered crops each; "
                        "0 (the shipped recipe) mines none")
    p.add_argument("--real-hold-out-fold", type=int, choices=range(FOLDS), metavar="K",
                   help="cut the real crops from the train photos not in fold K only (vision.realdata.FOLDS folds: "
                        "a set's i-th train photo is in fold i %% FOLDS), so fold K can be read out of fold")
    p.add_argument("--input-size", type=int, default=INPUT_SIZE, help="crop side in pixels the network reads")
    p.add_argument("--crop-margin", type=float, default=CROP_MARGIN,
                   help="crop side / die box's longer side (vision.crops); other than the default, it is "
                        "written to <name>.crop.json beside the model, which the reader follows")
    p.add_argument("--label-smoothing", type=float, default=0.0,
                   help="smooth the training targets by this much (0: plain cross-entropy, the shipped recipe)")
    p.add_argument("--quarter-turns", action="store_true",
                   help="turn every training crop a random quarter turn (real crops included), so that no face "
                        "is read as the top for lying nearer the image's top; off in the shipped recipe")
    p.add_argument("--resume", type=Path, help="a .keras network saved by an earlier run to continue training")
    p.add_argument("--measure", action="store_true",
                   help="only measure the model already in --out (no training, no TensorFlow)")
    p.add_argument("--convert-from", type=Path, metavar="KERAS",
                   help="no training: convert this saved .keras network at --quantize (float16 or float32) into "
                        "--out, then measure it as --measure does")
    args = p.parse_args(argv)
    if args.convert_from is not None and args.quantize not in ("float16", "float32"):
        p.error("--convert-from converts at --quantize float16 or float32 (int8 needs the rendered training crops "
                f"to calibrate its ranges: train instead), not {args.quantize}")
    return args


def convert_only(args, labels, log) -> int:
    """--convert-from: the saved network converted at --quantize into --out with its labels and crop convention,
    then measured. Why (issue 14 round 51): the int8 file's softmax is quantised to 1/256, so every confident
    misread reads 255/256 like the right reads; float16 weights leave the output in float."""
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf  # the optional extra

    from ..classify import write_crop_convention
    from . import model as net
    keras_model = tf.keras.models.load_model(args.convert_from, compile=False)
    outputs = keras_model.output_shape[-1]
    if outputs != len(labels):
        raise SystemExit(f"{args.convert_from} gives {outputs} outputs, not the {len(labels)} faces "
                         f"({', '.join(labels)}): not a face classifier")
    args.out.mkdir(parents=True, exist_ok=True)
    model_path = args.out / f"{args.name}.tflite"
    model_path.write_bytes(net.to_tflite(keras_model, args.quantize, None))
    (args.out / f"{args.name}.labels.txt").write_text("\n".join(labels) + "\n", encoding="utf-8")
    write_crop_convention(model_path, args.crop_margin)
    log(f"{args.convert_from} ({keras_model.count_params()} parameters) -> {model_path}: {args.quantize}, "
        f"{model_path.stat().st_size} bytes")
    return measure(args, labels, log)


def measure(args, labels, log) -> int:
    """Print the figures of the shipped file, as the card states them."""
    from ..classify import FaceClassifier
    from . import evaluate
    model_path = args.out / f"{args.name}.tflite"
    clf = FaceClassifier(model_path, num_threads=args.threads)
    xv, yv = render_set(labels, args.val, args.seed, 1, args.threads, args.cache, log,
                        clf.input_size, clf.crop_margin)
    held = _held_out_boxes(args, labels, log, size=clf.input_size, margin=clf.crop_margin)
    log(f"{model_path}: held-out renders {evaluate.rendered(clf, xv, yv, labels)}; "
        f"boxes without a die {evaluate.not_a_die(clf, xv, yv, labels)}; "
        + "; ".join(f"{k.removeprefix('held-out ')} {v}" for k, v in _held_out_scores(clf, held, labels).items()))
    if evaluate.REAL_DICE.is_dir():
        log(f"webcam-crops {evaluate.webcam_crops(clf)}")
        through, boxes = evaluate.tilted_webcam(clf)
        log(f"tilted-webcam through detection {through}; on label boxes {boxes}")
    return 0


# Held-out boxes on a tipped die's side face, judged NOT_A_DIE, as drawn and turned any way round, and
# held-out dice touching a neighbour boxed pushed toward it, read as their faces: figures of every file
# (one trained without --side-faces or --pushed too), from seed streams no training set draws.
HELD_OUT_SIDE_FACES = 500
HELD_OUT_PUSHED = 600


def _held_out_boxes(args, labels, log, size: int, margin: float) -> dict:
    """{figure's name: (crops, labels, judged as no die)} of the held-out side faces and pushed dice."""
    side = {"held-out side faces": "side", "held-out side faces turned any way": "side-any"}
    held = {name: (*_no_die_set(args, labels, log, kind, HELD_OUT_SIDE_FACES, size, margin,
                                split=SIDE_HELD_OUT_SPLIT), True) for name, kind in side.items()}
    pushed = render_pushed_set(labels, HELD_OUT_PUSHED, args.seed, args.threads, args.cache, log, size, margin,
                               split=PUSHED_HELD_OUT_SPLIT)
    return {**held, "held-out pushed dice": (*pushed, False)}


def _held_out_scores(clf, held: dict, labels) -> dict:
    """Each held-out set's score: boxes on no die judged NOT_A_DIE, dice read as their faces."""
    from . import evaluate
    return {name: (evaluate.not_a_die if no_die else evaluate.rendered)(clf, x, y, labels)
            for name, (x, y, no_die) in held.items()}


def _no_die_set(args, labels, log, kind: str, count: int, size: int, margin: float, split: int | None = None):
    """count crops of a kind of box on no die (vision.train.data.NOT_A_DIE_KINDS), labelled NOT_A_DIE."""
    return render_not_a_die_set(kind, count, args.seed, labels.index(NOT_A_DIE), args.threads, args.cache, log,
                                size, margin, split=split)


def _choose(results: dict, wanted: str) -> str:
    if wanted != "auto":
        return wanted
    ref = results["float32"]
    for name in ("int8", "float16"):
        r = results[name]
        # Held out within 0.1 point and real sets within one die of the float model.
        if all(r[k].accuracy >= ref[k].accuracy - (0.001 if k == "held-out renders" else 1.0 / max(ref[k].total, 1))
               for k in ref):
            return name
    return "float32"


def _shipped_finder():
    """image -> [(box, strength)]: the shipped detector's boxes from realcrops.MINE_FROM up."""
    from ..model import DiceModel
    from .realcrops import MINE_FROM
    model = DiceModel(find_from=MINE_FROM)
    return lambda image: [(d.box, d.strength) for d in model.detect(image)]


def main(argv=None) -> int:
    args = parse(argv)
    log = lambda msg: print(msg, flush=True)  # noqa: E731
    labels = list(PIP_FACES) + [NOT_A_DIE]
    started = time.monotonic()
    if args.measure:
        return measure(args, labels, log)
    if args.convert_from is not None:
        return convert_only(args, labels, log)
    real = None
    if args.real_copies > 0:  # cut first: a missing real set stops the run before minutes of rendering
        from .realcrops import real_crops
        try:
            real = real_crops(labels, "train", args.real_copies, args.real_none, args.seed,
                              sets=SETS + tuple(args.table_photos), log=log,
                              size=args.input_size, margin=args.crop_margin, hold_out_fold=args.real_hold_out_fold,
                              finder=_shipped_finder() if args.real_mined else None, mined_copies=args.real_mined)
        except FileNotFoundError as e:
            raise SystemExit(f"python -m vision.train: {e}") from None
    log(f"Rendering {args.train} training and {args.val} held-out crops ({args.input_size}px, margin "
        f"{args.crop_margin:g}) with {args.threads} workers, seed {args.seed}")
    conv = {"size": args.input_size, "margin": args.crop_margin}
    x, y = render_set(labels, args.train, args.seed, 0, args.threads, args.cache, log, **conv)
    xv, yv = render_set(labels, args.val, args.seed, 1, args.threads, args.cache, log, **conv)
    extra = [real] if real is not None else []
    if args.steep > 0:
        log(f"Rendering {args.steep} steep-view training crops{' leaning any way' if args.steep_any_way else ''}")
        extra.append(render_set(labels, args.steep, args.seed, STEEP_TRAIN_SPLIT, args.threads, args.cache, log,
                                steep=STEEP_ANY if args.steep_any_way else True, **conv))
    if args.clutter > 0:
        log(f"Rendering {args.clutter} clutter crops (NOT_A_DIE)")
        extra.append(_no_die_set(args, labels, log, "clutter", args.clutter, **conv))
    if args.side_faces > 0:
        log(f"Rendering {args.side_faces} side-face crops (NOT_A_DIE)")
        extra.append(_no_die_set(args, labels, log, "side-any" if args.side_faces_any_way else "side",
                                 args.side_faces, **conv))
    if args.pushed > 0:
        log(f"Rendering {args.pushed} crops of dice pushed toward a touching neighbour")
        extra.append(render_pushed_set(labels, args.pushed, args.seed, args.threads, args.cache, log, **conv))
    held = _held_out_boxes(args, labels, log, **conv)
    rendered_s = time.monotonic() - started
    if extra:
        import numpy as np
        x, y = np.concatenate([x] + [e[0] for e in extra]), np.concatenate([y] + [e[1] for e in extra])

    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf  # the optional extra; imported after the render workers are done

    from . import model as net
    tf.config.threading.set_intra_op_parallelism_threads(args.threads)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    if args.resume:
        keras_model = tf.keras.models.load_model(args.resume)
        log(f"Continuing {args.resume} ({keras_model.count_params()} parameters) for {args.epochs} epochs")
    else:
        keras_model = net.build(len(labels), args.input_size, args.width)
        log(f"Training a {keras_model.count_params()}-parameter CNN for {args.epochs} epochs")
    train_s = net.train(keras_model, x, y, xv, yv, args.epochs, args.batch, args.seed, log, peak_lr=args.lr,
                        label_smoothing=args.label_smoothing, quarter_turns=args.quarter_turns)
    if args.cache:
        # Kept beside the rendered sets so a later run can look at or continue from the trained network.
        args.cache.mkdir(parents=True, exist_ok=True)
        keras_model.save(args.cache / f"{args.name}-{args.train}-{args.epochs}.keras")
    if args.real_hold_out_fold is not None:
        # Beside the model as well: runs of different folds share the cache's name (round 17's S_k resume it).
        args.out.mkdir(parents=True, exist_ok=True)
        keras_model.save(args.out / f"{args.name}.keras")

    from ..classify import FaceClassifier, write_crop_convention
    from . import evaluate
    results, sizes = {}, {}
    tmp = Path(tempfile.mkdtemp(prefix="dice-model-"))
    real = evaluate.REAL_DICE.is_dir()
    for variant in ("float32", "float16", "int8"):
        path = tmp / f"{args.name}.{variant}.tflite"
        path.write_bytes(net.to_tflite(keras_model, variant, x[:: max(1, len(x) // 300)]))
        (tmp / f"{args.name}.{variant}.labels.txt").write_text("\n".join(labels) + "\n")
        write_crop_convention(path, args.crop_margin)
        clf = FaceClassifier(path, num_threads=args.threads)
        scores = {"held-out renders": evaluate.rendered(clf, xv, yv, labels),
                  "held-out boxes without a die": evaluate.not_a_die(clf, xv, yv, labels),
                  **_held_out_scores(clf, held, labels)}
        if real:
            scores["webcam-crops"] = evaluate.webcam_crops(clf)
            scores["tilted-webcam (through detection)"], scores["tilted-webcam (label boxes)"] = \
                evaluate.tilted_webcam(clf)
        results[variant], sizes[variant] = scores, path.stat().st_size
        log(f"{variant}: {path.stat().st_size} bytes; " + "; ".join(f"{k} {v}" for k, v in scores.items()))

    chosen = _choose(results, args.quantize)
    args.out.mkdir(parents=True, exist_ok=True)
    model_path = args.out / f"{args.name}.tflite"
    shutil.copyfile(tmp / f"{args.name}.{chosen}.tflite", model_path)
    (args.out / f"{args.name}.labels.txt").write_text("\n".join(labels) + "\n", encoding="utf-8")
    write_crop_convention(model_path, args.crop_margin)
    shutil.rmtree(tmp, ignore_errors=True)
    command = " ".join(a for a in (argv if argv is not None else sys.argv[1:]))
    write_card(
        args.out / "MODEL_CARD.md", model=model_path, labels=labels, input_size=args.input_size, quantize=chosen,
        params=keras_model.count_params(),
        recipe={"seed": args.seed, "training crops": args.train, "steep-view crops": args.steep,
                "steep views lean any way": args.steep_any_way, "clutter crops": args.clutter,
                "side-face crops": args.side_faces, "side faces turned any way": args.side_faces_any_way,
                "pushed dice crops": args.pushed,
                "held-out crops": args.val,
                "epochs": args.epochs, "batch": args.batch, "width": args.width,
                "optimizer": f"Adam, cosine learning rate with warm-up to {args.lr:g}",
                "label smoothing": args.label_smoothing, "quarter turns": args.quarter_turns,
                "continued from": args.resume.name if args.resume else "(fresh)",
                "real crops": (f"train split x {args.real_copies}, {args.real_none} boxes on no die a photo"
                               + ("" if args.real_hold_out_fold is None
                                  else f", fold {args.real_hold_out_fold} of {FOLDS} held out")
                               + (f", the finder's own boxes on no die x {args.real_mined}" if args.real_mined else "")
                               + "".join(f", with table photos {folder}" for folder in args.table_photos)
                               if args.real_copies > 0 else "(none)"),
                "crop_margin": args.crop_margin, "tensorflow": tf.__version__, "command": command},
        scores=results[chosen],
        comparison=[(v, sizes[v], {k: f"{100 * s.accuracy:.2f}%" for k, s in results[v].items()}) for v in results],
        timings={"rendering time": f"{rendered_s:.0f} s ({args.threads} workers; cached sets load in seconds)",
                 "training time": f"{train_s:.0f} s on {args.threads} CPU threads",
                 "total time": f"{time.monotonic() - started:.0f} s"})
    log(f"Wrote {model_path} ({chosen}), its labels and MODEL_CARD.md in {time.monotonic() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
