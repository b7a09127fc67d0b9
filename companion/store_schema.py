"""The store's schema: what each shipped version holds, how to tell ours from a foreign file, and
the numbered migrations from every earlier version to this one.

Kept apart from store.py so the rules for "is this our file, and which version" read in one place.
Inspection only reads: a file refused here has not been changed by a single byte.
"""
from __future__ import annotations

import sqlite3

SCHEMA_VERSION = 3

# The tables (and the columns the app reads) of each version, as shipped.
_V1 = {
    "meta": ("key", "value"),
    "games": ("id", "game", "header", "created", "updated", "finished", "result"),
    "players": ("game_id", "seat", "name"),
    "actions": ("game_id", "seq", "action", "undone", "at"),
}
_V2 = {**_V1, "set_aside": ("game_id", "seq", "action", "reason", "at")}
# 3: the people who play (a stable id: a renamed player keeps their history), set-aside games,
# and every camera-read die (the fairness statistics).
_V3 = {**_V2, "games": _V1["games"] + ("archived",), "players": _V1["players"] + ("person_id",),
       "people": ("id", "name", "colour"), "rolls": ("game_id", "at", "die", "face")}
TABLES = {1: _V1, 2: _V2, 3: _V3}

# MIGRATIONS[n] takes a file at version n - 1 to version n (0 is a new, empty file).
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
        """CREATE TABLE games (
            id INTEGER PRIMARY KEY,
            game TEXT NOT NULL,
            header TEXT NOT NULL,
            created REAL NOT NULL,
            updated REAL NOT NULL,
            finished INTEGER NOT NULL DEFAULT 0,
            result TEXT
        )""",
        """CREATE TABLE players (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            PRIMARY KEY (game_id, seat)
        )""",
        # `undone` rows are the redo stack: kept until a new action replaces them.
        """CREATE TABLE actions (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            action TEXT NOT NULL,
            undone INTEGER NOT NULL DEFAULT 0,
            at REAL NOT NULL,
            PRIMARY KEY (game_id, seq)
        )""",
    ),
    # Actions a newer version of the rules refuses on resume: kept here, never deleted.
    # IF NOT EXISTS: files written between the two releases already have it while saying "1".
    2: (
        """CREATE TABLE IF NOT EXISTS set_aside (
            game_id INTEGER NOT NULL REFERENCES games(id),
            seq INTEGER NOT NULL,
            action TEXT NOT NULL,
            reason TEXT NOT NULL,
            at REAL NOT NULL
        )""",
    ),
    3: (
        # `colour`: the palette seat (companion/ui/theme.py) the person last played in.
        """CREATE TABLE people (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            colour INTEGER NOT NULL DEFAULT 0
        )""",
        "ALTER TABLE players ADD COLUMN person_id INTEGER REFERENCES people(id)",
        # Set aside by the players: kept and listed in the history, hidden from Home's offer.
        "ALTER TABLE games ADD COLUMN archived INTEGER NOT NULL DEFAULT 0",
        """CREATE TABLE rolls (
            game_id INTEGER NOT NULL REFERENCES games(id),
            at REAL NOT NULL,
            die TEXT NOT NULL,
            face TEXT NOT NULL
        )""",
        "CREATE INDEX rolls_by_die ON rolls (die)",
        "CREATE INDEX players_by_person ON players (person_id)",
        # Everyone who already played becomes a person, in the seat they last played in.
        """INSERT OR IGNORE INTO people (name, colour)
           SELECT p.name, p.seat FROM players p JOIN games g ON g.id = p.game_id
           ORDER BY g.updated DESC, g.id DESC""",
        "UPDATE players SET person_id = (SELECT id FROM people WHERE people.name = players.name)",
    ),
}


class ForeignSchema(Exception):
    """The file is a sound SQLite database, but not one this version of the app may change."""


def stored_version(conn: sqlite3.Connection) -> int:
    """The file's schema version (0: empty), or ForeignSchema saying why it is not ours."""
    tables = {name: _columns(conn, name) for (name,) in conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
    if not tables:
        return 0
    if "meta" not in tables:
        raise ForeignSchema(f"it holds other tables ({', '.join(sorted(tables))}) and no 'meta' table")
    if not {"key", "value"} <= tables["meta"]:
        raise ForeignSchema("its 'meta' table has no 'key' and 'value' columns")
    row = conn.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    if row is None:
        # The first release wrote its tables, then the version: a power cut between leaves this.
        version = 1
    else:
        try:
            version = int(str(row[0]).strip())
        except ValueError:
            raise ForeignSchema(f"its schema version {row[0]!r} is not a number") from None
    if version > SCHEMA_VERSION:
        raise ForeignSchema(f"it was written by a newer version of the app (schema {version}; "
                            f"this one reads up to {SCHEMA_VERSION})")
    if version < 1:
        raise ForeignSchema(f"its schema version {version} was never used by this app")
    for table, wanted in TABLES[version].items():
        if table in ("meta", "set_aside"):
            continue  # meta was checked above; set_aside is re-created by migration 2 if missing
        if table not in tables:
            raise ForeignSchema(f"schema {version} has a '{table}' table, and this file has none")
        missing = [c for c in wanted if c not in tables[table]]
        if missing:
            names = ", ".join(repr(c) for c in missing)
            raise ForeignSchema(f"its '{table}' table lacks the column{'s' if len(missing) > 1 else ''} {names}")
    return version


def migrate(conn: sqlite3.Connection, version: int) -> None:
    """Bring the file from `version` to SCHEMA_VERSION in one transaction (all or nothing)."""
    if version == SCHEMA_VERSION:
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        for step in range(version + 1, SCHEMA_VERSION + 1):
            for statement in MIGRATIONS[step]:
                conn.execute(statement)
        conn.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:  # a failed COMMIT (full disk) may have rolled back already
            conn.execute("ROLLBACK")
        raise


def read_as_current(conn: sqlite3.Connection, version: int) -> None:
    """A file opened read-only at an older schema, seen through the current one without a byte
    written: views and tables in SQLite's in-memory TEMP schema (searched before the file's own)
    lend it what migration 3 would add. Nothing set aside, no camera-read dice, people by name."""
    if version >= 3:
        return
    conn.executescript("""
        CREATE TEMP TABLE people AS SELECT ROW_NUMBER() OVER (ORDER BY name) AS id, name, MIN(seat) AS colour
            FROM main.players GROUP BY name;
        CREATE TEMP VIEW players AS SELECT p.game_id, p.seat, p.name, people.id AS person_id
            FROM main.players p JOIN temp.people ON temp.people.name = p.name;
        CREATE TEMP VIEW games AS SELECT *, 0 AS archived FROM main.games;
        CREATE TEMP TABLE rolls (game_id INTEGER, at REAL, die TEXT, face TEXT);
    """)


def _columns(conn: sqlite3.Connection, table: str) -> set[str]:
    return {row[1] for row in conn.execute("SELECT * FROM pragma_table_info(?)", (table,))}
