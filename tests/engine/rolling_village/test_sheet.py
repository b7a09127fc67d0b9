"""The Village Sheet and Projects! legend data files: defaults, custom sheets, validation errors."""
import copy

import pytest

from companion.engine import DataFileError, SetupError
from companion.engine.log import LogError, replay
from companion.engine.rolling_village import (
    Activate, SheetError, activate, avenue_scores, default_legend, default_sheet, legend_from_toml,
    sheet_from_toml, networks, sheet_from_dict, views,
)
from companion.engine.rolling_village.sheet import legend_from_dict

from .helpers import Table


def test_default_sheet_matches_the_facts():
    sheet = default_sheet()
    assert (sheet.avenues, sheet.streets) == (5, 6)
    assert [sheet.label(r) for r in range(1, 6)] == ["[3-4]", "[5-6]", "[7]", "[8-9]", "[10-11]"]
    assert sheet.points[0] == sheet.points[4] == (3, 0, 2, 2, 0, 3)
    assert sheet.points[1] == sheet.points[3] == (0, 1, 0, 0, 1, 0)
    assert sheet.points[2] == (2, 0, 1, 1, 0, 2)
    assert sum(map(sum, sheet.points)) == 30
    rows = {total: sheet.avenue_for_sum(total) for total in range(2, 13)}
    assert rows == {2: None, 3: 1, 4: 1, 5: 2, 6: 2, 7: 3, 8: 4, 9: 4, 10: 5, 11: 5, 12: None}


def test_default_legend_is_house_forest_lake():
    legend = default_legend()
    assert [legend.project_for_die(d) for d in range(1, 7)] == [
        "house", "forest", "lake", "house", "forest", "lake"]
    assert legend.title("lake") == "Lake"


def test_default_files_round_trip_through_their_dict_shape():
    assert sheet_from_dict(default_sheet().to_dict()) == default_sheet()
    assert legend_from_dict(default_legend().to_dict()) == default_legend()


ONES = {"choice_sums": [2, 12], "avenue": [
    {"label": lab, "sums": sums, "points": [1] * 6}
    for lab, sums in (("3-4", [3, 4]), ("5-6", [5, 6]), ("7", [7]), ("8-9", [8, 9]), ("10-11", [10, 11]))
]}


def test_hand_made_sheet_network_scores():
    """A sheet with 1 point on every square: an Activation scores the size of the Networks lit."""
    sheet = sheet_from_dict(ONES)
    names = {"F": "forest", "L": "lake", "H": "house", ".": None}
    grid = tuple(tuple(names[c] for c in line.split()) for line in [
        "F F . . . .",
        ". F . L . .",
        ". F F F . .",
        "H . . . . .",
        "H H . . L L",
    ])
    assert sorted(len(n) for n in networks(grid)) == [1, 2, 3, 6]
    assert avenue_scores(grid, sheet) == (6, 7, 6, 3, 5)
    lit = activate(grid, sheet, 2)
    assert lit.score == 7 and len(lit.networks) == 2


def test_a_sheet_with_other_sums_and_no_choice_drives_activation(tmp_path):
    path = tmp_path / "four.toml"
    path.write_text(
        'choice_sums = []\n'
        + "".join(f'[[avenue]]\nlabel = "{lab}"\nsums = {sums}\npoints = [{p}, 0, 0, 0, 0, 0]\n'
                  for lab, sums, p in (("2-5", [2, 3, 4, 5], 1), ("6-7", [6, 7], 2), ("8", [8], 4),
                                       ("9-12", [9, 10, 11, 12], 8))))
    sheet = sheet_from_toml(path.read_text(), str(path))
    table = Table(options={"sheet": sheet.to_dict()})
    table.roll(1, 1)
    table.build("Ann", "house", 1, 1)
    table.build("Ann", "lake", 4, 1)
    table.roll(1, 1)  # two Houses in Street 1: the House Network now runs down to Avenue 3
    table.build("Ann", "house", 2, 1)
    table.build("Ann", "house", 3, 1)
    state = table.game.apply(table.state, Activate((1, 1)))  # 2: Avenue 1 here, no choosing
    assert views.last_activation(state, "Ann").row == 1
    assert state.village("Ann").turn_scores == (1 + 2 + 4,)
    state = table.game.apply(table.state, Activate((6, 6)))  # 12: Avenue 4, the Lake
    assert state.village("Ann").turn_scores == (8,)


def broken(change):
    data = copy.deepcopy(ONES)
    change(data)
    return data


@pytest.mark.parametrize("change, key, words", [
    (lambda d: d.pop("avenue"), "avenue", "[[avenue]]"),
    (lambda d: d.__setitem__("avenue", d["avenue"][:3]), "avenue", "at least 4 Avenues"),
    (lambda d: d["avenue"][1]["points"].pop(), "avenue[2].points", "6 Streets"),
    (lambda d: d["avenue"][1]["points"].__setitem__(0, -1), "avenue[2].points", "0 or more"),
    (lambda d: d["avenue"][1]["points"].__setitem__(0, True), "avenue[2].points", "whole numbers"),
    (lambda d: d["avenue"][2]["sums"].append(8), "avenue[4].sums", "the sum 8"),
    (lambda d: d["avenue"][2]["sums"].append(13), "avenue[3].sums", "from 2 to 12"),
    (lambda d: d["avenue"][2].__setitem__("sums", []), "avenue[3].sums", "at least one"),
    (lambda d: d["avenue"][1]["sums"].remove(6), "avenue", "[6]"),
    (lambda d: d["avenue"][0].pop("label"), "avenue[1].label", "label"),
    (lambda d: d["avenue"][0].__setitem__("colour", "red"), "avenue[1].colour", "unknown key"),
    (lambda d: d.__setitem__("avenues", 5), "avenues", "unknown key"),
    (lambda d: d.__setitem__("choice_sums", [2, 2, 12]), "choice_sums", "twice"),
    (lambda d: d.__setitem__("choice_sums", "2, 12"), "choice_sums", "list"),
])
def test_sheet_validation_names_the_key(change, key, words):
    with pytest.raises(SheetError) as caught:
        sheet_from_dict(broken(change), "my-sheet.toml")
    assert caught.value.key == key
    assert words in str(caught.value) and "my-sheet.toml" in str(caught.value)
    assert isinstance(caught.value, DataFileError) and isinstance(caught.value, SetupError)


def test_toml_syntax_error_names_the_line(tmp_path):
    path = tmp_path / "sheet.toml"
    path.write_text('choice_sums = [2, 12]\n\n[[avenue]]\nlabel = "3-4\nsums = [3, 4]\n')
    with pytest.raises(DataFileError) as caught:
        sheet_from_toml(path.read_text(), str(path))
    assert caught.value.line == 4 and "line 4" in str(caught.value)
    assert str(path) in str(caught.value)


@pytest.mark.parametrize("change, key", [
    (lambda d: d["project"][0]["dice"].append(2), "project[2].dice"),
    (lambda d: d["project"][0]["dice"].pop(), "project"),
    (lambda d: d["project"].pop(), "project"),
    (lambda d: d["project"][1].__setitem__("name", "Forest"), "project[2].name"),
    (lambda d: d["project"][1].__setitem__("name", "house"), "project[2].name"),
    (lambda d: d["project"][1]["dice"].__setitem__(0, 7), "project[2].dice"),
])
def test_legend_validation_names_the_key(change, key):
    data = default_legend().to_dict()
    change(data)
    with pytest.raises(SheetError) as caught:
        legend_from_dict(data, "legend.toml")
    assert caught.value.key == key


def test_a_legend_file_and_a_header_legend_change_the_die_swap(tmp_path):
    path = tmp_path / "projects.toml"
    path.write_text("".join(f'[[project]]\nname = "{n}"\ndice = {d}\n'
                            for n, d in (("house", [1, 2]), ("forest", [3, 4]), ("lake", [5, 6]))))
    legend = legend_from_toml(path.read_text(), str(path))
    assert legend.title("forest") == "Forest"
    table = Table(options={"projects": legend.to_dict()})
    table.start()
    table.roll(2, 4)  # here a 2 is a House (to Street 4) and a 4 a Forest (to Street 2)
    table.build("Ann", "house", 2, 4)
    table.build("Ann", "forest", 2, 2)
    assert table.state.phase == "activate"


def test_a_bad_sheet_in_a_log_header_is_refused_with_the_line_and_key():
    bad = broken(lambda d: d["avenue"][3]["points"].append(1))
    header = {"game": "rolling-village", "players": ["Ann"], "sheet": bad}
    import json
    with pytest.raises(LogError) as caught:
        replay([json.dumps(header)])
    assert caught.value.line == 1
    assert "avenue[4].points" in str(caught.value) and 'header\'s "sheet"' in str(caught.value)
    with pytest.raises(SetupError):
        Table(options={"sheet": "big"})


def test_an_unknown_sheet_key_names_its_path_and_the_nearest_known_key():
    with pytest.raises(SheetError) as caught:
        sheet_from_dict(broken(lambda d: d["avenue"][0].__setitem__("point", [0] * 6)), "my-sheet.toml")
    assert str(caught.value) == "my-sheet.toml: avenue[1].point: unknown key; did you mean points? (key: avenue[1].point)"
