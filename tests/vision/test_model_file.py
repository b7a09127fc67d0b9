"""The shipped face model: loads in the real TFLite runtime, matches its labels and its card,
and reads rendered dice it never saw."""
from __future__ import annotations

import hashlib
import random
import re
from pathlib import Path

import numpy as np
from ai_edge_litert.interpreter import Interpreter

from companion.engine.dice import PIP_FACES
from vision.classify import NOT_A_DIE
from vision.crops import INPUT_SIZE
from vision.synth import render_die_crop

MODELS = Path(__file__).resolve().parents[2] / "models"
MODEL = MODELS / "dice_faces.tflite"
LABELS = MODELS / "dice_faces.labels.txt"
CARD = MODELS / "MODEL_CARD.md"


def _labels():
    return [line.strip() for line in LABELS.read_text().splitlines() if line.strip()]


def test_labels_are_the_engine_pip_faces_and_no_die():
    assert _labels() == list(PIP_FACES) + [NOT_A_DIE]


def test_model_loads_and_its_shapes_match_labels_and_crop_size():
    interp = Interpreter(model_path=str(MODEL))
    interp.allocate_tensors()
    inp = interp.get_input_details()[0]
    out = interp.get_output_details()[0]
    assert list(inp["shape"]) == [1, INPUT_SIZE, INPUT_SIZE, 3]
    assert inp["dtype"] == np.float32
    assert int(out["shape"][-1]) == len(_labels())


def test_card_names_this_very_file():
    digest = hashlib.sha256(MODEL.read_bytes()).hexdigest()
    card = CARD.read_text()
    assert digest in card
    assert re.search(r"held-out renders \| \d+\.\d+%", card)


def test_model_reads_fresh_rendered_dice():
    """Crops from seeds far from the training streams; a working model gets nearly all right."""
    interp = Interpreter(model_path=str(MODEL))
    labels = _labels()
    crops, truth = [], []
    for i in range(60):
        face = i % 6 + 1
        crops.append(render_die_crop(random.Random(10_000_000 + i), face))
        truth.append(f"pip{face}")
    batch = np.stack(crops).astype(np.float32)
    interp.resize_tensor_input(interp.get_input_details()[0]["index"], list(batch.shape))
    interp.allocate_tensors()
    interp.set_tensor(interp.get_input_details()[0]["index"], batch)
    interp.invoke()
    probs = interp.get_tensor(interp.get_output_details()[0]["index"])
    assert np.allclose(probs.sum(axis=1), 1.0, atol=0.02)
    predicted = [labels[k] for k in probs.argmax(axis=1)]
    correct = sum(p == t for p, t in zip(predicted, truth))
    assert correct >= 57, list(zip(truth, predicted))


def test_sure_reads_are_told_apart_in_float_not_in_steps_of_1_256():
    """The softmax is computed in float (vision.train.float_softmax, issue 14 round 52): sure reads spread above
    255/256, where the int8 softmax put every one of them, so ask_below can ask about the least sure."""
    interp = Interpreter(model_path=str(MODEL))
    crops = np.stack([render_die_crop(random.Random(20_000_000 + i), i % 6 + 1) for i in range(60)])
    interp.resize_tensor_input(interp.get_input_details()[0]["index"], list(crops.shape))
    interp.allocate_tensors()
    interp.set_tensor(interp.get_input_details()[0]["index"], crops.astype(np.float32))
    interp.invoke()
    best = interp.get_tensor(interp.get_output_details()[0]["index"]).max(axis=1)
    above = best[best > 255 / 256]
    assert len(np.unique(above)) >= 10, np.unique(above)
    assert np.any(np.abs(above * 256 - np.round(above * 256)) > 1e-3)     # not on the int8 output's steps
