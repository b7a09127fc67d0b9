"""MODEL_CARD.md: what the shipped model is, how it was made, and what it scored."""
from __future__ import annotations

import hashlib
from pathlib import Path


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def write_card(path: Path, *, model: Path, labels, input_size: int, quantize: str, recipe: dict,
               scores: dict, comparison: list[tuple[str, int, dict]], timings: dict, params: int) -> None:
    lines = [
        "# dice_faces: the die-face classifier",
        "",
        "Written by `python -m vision.train`; every figure below was measured on the very file named here.",
        "",
        "## The file",
        "",
        f"- `{model.name}`: {model.stat().st_size} bytes, sha256 `{sha256(model)}`",
        f"- quantization: {quantize} (float32 input and output either way)",
        f"- input: float32 `[1, {input_size}, {input_size}, 3]` (resizable batch), RGB pixel values 0..255, "
        f"the crop of `vision.crops.die_crop` (a square {recipe['crop_margin']} x the die box's longer side)",
        f"- output: float32 `[1, {len(labels)}]`, softmax probabilities in the order of "
        f"`{model.name.removesuffix('.tflite')}.labels.txt`: {', '.join(labels)}",
        f"- network: small CNN (7 conv layers with batch norm, global average pooling, dense), {params} parameters",
        "",
        "## Accuracy (per die)",
        "",
        "| set | accuracy |",
        "|---|---|",
    ]
    lines += [f"| {name} | {score} |" for name, score in scores.items()]
    lines += [
        "",
        "Held-out renders are drawn from a seed stream the training set never used: die crops read as",
        "their face (`none` counts wrong), and boxes without a die (a detector's wrong box) judged `none`.",
        ("The real sets are `/work/shared/data/real-dice/` (validation only, never trained on); their boxes"
         if recipe.get("real crops", "(none)") == "(none)" else
         "The real sets are `/work/shared/data/real-dice/`. **The train split of tilted-webcam and\n"
         "aws-workshop-dice was trained on** (real crops, below): the tilted-webcam rows take all its photos,\n"
         "train split included, so they are not held out (the reader's calib and test figures are). Their boxes"),
        "are known to hold a die, so the likeliest face is read, as the reader reads a box it keeps:",
        "`webcam-crops` are single-die crops (box: the centred square of the short side, as",
        "`DiceReader.read_crop`); `tilted-webcam` is read through the learned detector's boxes (a labelled die counts",
        "when a detection holds its label box's centre and is classified right; undetected dice count as",
        "wrong), and for reference on the label boxes themselves.",
        "",
        "## Quantization compared",
        "",
        "| variant | bytes | " + " | ".join(comparison[0][2]) + " |",
        "|---|---|" + "---|" * len(comparison[0][2]),
    ]
    lines += [f"| {name} | {size} | " + " | ".join(str(s) for s in figs.values()) + " |"
              for name, size, figs in comparison]
    lines += [
        "",
        "## Recipe",
        "",
        "Training data is rendered by `vision.synth` (OpenCV/NumPy): pip dice seen from above, any turn,",
        "tipped up to 42 degrees with side faces showing (steep views tipped as a forward-looking camera",
        "sees them: side faces at the bottom of the frame), rounded corners, many body and pip colours and",
        "pip sizes, translucent dice (far pips showing through), logos on some 1-faces, glare, shadows,",
        "felt/wood/paper/card trays, touching neighbours, edges 18-60 px (bigger dice are shrunk to the",
        "crop anyway), lighting gradients, blur, noise, JPEG; the crop box is jittered like a detector's",
        "(shifted, tight, top face only, loose) and sometimes cut at the frame's edge. Training adds",
        "left-right flips, shifts of up to 3 px and brightness/contrast changes. A seventh label, `none`,",
        "is a box that holds no one die, drawn from the same dice and trays (`vision.synth.nodie`): a box",
        "beside a die (its middle on the die's edge or beyond), between two touching dice, around two,",
        "on bare tray or on its likeliest pip (a wood grain's ring), or around a pip or a corner of a big",
        "die. The reader drops a box the model is sure holds no die and looks for dice its boxes left out",
        "with the model as the judge (`vision.recover`).",
        "",
    ]
    if recipe.get("steep-view crops"):
        lines += [
            "Steep-view crops (`--steep`) are added: a camera leaning 45-65 degrees toward image-down over dice",
            "resting flat (`vision.synth.scene.STEEP_LEAN`), where the labelled top face is often smaller in view",
            "than the side face below it; their own seed stream (split 2). `bench/steep_views.py` reads a",
            "held-out stream of them (split 3).",
            "",
        ]
    lines += [f"- {k}: {v}" for k, v in recipe.items()]
    lines += [f"- {k}: {v}" for k, v in timings.items()]
    lines += ["", "Reproduce: `.venv-train/bin/python -m vision.train " + recipe["command"] + "`", ""]
    path.write_text("\n".join(lines), encoding="utf-8")
