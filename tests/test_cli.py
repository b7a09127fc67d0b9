"""`companion replay` and `companion export` as a user runs them: a real process, real files."""
import json
import os
import sqlite3
import subprocess
import sys

import pytest

from companion.session import Session
from companion.store import Store

START = [
    {"game": "rolling-village", "players": ["Ann", "Bo"]},
    {"type": "roll", "dice": [2, 4]},
    {"type": "build", "player": "Ann", "project": "house", "row": 2, "street": 2},
    {"type": "build", "player": "Ann", "project": "forest", "row": 1, "street": 4},
    {"type": "build", "player": "Bo", "project": "house", "row": 2, "street": 2},
    {"type": "build", "player": "Bo", "project": "lake", "row": 2, "street": 4},
]


def companion(*args, env=None):
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True,
                          env=env, timeout=60)


def write_log(path, rows):
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def test_replay_prints_one_json_object(tmp_path):
    out = companion("replay", str(write_log(tmp_path / "g.jsonl", START)))
    assert out.returncode == 0, out.stderr
    result = json.loads(out.stdout)
    assert set(result) >= {"game", "finished", "turn", "players", "ranking"}
    assert result["game"] == "rolling-village" and result["finished"] is False
    assert [p["name"] for p in result["players"]] == ["Ann", "Bo"]
    assert all(set(p) >= {"name", "score", "turn_scores"} for p in result["players"])


@pytest.mark.parametrize("bad_line, expected", [
    ('{"type": "roll", "dice": [2, 4]', "not valid JSON"),
    ({"type": "teleport"}, '"teleport" is not an action'),
    ({"type": "build", "player": "Ann", "project": "house", "row": 2}, '"street"'),
    ({"type": "build", "player": "Ann", "project": "house", "row": "2", "street": 3}, '"row"'),
    ({"type": "roll", "dice": [2, 4]}, "rule: Building Phase"),
])
def test_a_bad_line_exits_2_naming_the_line_and_the_field_or_rule(tmp_path, bad_line, expected):
    rows = START[:3] + [bad_line]
    out = companion("replay", str(write_log(tmp_path / "g.jsonl", rows)))
    assert out.returncode == 2
    assert out.stdout == ""
    assert "line 4" in out.stderr and expected in out.stderr


@pytest.mark.parametrize("header, line", [
    ({"game": "rolling-village", "players": ["Ann", "Bo"], "sheets": {}}, "line 1: sheets: unknown key; did you mean sheet?"),
    ({"game": "centerville", "players": ["Ann", "Bo", "Cy"], "board": {"vilas": {}}},
     "line 1: option board: vilas: unknown key; did you mean villas?"),
    ({"game": "civility", "players": ["Ann", "Bo"], "quickplay": True}, "line 1: quickplay: unknown key; did you mean quick_play?"),
])
def test_a_header_with_an_unknown_key_exits_2_naming_it(tmp_path, header, line):
    out = companion("replay", str(write_log(tmp_path / "g.jsonl", [header])))
    assert out.returncode == 2 and out.stderr == f"{tmp_path / 'g.jsonl'}: {line}\n"


def test_an_action_with_an_unknown_field_exits_2_naming_it(tmp_path):
    # Replayed as if the field were absent, "streets" would build elsewhere, or nowhere.
    rows = START[:3] + [{"type": "build", "player": "Ann", "project": "house", "row": 2, "streets": 3}]
    out = companion("replay", str(write_log(tmp_path / "g.jsonl", rows)))
    assert out.returncode == 2 and out.stderr == f"{tmp_path / 'g.jsonl'}: line 4: streets: unknown key; did you mean street?\n"


def test_a_bad_header_and_a_missing_file(tmp_path):
    out = companion("replay", str(write_log(tmp_path / "g.jsonl", [{"game": "rolling-village"}])))
    assert out.returncode == 2 and "line 1" in out.stderr and '"players"' in out.stderr
    out = companion("replay", str(tmp_path / "nope.jsonl"))
    assert out.returncode == 2 and "cannot read" in out.stderr and out.stdout == ""


def test_export_writes_the_stored_game_as_a_replayable_log(tmp_path):
    db = tmp_path / "games.db"
    with Store.open(db) as store:
        session = Session.new("rolling-village", ["Ann", "Bo"], store=store)
        for row in START[1:]:
            assert session.submit_json(row).ok
        expected = session.summary()
    out = companion("export", "--db", str(db), "-o", str(tmp_path / "out.jsonl"))
    assert out.returncode == 0, out.stderr
    lines = (tmp_path / "out.jsonl").read_text().splitlines()
    assert [json.loads(line) for line in lines] == START
    replayed = companion("replay", str(tmp_path / "out.jsonl"))
    assert json.loads(replayed.stdout) == json.loads(json.dumps(expected))


def test_unknown_command():
    out = companion("fly")
    assert out.returncode == 2 and "unknown command" in out.stderr


def test_export_of_a_damaged_or_foreign_file_exits_2_and_leaves_it_as_it_was(tmp_path):
    text = tmp_path / "games.db"
    text.write_text("not a database, a note\n" * 50)
    out = companion("export", "--db", str(text))
    assert out.returncode == 2 and "looks damaged" in out.stderr and "Traceback" not in out.stderr
    assert text.read_text() == "not a database, a note\n" * 50 and not list(tmp_path.glob("*.corrupt-*"))
    foreign = tmp_path / "foreign.db"
    conn = sqlite3.connect(foreign)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY)")
    conn.commit()
    conn.close()
    before = foreign.read_bytes()
    out = companion("export", "--db", str(foreign))
    assert out.returncode == 2 and "left exactly as it is" in out.stderr and "Traceback" not in out.stderr
    assert foreign.read_bytes() == before


def test_run_on_a_foreign_schema_exits_1_with_one_sentence_and_keeps_the_file(tmp_path):
    db = tmp_path / "games.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    conn.execute("CREATE TABLE games (id INTEGER PRIMARY KEY, header TEXT)")  # no "game" column
    conn.execute("INSERT INTO meta VALUES ('schema', '1')")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    out = companion("run", env=dict(os.environ, COMPANION_DATA_DIR=str(tmp_path)))
    assert out.returncode == 1 and "Traceback" not in out.stderr, out.stderr[-2000:]
    assert f"The saved games file {db} was not opened: its 'games' table lacks the columns 'game'" in out.stderr
    assert db.read_bytes() == before and not list(tmp_path.glob("*.corrupt-*"))
