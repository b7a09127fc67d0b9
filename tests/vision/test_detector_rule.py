"""bench/detector_rule.py: the detector card's standing rule read from two files' figures. No
model is run here (the benches it calls have their own tests); each line must be able to fail."""
import argparse
import copy
import importlib.util
from pathlib import Path

import pytest

_SPEC = importlib.util.spec_from_file_location(
    "detector_rule", Path(__file__).resolve().parents[2] / "bench" / "detector_rule.py")
rule = importlib.util.module_from_spec(_SPEC)
_SPEC.loader.exec_module(rule)


def _figures(correct=215, no_die=5, silent=1, doubled=2, cpu=15.0, accuracy=0.989, icon_found=287,
             icon_no_die=2, shift_right=181, shift_silent=17, memory=13.4):
    """Figures as figures() returns them: the calib split in two sets, one icon kind, two shifts."""
    def calib_set(name, share):
        return {"set": name, "dice": 100, "correct": round(correct * share), "found": round(226 * share),
                "no_die": round(no_die * share), "doubled": round(doubled * share), "flagged": round(32 * share),
                "silent_misreads": round(silent * share), "cpu_ms": {"median": cpu, "p95": 2 * cpu, "max": 3 * cpu}}
    return {"calib": [calib_set("tilted-webcam", 0.4), calib_set("aws-workshop-dice", 0.6)],
            "renders": {"accuracy": accuracy, "found_rate": 0.992},
            "icons": [{"set": "held-out glyphs", "dice": 290, "found": icon_found, "no_die": icon_no_die}],
            "shifts": {"as taken": {"correct": correct, "silent_misreads": silent},
                       "turned 180": {"correct": shift_right, "silent_misreads": shift_silent}},
            "memory": {"total_mb": memory, "cpu_ms": 4.6}}


def _failing(cand, base=None):
    return [ln.name for ln in rule.judge(cand, base or _figures()) if not ln.holds]


def test_a_candidate_as_good_as_a_baseline_within_the_limits_passes():
    assert _failing(_figures()) == []


@pytest.mark.parametrize("change, line", [
    ({"correct": 213}, "calib correct"),
    ({"no_die": 7}, "calib no_die"),
    ({"silent": 3}, "calib silent_misreads"),
    ({"doubled": 5}, "calib doubled"),
    ({"cpu": 31.0}, "calib CPU tilted-webcam"),
    ({"accuracy": 0.985}, "rendered face accuracy"),
    ({"icon_found": 285}, "icon dice held-out glyphs"),
    ({"icon_no_die": 5}, "icon dice held-out glyphs"),
    ({"shift_right": 178}, "shift turned 180"),
    ({"shift_silent": 20}, "shift turned 180"),
    ({"memory": 25.5}, "memory"),
])
def test_each_line_fails_on_its_own_figure(change, line):
    assert line in _failing(_figures(**change))


def test_comparisons_are_against_the_baseline_not_fixed_figures():
    worse_base = _figures(accuracy=0.95, shift_right=150, shift_silent=30, memory=30.0)
    assert _failing(_figures(accuracy=0.949, shift_right=149, shift_silent=31, memory=41.0), worse_base) == []


def test_a_round_may_set_its_own_limits_by_name():
    assert rule.limit("calib_no_die=8") == ("calib_no_die", 8)
    assert rule.limit("cpu_median_ms=40") == ("cpu_median_ms", 40.0)
    assert "calib no_die" not in [ln.name for ln in rule.judge(_figures(no_die=8), _figures(),
                                                               {**rule.LIMITS, "calib_no_die": 8}) if not ln.holds]
    for bad in ("calib_no_dice=8", "calib_no_die=many"):
        with pytest.raises(argparse.ArgumentTypeError, match="calib_no_di"):
            rule.limit(bad)


def test_the_cpu_line_names_the_baseline_s_cpu_of_the_same_run():
    lines = {ln.name: ln.text for ln in rule.judge(_figures(cpu=31.0), _figures(cpu=20.0))}
    assert lines["calib CPU aws-workshop-dice"] == "median 31.0 / p95 62.0 ms (baseline 20.0 / 40.0; <= 30.0 / 60.0)"


def test_the_judge_does_not_change_the_figures_it_reads():
    cand, base = _figures(correct=213), _figures()
    before = copy.deepcopy((cand, base))
    rule.judge(cand, base)
    assert (cand, base) == before
