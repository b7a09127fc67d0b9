"""The field schemas (companion/engine/schema.py) every file reader checks at the edge: the
first field of the wrong type, range or name is refused with its path, before game code runs."""
import copy
import json
from pathlib import Path

import pytest

from companion.engine import schema as S
from companion.engine.centerville.game import board_for
from companion.engine.centerville.statefile import STATE_FILE, StateFileError, score_file
from companion.engine.core import DataFileError
from companion.engine.log import LogError, replay

EXAMPLE = json.loads((Path(__file__).parent / "centerville/data/town-example.json").read_text())

SEAT = S.Obj({"name": S.Str(nonempty=True), "wealth": S.Int(1, 99), "bot": S.Bool(),
              "legacy": S.Null(S.Str(choices=("greenbelt", "offices"))),
              "vocations": S.Map(S.Int(0), keys=("1", "2"))}, required=("wealth",))
FILE = S.Obj({"players": S.List(SEAT, min=1, max=2, says="must list 1 or 2 seats."), "note": S.Str()})


@pytest.mark.parametrize("data,path,problem", [
    ([], "(top)", "must be an object."),
    ({"players": {}}, "players", "must list 1 or 2 seats."),
    ({"players": []}, "players", "must list 1 or 2 seats."),
    ({"players": [{"wealth": 3}, {"wealth": "3"}]}, "players[1].wealth", "must be a whole number, not '3'."),
    ({"players": [{"wealth": True}]}, "players[0].wealth", "must be a whole number, not True."),
    ({"players": [{"wealth": 2.0}]}, "players[0].wealth", "must be a whole number, not 2.0."),
    ({"players": [{"wealth": 100}]}, "players[0].wealth", "must be 1 to 99, not 100."),
    ({"players": [{}]}, "players[0].wealth", "is missing."),
    ({"players": [{"wealth": 3, "bot": 1}]}, "players[0].bot", "must be true or false, not 1."),
    ({"players": [{"wealth": 3, "name": " "}]}, "players[0].name", "must not be empty."),
    ({"players": [{"wealth": 3, "legacy": "park"}]}, "players[0].legacy", "must be one of greenbelt, offices, not 'park'."),
    ({"players": [{"wealth": 3, "welth": 3}]}, "players[0].welth", "unknown key; did you mean wealth?"),
    ({"players": [{"wealth": 3, "vocations": {"3": 1}}]}, "players[0].vocations.3", "unknown key (known: 1, 2)"),
    ({"players": [{"wealth": 3, "vocations": {"1": -1}}]}, "players[0].vocations.1", "must be at least 0, not -1."),
    ({"players": [{"wealth": 3}], "note\n": "x"}, '"note\\n"', "unknown key; did you mean note?"),
    ({"players": [{"wealth": 3}], "note": None}, "note", "must be text in quotes, not None."),
])
def test_the_first_bad_field_is_named_by_its_path(data, path, problem):
    with pytest.raises(S.SchemaError) as refused:
        S.check(FILE, data)
    assert (refused.value.path, refused.value.problem) == (path, problem)


def test_a_value_that_fits_is_returned_as_it_is():
    data = {"players": [{"wealth": 3, "legacy": None, "vocations": {"2": 0}}, {"wealth": 99, "bot": True}]}
    assert S.check(FILE, data) is data


def test_rest_takes_any_other_key_and_like_follows_a_shipped_example():
    header = S.Obj({"game": S.Str()}, required=("game",), rest=S.Anything())
    assert S.check(header, {"game": "x", "first": [1, {"a": None}]})
    shape = S.like({"town": {"zones": ["blue"], "top": 4}, "bot_legacy": False, "rate": 0.5})
    S.check(shape, {"town": {"top": 9}})  # corrections: every key optional
    for bad, path in [({"town": {"zones": ["blue", 3]}}, "town.zones[1]"), ({"town": {"top": "9"}}, "town.top"),
                      ({"bot_legacy": 0}, "bot_legacy"), ({"rate": "x"}, "rate"), ({"twon": {}}, "twon")]:
        with pytest.raises(S.SchemaError) as refused:
            S.check(shape, bad)
        assert refused.value.path == path


# -- the formats' own schemas, as their readers use them ------------------------------------------
def test_a_log_header_names_the_player_entry_that_is_not_a_name():
    # Before the schema the whole list was refused ('field "players"'), not the entry at fault.
    header = json.dumps({"game": "rolling-village", "players": ["Ann", 3]})
    with pytest.raises(LogError, match=r'line 1: field "players\[1\]": must be text in quotes, not 3\.'):
        replay([header])


def test_a_board_correction_names_the_list_entry_of_the_wrong_type():
    with pytest.raises(DataFileError) as refused:
        board_for({"board": {"players": {"colours": ["gray", "white", "black", 4]}}})
    assert refused.value.key == "players.colours[3]" and "must be text in quotes, not 4" in str(refused.value)
    data = copy.deepcopy(EXAMPLE)
    data["board"] = {"players": {"colours": ["gray", "white", "black", 4]}}
    with pytest.raises(StateFileError, match=r"^board\.players\.colours\[3\]: must be text in quotes, not 4\."):
        score_file(data, 1)


def test_a_state_file_is_checked_whole_before_its_board_is_built():
    # A wrong type in a seat is named even when the board corrections are broken too: the board
    # (game code) is never built from a file whose fields do not fit.
    data = copy.deepcopy(EXAMPLE)
    data["board"] = {"town": {"spaces": {"3": 999}}}
    data["players"][1]["prestige"] = [4]
    with pytest.raises(StateFileError, match=r"^players\[1\]\.prestige: must be a whole number, not \[4\]\."):
        score_file(data, 1)


def test_the_state_file_schema_holds_every_key_of_the_example():
    S.check(STATE_FILE, EXAMPLE)
