"""`python -m vision read|bench|watch`: read dice from photos, time the reader, set up a tray."""
from __future__ import annotations

import argparse
import json
import sys

from .classify import ModelError

EXIT_BAD_INPUT = 2


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision", description="The dice reader.")
    sub = parser.add_subparsers(dest="command", required=True)

    read = sub.add_parser("read", help="read the dice in images; one JSON line per image")
    read.add_argument("images", nargs="+", metavar="IMAGE")
    read.add_argument("--taught", metavar="DIR",
                      help="read dice by taught examples: DIR holds one sub-folder per face label, each "
                           "with pictures of a single die showing that face; 'face' is then a label")
    read.add_argument("--dice", choices=("centerville",),
                      help="with --taught: the dice are Welcome to Centerville's six (adds each die's colour "
                           "and reads it among its own faces, labels '<colour>-<icon>')")
    _reader_options(read)

    bench = sub.add_parser("bench", help="frame latency (p50, p95) for 1, 6 and 12 dice; peak memory")
    bench.add_argument("--json", action="store_true", help="print one JSON object")
    bench.add_argument("--frames", type=int, default=40, help="frames per dice count (default 40)")
    _reader_options(bench)

    watch = sub.add_parser("watch", help="show the camera with the dice found, to set up a tray")
    watch.add_argument("--source", default="sim:?dice=3&every=4&clear_after=3&realtime=1",
                       help="camera source: picamera2:, v4l2:0, /dev/video0, file:x.jpg, folder:dir, "
                            "video:x.mp4, sim:?dice=2 (default: the simulator)")
    watch.add_argument("--frames", metavar="DIR",
                       help="write annotated frames as JPEG files into DIR instead of opening a window")
    watch.add_argument("--count", type=int, default=0, help="stop after this many frames (0: never)")
    _reader_options(watch)

    args = parser.parse_args(argv)
    try:
        if args.command == "read":
            return _read(args)
        if args.command == "bench":
            return _bench(args)
        return _watch(args)
    except ModelError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT


def _reader_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--model", help="the dice detector, a TFLite file with its .json beside it "
                                   "(default models/dice_detector.tflite)")
    p.add_argument("--faces-model", help="the crop classifier, where the detector's .json reads faces "
                                         "with it (default models/dice_faces.tflite)")
    p.add_argument("--labels", help="the crop classifier's labels file (default: beside it, .labels.txt)")
    p.add_argument("--threshold", type=float, default=None,
                   help="confidence below which a die is marked uncertain (default: the threshold "
                        "calibrated in the detector's .json)")
    # Kept so that scripts written while two readers existed still run: there is one now.
    p.add_argument("--reader", choices=("learned",), default="learned", help=argparse.SUPPRESS)


def _make_reader(args, **kwargs):
    from .reader import DiceReader
    return DiceReader(args.faces_model, args.labels, threshold=args.threshold, detector_path=args.model, **kwargs)


def _taught_reader(args):
    """The TaughtReader of --taught DIR (and --dice), or an error line and None."""
    from pathlib import Path

    from .taught import TaughtExamples, TaughtReader
    if args.dice and not args.taught:
        print("error: --dice centerville reads by taught examples: give --taught DIR too.", file=sys.stderr)
        return None
    root = Path(args.taught)
    if not root.is_dir():
        print(f"error: --taught {root}: no such folder (one sub-folder per face label, pictures in each).",
              file=sys.stderr)
        return None
    examples = TaughtExamples(root)
    if not examples.labels():
        print(f"error: --taught {root}: no sub-folder holds a picture; teach at least one face.", file=sys.stderr)
        return None
    reader = TaughtReader(examples, args.dice, keep_crops=False)
    reader.bank()
    for problem in examples.problems:
        print(f"warning: {problem} Left out.", file=sys.stderr)
    if args.dice == "centerville":
        from companion.engine.centerville.dice import default_dice
        foreign = sorted(set(examples.labels()) - set(default_dice().all_labels()))
        if foreign:
            print(f"warning: {', '.join(foreign)}: not Centerville faces (like 'red-vote'); never read.",
                  file=sys.stderr)
    return reader


def _read(args) -> int:
    if args.taught or args.dice:
        reader = _taught_reader(args)
        if reader is None:
            return EXIT_BAD_INPUT
    else:
        reader = _make_reader(args, keep_crops=False)
    status = 0
    for path in args.images:
        line, error = read_one(reader, path, taught=bool(args.taught))
        if error:
            print(f"error: {error}", file=sys.stderr)
            status = EXIT_BAD_INPUT
            continue
        print(line, flush=True)
    return status


def read_one(reader, path, taught: bool = False) -> tuple[str | None, str | None]:
    """(the JSON line, None) for a photo read, (None, the error line) for one that cannot be:
    too small, too large, undecodable or missing. One photo never stops a batch. taught: the
    dice carry their taught label (a pip reading's internal label is left out)."""
    from .sources import SourceUnavailable, read_image
    try:
        image = read_image(path)
    except SourceUnavailable as exc:
        return None, str(exc)
    try:
        reading = reader.read(image)
    except ValueError as exc:  # the reader's own refusal: a frame too small to hold a die
        return None, f"{path}: {exc}"
    except Exception as exc:  # noqa: BLE001 - one photo the reader cannot read must not stop the batch
        return None, f"{path}: the dice could not be read ({type(exc).__name__}: {exc})"
    dice = [d.to_json() if taught else {k: v for k, v in d.to_json().items() if k != "label"}
            for d in reading.dice]
    return json.dumps({"path": str(path), "dice": dice}), None


def _bench(args) -> int:
    from .latency import format_latency, measure_latency
    result = measure_latency(_make_reader(args, keep_crops=False), frames=args.frames)
    print(json.dumps(result) if args.json else format_latency(result))
    return 0


def _watch(args) -> int:
    from .sources import SourceError, open_source
    from .watch import watch
    try:
        source = open_source(args.source)
        source.open()
    except (SourceError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return watch(source, _make_reader(args, keep_crops=False), frames_dir=args.frames, count=args.count)
