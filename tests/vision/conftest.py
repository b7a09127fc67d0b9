"""Shared fixtures of the dice-reader tests: the real interpreter on the shipped model."""
import json
import random
from pathlib import Path

import pytest

REAL_DICE = Path("/work/shared/data/real-dice")
ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "dice_faces.tflite"


@pytest.fixture(scope="session")
def reader():
    from vision.reader import DiceReader
    return DiceReader(MODEL)


@pytest.fixture(scope="session")
def tilted_labels():
    path = REAL_DICE / "tilted-webcam" / "labels.json"
    if not path.is_file():
        pytest.skip(f"the shared real dice photos are not on this machine ({path})")
    return json.loads(path.read_text())


def scene(seed: int, n_dice: int, **kwargs):
    from vision.synth import render_tray
    return render_tray(random.Random(seed), n_dice, (640, 480), **kwargs)
