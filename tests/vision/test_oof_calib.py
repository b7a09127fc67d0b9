"""bench/oof_calib.py (DETECTOR_ROUNDS round 17): parts' curves pooled, ask_below chosen on the pool by
calibrate's rule, and the round's rule read from pooled figures. No model is run."""
import importlib.util
import json
from pathlib import Path

from vision.train.calibrate import ASK_GRID

_SPEC = importlib.util.spec_from_file_location(
    "oof_calib", Path(__file__).resolve().parents[2] / "bench" / "oof_calib.py")
oof = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(oof)


def _part(name, split, fold, correct, no_die, curve):
    """A face_variants.measure result: curve(t) -> (silent, flagged) over ASK_GRID."""
    return {"name": name, "split": split, "fold": fold,
            "figures": {"dice": 100, "found": 98, "correct": correct, "no_die": no_die, "doubled": 1},
            "curve": {float(t): curve(float(t)) for t in ASK_GRID}}


def _steps(silent_under, flagged_over):
    """Silent misreads fall by one at each threshold in silent_under; a flag is added at each of flagged_over."""
    return lambda t: (sum(t < s for s in silent_under), sum(t >= f for f in flagged_over))


def test_the_pool_sums_each_parts_figures_at_one_threshold():
    parts = [_part("X", "calib", None, 90, 3, _steps([0.5], [0.3])),
             _part("X", "train", 0, 80, 0, _steps([0.6, 0.7], [0.2]))]
    f = oof.pooled_at(parts, 0.55)
    assert f == {"dice": 200, "found": 196, "correct": 170, "no_die": 3, "doubled": 2,
                 "silent_misreads": 2, "flagged": 2}


def test_ask_below_is_chosen_on_the_pool_not_on_one_part():
    # Alone, calib's single silent misread (at 0.95) would not pay for the 12 flags above 0.9; pooled with
    # a fold that holds two more misreads just as sure, 10 x 3 silent outweigh the flags.
    flags = [0.91 + 0.003 * i for i in range(12)]
    calib = _part("X", "calib", None, 90, 2, _steps([0.95], flags))
    fold = _part("X", "train", 0, 80, 0, _steps([0.95, 0.95], []))
    assert oof.choose_pooled([calib]) < 0.95
    assert oof.choose_pooled([calib, fold]) >= 0.95


def test_the_rule_reads_the_candidate_at_its_pooled_threshold_and_calib_boxes_on_no_die_only():
    base = [_part("A", "calib", None, 200, 8, _steps([0.995], [0.5])),
            _part("A", "train", 0, 300, 0, _steps([], [0.5, 0.6]))]
    cand = [_part("AS", "calib", None, 204, 8, _steps([], [0.7])),
            _part("AS", "train", 0, 301, 9, _steps([], []))]
    verdict = oof.rule(base, cand, 0.99)
    assert verdict["passes"], verdict
    assert verdict["checks"]["read right >= baseline + 5"] == (505, 505, True)
    assert verdict["checks"]["calib boxes on no die <= 8"] == (8, 8, True)
    cand[0]["figures"]["no_die"] = 9
    assert not oof.rule(base, cand, 0.99)["passes"]


def test_parts_survive_a_round_trip_through_json():
    part = _part("X", "train", 1, 80, 0, _steps([0.6], [0.2]))
    again = json.loads(json.dumps([part]))[0]
    for t in (0.0, 0.55, 0.99, float(ASK_GRID[-1])):
        assert oof.figures_at(again, t) == oof.figures_at(part, t)
    assert oof.part_name(again["split"], again["fold"]) == "train/1" and oof.parse_part("train/1") == ("train", 1)


def test_a_variant_names_its_files_views_second_look_and_combination():
    parse = oof.parse_variant
    assert parse("A=a.tflite") == ("A", [Path("a.tflite")], "one", "unsure", "mean")
    assert parse("AS=a.tflite+s.tflite:mirror:always") == (
        "AS", [Path("a.tflite"), Path("s.tflite")], "mirror", "always", "mean")
    assert parse("AS-L=a.tflite+s.tflite:one:unsure:least") == (
        "AS-L", [Path("a.tflite"), Path("s.tflite")], "one", "unsure", "least")
