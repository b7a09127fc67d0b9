"""vision.train.float_softmax: an int8 face classifier with its softmax moved after its dequantize reads every crop
as before (the same logits, the same face) and gives its probabilities in float (issue 14 round 52)."""
import random
from pathlib import Path

import numpy as np
import pytest
from ai_edge_litert.interpreter import Interpreter

from vision.synth import render_die_crop
from vision.train.float_softmax import float_softmax, main

MODELS = Path(__file__).resolve().parents[2] / "models"
INT8 = MODELS / "candidates" / "faces-steep" / "dice_faces.tflite"   # an int8 file as vision.train writes them


def _probabilities(model: bytes, crops: np.ndarray) -> np.ndarray:
    interp = Interpreter(model_content=model)
    interp.resize_tensor_input(interp.get_input_details()[0]["index"], list(crops.shape))
    interp.allocate_tensors()
    interp.set_tensor(interp.get_input_details()[0]["index"], crops.astype(np.float32))
    interp.invoke()
    return interp.get_tensor(interp.get_output_details()[0]["index"])


def test_the_same_faces_with_probabilities_in_float():
    crops = np.stack([render_die_crop(random.Random(30_000_000 + i), i % 6 + 1) for i in range(80)])
    before = _probabilities(INT8.read_bytes(), crops)
    after = _probabilities(float_softmax(INT8.read_bytes()), crops)
    assert np.array_equal(before.argmax(axis=1), after.argmax(axis=1))
    assert np.abs(before - after).max() <= 1 / 256 + 1e-6       # the int8 softmax's own rounding, no more
    assert np.allclose(after.sum(axis=1), 1.0, atol=1e-5)
    assert before.max() <= 255 / 256 + 1e-6 < after.max()        # sure reads no longer stop at 255/256


def test_a_file_whose_softmax_is_float_already_is_refused_by_name(tmp_path, capsys):
    shipped = MODELS / "dice_faces.tflite"
    with pytest.raises(ValueError, match="not an int8 classifier ending in SOFTMAX -> DEQUANTIZE"):
        float_softmax(shipped.read_bytes())
    with pytest.raises(SystemExit):
        main([str(shipped), str(tmp_path / "out.tflite")])
    assert "dice_faces.tflite: not an int8 classifier" in capsys.readouterr().err
    assert not (tmp_path / "out.tflite").exists()


def test_the_command_writes_the_converted_file(tmp_path):
    out = tmp_path / "faces.tflite"
    assert main([str(INT8), str(out)]) == 0
    assert out.read_bytes() == float_softmax(INT8.read_bytes())
