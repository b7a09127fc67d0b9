"""The learned dice detector: one TFLite network, one forward pass per frame -> dice, faces, boxes.

The network (vision/train/detector.py, CenterNet-style) gives a heatmap per face and a box head
on a grid 4 times coarser than its input; here a 3x3 max-pool keeps the peaks, each peak is a
die showing the face of its channel, and the peak's height is the die's confidence. The file's
thresholds (models/dice_detector.json) were chosen on the real photos of the calib split
(vision/train/calibrate.py), not on renders.

This is the only module that imports a TFLite runtime (vision.classify gets it from here).
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np


__all__ = ["DEFAULT_DETECTOR", "FACE_SOURCES", "OTHER", "Detection", "DiceModel", "classifier_faces",
           "decode", "detector_files", "interpreter_class", "load_detector", "network_input"]

DEFAULT_DETECTOR = Path(__file__).resolve().parent.parent / "models" / "dice_detector.tflite"
# The face head's seventh class (files with a face head): a die whose top face is no pip face,
# such as Welcome to Centerville's icon dice. Such a die is found, never read as a number.
OTHER = 7
# Used where the model's .json names no thresholds (a model not yet calibrated).
FIND_FROM = 0.3
ASK_BELOW = 0.5


def interpreter_class():
    """The first TFLite runtime that imports: ai-edge-litert, tflite-runtime, TensorFlow. Every model
    is loaded through here, so it is also where NumPy's BLAS goes to one thread (vision.blas)."""
    from .blas import one_blas_thread
    from .classify import ModelError
    one_blas_thread()
    try:
        from ai_edge_litert.interpreter import Interpreter
        return Interpreter
    except ImportError:
        pass
    try:
        from tflite_runtime.interpreter import Interpreter
        return Interpreter
    except ImportError:
        pass
    try:
        import tensorflow as tf
        return tf.lite.Interpreter
    except ImportError:
        raise ModelError("No TFLite runtime is installed: install ai-edge-litert "
                         "(or tflite-runtime) to read dice.", "ai-edge-litert") from None


@dataclass(frozen=True)
class Detection:
    face: int                                   # 1..6
    confidence: float                           # how sure the face is, 0..1 (the peak's height without a face head)
    box: tuple[int, int, int, int]              # in the frame's pixels, x1 y1 exclusive
    peak: float = -1.0                          # the heat peak's height, 0..1 (-1: confidence)
    probs: tuple[float, ...] | None = None      # the face head's 7 probabilities (1..6, OTHER), if any
    blocked: float = 0.0                        # a second finder's box: the strongest first-file die it
                                                # would double (TwoFinders); kept only under a find_from above it
    opens: tuple[float, float] | None = None    # a second finder's box read only near small dice: the strongest
                                                # small first-file die and the strongest of all (TwoFinders)
    support: float = -1.0                       # a first-file box: the second finder's strongest peak on it
                                                # (TwoFinders with agree_from; -1: not looked at)

    @property
    def strength(self) -> float:
        """How sure it is a die at all: the peak's height."""
        return self.confidence if self.peak < 0 else self.peak

    def read_at(self, find_from: float, agree_from: float = 0.0) -> bool:
        """Whether a reader at find_from (and a pair at agree_from) reads this box (TwoFinders.candidates'
        bookkeeping)."""
        if self.strength < find_from or self.blocked >= find_from:
            return False
        if self.support >= 0 and not agreed(self.strength, self.support, agree_from):
            return False
        return self.opens is None or self.opens[0] >= find_from or self.opens[1] < find_from


class DiceModel:
    """Loads the detector once; detect(frame_bgr) -> [Detection] for a frame of any size."""

    def __init__(self, model_path: Path | str | None = None, num_threads: int = 1,
                 find_from: float | None = None, flip: bool | None = None):
        from .classify import ModelError
        self.model_path = Path(model_path) if model_path is not None else DEFAULT_DETECTOR
        if not self.model_path.is_file():
            raise ModelError(f"The dice detector {self.model_path} does not exist.", self.model_path)
        meta_path = self.model_path.with_suffix(".json")
        self.meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
        self.find_from = find_from if find_from is not None else float(self.meta.get("find_from", FIND_FROM))
        self.ask_below = float(self.meta.get("ask_below", ASK_BELOW))
        # Also read the mirrored frame and average the heatmaps (a second pass, a few ms): chosen
        # in the .json where it read more calib dice right.
        self.flip = bool(self.meta.get("flip", False)) if flip is None else flip
        try:
            self._interpreter = interpreter_class()(model_path=str(self.model_path), num_threads=num_threads)
            self._interpreter.allocate_tensors()
        except (ValueError, RuntimeError) as exc:
            raise ModelError(f"The dice detector {self.model_path} is not a usable TFLite model: {exc}",
                             self.model_path) from exc
        inp = self._interpreter.get_input_details()[0]
        self._input = inp["index"]
        _, self.input_h, self.input_w, _ = (int(v) for v in inp["shape"])
        outs = self._interpreter.get_output_details()
        # Heat has 6 channels, box 4, the face head (files since issue 14's second round) 7: tell
        # them apart by shape (converters reorder outputs).
        by_depth = {int(o["shape"][-1]): o["index"] for o in outs}
        self._heat, self._box, self._face = by_depth[6], by_depth[4], by_depth.get(7)
        self.has_face_head = self._face is not None

    def raw(self, frame_bgr: np.ndarray):
        """The network's heat (h, w, 6), box (h, w, 4) and face (h, w, 7, or None) maps for a frame,
        padded at its right or bottom to the network's shape first (fit_aspect)."""
        plain, mirrored = self.passes(frame_bgr)
        return mirrored or plain

    def passes(self, frame_bgr: np.ndarray, mirror: bool = True, plain=None):
        """The frame's maps from one pass, and (with flip, where mirror) those maps averaged with the
        mirrored frame's (None otherwise): raw() is the second where there is one. plain: the first already
        made for this frame (vision.die_size sizes the dice from it)."""
        x = network_input(frame_bgr, self.input_w, self.input_h) if plain is None or self.flip and mirror else None
        heat, box, face = plain if plain is not None else self._run(x)
        if not (self.flip and mirror):
            return (heat, box, face), None
        # Pip layouts are mirror-symmetric: the mirrored frame's maps, mirrored back, are a
        # second opinion on the same faces (boxes come from the first pass only).
        heat2, _, face2 = self._run(cv2.flip(x, 1))   # x[:, ::-1] byte for byte, 0.35 -> 0.02 ms
        return (heat, box, face), ((heat + heat2[:, ::-1]) / 2, box,
                                   None if face is None else (face + face2[:, ::-1]) / 2)

    def _run(self, x: np.ndarray):
        self._interpreter.set_tensor(self._input, x[None].astype(np.float32))
        self._interpreter.invoke()
        get = lambda i: None if i is None else self._interpreter.get_tensor(i)[0].copy()  # noqa: E731
        return get(self._heat), get(self._box), get(self._face)

    def detect(self, frame_bgr: np.ndarray, find_from: float | None = None, plain=None) -> list[Detection]:
        """The frame's dice whose peaks reach find_from (plain: as passes() takes it)."""
        own, mirrored = self.passes(frame_bgr, plain=plain)
        return self.decoded(frame_bgr, mirrored or own, find_from)

    def decoded(self, frame_bgr: np.ndarray, maps, find_from: float | None = None) -> list[Detection]:
        """The dice in maps (raw() or passes() of this frame) whose peaks reach find_from."""
        heat, box, face = maps
        h, w = frame_bgr.shape[:2]
        fw, fh = fitted_size(w, h, self.input_w / self.input_h)
        dets = decode(heat, box, fw / heat.shape[1], fh / heat.shape[0],
                      self.find_from if find_from is None else find_from, w, h, face)
        if (fw, fh) != (w, h):  # a peak in the padding clips to no box: nothing is there
            dets = [d for d in dets if d.box[2] > d.box[0] and d.box[3] > d.box[1]]
        return dets

    def candidates(self, frame_bgr: np.ndarray, find_from: float | None = None, plain=None) -> list[Detection]:
        """detect(): one file has no box that another could double (TwoFinders.candidates)."""
        return self.detect(frame_bgr, find_from, plain)


def agreed(strength: float, support: float, agree_from: float) -> bool:
    """Whether a first-file box of this peak, with the second file's strongest peak on it, is kept at agree_from."""
    return (strength + support) / 2 >= agree_from


def load_detector(model_path: Path | str | None = None, num_threads: int = 1, find_from: float | None = None,
                  flip: bool | None = None):
    """The detector file as the reader uses it: a DiceModel, or a vision.two_finders.TwoFinders where its .json
    names a second_finder (find_from and flip are the first file's; the second's are in second_finder), read
    through a vision.die_size.DiceAtSize where it names a die_size."""
    first = DiceModel(model_path, num_threads, find_from, flip)
    finder = first
    if "second_finder" in first.meta:
        from .two_finders import TwoFinders, second_finder_settings
        name, second_flip, settings = second_finder_settings(first.meta["second_finder"], first.model_path)
        second = DiceModel(first.model_path.parent / name, num_threads, flip=second_flip)
        finder = TwoFinders(first, second, **settings)
    if "die_size" not in first.meta:
        return finder
    from .die_size import DiceAtSize, die_size_settings
    return DiceAtSize(finder, **die_size_settings(first.meta["die_size"], first.model_path))


def detector_files(model_path: Path | str | None = None) -> list[Path]:
    """The .tflite files load_detector reads for model_path: the file, and the second finder its .json
    names (checked as load_detector checks it), without loading either (bench/detector_memory.py)."""
    path = Path(model_path) if model_path is not None else DEFAULT_DETECTOR
    meta_path = path.with_suffix(".json")
    meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
    if "second_finder" not in meta:
        return [path]
    from .two_finders import second_finder_settings
    return [path, path.parent / second_finder_settings(meta["second_finder"], path)[0]]


def _check_keys(settings, keys: dict, optional: set, where: str, needed: str, model_path: Path) -> None:
    """A .json object's settings refused at the edge by name: not an object, a key it does not take, a key it
    needs missing, or a value of the wrong type (a bool is no number)."""
    from .classify import ModelError
    if not isinstance(settings, dict):
        raise ModelError(f"{where} must be an object with {needed}, not {settings!r}.", model_path)
    for key in settings:
        if key not in keys:
            raise ModelError(f"{where} has no setting {key!r} (it takes {', '.join(keys)}).", model_path)
    for key, kind in keys.items():
        if key not in settings:
            if key in optional:
                continue
            raise ModelError(f"{where} needs {key!r}.", model_path)
        if not isinstance(settings[key], kind) or (kind != bool and isinstance(settings[key], bool)):
            raise ModelError(f"{where}'s {key} must be a {kind.__name__ if isinstance(kind, type) else 'number'}, "
                             f"not {settings[key]!r}.", model_path)


def _check_shares(settings, keys, where: str, model_path: Path) -> None:
    """Each of keys that settings holds is a share: above 0 and at most 1, else refused by name."""
    from .classify import ModelError
    for key in keys:
        if key in settings and not 0.0 < settings[key] <= 1.0:
            raise ModelError(f"{where}'s {key} must lie above 0 and at most 1, not {settings[key]}.", model_path)


# A frame within this of the network's aspect ratio is resized as it is (4:3 photos and cameras).
ASPECT_TOLERANCE = 0.01


def fitted_size(width: int, height: int, aspect: float) -> tuple[int, int]:
    """The frame's size once padded to the network's aspect ratio (width / height)."""
    ratio = width / height
    if ratio > aspect * (1 + ASPECT_TOLERANCE):
        return width, round(width / aspect)
    if ratio < aspect / (1 + ASPECT_TOLERANCE):
        return round(height * aspect), height
    return width, height


# network_input shrinks a frame first when padding it to the network's aspect would multiply its pixels by more.
PADDED_AT_MOST = 4


def network_input(frame_bgr: np.ndarray, width: int, height: int) -> np.ndarray:
    """The frame as the detector sees it: padded to its aspect ratio (fit_aspect), then resized
    to width x height (BGR uint8). Also what an int8 file's representative photos are made of
    (vision.train.convert_detector), so that its ranges are the app's.

    A frame that padding would make more than PADDED_AT_MOST times bigger (a strip wider than 16:3
    or taller than 1:3) is shrunk to the network's scale first: padded at full size, a 65,535 x 1,000 photo
    became a 9.7 GB frame and `make fuzz` was killed (tests/vision/test_image_fuzz.py). Every
    camera's frame and the shared photos take the first way, byte for byte as before."""
    h, w = frame_bgr.shape[:2]
    fw, fh = fitted_size(w, h, width / height)
    if fw * fh > PADDED_AT_MOST * w * h:
        scale = width / fw
        frame_bgr = cv2.resize(frame_bgr, (max(1, round(w * scale)), max(1, round(h * scale))),
                               interpolation=cv2.INTER_AREA)
    return cv2.resize(fit_aspect(frame_bgr, width / height), (width, height), interpolation=cv2.INTER_AREA)


def fit_aspect(frame_bgr: np.ndarray, aspect: float) -> np.ndarray:
    """The frame padded at its bottom (a wide frame) or right (a tall one) to the network's aspect
    ratio by repeating its last row or column: its dice keep their shape. Squashed into the 4:3
    input instead, a 16:9 webcam frame's dice were stretched tall, as no training tray showed them.
    Measured on the real calib photos cut to 16:9 (bench/real_shifts.py's top, middle and bottom bands
    of both sets: 592 dice; a die less than 90 % inside is not counted either way), squashed -> padded: 528 -> 543
    read right, 12 -> 9 silent misreads, 30 -> 29 boxes on no die. Padding in the frame's mean
    colour read 544 but left 43 boxes on no die (the hard edge). The same photos turned to portrait
    (233 dice, which also turns the slanted dice's side faces sideways): 169 read right either way,
    found 195 -> 204, boxes on no die 15 -> 8, but silent misreads 8 -> 14. 4:3 frames (both real
    sets, the Pi camera at 640x480) are not touched."""
    h, w = frame_bgr.shape[:2]
    fw, fh = fitted_size(w, h, aspect)
    if (fw, fh) == (w, h):
        return frame_bgr
    return cv2.copyMakeBorder(frame_bgr, 0, fh - h, 0, fw - w, cv2.BORDER_REPLICATE)


def decode(heat, box, sx: float, sy: float, find_from: float, width: int, height: int,
           face_map=None) -> list[Detection]:
    """Peaks of the face heatmaps (3x3 max-pool, over every face at once) as detections; sx, sy:
    frame pixels per grid cell. With the face head's map (h, w, 7), the face and its confidence
    are the head's at the peak: its likeliest pip face and that face's probability, so a die
    the head calls OTHER (an icon face, no pips) is found but has a low confidence and is asked."""
    best = _channel_max(heat)
    pooled = cv2.dilate(best, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((best >= pooled) & (best >= find_from))
    peaks = best[ys, xs]
    if face_map is None:
        faces, sure, probs = heat[ys, xs].argmax(axis=1) + 1, peaks, [None] * len(ys)
    else:
        at = face_map[ys, xs]
        faces = at[:, :6].argmax(axis=1) + 1
        sure, probs = at[np.arange(len(ys)), faces - 1], [tuple(p) for p in at.tolist()]
    # The boxes in float64, as Python floats would be (a peak at a time, this was 0.6-0.8 ms a frame).
    lw, lh, dx, dy = box[ys, xs].astype(np.float64).T
    cx, cy = (xs + dx) * sx, (ys + dy) * sy
    w, h = np.exp(np.clip(lw, -3, 5)) * sx, np.exp(np.clip(lh, -3, 5)) * sy
    x0, y0 = np.maximum(0, np.round(cx - w / 2)), np.maximum(0, np.round(cy - h / 2))
    x1, y1 = np.minimum(width, np.round(cx + w / 2)), np.minimum(height, np.round(cy + h / 2))
    out = [Detection(f, s, b, p, pr) for f, s, b, p, pr in
           zip(faces.tolist(), sure.tolist(), zip(*(v.astype(int).tolist() for v in (x0, y0, x1, y1))),
               peaks.tolist(), probs)]
    return _one_per_die(out)


def _channel_max(maps: np.ndarray) -> np.ndarray:
    """maps.max(axis=2), a channel at a time: NumPy reduces a last axis of 6 element by element (0.24 against
    0.02 ms for a 72 x 96 x 6 map, session 51)."""
    best = maps[..., 0].copy()
    for c in range(1, maps.shape[2]):
        np.maximum(best, maps[..., c], out=best)
    return best


def _one_per_die(dets: list[Detection], inner: float = 0.8) -> list[Detection]:
    """Drop a peak whose centre lies in the middle of a stronger die's box, or whose own box holds
    a stronger die's centre in its middle: a big die's face can raise two peaks a few cells apart
    (the 3x3 max-pool keeps both), one boxing its top face and one its whole body. A touching
    neighbour's centre lies about one edge away, outside the middle inner of a box its size.
    The second way round (issue 14 round 15, models/DETECTOR_ROUNDS.md), the shipped reader:
    calib (233 dice) boxes on no die 9 -> 8 and doubled 5 -> 2, flagged 34 -> 32, read right 215 and
    found 226 both ways; test (253 dice) doubled 6 -> 4, the rest unchanged; rendered trays (6,512
    dice) found 6,464 -> 6,460."""
    kept: list[Detection] = []
    for d in sorted(dets, key=lambda d: -d.strength):
        if not any(_in_middle(d.box, k.box, inner) or _in_middle(k.box, d.box, inner) for k in kept):
            kept.append(d)
    return kept


def _in_middle(box, outer, inner: float) -> bool:
    """box's centre lies in the middle inner (a share of each side) of outer."""
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return (abs(cx - (outer[0] + outer[2]) / 2) < inner * (outer[2] - outer[0]) / 2 and
            abs(cy - (outer[1] + outer[3]) / 2) < inner * (outer[3] - outer[1]) / 2)


def classifier_faces(classifier, frame_bgr: np.ndarray, dets: list[Detection], blend: bool = False,
                     crops: np.ndarray | None = None) -> list[Detection]:
    """The same dice with the face and confidence the crop classifier (vision.classify) reads in
    their boxes: the second opinion where the network's own face channels read worse. blend:
    the mean of the classifier's and the face head's probabilities of each pip face (a box the
    classifier calls no die, or the head OTHER, gets a low confidence and is asked)."""
    if not dets:
        return []
    probs = classifier.box_probabilities(frame_bgr, [d.box for d in dets], crops)  # each file's own crop
    if blend and all(d.probs is not None for d in dets):
        pips = [classifier.labels.index(f"pip{v}") for v in range(1, 7)]
        mean = (probs[:, pips] + np.array([d.probs[:6] for d in dets], np.float32)) / 2
        faces, probability = mean.argmax(axis=1) + 1, mean.max(axis=1)
    else:
        best, probability = classifier.faces(probs)
        faces = [int(classifier.labels[k].removeprefix("pip")) for k in best]
    return [Detection(int(f), float(p), d.box, d.strength, d.probs) for f, p, d in zip(faces, probability, dets)]


FACE_SOURCES = ("model", "classifier", "blend", "reader")
