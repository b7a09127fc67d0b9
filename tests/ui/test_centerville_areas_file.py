"""The Centerville board's areas file (names, titles, one rule sentence each): the shipped file
loads and names exactly the board's areas; a bad file is refused naming the key."""
from __future__ import annotations

import pytest

from companion.engine.core import DataFileError
from companion.ui.widgets.centerville_areas import areas, parse_areas

GOOD = '''
[[area]]
name = "park"
title = "Central park"
rule = "Spend 3 benches to put a cube in the park."
'''


def test_the_shipped_file_names_exactly_the_board_areas():
    from companion.ui.widgets.centerville_plan import PLAN

    assert set(areas()) == set(PLAN) and len(areas()) == len(PLAN)
    for area in areas().values():
        assert area.rule.endswith(".") and area.title


def test_a_good_file_loads():
    assert parse_areas(GOOD)["park"].title == "Central park"


@pytest.mark.parametrize("text, key, words", [
    (GOOD.replace("rule =", "rul ="), "area[0].rul", "did you mean rule?"),
    (GOOD.replace('title = "Central park"\n', ""), "area[0].title", "missing"),
    (GOOD + GOOD, "area[1].name", "named twice"),
    (GOOD.replace("park.", "park. Then gain status."), "area[0].rule", "one sentence"),
    (GOOD.replace("park.\"", "park\""), "area[0].rule", "one sentence"),
    (GOOD + "\n[extra]\nx = 1\n", "extra", "unknown key"),
    ("", "area", "missing"),
    ("[[area]\n", "", "not valid TOML"),
])
def test_a_bad_file_is_refused_naming_the_key(text, key, words):
    with pytest.raises(DataFileError) as caught:
        parse_areas(text, "areas.toml")
    assert caught.value.key == key
    assert words in str(caught.value) and str(caught.value).startswith("areas.toml")
