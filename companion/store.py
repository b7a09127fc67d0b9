"""The event store: games, players and their actions in one SQLite file.

WAL mode with synchronous=FULL: when `append` returns, the action is on disk and survives a
crash or a power cut. The log is the save file: a game's state is a replay of its actions.
An unreadable or corrupt file is renamed aside (never deleted) and a fresh one started.
"""
from __future__ import annotations

import json
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from companion.engine.log import Header

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    header TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0,
    result TEXT
);
CREATE TABLE IF NOT EXISTS players (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seat INTEGER NOT NULL,
    name TEXT NOT NULL,
    PRIMARY KEY (game_id, seat)
);
-- Actions a newer version of the rules refuses on resume: kept here, never deleted.
CREATE TABLE IF NOT EXISTS set_aside (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    reason TEXT NOT NULL,
    at REAL NOT NULL
);
-- `undone` rows are the redo stack: kept until a new action replaces them.
CREATE TABLE IF NOT EXISTS actions (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    action TEXT NOT NULL,
    undone INTEGER NOT NULL DEFAULT 0,
    at REAL NOT NULL,
    PRIMARY KEY (game_id, seq)
);
"""


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    players: tuple[str, ...]
    created: float
    updated: float
    finished: bool
    result: dict | None


class StoreError(RuntimeError):
    """The data file cannot be used at all (not even after moving a corrupt one aside)."""


class Store:
    """One SQLite file. Not thread-safe: use it from the thread that opened it (the UI thread)."""

    def __init__(self, conn: sqlite3.Connection, path: Path, notice: str | None = None):
        self._conn = conn
        self.path = path
        self.notice = notice  # a sentence for the player when a corrupt file was moved aside

    # -- opening ------------------------------------------------------------------------
    @classmethod
    def open(cls, path: str | os.PathLike, clock=time.time) -> "Store":
        path = Path(path)
        if str(path) != ":memory:":
            path.parent.mkdir(parents=True, exist_ok=True)
        try:
            return cls(_connect(path), path)
        except sqlite3.DatabaseError as exc:
            moved = _move_aside(path, clock())
            notice = (
                f"The saved games file could not be read ({exc}). It was moved to {moved} "
                f"and a new one was started; nothing was deleted."
            )
            return cls(_connect(path), path, notice)

    def close(self) -> None:
        self._conn.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- writing ------------------------------------------------------------------------
    def create_game(self, header: Header, clock=time.time) -> int:
        now = clock()
        with self._conn:
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
        with self._conn:
            self._conn.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, seq))
            self._conn.execute(
                "INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                (game_id, seq, json.dumps(action), now),
            )
            self._conn.execute("UPDATE games SET updated = ? WHERE id = ?", (now, game_id))

    def set_undone(self, game_id: int, seq: int, undone: bool) -> None:
        with self._conn:
            self._conn.execute(
                "UPDATE actions SET undone = ? WHERE game_id = ? AND seq = ?", (int(undone), game_id, seq)
            )

    def replace_from(self, game_id: int, seq: int, actions: list[dict], clock=time.time) -> None:
        """Rewrite the actions from `seq` on in one transaction (a correction of an earlier entry)."""
        now = clock()
        with self._conn:
            self._conn.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, seq))
            self._conn.executemany(
                "INSERT INTO actions (game_id, seq, action, at) VALUES (?, ?, ?, ?)",
                [(game_id, seq + i, json.dumps(a), now) for i, a in enumerate(actions)],
            )

    def set_aside(self, game_id: int, seq: int, reason: str, clock=time.time) -> int:
        """Move the actions from `seq` on out of play (into `set_aside`), in one transaction."""
        now = clock()
        with self._conn:
            rows = self._conn.execute(
                "SELECT seq, action FROM actions WHERE game_id = ? AND seq >= ? ORDER BY seq", (game_id, seq)
            ).fetchall()
            self._conn.executemany(
                "INSERT INTO set_aside (game_id, seq, action, reason, at) VALUES (?, ?, ?, ?, ?)",
                [(game_id, s, a, reason, now) for s, a in rows],
            )
            self._conn.execute("DELETE FROM actions WHERE game_id = ? AND seq >= ?", (game_id, seq))
        return len(rows)

    def set_finished(self, game_id: int, finished: bool, result: dict | None) -> None:
        with self._conn:
            self._conn.execute(
                "UPDATE games SET finished = ?, result = ? WHERE id = ?",
                (int(finished), json.dumps(result) if result is not None else None, game_id),
            )

    def delete_game(self, game_id: int) -> None:
        with self._conn:
            for table, key in (("actions", "game_id"), ("set_aside", "game_id"), ("players", "game_id"),
                               ("games", "id")):
                self._conn.execute(f"DELETE FROM {table} WHERE {key} = ?", (game_id,))

    # -- reading ------------------------------------------------------------------------
    def load(self, game_id: int) -> tuple[Header, list[dict], list[dict]]:
        """(header, actions, redo stack): the live actions in order, then the undone ones."""
        row = self._conn.execute("SELECT header FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise KeyError(f"There is no saved game number {game_id}.")
        from companion.engine.log import parse_header

        header = parse_header(json.loads(row[0]))
        rows = self._conn.execute(
            "SELECT action, undone FROM actions WHERE game_id = ? ORDER BY seq", (game_id,)
        ).fetchall()
        live = [json.loads(a) for a, undone in rows if not undone]
        redo = [json.loads(a) for a, undone in rows if undone]
        return header, live, redo

    def games(self, limit: int = 50) -> list[GameRecord]:
        rows = self._conn.execute(
            "SELECT id, game, header, created, updated, finished, result FROM games "
            "ORDER BY updated DESC, id DESC LIMIT ?",
            (limit,),
        ).fetchall()
        return [
            GameRecord(
                id=r[0], game=r[1], players=tuple(json.loads(r[2])["players"]), created=r[3],
                updated=r[4], finished=bool(r[5]), result=json.loads(r[6]) if r[6] else None,
            )
            for r in rows
        ]

    def unfinished(self) -> GameRecord | None:
        """The most recently played unfinished game, to offer to resume."""
        return next((g for g in self.games() if not g.finished), None)


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(str(path), isolation_level="DEFERRED")
    try:
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=FULL")
        conn.execute("PRAGMA foreign_keys=ON")
        # Reading the schema and a full integrity check catches a file that is not a database,
        # or one whose pages were torn; a quick check keeps start-up fast on big files.
        result = conn.execute("PRAGMA quick_check").fetchone()[0]
        if result != "ok":
            raise sqlite3.DatabaseError(f"integrity check failed: {result}")
        conn.executescript(_SCHEMA)
        version = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
        if version is None:
            with conn:
                conn.execute("INSERT INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        elif int(version[0]) > SCHEMA_VERSION:
            raise sqlite3.DatabaseError(f"written by a newer version (schema {version[0]})")
    except sqlite3.DatabaseError:
        conn.close()
        raise
    return conn


def _move_aside(path: Path, now: float) -> Path:
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
