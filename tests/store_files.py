"""Real SQLite files for the store's tests: every schema the project shipped, a tiny disk to fill,
and a way to be a user without root's rights (the tests run as root in CI)."""
from __future__ import annotations

import contextlib
import errno
import json
import os
import sqlite3
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# The tables as the first release wrote them (73a5f43: no set_aside), schema "1".
SHIPPED_73A5F43 = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY, game TEXT NOT NULL, header TEXT NOT NULL, created REAL NOT NULL,
    updated REAL NOT NULL, finished INTEGER NOT NULL DEFAULT 0, result TEXT);
CREATE TABLE IF NOT EXISTS players (
    game_id INTEGER NOT NULL REFERENCES games(id), seat INTEGER NOT NULL, name TEXT NOT NULL,
    PRIMARY KEY (game_id, seat));
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, action TEXT NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0, at REAL NOT NULL, PRIMARY KEY (game_id, seq));
"""
# 67eabc4 added set_aside and still said schema "1".
SHIPPED_67EABC4 = SHIPPED_73A5F43 + """
CREATE TABLE IF NOT EXISTS set_aside (
    game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL, action TEXT NOT NULL,
    reason TEXT NOT NULL, at REAL NOT NULL);
"""
SHIPPED = {"73a5f43": SHIPPED_73A5F43, "67eabc4": SHIPPED_67EABC4}
# db06cb7 (the release before people, archived games and rolls) said schema "2".
SHIPPED_VERSION = {"73a5f43": "1", "67eabc4": "1", "db06cb7": "2"}


def write_shipped(path: Path, schema_sql: str, actions=({"type": "roll", "die": 3},), version: str = "1") -> None:
    """A file as that release left it: WAL, one race game with its actions."""
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.executescript(schema_sql)
    with conn:
        conn.execute("INSERT INTO meta VALUES ('schema', ?)", (version,))
        header = {"game": "test-race", "players": ["Ann", "Bo"], "goal": 10}
        conn.execute("INSERT INTO games (id, game, header, created, updated) VALUES (1, 'test-race', ?, 1, 1)",
                     (json.dumps(header),))
        conn.executemany("INSERT INTO players VALUES (1, ?, ?)", [(0, "Ann"), (1, "Bo")])
        conn.executemany("INSERT INTO actions (game_id, seq, action, at) VALUES (1, ?, ?, 1)",
                         [(i, json.dumps(a)) for i, a in enumerate(actions)])
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    conn.close()


def snapshot(folder: Path) -> dict[str, bytes]:
    """Every file in the folder, byte for byte (empty -wal/-shm left by SQLite do not count)."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())
            if p.is_file() and not (p.name.endswith(("-wal", "-shm")) and p.stat().st_size == 0)
            and not p.name.endswith("-shm")}


@contextlib.contextmanager
def tiny_disk(folder: Path, size: str = "1m"):
    """A real file system that fills up: a tmpfs of `size` (needs root and mount rights)."""
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(folder)],
                          capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tiny tmpfs here ({done.stderr.strip() or 'not root'}); "
                    f"the max_page_count tests cover SQLITE_FULL without it")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True)


def fill(folder: Path) -> Path:
    """Write a filler file until the disk says ENOSPC; returns it (delete it to free the space)."""
    filler = folder / "filler"
    with open(filler, "wb", buffering=0) as f:
        chunk = b"\0" * 4096
        try:
            while True:
                f.write(chunk)
        except OSError as exc:
            assert exc.errno == errno.ENOSPC
    return filler


def remount(folder: Path, mode: str) -> None:
    subprocess.run(["mount", "-o", f"remount,{mode}", str(folder)], check=True, capture_output=True)


def as_nobody(work) -> dict:
    """`work()` (returning a JSON-able dict) run as an unprivileged user, since root ignores file
    modes. A forked child drops to nobody: no new interpreter, which root's pyenv would not let
    nobody start. Not root: the child simply runs as the current user."""
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns into pytest
        status = 1
        try:
            os.close(read)
            if os.geteuid() == 0:
                os.setgroups([])
                os.setgid(65534)
                os.setuid(65534)
            with os.fdopen(write, "w") as out:
                out.write(json.dumps(work()))
            status = 0
        except BaseException as exc:  # noqa: BLE001 (reported to the parent, which fails the test)
            try:
                os.write(write, json.dumps({"child_error": repr(exc)}).encode())
            except OSError:
                pass
        finally:
            os._exit(status)
    os.close(write)
    with os.fdopen(read) as got:
        text = got.read()
    os.waitpid(pid, 0)
    result = json.loads(text)
    assert "child_error" not in result, result
    return result


def shared_folder() -> Path:
    """A folder another user can reach (pytest's tmp_path is root's alone)."""
    folder = Path(tempfile.mkdtemp(prefix="store-perm-"))
    folder.chmod(0o777)
    return folder
