"""Opening the store's file and judging it: connect, SQLite's own check, what an error means.

The one rule it keeps: a file that cannot be opened right now (locked, permissions, full disk,
read-only) is never called corrupt; only SQLite's own SQLITE_CORRUPT / SQLITE_NOTADB, or a failed
quick_check, is (`Corrupt`). Nothing here writes to a file before it is known to be ours.
"""
from __future__ import annotations

import os
import shutil
import sqlite3
import time
from pathlib import Path
from urllib.parse import quote

from companion.store_schema import migrate, stored_version

# Error codes (low byte of SQLite's extended code) that mean the file itself is damaged.
_CORRUPT = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}


class Corrupt(Exception):
    """SQLite reports the file damaged or not a database (the one case a file is moved aside)."""


def describe(exc: sqlite3.Error, path: Path) -> str:
    """One sentence for a file that cannot be used right now; never a reason to move it."""
    result = code(exc)
    if result in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return f"The saved games file {path} is locked by another program ({exc})."
    if result == sqlite3.SQLITE_FULL or (result == sqlite3.SQLITE_IOERR and _disk_full(path)):
        return f"The disk holding the saved games file {path} is full ({exc})."
    if result in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_AUTH):
        return (f"The saved games file {path} cannot be opened for writing: permission denied or a "
                f"read-only file system ({exc}).")
    if result == sqlite3.SQLITE_IOERR:
        return f"The saved games file {path} could not be read or written (an input/output error: {exc})."
    return f"The saved games file {path} cannot be used right now ({exc})."


def code(exc: sqlite3.Error) -> int:
    """SQLite's primary result code (the low byte of the extended one); 0 if it gave none."""
    return (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF


def _disk_full(path: Path) -> bool:
    # A full disk often reaches SQLite as an I/O error (its -shm cannot grow), not as SQLITE_FULL.
    try:
        return shutil.disk_usage(path.parent).free < 64 * 1024
    except OSError:
        return False


def _decode_text(raw: bytes) -> str:
    # A damaged byte inside a name shows as U+FFFD rather than failing the whole query.
    return raw.decode("utf-8", "replace")


def _checked(conn: sqlite3.Connection) -> int:
    """The file's schema version after SQLite's own check; Corrupt or ForeignSchema, reading only."""
    try:
        # Reading the schema and a quick integrity check catch a file that is not a database,
        # or one whose pages were torn; a quick check keeps start-up fast on big files.
        try:
            result = conn.execute("PRAGMA quick_check").fetchone()[0]
        except UnicodeDecodeError:
            # Python could not decode SQLite's message: that happens when it quotes damaged
            # bytes from the schema, and a schema SQLite cannot parse is SQLITE_CORRUPT.
            raise Corrupt("malformed database schema (damaged bytes in its table names)") from None
        if result != "ok":
            raise Corrupt(f"integrity check failed: {result}")
        return stored_version(conn)
    except sqlite3.DatabaseError as exc:
        if code(exc) in _CORRUPT:
            raise Corrupt(str(exc)) from None
        raise


def connect(path: Path, timeout: float) -> sqlite3.Connection:
    # isolation_level=None while checking and migrating: nothing is written until the file is
    # known to be ours, so a foreign or damaged file keeps every byte it had.
    conn = sqlite3.connect(str(path), timeout=timeout, isolation_level=None)
    conn.text_factory = _decode_text
    try:
        version = _checked(conn)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        migrate(conn, version)
    except BaseException:
        conn.close()
        raise
    conn.isolation_level = "DEFERRED"
    return conn


def connect_read_only(path: Path, timeout: float) -> tuple[sqlite3.Connection, int]:
    """A connection that cannot write, and the file's schema version; nothing is changed."""
    uri = "file:" + quote(str(path.resolve())) + "?mode=ro"
    try:
        return _checked_at(uri, timeout)
    except sqlite3.OperationalError as exc:
        # A folder we cannot write, or a full disk, leaves no -shm to share: read the file as
        # immutable, which is safe only when no -wal holds frames not yet in the file itself,
        # and never past another program's lock.
        wal = path.with_name(path.name + "-wal")
        if code(exc) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or (wal.exists() and wal.stat().st_size):
            raise
        return _checked_at(uri + "&immutable=1", timeout)


def _checked_at(uri: str, timeout: float) -> tuple[sqlite3.Connection, int]:
    conn = sqlite3.connect(uri, uri=True, timeout=timeout)
    conn.text_factory = _decode_text
    try:
        return conn, _checked(conn)
    except BaseException:
        conn.close()
        raise


def move_aside(path: Path, now: float) -> Path:
    """Rename a damaged file (and its -wal, -shm) beside itself, unchanged; never delete it."""
    stamp = time.strftime("%Y%m%d-%H%M%S", time.localtime(now))
    target = path.with_name(f"{path.name}.corrupt-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = path.with_name(f"{path.name}.corrupt-{stamp}-{n}")
    os.replace(path, target)
    for suffix in ("-wal", "-shm"):
        side = path.with_name(path.name + suffix)
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    return target
