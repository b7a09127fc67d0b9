"""The board file: the shipped defaults, player corrections, and bad files refused by key."""
import copy

import pytest

from companion.engine.core import DataFileError, SetupError
from companion.engine.centerville.board import board_from_data, default_board, default_board_data, parse_board
from companion.engine.centerville.dice import default_dice, dice_from_data

from .positions import GAME


def test_default_board_holds_the_facts_defaults():
    b = default_board()
    assert b.zones == ("yellow", "blue", "red", "purple")
    assert b.spaces == (3, 5, 7, 1)  # level 3 is unknown: FACTS.md default 7
    assert [o.name for o in b.offices][0] == "Mayor" and b.offices[0].colour == "black"
    assert b.offices[-1].name == "City Council" and b.offices[-1].colour == "red"
    assert b.river_spaces == ("north-1", "north-2", "north-3", "bridge", "south-1", "south-2", "south-3")
    assert b.time_start == {2: 7, 3: 7, 4: 8}
    assert len(b.legacies) == 7 and b.favors == 10 and b.cubes == 32
    assert b.vocation_counts == tuple(range(1, 10)) and sum(b.vocation_counts) == 45  # type n has n tiles


def test_dice_faces_are_the_player_aid():
    d = default_dice()
    assert d.faces[d.index("black")] == ("vote", "hourglass", "hourglass", "bench", "education", "tree")
    assert "green-hourglass" in d.labels(d.index("green"))
    assert "red-fate" in d.labels(d.index("red")) and len(d.labels(d.index("red"))) == 5


def _bad(mutate):
    data = copy.deepcopy(default_board_data())
    mutate(data)
    with pytest.raises(DataFileError) as err:
        board_from_data(data, "my-board.toml")
    return err.value


def test_a_bad_level_three_count_is_refused_with_its_key():
    err = _bad(lambda d: d["town"]["spaces"].__setitem__("3", "seven"))
    assert err.key == "town.spaces.3" and "whole number" in str(err)


def test_a_missing_key_is_named():
    err = _bad(lambda d: d["river"].pop("south"))
    assert err.key == "river.south" and "missing" in str(err)


def test_villa_roads_must_match_the_river():
    err = _bad(lambda d: d["villas"].__setitem__("north", [[4, 2, 1]]))
    assert err.key == "villas.north"


def test_office_colours_are_checked():
    err = _bad(lambda d: d["offices"][1].__setitem__("colour", "pink"))
    assert err.key == "offices[1].colour"


def test_two_offices_cannot_share_a_colour():
    err = _bad(lambda d: d["offices"][1].__setitem__("colour", "black"))
    assert err.key == "offices"


def test_vocation_names_need_all_nine():
    err = _bad(lambda d: d["vocations"]["names"].pop("8"))
    assert err.key == "vocations.names"


def test_bad_toml_is_refused():
    with pytest.raises(DataFileError) as err:
        parse_board("[town\nzones = 1", "mine.toml")
    assert "not valid TOML" in str(err.value)


def test_bad_dice_file_is_refused_with_key():
    with pytest.raises(DataFileError) as err:
        dice_from_data({"order": ["red", "yellow", "blue", "purple", "green", "black"],
                        "faces": {"red": ["vote"] * 6, "yellow": ["vote"] * 5}})
    assert err.value.key == "faces.yellow"


def test_a_player_corrects_an_unknown_fact():
    s = GAME.new(("Ann", "Bo", "Cy"), {"board": {"town": {"spaces": {"3": 6}}, "river": {"north": 2}, "villas": {"north": [[4, 2], [2, 1]]}}})
    assert s.board.spaces[2] == 6
    assert s.board.river_spaces[:3] == ("north-1", "north-2", "bridge")


def test_a_bad_correction_is_a_setup_error_naming_the_key():
    with pytest.raises(SetupError) as err:
        GAME.new(("Ann", "Bo", "Cy"), {"board": {"time": {"start": {"3": 0}}}})
    assert "time.start.3" in str(err.value)


@pytest.mark.parametrize(
    "mutate, key, problem",
    [
        (lambda d: d.__setitem__("vilas", d.pop("villas")), "vilas", "unknown key; did you mean villas?"),
        (lambda d: d["town"].__setitem__("space", {}), "town.space", "unknown key; did you mean spaces?"),
        (lambda d: d["town"]["spaces"].__setitem__("5", 2), "town.spaces.5", "unknown key (known: 1, 2, 3, 4)"),
        (lambda d: d["offices"][2].__setitem__("colur", "red"), "offices[2].colur", "unknown key; did you mean colour?"),
        (lambda d: d.__setitem__("greenbelt", 12), "greenbelt", "must be a table."),
    ],
)
def test_a_key_the_board_file_does_not_know_is_refused_with_the_nearest_known_key(mutate, key, problem):
    err = _bad(mutate)
    assert (err.key, err.problem) == (key, problem) and str(err) == f"my-board.toml: {key}: {problem}"


def test_a_correction_with_an_unknown_key_is_refused_not_skipped():
    # "vilas" skipped would leave the default villas in play: a silently wrong score.
    with pytest.raises(SetupError, match="vilas: unknown key; did you mean villas"):
        GAME.new(("Ann", "Bo", "Cy"), {"board": {"vilas": {"bridge": [1, 1, 1]}}})


def test_the_dice_file_refuses_an_unknown_key():
    data = {"order": ["red", "yellow", "blue", "purple", "green", "black"], "face": {}}
    with pytest.raises(DataFileError) as err:
        dice_from_data(data)
    assert err.value.key == "face" and "did you mean faces?" in str(err.value)
