"""The app as a separate process on a real data folder: a corrupt file, a game to resume."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from companion.engine.log import replay
from companion.session import Session
from companion.store import Store

pytestmark = pytest.mark.ui
PROBE = Path(__file__).with_name("app_probe.py")


def probe(data_dir: Path, *actions: str) -> dict:
    env = dict(os.environ, COMPANION_DATA_DIR=str(data_dir))
    done = subprocess.run([sys.executable, str(PROBE), str(data_dir), *actions], env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_corrupt_data_file_is_moved_aside_and_the_player_is_told(tmp_path):
    junk = b"this is not a database " * 200
    (tmp_path / "games.db").write_bytes(junk)
    shown = probe(tmp_path)
    moved = list(tmp_path.glob("games.db.corrupt-*"))
    assert len(moved) == 1 and moved[0].read_bytes() == junk  # kept, not deleted
    assert shown["screen"] == "home" and shown["message_is_error"]
    assert str(moved[0]) in shown["message"]
    assert not shown["offers_resume"]


def test_the_unfinished_game_is_offered_and_resumes_where_it_stopped(tmp_path):
    with Store.open(tmp_path / "games.db") as store:
        session = Session.new("rolling-village", ["Ann", "Bo", "Cy"], store=store)
        for data in ({"type": "roll", "dice": [2, 4]},
                     {"type": "build", "player": "Ann", "project": "house", "row": 1, "street": 2},
                     {"type": "build", "player": "Ann", "project": "lake", "row": 3, "street": 4}):
            assert session.submit_json(data).ok
        log = session.export()
    shown = probe(tmp_path, "resume")
    assert "Ann, Bo, Cy" in shown["resume_text"] and "turn 0, 3 entries" in shown["resume_text"]
    assert shown["screen"] == "village"
    assert shown["headline"] == "Start Phase: two Projects each"
    replayed = replay(log.splitlines())
    assert shown["actions"] == [a.to_json() for a in replayed.actions]
    assert shown["summary"] == replayed.game.summary(replayed.state)


def test_a_bad_window_size_is_refused_with_the_option_named(tmp_path):
    env = dict(os.environ, COMPANION_DATA_DIR=str(tmp_path))
    done = subprocess.run([sys.executable, "-c", "from companion.ui.app import run; run(['--size', 'big'])"],
                          env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert "--size must look like 800x480" in done.stderr
    assert not (tmp_path / "games.db").exists()  # refused before anything was opened
