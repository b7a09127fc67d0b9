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
import sqlite3
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from companion.engine.log import Header
from companion.store_open import Corrupt, code, connect, connect_read_only, describe, move_aside
from companion.store_schema import SCHEMA_VERSION, ForeignSchema, read_as_current  # noqa: F401 (re-exported)

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
        # Read-only only because writing failed (full, locked, read-only mount): each write
        # first tries to open the file writable again, so play resumes when the cause is gone.
        self._retry_writable = False

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
            return cls(connect(path, timeout), path)
        except ForeignSchema as exc:
            raise StoreRefused(f"The saved games file {path} was not opened: {exc}. It was left "
                               f"exactly as it is.") from None
        except sqlite3.Error as exc:
            return cls._open_read_only(path, timeout, exc, report)
        except Corrupt as exc:
            return cls._start_over(path, str(exc), clock, timeout, report)

    @classmethod
    def _start_over(cls, path: Path, damage: str, clock, timeout: float, report) -> "Store":
        """SQLite says the file is damaged: keep it beside, unchanged, and start a new one."""
        try:
            moved = move_aside(path, clock())
        except OSError as exc:
            raise StoreUnavailable(f"The saved games file {path} looks damaged ({damage}), and it could not "
                                   f"be moved aside ({exc.strerror}); it was left as it is.") from None
        notice = (f"The saved games file could not be read ({damage}). It was moved to "
                  f"{moved}, unchanged, and a new one was started; nothing was deleted.")
        report(notice)
        try:
            return cls(connect(path, timeout), path, notice)
        except (sqlite3.Error, Corrupt, ForeignSchema) as exc:
            raise StoreUnavailable(f"{notice[:notice.index(' and a new one')]}; a new one could not be "
                                   f"started ({exc}).") from None

    @classmethod
    def _open_read_only(cls, path: Path, timeout: float, failure: sqlite3.Error | None, report) -> "Store":
        """The games can still be looked at when they cannot be written: the app runs read-only."""
        first = describe(failure, path) if failure is not None else None
        if failure is not None and code(failure) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
            # Already waited `timeout` for the lock; a reader would wait for the same holder.
            raise StoreUnavailable(f"{first} Nothing in it was changed.")
        if not path.is_file():
            raise StoreUnavailable(first or f"There is no saved games file at {path}.")
        try:
            conn, version = connect_read_only(path, timeout)
        except ForeignSchema as exc:
            raise StoreRefused(f"The saved games file {path} was not opened: {exc}. It was left "
                               f"exactly as it is.") from None
        except Corrupt as exc:
            raise StoreUnavailable(f"{first or ''} The saved games file {path} also looks damaged ({exc}); "
                                   f"it was left as it is.".strip()) from None
        except sqlite3.Error as exc:
            raise StoreUnavailable(first or describe(exc, path)) from None
        if version == 0:
            conn.close()
            raise StoreUnavailable(first or f"The saved games file {path} is empty.")
        read_as_current(conn, version)
        notice = None
        if first is not None:
            notice = f"{first} The saved games can be looked at, but nothing new is saved until that is fixed."
            report(notice)
        store = cls(conn, path, notice, read_only=True)
        store._retry_writable = failure is not None
        return store

    def close(self) -> None:
        self._conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- writing ------------------------------------------------------------------------
    def _reopen_writable(self) -> None:
        try:
            conn = connect(self.path, timeout=0.1)
        except (sqlite3.Error, Corrupt, ForeignSchema):
            return  # still not writable (or now odd): stay read-only, never move anything here
        self._conn.close()
        self._conn, self.read_only, self._retry_writable, self.notice = conn, False, False, None

    @contextmanager
    def _writing(self):
        """One transaction; any SQLite failure (full disk, lock) rolls it back and says why."""
        if self.read_only and self._retry_writable:
            self._reopen_writable()
        if self.read_only:
            raise StoreUnavailable(self.notice or f"The saved games file {self.path} is open read-only.")
        try:
            with self._conn:
                yield
        except sqlite3.Error as exc:
            raise StoreUnavailable(describe(exc, self.path)) from exc

    def create_game(self, header: Header, clock=time.time) -> int:
        now = clock()
        with self._writing():
            cur = self._conn.execute(
                "INSERT INTO games (game, header, created, updated) VALUES (?, ?, ?, ?)",
                (header.game, json.dumps(header.to_json()), now, now),
            )
            game_id = cur.lastrowid
            for seat, name in enumerate(header.players):
                # A name seen before is the same person: their history and usual colour follow.
                self._conn.execute("INSERT INTO people (name, colour) VALUES (?, ?) "
                                   "ON CONFLICT(name) DO UPDATE SET colour = excluded.colour", (name, seat))
                self._conn.execute(
                    "INSERT INTO players (game_id, seat, name, person_id) "
                    "VALUES (?, ?, ?, (SELECT id FROM people WHERE name = ?))", (game_id, seat, name, name))
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
        """Gone for good: the screens ask the players to confirm before calling this."""
        with self._writing():
            for table, key in (("actions", "game_id"), ("set_aside", "game_id"), ("players", "game_id"),
                               ("rolls", "game_id"), ("games", "id")):
                self._conn.execute(f"DELETE FROM {table} WHERE {key} = ?", (game_id,))

    def set_archived(self, game_id: int, archived: bool) -> None:
        """Set an unfinished game aside (kept, listed in the history, not offered on Home)."""
        with self._writing():
            self._conn.execute("UPDATE games SET archived = ? WHERE id = ?", (int(archived), game_id))

    def add_rolls(self, game_id: int, dice, clock=time.time) -> None:
        """Camera-read dice, each as (die, face): the die is its colour, the face as read."""
        now = clock()
        with self._writing():
            self._conn.executemany("INSERT INTO rolls (game_id, at, die, face) VALUES (?, ?, ?, ?)",
                                   [(game_id, now, str(die), str(face)) for die, face in dice])

    def rename_person(self, old: str, new: str) -> None:
        """The person called `old` is called `new` from now on; their past games stay theirs."""
        new = new.strip()
        if not new:
            raise ValueError("A player's new name cannot be empty.")
        row = self._conn.execute("SELECT id FROM people WHERE name = ?", (old,)).fetchone()
        if row is None:
            raise KeyError(f'Nobody called "{old}" has played yet.')
        if new != old and self._conn.execute("SELECT 1 FROM people WHERE name = ?", (new,)).fetchone():
            raise ValueError(f'"{new}" is already a player; choose another name.')
        with self._writing():
            self._conn.execute("UPDATE people SET name = ? WHERE id = ?", (new, row[0]))

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

    def games(self, limit: int = 50, archived: bool = False) -> list[GameRecord]:
        """The most recent games; one whose header is damaged is listed (readable=False), not hidden.
        Games set aside are left out unless `archived`."""
        rows = self._conn.execute(
            "SELECT id, game, header, created, updated, finished, result FROM games "
            f"{'' if archived else 'WHERE archived = 0 '}ORDER BY updated DESC, id DESC LIMIT ?",
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

    def rows(self, sql: str, params=()) -> list[tuple]:
        """A read-only query, for the history and the statistics (companion/history.py)."""
        return self._conn.execute(sql, params).fetchall()

    def record(self, row) -> GameRecord:
        """A GameRecord from (id, game, header, created, updated, finished, result)."""
        return self._record(row)

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


