"""The event store: games, players and their actions in one SQLite file.

WAL mode with synchronous=FULL: when `append` returns, the action is on disk and survives a
crash or a power cut. The log is the save file: a game's state is a replay of its actions.

A file that cannot be opened *right now* (locked, permissions, full disk, read-only) is never
treated as corrupt: it is opened read-only if it can be read, else StoreUnavailable says why.
Only a file SQLite itself reports as damaged or not a database is renamed aside, byte for byte,
and a fresh one started. A foreign or newer schema is refused (StoreRefused), left untouched.
"""
from __future__ import annotations

import json
import os
import shutil
import sqlite3
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote

from companion.engine.log import Header
from companion.store_schema import SCHEMA_VERSION, ForeignSchema, migrate, stored_version  # noqa: F401

# Error codes (low byte of SQLite's extended code) that mean the file itself is damaged.
_CORRUPT = {sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB}


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    players: tuple[str, ...]
    created: float
    updated: float
    finished: bool
    result: dict | None
    readable: bool = True  # False: its header is damaged; listed, kept, but it cannot be resumed


class StoreError(RuntimeError):
    """The data file cannot be used as asked; the message says which file and why."""


class StoreUnavailable(StoreError):
    """Cannot be opened or written right now (locked, permissions, full disk, read-only)."""


class StoreRefused(StoreError):
    """A foreign or newer schema: the file was left exactly as it was."""


class UnreadableGame(StoreError, ValueError):
    """One stored game's record is damaged; the rest of the file is fine and nothing was changed."""


class _Corrupt(Exception):
    """SQLite reports the file damaged or not a database (the one case a file is moved aside)."""


def _report(message: str) -> None:
    print(message, file=sys.stderr)


class Store:
    """One SQLite file. Not thread-safe: use it from the thread that opened it (the UI thread)."""

    def __init__(self, conn: sqlite3.Connection, path: Path, notice: str | None = None,
                 read_only: bool = False):
        self._conn = conn
        self.path = path
        self.notice = notice  # a sentence for the player: a file moved aside, or opened read-only
        self.read_only = read_only

    # -- opening ------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike, clock=time.time, timeout: float = 5.0,
             read_only: bool = False, report=_report) -> "Store":
        """Open (or start) the file. `timeout`: how long to wait for another program's lock.

        `read_only` never changes the file (nor moves a damaged one): for export and inspection.
        A notice (file moved aside, or opened read-only) goes to `report` and `notice`."""
        path = Path(path)
        if read_only:
            return cls._open_read_only(path, timeout, None, report)
        if str(path) != ":memory:":
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreUnavailable(f"The folder for the saved games, {path.parent}, cannot be "
                                       f"created ({exc.strerror}).") from None
        try:
            return cls(_connect(path, timeout), path)
        except ForeignSchema as exc:
            raise StoreRefused(f"The saved games file {path} was not opened: {exc}. It was left "
                               f"exactly as it is.") from None
        except sqlite3.Error as exc:
            return cls._open_read_only(path, timeout, exc, report)
        except _Corrupt as exc:
            moved = _move_aside(path, clock())
            notice = (f"The saved games file could not be read ({exc}). It was moved to "
                      f"{moved}, unchanged, and a new one was started; nothing was deleted.")
            report(notice)
            return cls(_connect(path, timeout), path, notice)

    @classmethod
    def _open_read_only(cls, path: Path, timeout: float, why: sqlite3.Error | None, report) -> "Store":
        """The games can still be looked at when they cannot be written: the app runs read-only."""
        first = _why(why, path) if why is not None else None
        if not path.is_file():
            raise StoreUnavailable(first or f"There is no saved games file at {path}.")
        try:
            conn, version = _connect_read_only(path, timeout)
        except ForeignSchema as exc:
            raise StoreRefused(f"The saved games file {path} was not opened: {exc}. It was left "
                               f"exactly as it is.") from None
        except _Corrupt as exc:
            raise StoreUnavailable(f"{first or ''} The saved games file {path} also looks damaged ({exc}); "
                                   f"it was left as it is.".strip()) from None
        except sqlite3.Error as exc:
            raise StoreUnavailable(first or _why(exc, path)) from None
        if version == 0:
            conn.close()
            raise StoreUnavailable(first or f"The saved games file {path} is empty.")
        notice = None
        if first is not None:
            notice = f"{first} The saved games can be looked at, but nothing new is saved until that is fixed."
            report(notice)
        return cls(conn, path, notice, read_only=True)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- writing ------------------------------------------------------------------------
    @contextmanager
    def _writing(self):
        """One transaction; any SQLite failure (full disk, lock) rolls it back and says why."""
        if self.read_only:
            raise StoreUnavailable(self.notice or f"The saved games file {self.path} is open read-only.")
        try:
            with self._conn:
                yield
        except sqlite3.Error as exc:
            raise StoreUnavailable(_why(exc, self.path)) from exc

    def create_game(self, header: Header, clock=time.time) -> int:
        now = clock()
        with self._writing():
            cur = self._conn.execute(
                "INSERT INTO games (game, header, created, updated) VALUES (?, ?, ?, ?)",
                (header.game, json.dumps(header.to_json()), now, now),
            )
            game_id = cur.lastrowid
            self._conn.executemany(
                "INSERT INTO players (game_id, seat, name) VALUES (?, ?, ?)",
                [(game_id, seat, name) for seat, name in enumerate(header.players)],
            )
        return game_id

    def append(self, game_id: int, seq: int, action: dict, clock=time.time) -> None:
        """Commit one action at position `seq`, dropping the redo stack at and after it."""
        now = clock()
        with self._writing():
            self._conn.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, seq))
            self._conn.execute(
                "INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                (game_id, seq, json.dumps(action), now),
            )
            self._conn.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))

    def set_undone(self, game_id: int, seq: int, undone: bool) -> None:
        with self._writing():
            self._conn.execute(
                "UPDATE actions SET undone = ? WHERE game_id = ? AND seq = ?", (int(undone), game_id, seq)
            )

    def replace_from(self, game_id: int, seq: int, actions: list[dict], clock=time.time) -> None:
        """Rewrite the actions from `seq` on in one transaction (a correction of an earlier entry)."""
        now = clock()
        with self._writing():
            self._conn.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, seq))
            self._conn.executemany(
                "INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                [(game_id, seq + i, json.dumps(a), now) for i, a in enumerate(actions)],
            )

    def set_aside(self, game_id: int, seq: int, reason: str, clock=time.time) -> int:
        """Move the actions from `seq` on out of play (into `set_aside`), in one transaction."""
        now = clock()
        with self._writing():
            # Copied inside SQLite, not through Python: the stored text moves byte for byte,
            # even a damaged one that would not decode.
            moved = self._conn.execute(
                "INSERT INTO set_aside (game_id, seq, action, reason, at) "
                "SELECT game_id, seq, action, ?, ? FROM actions WHERE game_id = ? AND seq >= ?",
                (reason, now, game_id, seq),
            ).rowcount
            self._conn.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, seq))
        return moved

    def set_finished(self, game_id: int, finished: bool, result: dict | None) -> None:
        with self._writing():
            self._conn.execute(
                "UPDATE games SET finished = ?, result = ? WHERE id = ?",
                (int(finished), json.dumps(result) if result is not None else None, game_id),
            )

    def delete_game(self, game_id: int) -> None:
        with self._writing():
            for table, key in (("actions", "game_id"), ("set_aside", "game_id"), ("players", "game_id"),
                               ("games", "id")):
                self._conn.execute(f"DELETE FROM {table} WHERE {key} = ?", (game_id,))

    # -- reading ------------------------------------------------------------------------
    def load(self, game_id: int) -> tuple[Header, list[dict], list[dict]]:
        """(header, actions, redo stack): the live actions in order, then the undone ones.

        KeyError for no such game; UnreadableGame (nothing changed) for a damaged record."""
        from companion.engine.log import LogError, parse_header

        row = self._conn.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"There is no saved game number {game_id}.")
        try:
            header = parse_header(_json(row[0]))
        except (ValueError, TypeError) as exc:
            detail = exc.message if isinstance(exc, LogError) else str(exc)
            raise UnreadableGame(f"Saved game {game_id} cannot be read: its header is damaged ({detail}). "
                                 f"It is kept in {self.path} as it is.") from None
        rows = self._conn.execute(
            "SELECT seq, action, undone FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        live, redo = [], []
        for seq, text, undone in rows:
            try:
                data = _json(text)
            except (ValueError, TypeError) as exc:
                detail = exc.message if isinstance(exc, LogError) else str(exc)
                raise UnreadableGame(f"Saved game {game_id} cannot be read: its action {seq + 1} is "
                                     f"damaged ({detail}). It is kept in {self.path} as it is.") from None
            (redo if undone else live).append(data)
        return header, live, redo

    def games(self, limit: int = 50) -> list[GameRecord]:
        """The most recent games; one whose header is damaged is listed (readable=False), not hidden."""
        rows = self._conn.execute(
            "SELECT id, game, header, created, updated, finished, result FROM games "
            "ORDER BY updated DESC, id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [self._record(r) for r in rows]

    def _record(self, r) -> GameRecord:
        try:
            players = _json(r[2])["players"]
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise TypeError("players is not a list of names")
            result = _json(r[6]) if r[6] else None
            readable = isinstance(r[1], str) and (result is None or isinstance(result, dict))
        except (ValueError, TypeError, KeyError):
            players = [name for (name,) in self._conn.execute(
                "SELECT name FROM players WHERE game_id = ? ORDER BY seat", (r[0],))]
            result, readable = None, False
        return GameRecord(id=r[0], game=str(r[1]), players=tuple(str(p) for p in players), created=r[3],
                          updated=r[4], finished=bool(r[5]) and readable, result=result if readable else None,
                          readable=readable)

    def unfinished(self) -> GameRecord | None:
        """The most recently played unfinished game, to offer to resume."""
        return next((g for g in self.games() if not g.finished and g.readable), None)


def _json(text):
    """A stored JSON value, bounded as a log line is; TypeError/ValueError for anything else."""
    from companion.engine.log import parse_line

    if isinstance(text, bytes):
        text = text.decode("utf-8")  # UnicodeDecodeError is a ValueError
    if not isinstance(text, str):
        raise TypeError(f"a stored {type(text).__name__} where JSON text belongs")
    return parse_line(text, 1)


def _why(exc: sqlite3.Error, path: Path) -> str:
    """One sentence for a file that cannot be used right now; never a reason to move it."""
    code = _code(exc)
    if code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
        return f"The saved games file {path} is locked by another program ({exc})."
    if code == sqlite3.SQLITE_FULL or (code == sqlite3.SQLITE_IOERR and _disk_full(path)):
        return f"The disk holding the saved games file {path} is full ({exc})."
    if code in (sqlite3.SQLITE_CANTOPEN, sqlite3.SQLITE_PERM, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_AUTH):
        return (f"The saved games file {path} cannot be opened for writing: permission denied or a "
                f"read-only file system ({exc}).")
    if code == sqlite3.SQLITE_IOERR:
        return f"The saved games file {path} could not be read or written (an input/output error: {exc})."
    return f"The saved games file {path} cannot be used right now ({exc})."


def _code(exc: sqlite3.Error) -> int:
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
    """The file's schema version after SQLite's own check; _Corrupt or ForeignSchema, reading only."""
    try:
        # Reading the schema and a quick integrity check catch a file that is not a database,
        # or one whose pages were torn; a quick check keeps start-up fast on big files.
        try:
            result = conn.execute("PRAGMA quick_check").fetchone()[0]
        except UnicodeDecodeError:
            # Python could not decode SQLite's message: that happens when it quotes damaged
            # bytes from the schema, and a schema SQLite cannot parse is SQLITE_CORRUPT.
            raise _Corrupt("malformed database schema (damaged bytes in its table names)") from None
        if result != "ok":
            raise _Corrupt(f"integrity check failed: {result}")
        return stored_version(conn)
    except sqlite3.DatabaseError as exc:
        if _code(exc) in _CORRUPT:
            raise _Corrupt(str(exc)) from None
        raise


def _connect(path: Path, timeout: float) -> sqlite3.Connection:
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


def _connect_read_only(path: Path, timeout: float) -> tuple[sqlite3.Connection, int]:
    uri = "file:" + quote(str(path.resolve()))
    try:
        conn = sqlite3.connect(uri + "?mode=ro", uri=True, timeout=timeout)
        conn.text_factory = _decode_text
        try:
            return conn, _checked(conn)
        except BaseException:
            conn.close()
            raise
    except sqlite3.OperationalError as exc:
        # A folder we cannot write, or a full disk, leaves no -shm to share: read the file as
        # immutable, which is safe only when no -wal holds frames not yet in the file itself,
        # and never past another program's lock.
        wal = path.with_name(path.name + "-wal")
        if _code(exc) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or (wal.exists() and wal.stat().st_size):
            raise
        conn = sqlite3.connect(uri + "?mode=ro&immutable=1", uri=True, timeout=timeout)
        conn.text_factory = _decode_text
        try:
            return conn, _checked(conn)
        except BaseException:
            conn.close()
            raise


def _move_aside(path: Path, now: float) -> Path:
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
