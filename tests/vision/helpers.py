"""Shared constants and scene maker of the dice-reader tests."""
import random
from pathlib import Path

REAL_DICE = Path("/work/shared/data/real-dice")
ROOT = Path(__file__).resolve().parents[2]
MODEL = ROOT / "models" / "dice_faces.tflite"


def scene(seed: int, n_dice: int, **kwargs):
    from vision.synth import render_tray
    return render_tray(random.Random(seed), n_dice, (640, 480), **kwargs)
