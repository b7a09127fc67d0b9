"""The die-face classifier: a TFLite model run by ai-edge-litert (else tflite-runtime, else
TensorFlow Lite), created once per reader and fed every die crop of a frame in one batch.

The runtime comes from vision.model, the only module that imports one.
"""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np

__all__ = ["ModelError", "FaceClassifier", "VIEWS", "COMBINES", "DEFAULT_MODEL", "NOT_A_DIE", "labels_path_for",
           "load_labels", "crop_path_for", "crop_convention", "write_crop_convention"]

DEFAULT_MODEL = Path(__file__).resolve().parent.parent / "models" / "dice_faces.tflite"

# The label of a crop that holds no one die (a detector's box beside a die, between two, around
# two, on bare tray or on a pip alone): the model judges the detector's boxes as it reads them.
NOT_A_DIE = "none"


class ModelError(RuntimeError):
    """The face model or its labels cannot be used; the message names the file."""

    def __init__(self, message: str, path: Path | str):
        super().__init__(message)
        self.path = str(path)


def labels_path_for(model_path: Path | str) -> Path:
    """models/x.tflite -> models/x.labels.txt (the labels live beside their model)."""
    p = Path(model_path)
    return p.with_name(p.name.removesuffix(".tflite") + ".labels.txt")


def crop_path_for(model_path: Path | str) -> Path:
    """models/x.tflite -> models/x.crop.json: the crop the file was trained on, when it is not
    vision.crops' default (CROP_MARGIN); a file without one is read at the default."""
    p = Path(model_path)
    return p.with_name(p.name.removesuffix(".tflite") + ".crop.json")


def crop_convention(model_path: Path | str) -> float:
    """The crop margin (crop side / die box's longer side) the model file was trained on."""
    from .crops import CROP_MARGIN
    p = crop_path_for(model_path)
    if not p.is_file():
        return CROP_MARGIN
    try:
        margin = float(json.loads(p.read_text(encoding="utf-8"))["crop_margin"])
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelError(f"The dice model's crop file {p} cannot be used: {exc}.", p) from exc
    if not 0.5 <= margin <= 4.0:
        raise ModelError(f"The dice model's crop file {p} gives a crop margin of {margin}, not 0.5-4.", p)
    return margin


def write_crop_convention(model_path: Path | str, margin: float) -> Path | None:
    """Write model_path's .crop.json when margin is not the default (else remove a stale one)."""
    from .crops import CROP_MARGIN
    p = crop_path_for(model_path)
    if float(margin) == CROP_MARGIN:
        p.unlink(missing_ok=True)
        return None
    p.write_text(json.dumps({"crop_margin": float(margin)}) + "\n", encoding="utf-8")
    return p


def load_labels(path: Path | str) -> tuple[str, ...]:
    """One label per line; blank lines and '#' comments are ignored."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as exc:
        raise ModelError(f"The dice model's labels file {p} cannot be read: {exc.strerror or exc}.", p) from exc
    labels = tuple(line.strip() for line in text.splitlines()
                   if line.strip() and not line.strip().startswith("#"))
    if not labels:
        raise ModelError(f"The dice model's labels file {p} holds no labels.", p)
    if len(set(labels)) != len(labels):
        raise ModelError(f"The dice model's labels file {p} names a label twice.", p)
    return labels


# Test-time views of a crop (vision.classify.FaceClassifier's `views`): the probabilities are
# averaged over them. "mirror" is in the training's own augmentation (a left-right flip keeps
# every pip layout); quarter turns are not (vision/train/model.py: in steep views the side faces
# lie at the bottom of the crop), so "turns" is measured, not assumed. Measured on the real calib
# split (233 dice, issue 14 round 5, models/DETECTOR_ROUNDS.md): quarter turns lose 13-16 dice;
# "mirror", with the reader's second look for every die, asks 24 questions where one view asked
# 34, at the same 3 silent misreads, but read no more dice right than the rule asked (+3 of +4)
# and let one more through silently on test: not shipped, the .json names no face_views.
VIEWS = {
    "one": (lambda c: c,),
    "mirror": (lambda c: c, lambda c: c[:, :, ::-1]),
    "turns": tuple((lambda k: lambda c: np.rot90(c, k, axes=(1, 2)))(k) for k in range(4)),
    "turns+mirror": tuple((lambda k, m: lambda c: np.rot90(c[:, :, ::-1] if m else c, k, axes=(1, 2)))(k, m)
                          for m in (False, True) for k in range(4)),
}
# Shifts of SHIFT pixels toward each corner (edges reflected), as the training's own augmentation
# shifts crops (up to 3 pixels): a detector's box a little off the die's centre.
SHIFT = 2
_shifts = tuple((lambda dy, dx: lambda c: np.pad(c, ((0, 0), (SHIFT, SHIFT), (SHIFT, SHIFT), (0, 0)), mode="reflect")
                 [:, SHIFT + dy:SHIFT + dy + c.shape[1], SHIFT + dx:SHIFT + dx + c.shape[2]])(dy, dx)
                for dy, dx in ((0, 0), (-SHIFT, -SHIFT), (-SHIFT, SHIFT), (SHIFT, -SHIFT), (SHIFT, SHIFT)))
VIEWS["shifts"] = _shifts
VIEWS["mirror+shifts"] = _shifts + tuple((lambda v: lambda c: v(c[:, :, ::-1]))(v) for v in _shifts)

# How an ensemble's files are combined (FaceClassifier's `combine`): "mean" averages their
# probabilities; "least" still averages NOT_A_DIE's (whether a box holds a die is judged as by
# "mean", so the finder's drop is unchanged) but gives each face the least probability any file
# gives it, so a face two files read differently is read no surer than the doubting file reads it
# and is asked: two opinions must agree before a die goes unasked (issue 14 round 18).
# "first-judges": the first file alone judges whether a box holds a die (its NOT_A_DIE probability as
# it is) and the second alone reads the face (its face probabilities scaled to the rest), for a
# file that reads slanted dice better than it judges boxes (issue 14 round 32b).
# "first-judges-least": the first file judges as in "first-judges"; each face is the lesser of the
# first file's probability and the second's as "first-judges" scales it, not renormalised, so a die
# the two read as different faces keeps a low confidence and is asked (issue 14 round 33b).
COMBINES = ("mean", "least", "first-judges", "first-judges-least")
JUDGED = ("first-judges", "first-judges-least")


class FaceClassifier:
    """Names the face of each die crop (RGB uint8, INPUT_SIZE square) with a confidence 0..1.

    model_path may name one model file or several (an ensemble: the same labels, their
    probabilities averaged, or combined another way: COMBINES, e.g. "least", each face's least
    probability among them); views (a key of VIEWS) also averages each crop's probabilities
    over its mirror image and/or quarter turns. One file and "one" view is the plain classifier.

    Each file reads crops of its own convention: its input size and its crop margin (its
    .crop.json, vision.crops.CROP_MARGIN without one). input_size and crop_margin are the first
    file's; crop() cuts that convention. box_probabilities() reads dice from a frame and cuts each
    file's own crops, so files of different conventions can be averaged; probabilities() takes
    crops and so needs files of one convention.
    """

    def __init__(self, model_path=None, labels_path: Path | str | None = None,
                 num_threads: int = 1, views: str = "one", combine: str = "mean"):
        # One thread: a dozen 48x48 crops take a few milliseconds, and on a Pi whose other cores
        # run the camera and the screen, extra interpreter threads only wait for each other.
        if model_path is None:
            paths = (DEFAULT_MODEL,)
        elif isinstance(model_path, (str, Path)):
            paths = (Path(model_path),)
        else:
            paths = tuple(Path(p) for p in model_path)
            if not paths:
                raise ValueError("An ensemble of face classifiers needs at least one model file.")
        if views not in VIEWS:
            raise ValueError(f"views must be one of {', '.join(VIEWS)}, not {views!r}.")
        if combine not in COMBINES:
            raise ValueError(f"combine must be one of {', '.join(COMBINES)}, not {combine!r}.")
        self.views = views
        self.combine = combine
        self.model_paths = paths
        self.model_path = paths[0]
        self.labels_path = Path(labels_path) if labels_path is not None else labels_path_for(self.model_path)
        self._members = [_Member(p, self.labels_path if i == 0 else labels_path_for(p), num_threads)
                         for i, p in enumerate(paths)]
        first = self._members[0]
        for m in self._members[1:]:
            if m.labels != first.labels:
                raise ModelError(f"The dice model {m.path} does not match {first.path} (labels "
                                 f"{', '.join(m.labels)}): an ensemble's files must read the same faces.", m.path)
        self.labels = first.labels
        self.input_size = first.input_size
        self.crop_margin = first.crop_margin
        self.conventions = tuple(dict.fromkeys(m.convention for m in self._members))
        # Where NOT_A_DIE sits among the outputs (None for a model that only reads faces).
        self.none_index = self.labels.index(NOT_A_DIE) if NOT_A_DIE in self.labels else None
        if combine in JUDGED and (len(paths) != 2 or self.none_index is None):
            raise ModelError(f'combine="{combine}" needs two files, a judge and a reader, whose labels include '
                             f"{NOT_A_DIE!r}; got {len(paths)} file(s) reading {', '.join(self.labels)}.",
                             self.model_path)

    def classify(self, crops: np.ndarray) -> list[tuple[str, float]]:
        """(label, confidence) for each crop of a (N, S, S, 3) uint8 RGB batch."""
        crops = np.asarray(crops)
        if crops.ndim == 3:
            crops = crops[None]
        if len(crops) == 0:
            return []
        s = self.input_size
        if crops.shape[1:] != (s, s, 3):
            raise ValueError(f"Die crops must be {s}x{s} RGB, not {crops.shape[1:]}.")
        probs = self.probabilities(crops)
        best = probs.argmax(axis=1)
        return [(self.labels[i], float(probs[n, i])) for n, i in enumerate(best)]

    def faces(self, probs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """For (N, classes) probabilities: each row's likeliest face (its label index) and that
        face's probability, NOT_A_DIE set aside (a box known, or kept, to hold a die is read so)."""
        faces = np.array(probs, dtype=np.float32, ndmin=2)
        if self.none_index is not None:
            faces[:, self.none_index] = -1.0
        best = faces.argmax(axis=1)
        return best, faces[np.arange(len(faces)), best]

    def crop(self, image_bgr: np.ndarray, box) -> np.ndarray:
        """The die crop this classifier reads (its first file's size and margin)."""
        from .crops import die_crop
        return die_crop(image_bgr, box, self.input_size, self.crop_margin)

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        """Class probabilities (N, classes) for a uint8 RGB batch: the ensemble's files combined
        by its combine (one of COMBINES), each file's averaged over the crop's views (all in one
        batch per file)."""
        if len(self.conventions) > 1:
            raise ValueError("These face models read crops of different sizes or margins "
                             f"({self.conventions}): read boxes with box_probabilities.")
        crops = np.asarray(crops)
        return self._combined([self._viewed(m, crops) for m in self._members])

    def box_probabilities(self, image_bgr: np.ndarray, boxes, crops: np.ndarray | None = None) -> np.ndarray:
        """Class probabilities (N, classes) of the dice in boxes (x0, y0, x1, y1) of a BGR frame,
        each file reading its own crops; combined as probabilities(). crops: these boxes'
        crops in vision.crops' default convention, when the caller has cut them already (the
        reader keeps them for the table): a classifier of that convention reads them as they are."""
        from .crops import CROP_MARGIN, INPUT_SIZE, die_crop
        if len(self.conventions) == 1:
            size, margin = self.conventions[0]
            if crops is None or (size, margin) != (INPUT_SIZE, CROP_MARGIN):
                crops = np.stack([die_crop(image_bgr, b, size, margin) for b in boxes])
            return self.probabilities(crops)
        cut = {(size, margin): np.stack([die_crop(image_bgr, b, size, margin) for b in boxes])
               for size, margin in self.conventions}
        return self._combined([self._viewed(m, cut[m.convention]) for m in self._members])

    def _viewed(self, member, crops: np.ndarray) -> np.ndarray:
        """One file's probabilities of crops, averaged over the crops' views."""
        views = VIEWS[self.views]
        batch = np.concatenate([np.ascontiguousarray(v(crops)) for v in views]) if len(views) > 1 else crops
        return member.probabilities(batch).reshape(len(views), len(crops), -1).mean(axis=0)

    def _combined(self, per_file: list[np.ndarray]) -> np.ndarray:
        if len(per_file) == 1:
            return per_file[0]
        if self.combine == "first-judges":
            return self._first_judges(*per_file)
        if self.combine == "first-judges-least":
            judged = self._first_judges(*per_file)
            return np.minimum(judged, per_file[0])  # NOT_A_DIE is the judge's in both
        mean = sum(per_file) / len(per_file)
        if self.combine == "mean":
            return mean
        least = np.minimum.reduce(per_file)
        if self.none_index is not None:
            least[:, self.none_index] = mean[:, self.none_index]
        return least

    def _first_judges(self, judge: np.ndarray, reader: np.ndarray) -> np.ndarray:
        faces = np.delete(np.arange(reader.shape[1]), self.none_index)
        # A hair added to every face: a box an int8 reader gives no face at all (all its probability
        # on NOT_A_DIE) is shared evenly, so the result still sums to 1.
        share = reader[:, faces] + 1e-9
        share /= share.sum(axis=1, keepdims=True)
        out = np.empty_like(reader)
        out[:, self.none_index] = judge[:, self.none_index]
        out[:, faces] = share * (1.0 - judge[:, [self.none_index]])
        return out


class _Member:
    """One TFLite face model and its interpreter."""

    def __init__(self, path: Path, labels_path: Path, num_threads: int):
        self.path = path
        if not path.is_file():
            raise ModelError(f"The dice model {path} does not exist; "
                             "dice must be entered by hand until it is installed.", path)
        self.labels = load_labels(labels_path)
        from .model import interpreter_class  # vision.model imports this module's ModelError
        runtime = interpreter_class()
        try:
            self._interpreter = runtime(model_path=str(path), num_threads=num_threads)
            self._interpreter.allocate_tensors()
        except (ValueError, RuntimeError) as exc:
            raise ModelError(f"The dice model {path} is not a usable TFLite model: {exc}", path) from exc
        inp = self._interpreter.get_input_details()[0]
        out = self._interpreter.get_output_details()[0]
        self._input_index = inp["index"]
        self._output_index = out["index"]
        self._input_dtype = inp["dtype"]
        self._input_quant = inp.get("quantization", (0.0, 0))
        self._output_quant = out.get("quantization", (0.0, 0))
        shape = tuple(int(v) for v in inp["shape"])
        if len(shape) != 4 or shape[3] != 3 or shape[1] != shape[2]:
            raise ModelError(f"The dice model {path} takes input {shape}, "
                             "not a batch of square RGB crops.", path)
        self.input_size = shape[1]
        self.crop_margin = crop_convention(path)
        self.convention = (self.input_size, self.crop_margin)
        classes = int(out["shape"][-1])
        if classes != len(self.labels):
            raise ModelError(f"The dice model {path} has {classes} outputs but its labels "
                             f"file {labels_path} names {len(self.labels)} faces.", path)
        self._batch = shape[0]

    def probabilities(self, crops: np.ndarray) -> np.ndarray:
        x = self._prepare(crops)
        if len(x) != self._batch:
            # Resizing re-plans the interpreter: only done when the number of dice changes.
            self._interpreter.resize_tensor_input(self._input_index, list(x.shape))
            self._interpreter.allocate_tensors()
            self._batch = len(x)
        self._interpreter.set_tensor(self._input_index, x)
        self._interpreter.invoke()
        y = self._interpreter.get_tensor(self._output_index).astype(np.float32)
        scale, zero = self._output_quant
        if scale:
            y = (y - zero) * scale
        # A model that ends in logits rather than a softmax still gives probabilities here.
        if y.min() < 0 or not np.allclose(y.sum(axis=1), 1.0, atol=0.05):
            y = np.exp(y - y.max(axis=1, keepdims=True))
            y /= y.sum(axis=1, keepdims=True)
        return y

    def _prepare(self, crops: np.ndarray) -> np.ndarray:
        if self._input_dtype == np.float32:
            # The model normalises inside (a Rescaling layer): it takes pixel values 0..255.
            return crops.astype(np.float32)
        scale, zero = self._input_quant
        if scale:
            q = np.round(crops.astype(np.float32) / 255.0 / scale + zero)
            info = np.iinfo(self._input_dtype)
            return np.clip(q, info.min, info.max).astype(self._input_dtype)
        return crops.astype(self._input_dtype)
