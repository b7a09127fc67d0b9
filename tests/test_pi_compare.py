"""tools/pi_compare.py, which `make pi-check` uses to compare aarch64's dice readings with x86's:
faces and colours exactly, boxes and confidences within the tolerances it prints. Run as pi-check
runs it: the real script on two real `python -m vision read` outputs written to files."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

TOOL = Path(__file__).resolve().parents[1] / "tools" / "pi_compare.py"


def die(face, confidence, box, color="blue", uncertain=False):
    return {"face": face, "confidence": confidence, "box": list(box), "color": color, "uncertain": uncertain}


X86 = {
    "tilted-webcam/a.jpg": [die(3, 0.3867, (10, 10, 60, 60), uncertain=True), die(5, 0.9961, (100, 10, 150, 60))],
    "aws-workshop-dice/b.jpg": [die(1, 0.9961, (237, 87, 294, 149), "grey")],
}


def write(path, readings):
    lines = [json.dumps({"path": f"/photos/{name.split('/')[0]}/images/{name.split('/')[1]}", "dice": dice})
             for name, dice in readings.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def diff(tmp_path, arm):
    out = subprocess.run([sys.executable, str(TOOL), "diff", str(write(tmp_path / "x86.jsonl", X86)),
                          str(write(tmp_path / "arm.jsonl", arm))], capture_output=True, text=True, timeout=60)
    counts = dict(part.rsplit(" ", 1) for part in out.stdout.strip().splitlines()[-1].strip().split(", "))
    return out, counts


def test_float_noise_in_confidence_and_box_is_within_tolerance(tmp_path):
    # The first pi-check run counted exactly this die (0.3867 against 0.3887) as "different".
    arm = {**X86, "tilted-webcam/a.jpg": [die(3, 0.3887, (11, 10, 60, 59), uncertain=True),
                                          die(5, 0.9958, (100, 10, 150, 60))]}
    out, counts = diff(tmp_path, arm)
    assert out.returncode == 0, out.stdout
    assert counts["identical"] == "1" and counts["within_tolerance"] == "1" and counts["different"] == "0"
    assert counts["worst_confidence"] == "0.002" and counts["worst_box_px"] == "1"
    assert "tolerances: box 2 px, confidence 0.01; faces and colours exact" in out.stdout


def test_dice_listed_in_another_order_are_matched_by_box(tmp_path):
    arm = {**X86, "tilted-webcam/a.jpg": list(reversed(X86["tilted-webcam/a.jpg"]))}
    out, counts = diff(tmp_path, arm)
    assert out.returncode == 0 and counts["within_tolerance"] == "1", out.stdout


def test_a_confidence_on_the_threshold_may_flip_uncertain_and_is_counted(tmp_path):
    arm = {**X86, "tilted-webcam/a.jpg": [die(3, 0.3901, (10, 10, 60, 60), uncertain=False),
                                          die(5, 0.9961, (100, 10, 150, 60))]}
    out, counts = diff(tmp_path, arm)
    assert out.returncode == 0 and counts["uncertain_flips"] == "1", out.stdout


@pytest.mark.parametrize("changed,why", [
    (die(5, 0.9961, (237, 87, 294, 149), "grey"), "face"),
    (die(1, 0.9961, (237, 87, 294, 149), "red"), "colour"),
    (die(1, 0.9961, (240, 87, 294, 149), "grey"), "box 3 px off"),
    (die(1, 0.9761, (237, 87, 294, 149), "grey"), "confidence 0.02 off"),
])
def test_a_face_colour_or_a_change_past_the_tolerance_is_different(tmp_path, changed, why):
    out, counts = diff(tmp_path, {**X86, "aws-workshop-dice/b.jpg": [changed]})
    assert out.returncode == 1, why
    assert counts["different"] == "1" and counts["dice_differ"] == "1", (why, out.stdout)
    assert "aws-workshop-dice/b.jpg: x86" in out.stdout


def test_a_die_more_or_fewer_is_different_and_a_missing_photo_fails(tmp_path):
    arm = {"tilted-webcam/a.jpg": X86["tilted-webcam/a.jpg"][:1]}
    out, counts = diff(tmp_path, arm)
    assert out.returncode == 1
    assert counts["different"] == "1" and counts["dice_differ"] == "1" and counts["missing"] == "1", out.stdout
