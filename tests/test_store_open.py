"""Opening the store: a file that cannot be opened *now* is never treated as corrupt, a foreign
schema is refused untouched, only SQLite's own "corrupt" moves a file aside (byte for byte)."""
import json
import shutil
import sqlite3

import pytest
import race_game  # noqa: F401  (registers "test-race")
from store_files import (SHIPPED, as_nobody, fill, remount, shared_folder, snapshot, tiny_disk,
                         write_shipped)

from companion.session import Rejected, Session
from companion.store import (SCHEMA_VERSION, Store, StoreError, StoreRefused, StoreUnavailable,
                             UnreadableGame)


def healthy(path):
    with Store.open(path) as store:
        s = Session.new("test-race", ["Ann", "Bo"], {"goal": 10}, store=store)
        assert s.submit_json({"type": "roll", "die": 3}).ok
        return s.game_id


def try_open(db):
    """What opening `db` ended in, as JSON (it may run in a child process as another user)."""
    try:
        Store.open(db, timeout=0.05, report=lambda _m: None)
        return {"opened": True}
    except StoreError as exc:
        return {"opened": False, "kind": type(exc).__name__, "message": str(exc)}


def no_corrupt_copies(folder):
    return not [p for p in folder.iterdir() if ".corrupt-" in p.name]


# -- cannot open now ---------------------------------------------------------------------------
def test_a_healthy_file_locked_by_another_connection_is_not_moved_and_opens_once_free(tmp_path):
    db = tmp_path / "games.db"
    gid = healthy(db)
    before = snapshot(tmp_path)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("PRAGMA locking_mode=EXCLUSIVE")
    other.execute("BEGIN EXCLUSIVE")
    other.execute("INSERT INTO meta VALUES ('lock', 'held')")  # the lock is really taken
    with pytest.raises(StoreUnavailable, match="locked by another program"):
        Store.open(db, timeout=0.05)
    assert no_corrupt_copies(tmp_path)
    other.execute("ROLLBACK")
    other.close()
    assert snapshot(tmp_path) == before
    with Store.open(db) as store:
        assert store.notice is None and store.load(gid)[1] == [{"type": "roll", "die": 3}]


@pytest.fixture
def shared_db():
    """A healthy games.db in a folder another user can reach: (folder, db, its bytes)."""
    folder = shared_folder()
    healthy(folder / "games.db")
    yield folder, folder / "games.db", snapshot(folder)
    folder.chmod(0o755)
    shutil.rmtree(folder)


def test_a_file_the_user_cannot_read_is_refused_in_one_sentence_and_kept(shared_db):
    folder, db, before = shared_db
    db.chmod(0o000)
    seen = as_nobody(lambda: try_open(db))
    db.chmod(0o644)
    assert seen["opened"] is False and seen["kind"] == "StoreUnavailable", seen
    assert "permission denied" in seen["message"] and str(db) in seen["message"]
    assert no_corrupt_copies(folder) and snapshot(folder) == before


def test_a_file_the_user_cannot_write_opens_read_only_and_refuses_moves(shared_db):
    folder, db, before = shared_db
    db.chmod(0o444)
    folder.chmod(0o555)  # no -wal or -shm can be made either: the immutable read path

    def play():
        store = Store.open(db, timeout=0.05, report=lambda m: None)
        s = Session.resume(store, store.unfinished().id)
        r = s.submit(s.legal_actions()[0])
        return {"read_only": store.read_only, "notice": store.notice, "games": len(store.games()),
                "ok": r.ok, "reason": getattr(r, "reason", "")}

    seen = as_nobody(play)
    assert seen["read_only"] and seen["games"] == 1, seen
    assert "cannot be opened for writing" in seen["notice"]
    assert not seen["ok"] and "not taken" in seen["reason"]
    folder.chmod(0o755)
    db.chmod(0o644)
    assert snapshot(folder) == before and no_corrupt_copies(folder)


def test_a_data_folder_that_cannot_be_made_is_one_sentence(tmp_path):
    blocker = tmp_path / "data"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(StoreUnavailable, match="cannot be created"):
        Store.open(blocker / "games.db")
    assert blocker.read_text() == "a file where the folder should be"


def test_a_read_only_file_system_opens_the_games_read_only(tmp_path):
    with tiny_disk(tmp_path / "disk") as disk:
        gid = healthy(disk / "games.db")
        remount(disk, "ro")
        try:
            store = Store.open(disk / "games.db", timeout=0.05, report=lambda m: None)
            assert store.read_only and store.load(gid)[1] == [{"type": "roll", "die": 3}]
            s = Session.resume(store, gid)
            assert isinstance(s.submit(s.legal_actions()[0]), Rejected)
            store.close()
            with pytest.raises(StoreUnavailable, match="cannot be opened for writing"):
                Store.open(disk / "other.db")
        finally:
            remount(disk, "rw")
        assert no_corrupt_copies(disk)


def test_a_full_disk_at_start_keeps_the_old_file_and_opens_it_read_only(tmp_path):
    with tiny_disk(tmp_path / "disk", "256k") as disk:
        db = disk / "games.db"
        write_shipped(db, SHIPPED["73a5f43"])  # needs a migration: a write
        before = snapshot(disk)
        filler = fill(disk)
        notes = []
        store = Store.open(db, report=notes.append)
        assert store.read_only and "is full" in store.notice and notes == [store.notice]
        assert [g.players for g in store.games()] == [("Ann", "Bo")]
        with pytest.raises(StoreUnavailable, match="is full"):
            Session.new("test-race", ["Cy", "Di"], store=store)
        filler.unlink()
        assert snapshot(disk) == before and no_corrupt_copies(disk)
        # Space again: the next write reopens the file writable (and migrates it); nothing lost.
        s = Session.new("test-race", ["Cy", "Di"], store=store)
        assert not store.read_only and store.notice is None
        assert store.load(1)[1] == [{"type": "roll", "die": 3}] and s.submit(s.legal_actions()[0]).ok
        store.close()


def play_until_refused(s, limit):
    """Legal moves until the store refuses one: that Rejected (or None if none was refused)."""
    for _ in range(limit):
        result = s.submit(s.legal_actions()[0])
        if not result.ok:
            return result
    return None


def test_a_full_disk_while_playing_refuses_the_action_and_play_resumes_when_space_returns(tmp_path):
    with tiny_disk(tmp_path / "disk", "512k") as disk:
        db = disk / "games.db"
        store = Store.open(db)
        s = Session.new("test-race", ["Ann", "Bo"], {"goal": 10**9}, store=store)
        filler = fill(disk)
        # A WAL may still have room for a few frames: the actions taken then are truly saved.
        refused = play_until_refused(s, 5000)
        assert isinstance(refused, Rejected) and "is full" in refused.reason, refused
        saved = [a.to_json() for a in s.actions]
        filler.unlink()
        assert s.submit(s.legal_actions()[0]).ok  # play resumes
        store.close()
        with Store.open(db) as again:
            assert again.load(s.game_id)[1] == saved + [s.actions[-1].to_json()]
        assert no_corrupt_copies(disk)


def test_max_page_count_full_refuses_the_action_and_loses_nothing(tmp_path):
    db = tmp_path / "games.db"
    store = Store.open(db)
    s = Session.new("test-race", ["Ann", "Bo"], {"goal": 10**9}, store=store)
    pages = store._conn.execute("PRAGMA page_count").fetchone()[0]
    store._conn.execute(f"PRAGMA max_page_count = {pages}")  # SQLite's own SQLITE_FULL
    refused = play_until_refused(s, 5000)
    assert isinstance(refused, Rejected) and "is full" in refused.reason, refused
    saved = [a.to_json() for a in s.actions]
    store._conn.execute("PRAGMA max_page_count = 1073741823")
    assert s.submit(s.legal_actions()[0]).ok  # play resumes
    store.close()
    with Store.open(db) as again:
        assert again.load(s.game_id)[1] == saved + [s.actions[-1].to_json()]


# -- corrupt: SQLite says so ----------------------------------------------------------------------
def test_a_text_file_is_moved_aside_byte_for_byte_and_said_on_stderr(tmp_path, capsys):
    db = tmp_path / "games.db"
    junk = "my shopping list\nbread\n" * 100
    db.write_text(junk)
    store = Store.open(db)
    moved = [p for p in tmp_path.iterdir() if ".corrupt-" in p.name]
    assert len(moved) == 1 and moved[0].read_text() == junk
    err = capsys.readouterr().err
    assert str(moved[0]) in err and str(moved[0]) in store.notice and "not a database" in err
    store.close()


# -- foreign and newer schemas: refused, untouched ------------------------------------------------
FOREIGN = {
    "meta without value": ["CREATE TABLE meta (key TEXT PRIMARY KEY)", "INSERT INTO meta VALUES ('schema')"],
    "games without game": [s for s in SHIPPED["67eabc4"].split(";") if s.strip() and "games (" not in s]
    + ["CREATE TABLE games (id INTEGER PRIMARY KEY, header TEXT)", "INSERT INTO meta VALUES ('schema', '1')"],
    "version not a number": [s for s in SHIPPED["67eabc4"].split(";") if s.strip()]
    + ["INSERT INTO meta VALUES ('schema', 'one')"],
    "newer version": [s for s in SHIPPED["67eabc4"].split(";") if s.strip()]
    + [f"INSERT INTO meta VALUES ('schema', '{SCHEMA_VERSION + 1}')"],
    "someone else's database": ["CREATE TABLE recipes (name TEXT)", "INSERT INTO recipes VALUES ('soup')"],
}


@pytest.mark.parametrize("kind", FOREIGN)
def test_a_foreign_or_newer_schema_is_refused_and_left_exactly_as_it_was(tmp_path, kind):
    db = tmp_path / "games.db"
    conn = sqlite3.connect(db)
    for statement in FOREIGN[kind]:
        conn.execute(statement)
    conn.commit()
    conn.close()
    before = snapshot(tmp_path)
    with pytest.raises(StoreRefused, match="left exactly as it is") as refused:
        Store.open(db)
    assert str(db) in str(refused.value)
    assert snapshot(tmp_path) == before and no_corrupt_copies(tmp_path)


@pytest.mark.parametrize("header", ["not json {", json.dumps({"game": "test-race", "players": "Ann"}),
                                    json.dumps([1, 2]), "null"])
def test_a_damaged_header_is_listed_and_refused_on_load_not_a_traceback(tmp_path, header):
    db = tmp_path / "games.db"
    gid = healthy(db)
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("UPDATE games SET header = ? WHERE id = ?", (header, gid))
    conn.close()
    with Store.open(db) as store:
        (record,) = store.games()
        assert not record.readable and record.players == ("Ann", "Bo")
        assert store.unfinished() is None
        with pytest.raises(UnreadableGame, match=f"Saved game {gid} cannot be read"):
            Session.resume(store, gid)


# -- every schema the project shipped is migrated -------------------------------------------------
@pytest.mark.parametrize("release", SHIPPED)
def test_every_shipped_schema_is_migrated_and_its_games_play_on(tmp_path, release):
    db = tmp_path / "games.db"
    write_shipped(db, SHIPPED[release])
    with Store.open(db) as store:
        assert store._conn.execute("SELECT value FROM meta WHERE key='schema'").fetchone()[0] == str(SCHEMA_VERSION)
        s = Session.resume(store, 1)
        assert [a.to_json() for a in s.actions] == [{"type": "roll", "die": 3}]
        assert store.set_aside(1, 0, "a test") == 1  # the table migration 2 brings
    assert no_corrupt_copies(tmp_path)


def test_a_damaged_file_that_cannot_be_moved_aside_is_left_and_said(tmp_path):
    folder = shared_folder()
    try:
        db = folder / "games.db"
        db.write_text("a shopping list, not a database\n" * 40)
        folder.chmod(0o555)  # the rename needs a folder we may write
        seen = as_nobody(lambda: try_open(db))
        assert seen == {"opened": False, "kind": "StoreUnavailable", "message": seen["message"]}
        assert "could not be moved aside" in seen["message"] and "left as it is" in seen["message"]
        assert db.read_text() == "a shopping list, not a database\n" * 40
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)
