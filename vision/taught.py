"""Few-shot dice reading by taught examples: Centerville's icon dice, or any die a table teaches.

A table teaches its own dice: a few crops of each face, filed under the face's label. A die in a
frame is read by embedding its crop (models/dice_embedding.tflite: a small CNN giving an
L2-normalised vector) and comparing it with the taught examples of the faces that die can show;
its face is the label whose nearest examples are most similar. Where the nearest examples are
far (a face never taught, a die half hidden) or two faces come close (the examples disagree),
the die is flagged uncertain, with a reason, so the table asks instead of guessing.

    TaughtExamples(root)            taught crops on disk: root/<label>/<n>.png (vision.taught_examples)
    TaughtReader(examples, dice=None | "centerville")
        .read(frame_bgr) -> DiceReading   (vision.reader's reading; dice are TaughtDieRead)
        .read_crop(crop_bgr) -> TaughtDieRead   one die's picture
        .teach(label, crop_bgr)           add an example (a confirmed or corrected face)
    Embedder(model_path=None)       crops -> unit vectors (the TFLite network, loaded once)

With dice="centerville" every die's colour is found first (vision.colours: the six dice of a
tray as one assignment, under the table's light) and the die is read among its own colour's
faces only (a black die cannot show fate). This module and vision.model are the only ones that
load a TFLite runtime.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

import cv2
import numpy as np

from companion.engine.dice import pip_value

from .crops import die_crop
from .example_crop import example_crop
from .earned import CheckedRead, Earned, EvidenceError
from .reader import DiceReading, DieRead
# The taught examples on disk live in their own module; they are part of this module's API.
from .taught_examples import ExampleError, TaughtExamples

__all__ = ["DEFAULT_EMBEDDING", "EMBED_SIZE", "Embedder", "ExampleError", "TaughtDieRead", "TaughtExamples",
           "TaughtReader", "View", "Views", "die_vectors", "example_vectors", "face_scores"]

DEFAULT_EMBEDDING = Path(__file__).resolve().parent.parent / "models" / "dice_embedding.tflite"
EMBED_SIZE = 48
# Used where the model's .json has no calibrated figures (the interim embedding).
FAR_BELOW = 0.6      # best similarity under this: the nearest taught examples are far
CLOSE_BELOW = 0.08   # best minus second-best face under this: the examples disagree
SCALE = 12.0         # cosine similarities times this, softmaxed, give the confidence
NEAREST = 3          # a face's score: the mean similarity of its nearest this many examples
# Tried on 2026-12-03 (pm) and not kept: a face's score as the similarity to its prototype (unit
# mean of its examples), and as the mean of that and the score above. Chosen on calibration dice,
# the mean of both read a little more right and asked less there (rendered dice, 1 / 3 taught:
# 89.3% / 93.9% right against 89.2% / 93.5%, asked 89.2% / 83.9% against 90.4% / 86.3%), but on
# the bench it let 0.52% of the real aws-workshop-dice test reads through silently (3 of 582)
# against 0.34% (models/EMBEDDING_ROUNDS.md).
# A die lies any way up, and the network's quarter-turn invariance is learned, so not exact:
# each taught example is kept in its four quarter turns, and a die is read by the mean of its
# four turns' vectors. With the shipped model of session 20, held-out glyph families read
# 65.4% -> 69.9% right with 1 taught a face, 72.0% -> 79.5% with 3 (bench/icon_dice.py's dice).
TURNS = 4


def _gamma(value: float) -> np.ndarray:
    return np.round(255.0 * (np.arange(256) / 255.0) ** value).astype(np.uint8)


# Looks a taught example may also be kept in (a model's .json names them, example_looks): the
# camera changes of bench/real_shifts.py, at a die's size in the 48 px crop. The network's input is
# standardised per crop, so a plain gain or offset would change nothing; a gamma and a blur do.
LOOKS = {
    "blur": lambda crop: cv2.GaussianBlur(crop, (0, 0), 1.2),
    "dim": lambda crop, lut=_gamma(1.8): cv2.LUT(crop, lut),
    "bright": lambda crop, lut=_gamma(0.6): cv2.LUT(crop, lut),
}


class View(NamedTuple):
    """One view of a crop: turned by angle degrees, zoomed by scale, in a look of LOOKS ("": as taken)."""
    angle: int
    scale: float = 1.0
    look: str = ""


@dataclass(frozen=True)
class Views:
    """Which views of a crop are embedded: a taught example is kept as every example view (each
    its own example), a die to read is the unit mean of its query views. The model's .json may
    name them (example_turns, example_scales, query_turns, example_looks); without, quarter turns
    at scale 1 both ways (TURNS, as shipped). Turns are 4 (quarter) or 8 (eighths too); a scale other than 1
    zooms the crop about its centre. A turn off the quarter or a scale is made by cv2.warpAffine
    with the border reflected, so no black corners show. example_looks (names in LOOKS) keep each
    example also in those looks, at its quarter turns and scale 1.

    The stacked views put the query's first (quarter turns first, then eighths, at scale 1), then
    the other example views, so a die's query views are a prefix of what an example keeps."""
    example_turns: int = TURNS
    example_scales: tuple[float, ...] = (1.0,)
    query_turns: int = TURNS
    example_looks: tuple[str, ...] = ()

    def __post_init__(self):
        if self.example_turns not in (4, 8) or self.query_turns not in (4, 8):
            raise ValueError(f"turns are 4 or 8, not {self.example_turns} / {self.query_turns}")
        if not self.example_scales or any(not 0.5 <= s <= 2.0 for s in self.example_scales):
            raise ValueError(f"example scales lie in 0.5..2, not {self.example_scales}")
        unknown = [look for look in self.example_looks if look not in LOOKS]
        if unknown:
            raise ValueError(f"example looks are among {', '.join(LOOKS)}, not {', '.join(unknown)}")

    @classmethod
    def of(cls, meta: dict) -> "Views":
        looks = meta.get("example_looks", ())
        if isinstance(looks, str):
            raise ValueError(f"example_looks is a list of look names, not the string {looks!r}")
        return cls(int(meta.get("example_turns", TURNS)), tuple(float(s) for s in meta.get("example_scales", (1.0,))),
                   int(meta.get("query_turns", TURNS)), tuple(str(k) for k in looks))

    @staticmethod
    def _angles(turns: int) -> list[int]:
        return [0, 90, 180, 270] + ([45, 135, 225, 315] if turns == 8 else [])

    def layout(self) -> list[View]:
        """Every view, in stacking order."""
        first = [View(a) for a in self._angles(max(self.query_turns, self.example_turns))]
        rest = [View(a, s) for s in self.example_scales if s != 1.0 for a in self._angles(self.example_turns)]
        looks = [View(a, 1.0, look) for look in self.example_looks for a in self._angles(4)]
        return first + rest + looks

    @property
    def query(self) -> int:
        """How many of the stacked views (a prefix) a die to read is the mean of."""
        return self.query_turns

    def example_index(self) -> np.ndarray:
        """Which stacked views a taught example keeps."""
        keep = {View(a, s) for s in self.example_scales for a in self._angles(self.example_turns)}
        # Views in a look exist for examples only (layout adds them for example_looks).
        return np.array([i for i, v in enumerate(self.layout()) if v in keep or v.look])


def turn_crop(crop: np.ndarray, angle: float, scale: float = 1.0) -> np.ndarray:
    """A square crop turned counter-clockwise by angle degrees (as np.rot90 turns) and zoomed by
    scale about its centre; the border is reflected, so no black corners show (training's
    vision.train.embedding.spin turns crops the same way)."""
    size = crop.shape[0]
    m = cv2.getRotationMatrix2D(((size - 1) / 2, (size - 1) / 2), float(angle), float(scale))
    return cv2.warpAffine(np.ascontiguousarray(crop), m, (size, size), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REFLECT_101)


def view_crops(crops: np.ndarray, layout) -> np.ndarray:
    """(n, S, S, 3) crops -> (n, len(layout), S, S, 3): each crop turned, scaled and given its look
    as layout's Views (or (angle, scale) pairs) say. Quarter turns at scale 1 are exact (np.rot90),
    as the shipped reader's."""
    out = []
    for view in layout:
        angle, scale, look = View(*view)
        if angle % 90 == 0 and scale == 1.0:
            turned = np.rot90(crops, angle // 90, axes=(1, 2))
        else:
            turned = np.stack([turn_crop(c, angle, scale) for c in crops])
        out.append(np.stack([LOOKS[look](np.ascontiguousarray(c)) for c in turned]) if look else turned)
    return np.stack(out, 1)


class Embedder:
    """RGB crops (n, 48, 48, 3) uint8 -> (n, dim) unit vectors, by the shipped TFLite network."""

    def __init__(self, model_path: Path | str | None = None, num_threads: int = 1):
        from .classify import ModelError
        from .model import interpreter_class
        self.model_path = Path(model_path) if model_path is not None else DEFAULT_EMBEDDING
        if not self.model_path.is_file():
            raise ModelError(f"The dice embedding {self.model_path} does not exist.", self.model_path)
        meta_path = self.model_path.with_suffix(".json")
        self.meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {}
        try:
            self._interpreter = interpreter_class()(model_path=str(self.model_path), num_threads=num_threads)
        except (ValueError, RuntimeError) as exc:
            raise ModelError(f"The dice embedding {self.model_path} is not a usable TFLite model: {exc}",
                             self.model_path) from exc
        inp = self._interpreter.get_input_details()[0]
        self._input = inp["index"]
        self.size = int(inp["shape"][1])
        self._output = self._interpreter.get_output_details()[0]["index"]
        self._batch = 0
        self.views = Views.of(self.meta)

    def turned(self, crops_rgb: np.ndarray, query: bool = False) -> np.ndarray:
        """(n, S, S, 3) crops -> (n, V, dim): the vectors of each crop in every view of
        self.views' layout (query: only the query's views, a die to read)."""
        crops = np.asarray(crops_rgb)
        layout = self.views.layout()[:self.views.query] if query else self.views.layout()
        views = view_crops(crops, layout)
        return self(views.reshape(-1, *crops.shape[1:])).reshape(len(crops), len(layout), -1)

    def __call__(self, crops_rgb: np.ndarray) -> np.ndarray:
        crops = np.asarray(crops_rgb, np.float32)
        if len(crops) == 0:
            return np.zeros((0, int(self.meta.get("dim", 64))), np.float32)
        if len(crops) != self._batch:
            self._interpreter.resize_tensor_input(self._input, [len(crops), self.size, self.size, 3])
            self._interpreter.allocate_tensors()
            self._batch = len(crops)
        self._interpreter.set_tensor(self._input, crops)
        self._interpreter.invoke()
        out = self._interpreter.get_tensor(self._output).astype(np.float32)
        return out / np.maximum(np.linalg.norm(out, axis=1, keepdims=True), 1e-6)


@dataclass(frozen=True)
class Thresholds:
    """When a die is asked: its best face's score under far_below, or the second face's within
    close_below of it. One pair whatever the count of taught examples: pairs calibrated per count
    (1, 2, 3 taught) asked less at 3 taught but let 1.37% of real aws-workshop-dice through
    silently (bench/icon_dice.py, 2026-12-03), against 0.0% with one pair."""
    far_below: float = FAR_BELOW
    close_below: float = CLOSE_BELOW
    scale: float = SCALE

    @classmethod
    def of(cls, meta: dict) -> "Thresholds":
        return cls(float(meta.get("far_below", FAR_BELOW)), float(meta.get("close_below", CLOSE_BELOW)),
                   float(meta.get("scale", SCALE)))

    @classmethod
    def of_model(cls, model_path: Path | str | None = None) -> "Thresholds":
        """The pair in an embedding's .json (the shipped one by default), without loading it."""
        meta_path = Path(model_path or DEFAULT_EMBEDDING).with_suffix(".json")
        return cls.of(json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.is_file() else {})


def die_vectors(turned: np.ndarray, views: Views | None = None) -> np.ndarray:
    """(n, V, dim) -> (n, dim): a die to read, as the unit mean of its query views' vectors
    (the first views.query of the stacked views)."""
    v = turned[:, :(views or Views()).query].mean(axis=1)
    return v / np.maximum(np.linalg.norm(v, axis=1, keepdims=True), 1e-6)


def example_vectors(turned: np.ndarray, views: Views | None = None) -> np.ndarray:
    """(n, V, dim) -> (n * kept, dim): taught examples, every example view kept as an example."""
    return turned[:, (views or Views()).example_index()].reshape(-1, turned.shape[-1])


def face_scores(query: np.ndarray, bank: dict[str, np.ndarray], candidates) -> list[tuple[str, float]]:
    """Each candidate label's score for one embedded die: the mean cosine similarity of its
    NEAREST most similar examples (fewer if fewer are taught), best first."""
    out = []
    for label in candidates:
        ex = bank.get(label)
        if ex is None or not len(ex):
            continue
        sims = np.sort(ex @ query)[::-1][:NEAREST]
        out.append((label, float(sims.mean())))
    return sorted(out, key=lambda t: -t[1])


def judge(scores: list[tuple[str, float]], th: Thresholds) -> tuple[str | None, float, str]:
    """(label, confidence, reason) from face_scores; reason "" when sure, else why it is asked."""
    if not scores:
        return None, 0.0, "no face of this die is taught"
    sims = np.array([s for _, s in scores])
    p = np.exp(th.scale * (sims - sims.max()))
    confidence = float(p[0] / p.sum())
    if sims[0] < th.far_below:
        return scores[0][0], confidence, "far from every taught example"
    if len(sims) > 1 and sims[0] - sims[1] < th.close_below:
        return scores[0][0], confidence, f"close to {scores[1][0]} too"
    return scores[0][0], confidence, ""


@dataclass(frozen=True)
class TaughtDieRead(DieRead):
    """A die read by taught examples: label is the taught face label; reason says why it is
    uncertain ("" when it is not); colour_confidence is how sure its colour is (Centerville)."""
    reason: str = ""
    colour_confidence: float = 1.0
    embedding: np.ndarray | None = field(default=None, repr=False, compare=False)
    score: float = 0.0         # the best face's score (mean similarity of its nearest examples)
    margin: float = 0.0        # the best face's score less the runner-up face's
    pair_decides: bool = False  # asked or not by the asking pair alone (no untaught face, sure colour)

    def checked(self, face: str) -> CheckedRead | None:
        """This read as the players checked it (face: the face entered for the die), or None when
        the pair did not decide whether it was asked (vision.earned keeps only those)."""
        if not self.pair_decides:
            return None
        return CheckedRead(self.score, self.margin, self.label == face, self.label, face)

    def to_json(self) -> dict:
        out = {"face": self.label or None, "confidence": round(self.confidence, 4), "box": list(self.box),
               "color": self.color, "uncertain": self.uncertain}
        if self.reason:
            out["reason"] = self.reason
        return out


def default_finder():
    """The shipped learned detector file (vision.model); a missing or broken model file raises ModelError.
    The file alone, without the pip reader's second finder (.json second_finder, issue 14 rounds
    36d-36e): that was judged on pip dice, and with round 36d's second finder on every frame a six-dice
    Centerville tray cost 38.6-40.9 ms to read against issue 15's 40 ms line (23.8-24.2 ms without;
    bench/icon_dice.py's trays, 3 taught, 60 trays, 2026-12-07)."""
    from .model import DiceModel

    # At its calibrated peak threshold (the .json's find_from) the detector of the icon-dice
    # branch found 237 of 240 rendered Centerville dice (40 trays), as many as a lower one (0.2),
    # which also boxed a die's side now and then.
    return DiceModel()


class TaughtReader:
    """Frames -> DiceReading, each die read by its nearest taught examples (see the module doc).

    dice None: every taught label is a candidate for every die. dice "centerville": the dice
    are Centerville's six; each die's colour is found (vision.colours) and it is read among the
    taught labels "<its colour>-<icon>" of the faces that die has.
    """

    def __init__(self, examples: TaughtExamples, dice: str | None = None, *, detector=None,
                 embedder: Embedder | None = None, keep_crops: bool = True, find_in_pictures: bool = True):
        if dice not in (None, "centerville"):
            raise ValueError(f"dice is None (any taught dice) or 'centerville', not {dice!r}.")
        self.examples = examples
        self.dice = dice
        self.embedder = embedder or Embedder()
        self.model_thresholds = Thresholds.of(self.embedder.meta)
        self.detector = detector if detector is not None else default_finder()
        self.keep_crops = keep_crops
        # A die picture (a taught example, read_crop's picture) is cut around the die the detector
        # finds in it; False: its centred square (a reader given crops only, with no detector).
        self.find_in_pictures = find_in_pictures
        self._bank: dict[str, np.ndarray] = {}
        self._bank_version = -1
        self._faces_of = None
        if dice == "centerville":
            from companion.engine.centerville.dice import default_dice
            d = default_dice()
            self._faces_of = {colour: d.labels(d.index(colour)) for colour in d.order}

    # --- the taught examples, embedded -------------------------------------------------------
    def bank(self) -> dict[str, np.ndarray]:
        """label -> (n, dim) embedded examples; embedded again after the examples change."""
        if self._bank_version != self.examples.version:
            bank = {}
            for label in self.examples.labels():
                # An unreadable file is left out (and noted in examples.problems), not the table's dice.
                pictures = [self._example_crop(img) for _, img in self.examples.images(label, True)]
                if pictures:
                    bank[label] = example_vectors(self.embedder.turned(np.stack(pictures)), self.embedder.views)
            self._bank, self._bank_version = bank, self.examples.version
        return self._bank

    def refresh(self) -> None:
        """Embed the examples again from disk (another process changed them)."""
        self._bank_version = -1

    def teach(self, label: str, crop_bgr: np.ndarray) -> Path:
        """Add an example (a face the player confirmed or corrected); the next read uses it."""
        bank = self.bank()
        path = self.examples.add(label, crop_bgr)
        emb = example_vectors(self.embedder.turned(self._example_crop(crop_bgr)[None]), self.embedder.views)
        bank[label] = np.concatenate([bank[label], emb]) if label in bank else emb
        self._bank_version = self.examples.version
        return path

    def _example_crop(self, picture_bgr: np.ndarray) -> np.ndarray:
        # A hand-cut picture is cut around the die the detector finds in it (vision.example_crop).
        return example_crop(picture_bgr, self.embedder.size, self.detector if self.find_in_pictures else None)

    @property
    def earned(self) -> Earned:
        """The asking pair this table has earned from its checked reads (vision.earned); the
        model's own pair while it has not, or while its checked reads cannot be read."""
        checked, base = self.examples.checked, self.model_thresholds
        try:
            return checked.earned(base.far_below, base.close_below)
        except (EvidenceError, OSError) as exc:
            # Never a reason to stop reading dice: the model's pair asks more, never less.
            problem = f"{checked.path}: the checked reads are not used ({exc})"
            if problem not in self.examples.problems:
                self.examples.problems.append(problem)
            return Earned(base.far_below, base.close_below, 0, 0, 0)

    @property
    def thresholds(self) -> Thresholds:
        e = self.earned
        return Thresholds(e.far_below, e.close_below, self.model_thresholds.scale)

    def candidates(self, colour: str | None) -> list[str]:
        taught = list(self.bank())
        if self._faces_of is None:
            return taught
        if colour is None:
            return []  # a seventh box among six dice (a die boxed twice, a stray): asked, not read
        return [label for label in self._faces_of.get(colour, ()) if label in self.bank()]

    # --- reading -----------------------------------------------------------------------------
    def read(self, frame_bgr: np.ndarray, frame_index: int | None = None, time: float | None = None) -> DiceReading:
        if frame_bgr is None or frame_bgr.ndim != 3 or frame_bgr.shape[2] != 3 or min(frame_bgr.shape[:2]) < 8:
            raise ValueError(f"A frame must be an 8-bit BGR image of at least 8x8 pixels, not "
                             f"{None if frame_bgr is None else frame_bgr.shape}.")
        boxes = [tuple(int(round(v)) for v in d.box) for d in self.detector.detect(frame_bgr)]
        obstructed = bool(getattr(self.detector, "obstructed", False))
        if not boxes:
            return DiceReading((), frame_index, time, obstructed)
        crops = np.stack([die_crop(frame_bgr, b, self.embedder.size) for b in boxes])
        embs = die_vectors(self.embedder.turned(crops, query=True), self.embedder.views)
        colours, colour_conf = self._colours(frame_bgr, boxes)
        dice = [self._die(e, box, colour, cc, crop) for e, box, colour, cc, crop in
                zip(embs, boxes, colours, colour_conf, crops)]
        sides = [max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in dice]
        row = max(1.0, float(np.median(sides)))
        dice.sort(key=lambda d: (round((d.box[1] + d.box[3]) / 2 / row), (d.box[0] + d.box[2]) / 2))
        return DiceReading(tuple(dice), frame_index, time, obstructed)

    def read_crop(self, crop_bgr: np.ndarray, colour: str | None = None) -> TaughtDieRead:
        """One die's picture, cut as a taught picture is (the die the detector finds in it, else
        its centred square). For Centerville the colour is named from the picture alone (no tray
        to balance against) unless the caller gives it."""
        if crop_bgr is None or crop_bgr.ndim != 3 or min(crop_bgr.shape[:2]) < 8:
            raise ValueError("A die picture must be an 8-bit BGR image of at least 8x8 pixels.")
        crop = self._example_crop(crop_bgr)
        h, w = crop_bgr.shape[:2]
        conf = 1.0
        if self.dice == "centerville" and colour is None:
            from .colours import nearest_colour
            colour, conf = nearest_colour(crop_bgr)
        return self._die(die_vectors(self.embedder.turned(crop[None], query=True), self.embedder.views)[0], (0, 0, w, h),
                         colour, conf, crop)

    def _colours(self, frame_bgr, boxes) -> tuple[list, list]:
        if self.dice == "centerville":
            from .colours import assign_colours
            found = assign_colours(frame_bgr, boxes)
            return [f.colour for f in found], [f.confidence for f in found]
        from .colors import dominant_color
        return [dominant_color(frame_bgr, b) for b in boxes], [1.0] * len(boxes)

    def untaught(self, colour: str | None) -> list[str]:
        """The faces a die could show that have no example yet: a die near its only taught face
        may be showing one of these, which no distance can tell (it is asked, not read)."""
        if self._faces_of is None:
            return []
        return [label for label in dict.fromkeys(self._faces_of.get(colour, ())) if label not in self.bank()]

    def _die(self, emb, box, colour, colour_conf, crop) -> TaughtDieRead:
        candidates = self.candidates(colour)
        scores = face_scores(emb, self.bank(), candidates)
        label, confidence, reason = judge(scores, self.thresholds)
        anyway, first = self._asked_anyway(colour, colour_conf, candidates)
        reason = anyway if first else (reason or anyway)
        return TaughtDieRead(face=pip_value(label) if label else None, label=label or "", confidence=confidence,
                             box=tuple(int(v) for v in box), color=colour or "", uncertain=bool(reason),
                             crop=crop if self.keep_crops else None, reason=reason,
                             colour_confidence=float(colour_conf), embedding=emb,
                             score=scores[0][1] if scores else 0.0,
                             margin=scores[0][1] - scores[1][1] if len(scores) > 1 else 0.0,
                             pair_decides=len(scores) > 1 and not anyway)

    def _asked_anyway(self, colour, colour_conf, candidates) -> tuple[str, bool]:
        """Why a die is asked whatever its scores ("" when only the asking pair decides), and
        whether that reason comes before the pair's own."""
        if self.dice == "centerville" and colour is None:
            return "its colour is not one of the six dice's (more boxes than dice)", True
        untaught = self.untaught(colour)
        if untaught:
            names = [u.split("-", 1)[-1] for u in untaught]
            return f"its {', '.join(names)} {'face is' if len(names) == 1 else 'faces are'} not taught yet", False
        if self._faces_of is None and len(candidates) == 1:
            # Any dice: only the taught labels are known, and one label is nothing to tell it from.
            return "only one face is taught: nothing to tell it from", False
        if self.dice == "centerville" and colour_conf < COLOUR_ASK_BELOW:
            return "its colour is unsure", False
        return "", False


COLOUR_ASK_BELOW = 0.6
