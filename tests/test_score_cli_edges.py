"""`companion score centerville` on the inputs a damaged or hostile state file holds: each a clean
refusal naming the field path (or the line and column for what is not JSON), or a correct result;
never a traceback. Run as the player runs it: the real command in a subprocess."""
import copy
import json
import subprocess
import sys
from pathlib import Path

import pytest
from test_cli import companion

EXAMPLE = json.loads((Path(__file__).parent / "engine/centerville/data/town-example.json").read_text())


def score(path, *extra):
    return companion("score", "centerville", str(path), "--round", "1", *extra)


def refused(out):
    return out.returncode == 2 and "Traceback" not in out.stderr and out.stdout == ""


def with_value(path, value):
    """The example with the field at `path` (a tuple of keys and indexes) set to `value`."""
    data = copy.deepcopy(EXAMPLE)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    return data


def write(tmp_path, data_or_text):
    path = tmp_path / "state.json"
    text = data_or_text if isinstance(data_or_text, str) else json.dumps(data_or_text, ensure_ascii=False)
    path.write_bytes(text.encode("utf-8", "surrogatepass"))
    return path


@pytest.mark.parametrize("path,words", [
    (("players", 0, "wealth"), "players[0].wealth: must be a whole number, not '²'"),
    (("media_vocation",), "media_vocation: must be a whole number, not '²'"),
    (("players", 2, "vocations", "5"), "players[2].vocations.5: must be a whole number, not '²'"),
])
def test_superscript_two_as_a_number_is_refused_naming_the_field(tmp_path, path, words):
    out = score(write(tmp_path, with_value(path, "²")))
    assert refused(out) and words in out.stderr, out.stderr


def test_superscript_two_as_a_key_of_numbers_is_an_unknown_key(tmp_path):
    data = copy.deepcopy(EXAMPLE)
    data["town"]["yellow"]["²"] = ["brown"]
    out = score(write(tmp_path, data))
    assert refused(out) and "town.yellow.²: unknown key" in out.stderr, out.stderr


@pytest.mark.parametrize("path,value", [
    (("players", 0, "name"), None), (("players", 0, "name"), ["Gray"]), (("players", 1, "colour"), {"c": 1}),
    (("players", 0, "wealth"), None), (("players", 0, "wealth"), [10]), (("status",), "white"),
    (("town", "yellow"), ["brown"]), (("offices", "Mayor", "cubes"), "3"), (("players",), {"0": {}}),
    (("board",), [1]), (("board",), {"town": {"spaces": {"3": None}}}),
])
def test_a_field_of_the_wrong_json_type_is_refused_naming_its_path(tmp_path, path, value):
    out = score(write(tmp_path, with_value(path, value)))
    wanted = ".".join(str(p) if isinstance(p, str) else f"[{p}]" for p in path).replace(".[", "[")
    assert refused(out), out.stderr
    assert f"{wanted}" in out.stderr.split(": ", 1)[1], out.stderr


@pytest.mark.parametrize("depth", [40, 1000, 100_000])
def test_deep_nesting_is_refused_with_a_sentence(tmp_path, depth):
    text = json.dumps(EXAMPLE)[:-1] + ', "media": ' + "[" * depth + "]" * depth + "}"
    out = score(write(tmp_path, text))
    assert refused(out) and "nested deeper than 32 levels" in out.stderr, out.stderr[-300:]
    if depth < 500:  # parsed, then walked: the field is named
        assert "media[0]... (" in out.stderr, out.stderr


def test_a_5000_digit_number_is_refused_naming_the_field(tmp_path):
    text = json.dumps(EXAMPLE).replace('"wealth": 2,', '"wealth": ' + "7" * 5000 + ",", 1)
    out = score(write(tmp_path, text))
    assert refused(out) and "players[3].wealth: a number of 5000 digits (at most 30)" in out.stderr, out.stderr


def test_a_lone_surrogate_in_a_name_is_written_as_its_escape(tmp_path):
    text = json.dumps(EXAMPLE).replace('"name": "Gray"', '"name": "Gr\\ud800y"', 1)
    out = score(write(tmp_path, text))
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr[-500:]
    assert json.loads(out.stdout)["players"]["gray"] == "Gr\ud800y"


def test_a_file_that_is_not_utf8_is_refused_with_the_line_number(tmp_path):
    path = tmp_path / "state.json"
    lines = json.dumps(EXAMPLE, indent=1).encode().split(b"\n")
    lines[5] = lines[5].replace(b"Gray", b"Gr\xe9y")
    path.write_bytes(b"\n".join(lines))
    out = score(path)
    assert refused(out) and "line 6: not UTF-8 text (byte 0xe9 at column 15)" in out.stderr, out.stderr


def test_not_json_is_refused_with_line_and_column(tmp_path):
    out = score(write(tmp_path, '{\n  "game": "centerville",\n  "players": [}\n'))
    assert refused(out) and "not valid JSON" in out.stderr and "line 3, column" in out.stderr, out.stderr


def test_a_closed_output_pipe_ends_quietly(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "companion", "score", "centerville",
                             str(write(tmp_path, EXAMPLE)), "--round", "1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0 and err == "", err


def test_the_example_still_scores(tmp_path):
    out = score(write(tmp_path, EXAMPLE))
    assert out.returncode == 0, out.stderr
    assert set(json.loads(out.stdout)["players"]) == {"gray", "white", "brown", "orange"}


@pytest.mark.parametrize("key", ["pla\nyers", "\r", "x\ud800"])
def test_a_key_with_a_line_break_or_surrogate_is_named_on_one_line(tmp_path, key):
    data = copy.deepcopy(EXAMPLE)
    data[key] = 1
    out = score(write(tmp_path, json.dumps(data)))  # "\ud800" as JSON writes it
    assert refused(out) and len(out.stderr.splitlines()) == 1, out.stderr
    assert f"{json.dumps(key)}: unknown key" in out.stderr, out.stderr
