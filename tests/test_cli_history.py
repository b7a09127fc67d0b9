"""`companion history` and `companion export --bgstats` on a real games file, as a shell runs them."""
from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import pytest
from history_games import play_one

from companion.bgstats import CREATE_PLAY, decode
from companion.history_format import CSV_COLUMNS
from companion.store import Store


def companion(*args):
    return subprocess.run([sys.executable, "-m", "companion", *args], capture_output=True, text=True, timeout=120)


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("hist") / "games.db"
    with Store.open(path) as store:
        play_one(store, "rolling-village", ["Ana", "Ben"], seed=1, start=1_700_000_000, minutes=35)
        play_one(store, "civility", ["Ana", "Cleo", "Dev"], seed=2, start=1_700_100_000, minutes=70)
        from companion.session import Session

        Session.new("rolling-village", ["Ben", "Eli"], store=store)  # unfinished
        store.rename_person("Ben", "Benjamin")
    return path


def test_csv_has_one_row_per_player_per_game_newest_first(db):
    done = companion("history", "--csv", "--db", str(db))
    assert done.returncode == 0, done.stderr
    rows = list(csv.DictReader(io.StringIO(done.stdout)))
    assert tuple(rows[0]) == CSV_COLUMNS
    assert [(r["game_id"], r["player"]) for r in rows] == [
        ("3", "Benjamin"), ("3", "Eli"), ("2", "Ana"), ("2", "Cleo"), ("2", "Dev"), ("1", "Ana"), ("1", "Benjamin")]
    village = [r for r in rows if r["game_id"] == "1"]
    assert village[1]["played_as"] == "Ben" and village[0]["duration_min"] == "35"
    assert sum(int(r["winner"]) for r in village) >= 1 and all(r["score"].isdigit() for r in village)
    assert rows[0]["finished"] == "0" and rows[0]["score"] == ""


def test_json_filters_by_game_and_player(db):
    done = companion("history", "--json", "--game", "Civility", "--db", str(db))
    data = json.loads(done.stdout)
    assert data["format"] == 1 and [g["id"] for g in data["games"]] == [2]
    game = data["games"][0]
    assert [p["name"] for p in game["players"]] == ["Ana", "Cleo", "Dev"]
    assert len(game["winners"]) == 1 and game["duration_min"] == 70
    done = companion("history", "--json", "--player", "ben", "--db", str(db))
    assert [g["id"] for g in json.loads(done.stdout)["games"]] == [3, 1]  # renamed: found by the old name


def test_export_bgstats_prints_the_create_play_link_of_the_game(db):
    done = companion("export", "--bgstats", "1", "--db", str(db))
    assert done.returncode == 0, done.stderr
    link = done.stdout.strip()
    assert link.startswith(CREATE_PLAY)
    play = decode(link)
    assert play["game"]["name"] == "Rolling Village" and play["durationMin"] == 35
    assert play["playDate"] == "2023-11-14 22:13:20"
    with Store.open(db, read_only=True) as store:
        summary = json.loads(store.rows("SELECT result FROM games WHERE id = 1")[0][0])
    scores = {p["name"].replace("Ben", "Benjamin"): p["score"] for p in summary["players"]}
    assert {p["name"]: p["score"] for p in play["players"]} == scores
    best = max(scores.values())
    assert {p["name"] for p in play["players"] if p["winner"]} == {n for n, s in scores.items() if s == best}


def test_bad_input_is_a_sentence_and_exit_2(db, tmp_path):
    done = companion("export", "--bgstats", "99", "--db", str(db))
    assert done.returncode == 2 and "no saved game number 99" in done.stderr
    done = companion("export", "--bgstats", "3", "--db", str(db))  # unfinished: nothing to share
    assert done.returncode == 2 and "has not been finished" in done.stderr
    done = companion("history", "--db", str(tmp_path / "none.db"))
    assert done.returncode == 2 and "there is no games database" in done.stderr


def test_rename_player_keeps_their_games_and_refuses_a_taken_name(tmp_path):
    db = tmp_path / "games.db"
    with Store.open(db) as store:
        play_one(store, "rolling-village", ["Ana", "Ben"], seed=1, start=1_700_000_000)
    done = companion("rename-player", "Ana", "Anna", "--db", str(db))
    assert done.returncode == 0 and '"Ana" is now "Anna"' in done.stdout
    rows = json.loads(companion("history", "--json", "--player", "Anna", "--db", str(db)).stdout)["games"]
    assert [p["name"] for p in rows[0]["players"]] == ["Anna", "Ben"]
    done = companion("rename-player", "Anna", "Ben", "--db", str(db))
    assert done.returncode == 2 and '"Ben" is already a player' in done.stderr
    done = companion("rename-player", "Zed", "Zoe", "--db", str(db))
    assert done.returncode == 2 and "Nobody called" in done.stderr
