"""Property: the store opened on a damaged file either works, or refuses with a StoreError; it
never raises anything else, never moves a file SQLite finds healthy, and what it moves aside is
byte for byte the file it found. Damage: torn bytes, truncation, and rows and tables altered."""
import shutil
import sqlite3
import tempfile
from pathlib import Path

import race_game  # noqa: F401  (registers "test-race")
from fuzz import FUZZ, tally
from hypothesis import given
from hypothesis import strategies as st

from companion.engine.core import RulesError
from companion.session import Session
from companion.store import Store, StoreError



def _healthy_bytes() -> bytes:
    folder = Path(tempfile.mkdtemp())
    try:
        with Store.open(folder / "games.db") as store:
            for goal in (10, 10**6):
                s = Session.new("test-race", ["Ann", "Bo"], {"goal": goal}, store=store)
                for _ in range(30):
                    if s.finished:
                        break
                    assert s.submit(s.legal_actions()[-1]).ok
            store._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return (folder / "games.db").read_bytes()
    finally:
        shutil.rmtree(folder)


HEALTHY = _healthy_bytes()
PAGE = 4096

texts = st.one_of(st.text(max_size=30), st.sampled_from(
    ["null", "[]", "{}", '{"game": 1, "players": "x"}', '{"players": [1]}', "[" * 2000, "9" * 5000,
     '{"type": "roll", "die": null}', '{"type": "move", "player": [], "steps": {}}']))
SQL_DAMAGE = st.one_of(
    st.tuples(st.just("UPDATE games SET header = ?"), texts),
    st.tuples(st.just("UPDATE actions SET action = ? WHERE seq = 1"), texts),
    st.tuples(st.just("UPDATE meta SET value = ? WHERE key = 'schema'"), texts | st.integers().map(str)),
    st.tuples(st.just("UPDATE games SET game = ?"), texts),
    st.tuples(st.just("UPDATE games SET finished = 1, result = ?"), texts),
    st.tuples(st.sampled_from(["DROP TABLE actions", "DROP TABLE set_aside", "DROP TABLE meta",
                               "ALTER TABLE games DROP COLUMN result", "DELETE FROM meta",
                               "DELETE FROM players", "ALTER TABLE meta RENAME TO old_meta"]), st.none()),
)
BYTE_DAMAGE = st.one_of(
    st.tuples(st.just("overwrite"), st.integers(0, len(HEALTHY) - 1), st.binary(min_size=1, max_size=64)),
    st.tuples(st.just("truncate"), st.integers(0, len(HEALTHY) - 1), st.none()),
    st.tuples(st.just("zero page"), st.integers(0, len(HEALTHY) // PAGE - 1), st.none()),
    st.tuples(st.just("append"), st.just(0), st.binary(min_size=1, max_size=512)),
    st.tuples(st.just("replace"), st.just(0), st.binary(max_size=200)),
)


def damage_bytes(data: bytes, how) -> bytes:
    kind, at, blob = how
    if kind == "overwrite":
        return data[:at] + blob + data[at + len(blob):]
    if kind == "truncate":
        return data[:at]
    if kind == "zero page":
        return data[:at * PAGE] + b"\0" * PAGE + data[(at + 1) * PAGE:]
    if kind == "append":
        return data + blob
    return blob


def damage_sql(path: Path, how) -> None:
    statement, value = how
    conn = sqlite3.connect(path)
    conn.execute(statement, () if value is None else (value,))
    conn.commit()
    conn.execute("PRAGMA journal_mode=DELETE")
    conn.close()


def sqlite_verdict(data: bytes) -> str:
    """What SQLite itself says of these bytes, on a copy: "corrupt" or "sound"."""
    folder = Path(tempfile.mkdtemp())
    try:
        (folder / "copy.db").write_bytes(data)
        conn = sqlite3.connect(folder / "copy.db")
        conn.text_factory = bytes  # a damaged name is not our verdict
        try:
            ok = conn.execute("PRAGMA quick_check").fetchone()[0] == b"ok"
            conn.execute("SELECT name FROM sqlite_master").fetchall()
            return "sound" if ok else "corrupt"
        except sqlite3.DatabaseError as exc:
            return "corrupt" if (exc.sqlite_errorcode & 0xFF) in (11, 26) else "other"
        except UnicodeDecodeError:  # SQLite's message quotes damaged schema bytes: see store._checked
            return "corrupt"
        finally:
            conn.close()
    finally:
        shutil.rmtree(folder)


def use(store: Store) -> None:
    """Everything the app does with a store it opened: list, resume, play one action."""
    for record in store.games():
        try:
            session = Session.resume(store, record.id)
        except (KeyError, RulesError, StoreError):  # UnreadableGame is a StoreError
            continue
        legal = session.legal_actions()
        if legal and not store.read_only:
            session.submit(legal[0])


@FUZZ
@given(st.one_of(BYTE_DAMAGE.map(lambda d: ("bytes", d)), SQL_DAMAGE.map(lambda d: ("sql", d))))
def test_a_damaged_file_is_used_refused_or_moved_only_if_sqlite_says_corrupt(damage):
    folder = Path(tempfile.mkdtemp())
    try:
        db = folder / "games.db"
        db.write_bytes(HEALTHY)
        kind, how = damage
        if kind == "bytes":
            db.write_bytes(damage_bytes(HEALTHY, how))
        else:
            damage_sql(db, how)
        found = db.read_bytes()
        verdict = sqlite_verdict(found)
        try:
            store = Store.open(db, timeout=0.05, report=lambda _m: None)
        except StoreError:
            tally("store (damaged file)", "refused")
            assert db.read_bytes() == found  # refused: not one byte changed
            return
        with store:
            use(store)
        moved = sorted(folder.glob("games.db.corrupt-*"))
        moved = [p for p in moved if not p.name.endswith(("-wal", "-shm"))]
        if moved:
            tally("store (damaged file)", "moved aside")
            assert verdict == "corrupt", f"a file SQLite finds {verdict} was moved aside"
            assert len(moved) == 1 and moved[0].read_bytes() == found
        else:
            tally("store (damaged file)", "opened")
            assert verdict != "corrupt", "SQLite finds it corrupt, yet it stayed in place"
    finally:
        shutil.rmtree(folder)
