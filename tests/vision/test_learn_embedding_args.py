"""learn_embedding's reader settings: a training run calibrates and writes the views the shipped
reader reads by (no step by hand after it), and refuses scales it cannot use, by name."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from vision.train.learn_embedding import parse

SHIPPED = Path(__file__).resolve().parents[2] / "models" / "dice_embedding.json"


def test_a_training_run_calibrates_the_shipped_reader_s_views_on_the_pool_guard():
    args = parse([])
    meta = json.loads(SHIPPED.read_text(encoding="utf-8"))
    assert (args.example_turns, list(args.example_scales)) == (meta["example_turns"], meta["example_scales"])
    assert args.real_guard == "pool" and "--real-guard pool" in meta["calibrated_with"]


@pytest.mark.parametrize("given, said", [("0.9,x", "scales are numbers"), ("0.9,3", "scales lie in 0.5..2")])
def test_scales_it_cannot_use_are_refused_by_name(capsys, given, said):
    with pytest.raises(SystemExit):
        parse(["--example-scales", given])
    err = capsys.readouterr().err
    assert "--example-scales" in err and said in err
