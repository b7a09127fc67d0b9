"""Shared constants and scene maker of the dice-reader tests."""
import os
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The shared real photos lie beside the checkout (../shared), as on a developer's machine and CI.
REAL_DICE = Path(os.environ.get("COMPANION_REAL_DICE", ROOT.parent / "shared" / "data" / "real-dice"))
MODEL = ROOT / "models" / "dice_faces.tflite"


def scene(seed: int, n_dice: int, **kwargs):
    from vision.synth import render_tray
    return render_tray(random.Random(seed), n_dice, (640, 480), **kwargs)
