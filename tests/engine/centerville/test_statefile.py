"""`companion score centerville STATE.json --round N`: scoring a board without a tracked game."""
import copy
import json
from pathlib import Path

import pytest

from companion.engine.centerville.statefile import StateFileError, load_state, score_file
from companion.score_cli import score_main

EXAMPLE = Path(__file__).parent / "data" / "town-example.json"


def example():
    return json.loads(EXAMPLE.read_text())


def test_round_one_of_the_town_example(capsys):
    assert score_main(["centerville", str(EXAMPLE), "--round", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    steps = out["steps"]
    yellow = steps[0]
    assert yellow["name"] == "town" and yellow["detail"].startswith("yellow")
    assert {c: v["wealth"] for c, v in yellow["changes"].items()} == {"gray": 6, "white": 6, "brown": 6, "orange": -1}
    purple = steps[3]
    assert {c: v["prestige"] for c, v in purple["changes"].items()} == {"gray": -3, "white": 6, "brown": 0, "orange": -3}
    river = steps[4]
    assert river["changes"]["gray"] == {"wealth": 4, "prestige": 0}
    assert river["changes"]["white"] == {"wealth": 2, "prestige": 2}
    assert river["changes"]["orange"] == {"wealth": 0, "prestige": 0}  # greenbelt 0 pays nothing
    offices = steps[5]["changes"]
    assert offices["gray"]["wealth"] == 3 and offices["white"]["wealth"] == 0 and offices["brown"]["wealth"] == -3
    status = steps[6]["changes"]
    assert status["white"]["wealth"] == 8 and status["gray"]["wealth"] == 2 and status["orange"]["wealth"] == 0
    assert steps[-1]["name"] == "reset"
    for colour, total in out["totals"].items():
        assert total["wealth"] == sum(s["changes"][colour]["wealth"] for s in steps)
    assert "winner" not in out


def _changes(step, kind):
    return {c: v[kind] for c, v in step["changes"].items()}


def test_town_scoring_example_through_companion_score(tmp_path, capsys):
    # The rulebook's Town Scoring Example as a file: orange starts high enough to lose all 3.
    data = example()
    data["players"][3]["wealth"] = 10
    state = tmp_path / "town.json"
    state.write_text(json.dumps(data))
    assert score_main(["centerville", str(state), "--round", "1"]) == 0
    steps = json.loads(capsys.readouterr().out)["steps"]
    assert _changes(steps[0], "wealth") == {"gray": 6, "white": 6, "brown": 6, "orange": -3}  # yellow
    assert _changes(steps[3], "prestige") == {"gray": -3, "white": 6, "brown": 0, "orange": -3}  # purple


@pytest.mark.parametrize("media, wealth, prestige", [
    (None, 0 + 20 + 5, 3),  # "3 prestige ... 0 wealth for the pair of Finance; 20 ... 5"
    (6, 0 + 35 + 5, 3),  # the Media as a sixth Service
    (7, 0 + 20 + 5, 6),  # the Media as The Arts: a fourth type
])
def test_vocation_scoring_example_through_companion_score(tmp_path, capsys, media, wealth, prestige):
    data = example()  # brown holds David's vocations: Finance 2, Service 5, Retail 3
    for p, legacy in zip(data["players"], ["greenbelt", "offices", "vocations", "red-zone"]):
        p["legacy"] = legacy
    if media is None:
        data.pop("media"), data.pop("media_vocation")
    else:
        data["media_vocation"] = media
    state = tmp_path / "david.json"
    state.write_text(json.dumps(data))
    assert score_main(["centerville", str(state), "--round", "3"]) == 0
    step = next(s for s in json.loads(capsys.readouterr().out)["steps"] if s["name"] == "vocations")
    assert step["changes"]["brown"] == {"wealth": wealth, "prestige": prestige}


def test_round_three_names_the_winner_with_legacies(capsys):
    data = example()
    for p, legacy in zip(data["players"], ["greenbelt", "offices", "vocations", "red-zone"]):
        p["legacy"] = legacy
    out = score_file(data, 3)
    names = [s["name"] for s in out["steps"]]
    assert names == ["town"] * 4 + ["river", "offices", "status", "vocations", "villas"] + ["legacy"] * 4
    voc = out["steps"][7]["changes"]["brown"]
    assert voc == {"wealth": 0 + 35 + 5, "prestige": 3}  # Media as a sixth Service
    assert out["winner"] == out["ranking"][0]


@pytest.mark.parametrize(
    "mutate, path",
    [
        (lambda d: d["players"][1].__setitem__("wealth", "lots"), "players[1].wealth"),
        (lambda d: d["players"][1].__setitem__("wealth", 0), "players[1].wealth"),
        (lambda d: d["players"][0].__setitem__("colour", "white"), "players[1].colour"),  # white twice
        (lambda d: d["town"]["yellow"].__setitem__("1", ["brown", "orange", "gray", "gray"]), "town.yellow.1"),
        (lambda d: d["town"]["yellow"].__setitem__("2", ["pink"]), "town.yellow.2[0]"),
        (lambda d: d["town"].__setitem__("green", {}), "town.green"),
        (lambda d: d["river"].__setitem__("east-1", "gray"), "river.east-1"),
        (lambda d: d["villas"].__setitem__("south-2", ["gray"]), "villas.south-2"),
        (lambda d: d["offices"].__setitem__("Sheriff", None), "offices.Sheriff"),
        (lambda d: d["offices"]["Mayor"].__setitem__("cubes", 0), "offices.Mayor.cubes"),
        (lambda d: d.__setitem__("status", ["white", "gray", "brown"]), "status"),
        (lambda d: d["players"][2].__setitem__("vocations", {"10": 1}), "players[2].vocations.10"),
        (lambda d: d["players"][2].__setitem__("vocations", {"2": 3}), "players[2].vocations.2"),
        (lambda d: d["players"][0].__setitem__("park", 40), "players[0].park"),
        (lambda d: d.__setitem__("board", {"town": {"spaces": {"3": -1}}}), "board.town.spaces.3"),
    ],
)
def test_bad_files_are_refused_with_the_path_of_the_field(mutate, path):
    data = example()
    mutate(data)
    with pytest.raises(StateFileError) as err:
        load_state(data, 1)
    assert err.value.path == path, str(err.value)


def test_round_three_needs_every_legacy():
    with pytest.raises(StateFileError) as err:
        load_state(example(), 3)
    assert err.value.path == "players[0].legacy"


def test_cube_limit_in_a_file():
    data = example()
    data["players"][0]["park"] = 30
    with pytest.raises(StateFileError) as err:
        load_state(data, 1)
    assert err.value.path == "players[0]" and "more than 32" in str(err.value)


def test_cli_refuses_a_bad_file_on_stderr_with_exit_2(tmp_path, capsys):
    data = example()
    data["players"][3]["prestige"] = -4
    bad = tmp_path / "state.json"
    bad.write_text(json.dumps(data))
    assert score_main(["centerville", str(bad), "--round", "2"]) == 2
    err = capsys.readouterr().err
    assert "players[3].prestige" in err
    bad.write_text("{ not json")
    assert score_main(["centerville", str(bad), "--round", "2"]) == 2
    assert "not valid JSON" in capsys.readouterr().err
    assert score_main(["civility", str(EXAMPLE), "--round", "1"]) == 2
    assert score_main(["centerville", str(tmp_path / "missing.json"), "--round", "1"]) == 2


def test_a_two_player_file_with_the_bot_and_the_open_legacy():
    data = example()
    data["players"] = data["players"][:3]
    data["players"][2]["bot"] = True
    data["players"][2].pop("vocations")
    data.pop("media")
    data.pop("media_vocation")
    data["status"] = ["white", "gray", "brown"]
    data["town"]["yellow"]["1"] = ["brown"]
    data["river"].pop("south-2")
    for p, legacy in zip(data["players"], ["greenbelt", "offices", "vocations"]):
        p["legacy"] = legacy
    data["open_legacy"] = "yellow-zone"
    out = score_file(copy.deepcopy(data), 3)
    assert out["steps"][-1]["detail"].startswith("the open Legacy: yellow-zone")
    assert len(out["totals"]) == 3


@pytest.mark.parametrize(
    "mutate, line",
    [
        (lambda d: d.__setitem__("office", d.pop("offices")), "office: unknown key; did you mean offices?"),
        (lambda d: d["players"][0].__setitem__("grenbelt", 6), "players[0].grenbelt: unknown key; did you mean greenbelt?"),
        (lambda d: d.__setitem__("board", {"vilas": {"bridge": [1, 1, 1]}}), "board.vilas: unknown key; did you mean villas?"),
        (lambda d: d.__setitem__("board", {"villas": {"brige": [1]}}), "board.villas.brige: unknown key; did you mean bridge?"),
        (lambda d: d["offices"]["Mayor"].__setitem__("cube", 3), "offices.Mayor.cube: unknown key; did you mean cubes?"),
        (lambda d: d["offices"].__setitem__("Mayr", None), "offices.Mayr: unknown key; did you mean Mayor?"),
        (lambda d: d["town"]["yellow"].__setitem__("5", []), "town.yellow.5: unknown key (known: 1, 2, 3, 4)"),
        (lambda d: d["town"].__setitem__("yelow", {}), "town.yelow: unknown key; did you mean yellow?"),
        (lambda d: d["river"].__setitem__("north1", None), "river.north1: unknown key; did you mean north-1?"),
    ],
)
def test_an_unknown_key_is_refused_with_its_path_and_the_nearest_known_key(tmp_path, capsys, mutate, line):
    # Skipped, each of these would score as if the key were absent: a silently wrong score.
    data = example()
    mutate(data)
    bad = tmp_path / "state.json"
    bad.write_text(json.dumps(data))
    assert score_main(["centerville", str(bad), "--round", "1"]) == 2
    assert capsys.readouterr().err == f"{bad}: {line}\n"


def test_a_wrong_type_is_refused_by_the_name_of_its_field():
    for mutate, path in [
        (lambda d: d.__setitem__("media_vocation", "six"), "media_vocation"),
        (lambda d: d["status"].__setitem__(1, 3), "status[1]"),
        (lambda d: d["players"][0].__setitem__("colour", ["gray"]), "players[0].colour"),
        (lambda d: d.__setitem__("board", {"town": 3}), "board.town"),
    ]:
        data = example()
        mutate(data)
        with pytest.raises(StateFileError) as err:
            load_state(data, 1)
        assert err.value.path == path, str(err.value)
