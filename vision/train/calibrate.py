"""Choose the detector's two thresholds on real photos (the calib split), never on renders.

find_from: the least peak height that makes a die at all; the one that maximises dice read
right minus dice read that are not there (net_right: a missed die, a box on a coin and a die boxed
twice each cost a tap to fix).
ask_below: below it a die is flagged and the table asked; the one that costs least when a
silent misread (a wrong score nobody checks) costs SILENT_COST questions. With the "reader" faces,
the classifier's drop_from and recheck_below (vision.reader) are chosen with find_from, by its cost.
With --choose-second-find-from, a detector's second finder's own floor is chosen by that cost too,
and with --choose-agree-from the peak a first-file box and the second finder must reach together.

    .venv/bin/python -m vision.train.calibrate [models/dice_detector.tflite] [--write]
        [--classifier F [F ...]] [--views one|mirror|...] [--second-look unsure|always] [--faces reader]
        [--find-from F] [--choose-second-find-from] [--choose-agree-from] [--choose-typical]
        [--with-closer Z [Z ...]]

The face classifier is the reader's (the .json's face_models, face_views and face_second_look, else
models/dice_faces.tflite), or the files given (several: an ensemble, their probabilities averaged)
with the views and second look given; --write stores those in the .json with the thresholds.
--with-closer 1.5 2 calibrates on the split's photos as taken and on each photo's middle enlarged 1.5x and 2x
too (vision.realdata.closer: a camera lower over the tray), one cost over them all (issue 14 round 45).
--ask-for-new-tables holds every setting of the .json but ask_below, and chooses it over the split's photos as
taken and under each change a new table brings (vision.shifts) but the camera's turn: the lowest of ASK_GRID
whose silent misreads, pooled over them all, are under SILENT_LINE of their dice (issue 14 round 51).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from types import SimpleNamespace

import cv2
import numpy as np

from ..reader import add_face_options
from ..model import FACE_SOURCES, classifier_faces, load_detector
from ..realdata import SETS, closer, photos, score_frame

SILENT_COST = 10
FLOOR = 0.05
# Issue 14's line for silent misreads (wrong and not asked) on photos never seen: --ask-for-new-tables chooses the
# lowest ask_below that keeps them under it over the calib photos changed as new tables change them.
SILENT_LINE = 0.005
# ask_below is chosen from this grid: every hundredth, then ever closer to 1 (five steps a
# decade of 1 - t, down to 1e-7). An int8 classifier's softmax output is quantised to 1/256, so
# its largest confidence is 0.9961 and the fine steps change nothing for it (each fine step
# under 0.9961 flags what 0.99 flags; min() keeps the first of equal costs); a classifier with a
# float output reads confidences up to float32's 1 - 6e-8, which only these steps can separate
# (issue 14 round 7).
ASK_GRID = np.unique(np.concatenate([np.round(np.arange(0.0, 1.0, 0.01), 3),
                                     np.round(1.0 - np.logspace(-2, -7, 26), 10)]))


# "reader" faces: find_from, drop_from and recheck_below (vision.reader) are chosen together from
# these grids, by the cost find_from is chosen by (net_right, nothing asked), then ask_below by
# choose_ask_below (issue 14 round 8: DROP_FROM and RECHECK_BELOW were chosen for one classifier's
# saturated confidences and a label-smoothed file reads right dice at about 0.91). Fixed before any
# classifier was measured with them.
FIND_GRID = tuple(float(t) for t in np.round(np.arange(0.1, 0.5, 0.025), 3))
# A second finder's own floor (vision.two_finders.TwoFinders), chosen by the same cost with everything else
# chosen at each value (issue 14 round 37b); below the reader's find_from every value reads alike.
SECOND_FIND_GRID = tuple(float(t) for t in np.round(np.arange(0.1, 0.9, 0.025), 3))
# The pair's agree_from (vision.two_finders.TwoFinders: the mean of a first-file box's peak and the second
# file's on it), chosen the same way (issue 14 round 40); 0 keeps every box, and a value at most half
# the reader's find_from keeps every box too (FIND_GRID starts at 0.1).
AGREE_GRID = (0.0,) + tuple(float(t) for t in np.round(np.arange(0.1, 0.3125, 0.0125), 4))
# The typical (median) die's share of the frame's width past which a frame is read shrunk (vision.die_size),
# chosen the same way (issue 14 rounds 44, 44b); 1 never shrinks (no box is wider than the frame). Among
# equals the highest (the fewest frames read twice).
TYPICAL_GRID = tuple(float(t) for t in np.round(np.arange(0.08, 0.205, 0.01), 2)) + (1.0,)
DROP_GRID = tuple(float(t) for t in np.round(np.arange(0.5, 0.96, 0.05), 2))
RECHECK_GRID = (0.8, 0.85, 0.9, 0.95, 0.97, 0.99)


def net_right(figures: dict) -> int:
    """What find_from and the reader's settings are chosen by: dice read right minus the dice read that are
    not there, a box on no die or a second box on one die (each a die too many that the table must take
    away). Doubled dice are counted since issue 14 round 42: with the reader's find_from free, agree_from
    chose 219 right with 5 doubled (models/DETECTOR_ROUNDS.md, round 40)."""
    return figures["correct"] - figures["no_die"] - figures["doubled"]


def choose_reader_settings(figures_at, second_look: str = "unsure",
                           finds: tuple[float, ...] = FIND_GRID) -> tuple[float, float, float]:
    """(find_from, drop_from, recheck_below) of the grids whose figures (figures_at(find_from,
    drop_from, recheck_below): a dict with correct, no_die and doubled, nothing asked) give the most
    net_right. Among equals: the reader's constants (a classifier that gains
    nothing keeps today's reading), then the lowest find_from (as before), the fewest second looks
    (lowest recheck_below: CPU) and the least strict drop (highest drop_from). With second_look
    "always" every die is looked at again, so recheck_below stays the constant."""
    from ..reader import DROP_FROM, RECHECK_BELOW
    rechecks = RECHECK_GRID if second_look != "always" else (RECHECK_BELOW,)

    def key(s):
        r = figures_at(*s)
        return (net_right(r), s[1] == DROP_FROM and s[2] == RECHECK_BELOW, -s[0], -s[2], s[1])
    return max(((f, d, c) for f in finds for d in DROP_GRID for c in rechecks), key=key)


def choose_ask_below(figures_at) -> float:
    """The ask_below of ASK_GRID whose figures (figures_at(t): a dict with silent_misreads and
    flagged) cost least, a silent misread costing SILENT_COST questions; the lowest of equals."""
    return float(min(ASK_GRID, key=lambda t: (lambda r: SILENT_COST * r["silent_misreads"] + r["flagged"])(figures_at(t))))


def choose_ask_under(figures_at, line: float = SILENT_LINE) -> float:
    """The lowest ask_below of ASK_GRID whose figures (figures_at(t): a dict with silent_misreads and dice) have
    silent misreads under line of the dice; ValueError when even the highest does not."""
    for t in ASK_GRID:
        f = figures_at(t)
        if f["silent_misreads"] < line * f["dice"]:
            return float(t)
    raise ValueError(f"No ask_below up to {ASK_GRID[-1]} keeps silent misreads under {line:.1%} of the dice "
                     f"({f['silent_misreads']} of {f['dice']}).")


def reader_settings(result: dict) -> dict:
    """The .json keys DiceReader follows for a calibration result's drop_from and recheck_below
    (a "reader" result only: the other face sources have neither)."""
    return {f"face_{k}": result[k] for k in ("drop_from", "recheck_below") if k in result}


def _reading(dets, find_from, ask_below):
    return SimpleNamespace(dice=[SimpleNamespace(face=d.face, box=d.box, uncertain=d.confidence < ask_below)
                                 for d in dets if d.peak >= find_from])


FLIPS = {"either": (False, True), "no": (False,), "yes": (True,)}


def calibrate(model_path: Path, split: str = "calib", log=print, classifier_path=None,
              views: str | None = None, sources: tuple[str, ...] | None = None,
              second_look: str | None = None, finder: dict | None = None, fold: int | None = None,
              combine: str | None = None, flips: tuple[bool, ...] = (False, True),
              find_from: float | None = None, second_finds: tuple[float, ...] | None = None,
              agrees: tuple[float, ...] | None = None, typicals: tuple[float, ...] | None = None,
              zooms: tuple[float, ...] = (), new_tables: bool = False) -> dict:
    """The thresholds, and whether to read the mirrored frame too, that do best on split
    (with the face classifier the reader would load: classifier_path, one file or several, and
    views and combine; by default the detector .json's face_models, face_views and face_combine, else
    models/dice_faces.tflite).
    finder (the "reader" source only): find_from, drop_from, recheck_below and flip held as given,
    only ask_below chosen; for a new classifier read by an unchanged finder (round 11b).
    fold (train split only): the photos of that fold (vision.realdata.photos; round 17).
    flips: whether the mirrored frame is read too, the choices tried (a rule may hold a detector to
    one pass for its CPU time: (False,)).
    find_from (the "reader" source only): held as given, drop_from, recheck_below and ask_below chosen
    (a rule may hold a reader to the shipped peaks' floor, issue 14 round 36d).
    second_finds (the "reader" source only, a detector whose .json names a second_finder): its find_from
    chosen from these, each value's reader calibrated in full, by the cost find_from is chosen by
    (net_right), then the fewest questions (a silent misread SILENT_COST of
    them), then the lowest; the result's second_find_from (issue 14 round 37b).
    agrees (the same conditions): the pair's agree_from chosen from these the same way, with each second
    find_from when both are given; the result's agree_from (issue 14 round 40).
    typicals (the "reader" source only, a detector whose .json names a die_size): its typical chosen from
    these the same way, with every other grid given; the result's typical (issue 14 rounds 44, 44b).
    zooms: the split's photos are read as taken and with their middle enlarged by each (a die cut by the
    enlargement counts neither way), every setting chosen by one cost over all of them; the result's
    figures_by_look has each look's figures apart (issue 14 round 45).
    new_tables (the "reader" source only): every setting held as the .json has it (find_from, flip, the
    classifier's drop_from and recheck_below, a second finder's), only ask_below chosen, by choose_ask_under, over
    the split's photos as taken and under each change of vision.shifts but the camera's turn; the result's
    figures pool them all, its figures_by_look has each change's (issue 14 round 51)."""
    from ..die_size import DiceAtSize
    from ..two_finders import TwoFinders
    from ..reader import DiceReader
    if (finder is not None or new_tables) and tuple(sources or ()) != ("reader",):
        raise ValueError("Held finder settings apply to the reader's faces only.")
    if new_tables and (zooms or fold is not None or second_finds or agrees or typicals or finder is not None):
        raise ValueError("Asking for new tables holds every other setting and reads its own changes of the split: "
                         "no zooms, fold, held finder or grid of a second finder's settings with it.")
    pair_grid = _pair_grid(second_finds, agrees, typicals)
    if pair_grid and (tuple(sources or ()) != ("reader",) or finder is not None):
        raise ValueError("A second finder's or die_size's settings are chosen for the reader's faces only, "
                         "its finder free.")
    first = DiceReader(detector=load_detector(model_path), model_path=classifier_path, views=views,
                       second_look=second_look, keep_crops=False, faces="reader", combine=combine)
    sized = isinstance(first.detector, DiceAtSize)
    if (second_finds or agrees) and not isinstance(first.detector.inner if sized else first.detector, TwoFinders):
        raise ValueError(f"{model_path}'s .json names no second_finder: there is no second finder's setting to choose.")
    if typicals and not sized:
        raise ValueError(f"{model_path}'s .json names no die_size: there is no typical die's size to choose.")
    classifier, second_look = first.classifier, first.second_look
    if new_tables:
        finder = {"find_from": first.detector.find_from, "flip": first.detector.flip,
                  "drop_from": first.drop_from, "recheck_below": first.recheck_below}
    sources = sources or (("model", "classifier", "blend", "reader") if first.detector.has_face_head else
                          ("model", "classifier", "reader"))
    # Read once: every (flip, faces) pair below reads the same photos.
    images = _new_table_frames(split) if new_tables else _frames(split, fold, zooms)
    if not images:
        raise SystemExit(f"no real photos of split {split} on this machine: cannot calibrate")
    if finder is not None:
        tried = [_calibrate_reader(load_detector(model_path, find_from=FLOOR, flip=finder["flip"]), images,
                                   finder["flip"], split, classifier, second_look, held=finder,
                                   choose_ask=choose_ask_under if new_tables else choose_ask_below)]
    elif pair_grid:
        tried = [_best_pair_settings(load_detector(model_path, find_from=FLOOR, flip=flip), pair_grid, images,
                                     flip, split, classifier, second_look, find_from, log) for flip in flips]
    else:
        tried = [_calibrate(model_path, images, split, flip, faces, classifier, second_look, find_from)
                 for flip in flips for faces in sources]
    for r in tried:
        log(f"calib (mirrored frame too: {r['flip']}, faces from the {r['faces']}): "
            f"find_from {r['find_from']}, ask_below {r['ask_below']}: {r['figures']}")
    # Most dice read right; among equals, fewer questions.
    return max(tried, key=lambda r: (r["figures"]["correct"], -r["figures"]["flagged"]))


def _frames(split: str, fold: int | None, zooms: tuple[float, ...] = ()) -> list[tuple]:
    """The split's photos as (BGR image, labelled dice, partial boxes, look): each as taken (look "as taken"),
    then each with its middle enlarged by every zoom of zooms (look "1.5x" ...; partial: the boxes of dice the
    enlargement cut, which count neither way)."""
    taken = [(cv2.imread(str(shot.path), cv2.IMREAD_COLOR), shot.dice) for name in SETS
             for shot in photos(name, split, fold=fold)]
    frames = [(img, dice, (), "as taken") for img, dice in taken]
    for zoom in zooms:
        enlarge = closer(zoom)
        frames += [(*enlarge(img, dice), f"{zoom:g}x") for img, dice in taken]
    return frames


def _new_table_frames(split: str) -> list[tuple]:
    """_frames' tuples for the split's photos under every change of vision.shifts but the camera's turn (look: the
    change's name; "as taken" first)."""
    from ..shifts import MOSAICS, SHIFTS, TURNED, changes, frames
    made = changes()
    return [(img, dice, partial, shift) for shift in [*SHIFTS, *MOSAICS] if shift not in TURNED
            for name in SETS for img, dice, partial in frames(name, split, shift, made)]


def _looks_named(images) -> str:
    """What calibrated_on says the frames were: the photos, and the enlarged looks where there are any."""
    looks = list(dict.fromkeys(look for *_, look in images))
    photos_count = sum(look == "as taken" for *_, look in images)
    if len(looks) > 3:   # the changes of a new table (--ask-for-new-tables): figures_by_look names each
        return f"{photos_count} photos, as taken and under {len(looks) - 1} changes"
    return f"{photos_count} photos" + (f", each {' and '.join(looks)}" if len(looks) > 1 else "")


def _pair_grid(second_finds, agrees, typicals=None) -> list[dict]:
    """The TwoFinders and DiceAtSize settings to try: each second find_from, each agree_from, each typical,
    or every combination of those given."""
    if second_finds is None and agrees is None and typicals is None:
        return []
    return [{**({"second_find_from": float(s)} if s is not None else {}),
             **({"agree_from": float(a)} if a is not None else {}),
             **({"typical": float(x)} if x is not None else {})}
            for s in (second_finds or (None,)) for a in (agrees or (None,)) for x in (typicals or (None,))]


def _best_pair_settings(model, grid: list[dict], images, flip, split, classifier, second_look, find_from,
                        log=print) -> dict:
    """The reader calibrated in full (_calibrate_reader) with each of grid's settings of model (a TwoFinders or a
    DiceAtSize), the one kept: the most net_right, then the fewest questions (a silent misread costing
    SILENT_COST), then the lowest settings (the highest typical: the fewest frames read twice)."""
    results = []
    looks_at: dict = {}   # a photo's looks carry every agree_from (Detection.support): read once a second floor
    for settings in grid:
        for name, value in settings.items():
            setattr(model, name, value)
        at = (getattr(model, "second_find_from", None), getattr(model, "typical", None))
        if at not in looks_at:
            looks_at[at] = _reader_looks(model, images, classifier, second_look, find_from)
        results.append({**_calibrate_reader(model, images, flip, split, classifier, second_look, find_from=find_from,
                                            looks=looks_at[at]), **settings})
        log(f"  {settings}: {results[-1]['figures']}")

    def key(r):
        f = r["figures"]
        return (net_right(f), -(SILENT_COST * f["silent_misreads"] + f["flagged"]),
                tuple(r[name] if name == "typical" else -r[name] for name in grid[0]))
    return max(results, key=key)


def _calibrate(model_path: Path, images, split: str, flip: bool, faces: str, classifier,
               second_look: str = "unsure", find_from: float | None = None) -> dict:
    """One (flip, faces) pair's thresholds on images: _frames' (BGR photo, its labelled dice, partial, look) of
    split."""
    model = load_detector(model_path, find_from=FLOOR, flip=flip)
    if faces == "reader":
        return _calibrate_reader(model, images, flip, split, classifier, second_look, find_from=find_from)
    shots = []
    for img, labels, partial, _ in images:
        dets = model.detect(img, FLOOR)
        if faces in ("classifier", "blend"):
            # The peak finds the die (find_from); the classifier's (or the blend's) probability is its confidence.
            read = classifier_faces(classifier, img, dets, faces == "blend")
            dets = [SimpleNamespace(face=r.face, box=r.box, confidence=r.confidence, peak=d.strength)
                    for d, r in zip(dets, read)]
        else:
            dets = [SimpleNamespace(face=d.face, box=d.box, confidence=d.confidence, peak=d.strength)
                    for d in dets]
        shots.append((dets, labels, partial))

    def total(find_from, ask_below):
        out: dict = {}
        for dets, labels, partial in shots:
            for k, v in score_frame(_reading(dets, find_from, ask_below), labels, partial).items():
                out[k] = out.get(k, 0) + v
        return out

    grid = np.round(np.arange(FLOOR, 0.9, 0.025), 3)
    find_from = float(max(grid, key=lambda t: net_right(total(t, 0.0))))
    dice = total(find_from, 0.0)["dice"]
    ask_below = choose_ask_below(lambda t: total(find_from, t))
    figures = total(find_from, ask_below)
    figures["photos"] = len(shots)
    return {"find_from": find_from, "ask_below": ask_below, "figures": figures, "flip": flip, "faces": faces,
            "calibrated_on": f"split {split} of {', '.join(SETS)} ({_looks_named(images)}, {dice} dice)"}


def _reader_looks(model, images, classifier, second_look="unsure", find_from: float | None = None):
    """The reader _calibrate_reader reads model with, and each photo's looks at the lowest find_from of the
    grid (DiceReader.looks: every box, every second look) with its labels."""
    from ..reader import DiceReader
    reader = DiceReader(detector=model, classifier=classifier, threshold=0.0, keep_crops=False, faces="reader",
                        second_look=second_look)
    reader.detector.find_from = min(FIND_GRID + ((find_from,) if find_from is not None else ()))
    return reader, [(reader.looks(img), labels, partial, look) for img, labels, partial, look in images]


def _calibrate_reader(model, images, flip, split, classifier, second_look="unsure", held: dict | None = None,
                      find_from: float | None = None, looks=None, choose_ask=choose_ask_below) -> dict:
    """As _calibrate, through vision.reader.DiceReader: each photo is looked at once at the lowest
    find_from (every box, every second look; looks: _reader_looks' of model, read before), and
    DiceReader.dice_from_looks gives the dice the reader reads with each find_from, drop_from and
    recheck_below of the grids (or held's)."""
    reader, looked = looks or _reader_looks(model, images, classifier, second_look, find_from)
    dice_at = {}

    def total(find_from, drop_from, recheck_below, ask_below=0.0, only=None):
        out: dict = {}
        for k, (looks, labels, partial, look) in enumerate(looked):
            if only is not None and look != only:
                continue
            key = (k, find_from, drop_from, recheck_below)
            if key not in dice_at:
                dice_at[key] = reader.dice_from_looks(looks, find_from, drop_from, recheck_below)
            flagged = SimpleNamespace(dice=[SimpleNamespace(face=d.face, box=d.box, uncertain=d.confidence < ask_below)
                                            for d in dice_at[key]])
            for name, v in score_frame(flagged, labels, partial).items():
                out[name] = out.get(name, 0) + v
        return out

    if held is not None:
        find_from, drop_from, recheck_below = held["find_from"], held["drop_from"], held["recheck_below"]
    else:
        find_from, drop_from, recheck_below = choose_reader_settings(
            total, second_look, FIND_GRID if find_from is None else (find_from,))
    ask_below = choose_ask(lambda t: total(find_from, drop_from, recheck_below, t))
    figures = total(find_from, drop_from, recheck_below, ask_below)
    figures["photos"] = len(looked)
    looks = list(dict.fromkeys(look for *_, look in looked))
    by_look = ({look: {**total(find_from, drop_from, recheck_below, ask_below, only=look),
                       "photos": sum(seen == look for *_, seen in looked)} for look in looks}
               if len(looks) > 1 else {})
    return {"find_from": find_from, "ask_below": ask_below, "drop_from": drop_from, "recheck_below": recheck_below,
            "figures": figures, "flip": flip, "faces": "reader",
            **({"figures_by_look": by_look} if by_look else {}),
            "calibrated_on": f"split {split} of {', '.join(SETS)} ({_looks_named(looked)}, {figures['dice']} dice)"}


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m vision.train.calibrate", description=__doc__.splitlines()[0])
    p.add_argument("model", nargs="?", type=Path, default=Path(__file__).resolve().parents[2] / "models" / "dice_detector.tflite")
    add_face_options(p)
    p.add_argument("--faces", choices=FACE_SOURCES, nargs="+", help="only try these face sources (default: all)")
    p.add_argument("--flip", choices=FLIPS, default="either",
                   help="read the mirrored frame too: either (chosen on calib, the default), no (one pass) or yes")
    p.add_argument("--write", action="store_true", help="store the thresholds (and the classifier files and "
                                                        "views given) in the model's .json")
    p.add_argument("--find-from", type=float, metavar="F",
                   help="hold the reader's find_from at F (0-1; the reader's faces only), the rest chosen")
    p.add_argument("--choose-second-find-from", action="store_true",
                   help="choose the second finder's find_from too (a detector whose .json names a second_finder, "
                        "with --faces reader)")
    p.add_argument("--choose-agree-from", action="store_true",
                   help="choose the peak a first-file box and the second finder must reach together (a detector "
                        "whose .json names a second_finder, with --faces reader)")
    p.add_argument("--choose-typical", action="store_true",
                   help="choose the typical die's share of the width past which a frame is read shrunk (a detector "
                        "whose .json names a die_size, with --faces reader)")
    p.add_argument("--ask-for-new-tables", action="store_true",
                   help="hold every setting of the .json but ask_below, and choose it over the split's photos as "
                        "taken and changed as new tables change them (vision.shifts, but the camera's turn): the "
                        f"lowest that keeps silent misreads under {SILENT_LINE:.1%} of the dice")
    p.add_argument("--with-closer", type=float, nargs="+", default=(), metavar="Z",
                   help="calibrate on the photos as taken and on their middle enlarged Z times too (a camera lower "
                        "down; Z > 1), one cost over all")
    args = p.parse_args(argv)
    if any(z <= 1.0 for z in args.with_closer):
        p.error(f"--with-closer zooms must be above 1 (an enlarged middle), not {args.with_closer}")
    if args.find_from is not None and not 0.0 < args.find_from < 1.0:
        p.error(f"--find-from must lie between 0 and 1, not {args.find_from}")
    if args.ask_for_new_tables and (args.faces not in (None, ["reader"]) or args.with_closer
                                    or args.find_from is not None or args.choose_second_find_from
                                    or args.choose_agree_from or args.choose_typical or args.flip != "either"):
        p.error("--ask-for-new-tables holds every other setting as the .json has it: it takes no --faces but "
                "reader, --flip, --find-from, --with-closer or --choose-...")
    for option in ("choose_second_find_from", "choose_agree_from", "choose_typical"):
        if getattr(args, option) and args.faces != ["reader"]:
            p.error(f"--{option.replace('_', '-')} calibrates the reader's faces: add --faces reader")
    try:
        result = calibrate(args.model, classifier_path=args.classifier, views=args.views,
                           sources=("reader",) if args.ask_for_new_tables else tuple(args.faces) if args.faces
                           else None, second_look=args.second_look, new_tables=args.ask_for_new_tables,
                           combine=args.combine, flips=FLIPS[args.flip], find_from=args.find_from,
                           second_finds=SECOND_FIND_GRID if args.choose_second_find_from else None,
                           agrees=AGREE_GRID if args.choose_agree_from else None,
                           typicals=TYPICAL_GRID if args.choose_typical else None,
                           zooms=tuple(args.with_closer))
    except ValueError as e:
        p.error(str(e))
    print(json.dumps(result))
    if args.write:
        meta_path = args.model.with_suffix(".json")
        meta = json.loads(meta_path.read_text()) if meta_path.is_file() else {}
        meta.update(find_from=result["find_from"], ask_below=result["ask_below"], flip=result["flip"],
                    faces=result["faces"],
                    calibrated_on=result["calibrated_on"], calib_figures=result["figures"])
        meta.pop("calib_figures_by_look", None)   # a calibration on the photos as taken alone has none
        if "figures_by_look" in result:
            meta["calib_figures_by_look"] = result["figures_by_look"]
        meta.update(reader_settings(result))
        meta.pop("ask_chosen_over", None)
        if args.ask_for_new_tables:
            # calib_figures are the photos as taken, as every calibration's; the pooled figures the choice met apart.
            meta["ask_chosen_over"] = {"silent_line": SILENT_LINE, "figures": result["figures"],
                                       "changes": [look for look in result["figures_by_look"] if look != "as taken"]}
            meta["calib_figures"] = result["figures_by_look"]["as taken"]
        for chosen, key in (("second_find_from", "find_from"), ("agree_from", "agree_from")):
            if chosen in result:
                meta["second_finder"] = {**meta["second_finder"], key: result[chosen]}
        if "typical" in result:
            meta["die_size"] = {**meta["die_size"], "typical": result["typical"]}
        if args.classifier:
            # Stored beside the detector, by name: the reader loads them from its folder.
            folder = args.model.resolve().parent
            for f in args.classifier:
                if f.resolve().parent != folder:
                    raise SystemExit(f"{f} is not beside {args.model}: copy it there before --write")
            meta.update(face_models=[f.name for f in args.classifier], face_views=args.views or "one",
                        face_second_look=args.second_look or "unsure", face_combine=args.combine or "mean")
        elif args.views or args.second_look or args.combine:
            meta.update(**({"face_views": args.views} if args.views else {}),
                        **({"face_second_look": args.second_look} if args.second_look else {}),
                        **({"face_combine": args.combine} if args.combine else {}))
        meta_path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
