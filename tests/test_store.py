"""The SQLite store: WAL + synchronous=FULL, and a corrupt file moved aside, never deleted."""
import sqlite3

import pytest

from companion.engine.log import Header
from companion.store import Store, StoreRefused


def test_pragmas(tmp_path):
    with Store.open(tmp_path / "g.db") as store:
        assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL


def test_games_players_and_actions_persist(tmp_path):
    db = tmp_path / "g.db"
    with Store.open(db) as store:
        gid = store.create_game(Header("test-race", ("Ann", "Bo"), {"goal": 5}))
        store.append(gid, 0, {"type": "roll", "die": 3})
        store.append(gid, 1, {"type": "move", "player": "Ann", "steps": 3})
        store.set_undone(gid, 1, True)
    with Store.open(db) as store:
        header, live, redo = store.load(gid)
        assert header == Header("test-race", ("Ann", "Bo"), {"goal": 5})
        assert live == [{"type": "roll", "die": 3}]
        assert redo == [{"type": "move", "player": "Ann", "steps": 3}]
        players = store._conn.execute("SELECT name FROM players WHERE game_id=? ORDER BY seat", (gid,)).fetchall()
        assert players == [("Ann",), ("Bo",)]


def test_garbage_file_is_moved_aside_and_a_fresh_one_started(tmp_path):
    db = tmp_path / "games.db"
    db.write_bytes(b"this is not a database, it is a shopping list\n" * 200)
    store = Store.open(db)
    assert store.notice and "moved to" in store.notice
    aside = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert len(aside) == 1 and aside[0].read_bytes().startswith(b"this is not a database")
    assert str(aside[0]) in store.notice
    assert store.games() == []
    store.close()


def test_torn_database_pages_are_moved_aside(tmp_path):
    db = tmp_path / "games.db"
    with Store.open(db) as store:
        gid = store.create_game(Header("test-race", ("Ann",), {}))
        for i in range(300):
            store.append(gid, i, {"type": "roll", "die": 1, "pad": "x" * 200})
        store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(db.read_bytes())
    for offset in range(4096, len(data), 4096):  # scribble over every page but the header
        data[offset + 8: offset + 64] = b"\xff" * 56
    db.write_bytes(bytes(data))
    store = Store.open(db)
    assert store.notice is not None
    assert any(".corrupt-" in p.name for p in tmp_path.iterdir())
    store.close()


def test_unreadable_newer_schema_is_not_overwritten(tmp_path):
    db = tmp_path / "games.db"
    Store.open(db).close()
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value='99' WHERE key='schema'")
    conn.commit()
    conn.close()
    before = db.read_bytes()
    with pytest.raises(StoreRefused, match="newer version"):
        Store.open(db)  # refused, not moved aside: the newer app still reads it
    assert db.read_bytes() == before and not list(tmp_path.glob("*.corrupt-*"))
