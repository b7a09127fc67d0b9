"""`companion replay` on the inputs a damaged or hostile file holds: each a clean refusal naming
the line (and field), or a correct result; never a traceback."""
import json
import subprocess
import sys

import pytest
from test_cli import START, companion, write_log


def refused(out):
    return out.returncode == 2 and "Traceback" not in out.stderr and out.stdout == ""


@pytest.mark.parametrize("field,value", [
    ("row", None), ("row", [2]), ("row", {"n": 2}), ("player", None), ("player", ["Ann"]),
    ("project", {"name": "house"}), ("street", "2"),
])
def test_a_field_of_the_wrong_json_type_is_refused_naming_line_and_field(tmp_path, field, value):
    rows = START[:2] + [{**START[2], field: value}]
    out = companion("replay", str(write_log(tmp_path / "g.jsonl", rows)))
    assert refused(out), out.stderr
    assert "line 3:" in out.stderr and f'"{field}"' in out.stderr


@pytest.mark.parametrize("dice", [None, [None, 4], [[2], 4], {"a": 2}])
def test_dice_of_the_wrong_json_type_are_refused(tmp_path, dice):
    rows = START[:1] + [{"type": "roll", "dice": dice}]
    out = companion("replay", str(write_log(tmp_path / "g.jsonl", rows)))
    assert refused(out) and "line 2:" in out.stderr and '"dice"' in out.stderr, out.stderr


@pytest.mark.parametrize("line,words", [
    ('{"type": "roll", "dice": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested deeper than"),
    ('{"type": "roll", "dice": [' + "7" * 5000 + ", 2]}", "5000 digits"),
    ('{"type": "roll", "dice": [1e999, 2]}', "too large"),
    ('{"type": "roll", "dice": [NaN, 2]}', "NaN"),
])
def test_bounds_are_refused_with_a_sentence(tmp_path, line, words):
    out = companion("replay", str(write_log(tmp_path / "g.jsonl", [START[0], line])))
    assert refused(out) and "line 2:" in out.stderr and words in out.stderr, out.stderr[-500:]


def test_a_file_that_is_not_utf8_is_refused_with_the_line_number(tmp_path):
    path = tmp_path / "g.jsonl"
    path.write_bytes(json.dumps(START[0]).encode() + b"\n" + json.dumps(START[1]).encode()
                     + b'\n{"type": "build", "player": "Ann\xff"}\n')
    out = companion("replay", str(path))
    assert refused(out) and "line 3: not UTF-8" in out.stderr, out.stderr


def test_names_holding_u2028_and_nel_are_names_not_line_ends(tmp_path):
    names = ["Ann\u2028Lee", "Bo\u0085Ray"]
    rows = [{"game": "rolling-village", "players": names}] + START[1:2]
    path = tmp_path / "g.jsonl"
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    out = companion("replay", str(path))
    assert out.returncode == 0, out.stderr
    assert [p["name"] for p in json.loads(out.stdout)["players"]] == names


def test_a_lone_surrogate_in_a_name_is_written_as_its_json_escape(tmp_path):
    rows = [{"game": "rolling-village", "players": ["Ann\ud800", "Bo"]}] + START[1:2]
    out = companion("replay", str(write_log(tmp_path / "g.jsonl", rows)))  # json.dumps escapes it
    assert out.returncode == 0, out.stderr
    assert "\\ud800" in out.stdout and json.loads(out.stdout)["players"][0]["name"] == "Ann\ud800"


def test_a_closed_output_pipe_ends_quietly(tmp_path):
    path = write_log(tmp_path / "g.jsonl", START)
    proc = subprocess.Popen([sys.executable, "-m", "companion", "replay", str(path)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()  # like `| head -c0`: the reader is gone before the answer comes
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0 and err == "", err


def test_a_line_past_the_length_bound_is_refused_at_once(tmp_path):
    # The case: a 50 MB line, which once got no answer in 20 s (the run's limit is 60 s).
    huge = '{"type": "roll", "dice": [2, 4], "pad": "' + "x" * 50_000_000 + '"}'
    out = companion("replay", str(write_log(tmp_path / "g.jsonl", [START[0], huge])))
    assert refused(out) and f"line 2: the line is {len(huge):,} characters long" in out.stderr, out.stderr[-300:]


def test_standard_input_is_read_as_bytes_split_on_newlines_only():
    names = ["Ann\u2028Lee", "Bo"]
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n"
                   for r in [{"game": "rolling-village", "players": names}, START[1]])
    out = subprocess.run([sys.executable, "-m", "companion", "replay", "-"], input=text.encode("utf-8"),
                         capture_output=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert [p["name"] for p in json.loads(out.stdout)["players"]] == names



def test_export_into_a_closed_pipe_ends_quietly(tmp_path):
    from companion.session import Session
    from companion.store import Store

    db = tmp_path / "games.db"
    with Store.open(db) as store:
        assert Session.new("rolling-village", ["Ann", "Bo"], store=store).submit_json(START[1]).ok
    proc = subprocess.Popen([sys.executable, "-m", "companion", "export", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0 and err == "", err
