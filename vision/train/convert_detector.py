"""python -m vision.train.convert_detector: convert the detector's Keras weights to a .tflite, no training.

    .venv-train/bin/python -m vision.train.convert_detector OUT.tflite [--weights models/dice_detector.weights.h5]
        [--quantize int8|int8-float-ends|float16] [--rep renders|renders+real-train] [--trays 400]
        [--mix FINE.weights.h5=SHARE ...]

Why: learn_detector converts only at the end of a training run, with 200 renders as the int8
file's representative set. Whether a full-int8 file (int8 activations: a quarter of float32's
activation memory in the app) reads as well as the float16 one depends on that set, so it can be
tried on the committed weights alone (issue 14 round 10). The network is rebuilt from the .json's
recipe (width) at its input size, the weights loaded, and OUT.json written beside OUT as a copy of the weights' .json
with its quantization, sha256 and this conversion's settings; its thresholds are still the copied
file's until `python -m vision.train.calibrate OUT.tflite --write` chooses them on calib.

--rep renders: learn_detector's set (every (trays // 200)th wild tray of the recipe's seed).
--rep renders+real-train: those plus the real train split's photos as the app feeds them to the
network (vision.model.network_input); never calib or test photos.

--mix FINE=SHARE (repeatable): convert the weights moved SHARE of the way toward each fine-tune FINE of them,
base + sum(SHARE * (FINE - base)), every array alike (batch norm's statistics too). Why: every fine-tune of
the first file since issue 14 round 21 read its lever's row better and others worse; part of the way between
a network and its fine-tune often keeps the gain with less of the cost ("WiSE-FT", Wortsman et al. 2022;
"model soups", the same authors), and it costs a conversion, not a training. Each FINE must be trained from
--weights (the same network); the .json records the mix. Measured on this detector (models/DETECTOR_ROUNDS.md rounds
48 and 50): no share toward round 41's or round 47's fine-tune, nor the three fine-tunes' average, read calib better.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
REPS = ("renders", "renders+real-train")


def real_train_inputs(width: int, height: int, root: Path | None = None) -> np.ndarray:
    """The real train split's photos (both sets) as the detector sees them: (N, height, width, 3) BGR."""
    from ..model import network_input
    from ..realdata import SETS, photos
    images = [network_input(cv2.imread(str(shot.path), cv2.IMREAD_COLOR), width, height)
              for name in SETS for shot in photos(name, "train", root)]
    if not images:
        raise SystemExit("no real train photos on this machine: use --rep renders")
    return np.stack(images)


def mixed(base: list[np.ndarray], fines: list[tuple[list[np.ndarray], float]]) -> list[np.ndarray]:
    """base's arrays moved share of the way toward each fine-tune's: base + sum(share * (fine - base))."""
    out = [b.astype(np.float64) for b in base]
    for weights, share in fines:
        if len(weights) != len(base) or any(w.shape != b.shape for w, b in zip(weights, base)):
            raise ValueError("a fine-tune to mix is not the same network as the weights it starts from")
        for o, w, b in zip(out, weights, base):
            o += share * (w.astype(np.float64) - b)
    return [o.astype(b.dtype) for o, b in zip(out, base)]


def mix_share(text: str) -> tuple[Path, float]:
    """FINE.weights.h5=SHARE -> (path, share), the share a number in (0, 1]."""
    path, sep, share = text.rpartition("=")
    try:
        value = float(share)
    except ValueError:
        value = None
    if not sep or not path or value is None or not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"--mix wants FINE.weights.h5=SHARE with a share in (0, 1], not {text!r}")
    return Path(path), value


def parse(argv):
    p = argparse.ArgumentParser(prog="python -m vision.train.convert_detector", description=__doc__.splitlines()[0])
    p.add_argument("out", type=Path, help="the .tflite to write (its .json is written beside it)")
    p.add_argument("--weights", type=Path, default=ROOT / "models" / "dice_detector.weights.h5")
    p.add_argument("--meta", type=Path, help="the weights' .json (recipe: width, seed); default: the "
                                            "weights' name with .json for .weights.h5")
    p.add_argument("--quantize", choices=("int8", "int8-float-ends", "float16"), default="int8",
                   help="int8-float-ends: int8 but for the first convolution and the output heads")
    p.add_argument("--rep", choices=REPS, default="renders", help="the int8 file's representative set")
    p.add_argument("--trays", type=int, default=400, help="wild trays rendered for the representative set")
    p.add_argument("--mix", type=mix_share, action="append", default=[], metavar="FINE=SHARE",
                   help="move the weights SHARE of the way toward the fine-tune FINE of them (repeatable)")
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--cache", type=Path, default=ROOT / "build" / "detector-data")
    return p.parse_args(argv)


def main(argv=None) -> int:
    args = parse(argv)
    from .trays import check_size, recipe_deepest, rendered, weights_meta
    meta_path = args.meta or weights_meta(args.weights)
    meta = json.loads(meta_path.read_text(encoding="utf-8"))
    width, seed = int(meta["recipe"]["width"]), int(meta["recipe"]["seed"])
    from .detector import representative_renders
    # The network is rebuilt at the size and depth it was trained at (learn_detector --input, --deepest).
    deepest = recipe_deepest(meta)
    in_w, in_h = check_size(tuple(int(v) for v in meta["input"]), deepest)
    rep = np.zeros((0, in_h, in_w, 3), np.uint8)
    if args.quantize != "float16":
        rep = representative_renders(rendered(args.trays, seed, (in_w, in_h), args.threads, args.cache)[0])
        if args.rep == "renders+real-train":
            rep = np.concatenate([rep, real_train_inputs(in_w, in_h)])
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import tensorflow as tf
    from . import detector as net
    tf.config.threading.set_intra_op_parallelism_threads(args.threads)
    tf.config.threading.set_inter_op_parallelism_threads(1)
    model = net.build(width, size=(in_w, in_h), deepest=deepest)
    model.load_weights(str(args.weights))
    if args.mix:
        base = model.get_weights()
        fines = []
        for path, share in args.mix:
            model.load_weights(str(path))
            fines.append((model.get_weights(), share))
        model.set_weights(mixed(base, fines))
    data = net.to_tflite(model, args.quantize, rep)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_bytes(data)
    meta.update(quantization=args.quantize, sha256=hashlib.sha256(data).hexdigest(), tensorflow=tf.__version__,
                converted={"weights": str(args.weights.resolve()).removeprefix(str(ROOT) + "/"),
                           "mix": [{"fine": str(path.resolve()).removeprefix(str(ROOT) + "/"), "share": share}
                                   for path, share in args.mix],
                           "representative": (f"{len(rep)} images: {args.rep} ({args.trays} trays, seed {seed})"
                                              if args.quantize != "float16" else "none (float16)")})
    args.out.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    print(f"Wrote {args.out} ({len(data)} bytes, {args.quantize}, {len(rep)} representative images)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
