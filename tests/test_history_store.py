"""Schema 3 (people, games set aside, camera-read rolls) on real SQLite files: migrated from every
shipped schema, read-only at an old schema without a byte changed, and what the history reads."""
from __future__ import annotations

import sqlite3

import pytest
import race_game  # noqa: F401  (registers "test-race")
from store_files import SHIPPED_67EABC4, SHIPPED_73A5F43, SHIPPED_VERSION, snapshot, write_shipped

from companion.history import plays, recent_people
from companion.session import Session
from companion.store import SCHEMA_VERSION, Store

RELEASES = {"73a5f43": SHIPPED_73A5F43, "67eabc4": SHIPPED_67EABC4, "db06cb7": SHIPPED_67EABC4}


def finish_race(store, names=("Ann", "Bo"), rolls=((6, 6), (6, 6))):
    s = Session.new("test-race", names, {"goal": 10}, store=store)
    for a, b in rolls:
        for player, die in zip(names, (a, b)):
            assert s.submit_json({"type": "roll", "die": die}).ok
            assert s.submit_json({"type": "move", "player": player, "steps": die}).ok
            if s.finished:
                return s
    return s


@pytest.mark.parametrize("release", RELEASES)
def test_every_shipped_schema_migrates_to_3_with_its_players_as_people(tmp_path, release):
    db = tmp_path / "games.db"
    write_shipped(db, RELEASES[release], version=SHIPPED_VERSION[release])
    with Store.open(db) as store:
        assert store.rows("SELECT value FROM meta WHERE key = 'schema'") == [(str(SCHEMA_VERSION),)]
        assert store.rows("SELECT name FROM people ORDER BY name") == [("Ann",), ("Bo",)]
        assert store.rows("SELECT seat, person_id IS NOT NULL FROM players WHERE game_id = 1") == [(0, 1), (1, 1)]
        assert store.rows("SELECT archived FROM games") == [(0,)]
        [play] = plays(store)
        assert [s.name for s in play.seats] == ["Ann", "Bo"] and not play.finished
        # The game goes on, and a new game of the same names is the same people.
        assert Session.resume(store, 1).actions[0].to_json() == {"type": "roll", "die": 3}
        finish_race(store)
        assert store.rows("SELECT COUNT(*) FROM people") == [(2,)]


@pytest.mark.parametrize("release", ["73a5f43", "db06cb7"])
def test_an_old_schema_opened_read_only_is_read_as_schema_3_and_left_byte_for_byte(tmp_path, release):
    db = tmp_path / "games.db"
    write_shipped(db, RELEASES[release], version=SHIPPED_VERSION[release])
    before = snapshot(tmp_path)
    with Store.open(db, read_only=True) as store:
        [play] = plays(store)
        assert [(s.name, s.person_id is not None) for s in play.seats] == [("Ann", True), ("Bo", True)]
        assert recent_people(store) == [("Ann", 0), ("Bo", 1)]
        assert store.games() and store.rows("SELECT COUNT(*) FROM rolls") == [(0,)]
    assert snapshot(tmp_path) == before


def test_a_renamed_player_keeps_their_games_and_the_log_keeps_the_name_then(tmp_path):
    with Store.open(tmp_path / "games.db") as store:
        first = finish_race(store).game_id
        store.rename_person("Ann", "Annie")
        second = finish_race(store, names=("Annie", "Cy")).game_id
        both = plays(store, player="Annie")
        assert {p.id for p in both} == {first, second}
        old = next(p for p in both if p.id == first)
        assert (old.seats[0].name, old.seats[0].played_as) == ("Annie", "Ann")
        assert Session.resume(store, first).header.players == ("Ann", "Bo")  # the log is as it was played
        assert store.rows("SELECT COUNT(*) FROM people WHERE name = 'Annie'") == [(1,)]
        with pytest.raises(ValueError, match='"Cy" is already a player'):
            store.rename_person("Annie", "Cy")
        with pytest.raises(KeyError, match="Nobody called"):
            store.rename_person("Zed", "Zoe")


def test_a_game_set_aside_leaves_home_and_the_resume_offer_but_stays_in_the_history(tmp_path):
    with Store.open(tmp_path / "games.db") as store:
        done = finish_race(store).game_id
        open_game = Session.new("test-race", ["Ann", "Bo"], {"goal": 10}, store=store).game_id
        assert store.unfinished().id == open_game
        store.set_archived(open_game, True)
        assert store.unfinished() is None
        assert [g.id for g in store.games()] == [done]
        listed = {p.id: p for p in plays(store)}
        assert listed[open_game].archived and not listed[open_game].finished
        assert [p.id for p in plays(store, archived=False)] == [done]
        store.set_archived(open_game, False)
        assert store.unfinished().id == open_game


def test_deleting_a_game_removes_all_of_it_and_nothing_else(tmp_path):
    with Store.open(tmp_path / "games.db") as store:
        keep = finish_race(store).game_id
        gone = finish_race(store).game_id
        store.add_rolls(gone, [("red", "6")])
        store.add_rolls(keep, [("red", "2")])
        store.delete_game(gone)
        for table in ("actions", "players", "rolls"):
            assert store.rows(f"SELECT DISTINCT game_id FROM {table}") == [(keep,)]
        assert [p.id for p in plays(store)] == [keep]


def rewrite(store, sql: str, game_id: int) -> None:
    """Change a stored game behind the store's back (a clock, a damaged record)."""
    store._conn.execute(sql, (game_id,))
    store._conn.commit()


def test_a_finished_play_has_its_scores_winner_and_duration(tmp_path):
    with Store.open(tmp_path / "games.db") as store:
        rewrite(store, "UPDATE games SET created = 0, updated = 1500 WHERE id = ?", finish_race(store).game_id)
        [play] = plays(store)
        assert play.finished and play.minutes == 25
        assert play.winners == ("Ann",)


def test_a_damaged_result_is_listed_unreadable_not_hidden(tmp_path):
    with Store.open(tmp_path / "games.db") as store:
        rewrite(store, "UPDATE games SET result = '{\"players\": [' WHERE id = ?", finish_race(store).game_id)
        [play] = plays(store)
        assert not play.readable and not play.finished and [s.name for s in play.seats] == ["Ann", "Bo"]


def test_a_newer_schema_than_3_is_refused(tmp_path):
    db = tmp_path / "games.db"
    conn = sqlite3.connect(db)
    conn.executescript(SHIPPED_67EABC4 + f"INSERT INTO meta VALUES ('schema', '{SCHEMA_VERSION + 1}');")
    conn.close()
    from companion.store import StoreRefused

    with pytest.raises(StoreRefused, match="newer version"):
        Store.open(db)
