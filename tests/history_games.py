"""Stored games for the history's tests and bench: real games of all three games played to
the end through the Session (so the store holds what the app writes), then copied with other
players, seats and dates until there are as many as asked."""
from __future__ import annotations

import json
import random

from companion.engine.centerville import simulate as centerville_sim
from companion.engine.civility import sim as civility_sim
from companion.engine.core import find_game
from companion.session import Session

PEOPLE = ("Ana", "Ben", "Cleo", "Dev", "Eli", "Fay", "Gus", "Hana")
GAMES = ("rolling-village", "civility", "centerville")


def _actions(game_name: str, names: tuple[str, ...], rng: random.Random):
    game = find_game(game_name)
    if game_name == "civility":
        return civility_sim.play(names, rng).actions
    if game_name == "centerville":
        return centerville_sim.play(game, names, rng)[1]
    state, done = game.new(names, {}), []
    while not game.finished(state):
        action = rng.choice(game.legal_actions(state))
        state = game.apply(state, action)
        done.append(action)
    return done


def play_one(store, game_name: str, names, seed: int, start: float, minutes: float = 40) -> int:
    """One whole game through the Session, its entries spread over `minutes` from `start`."""
    actions = _actions(game_name, tuple(names), random.Random(seed))
    session = Session.new(game_name, names, store=store)
    ticks = iter(start + minutes * 60 * (i + 1) / len(actions) for i in range(len(actions)))
    store._conn.execute("UPDATE games SET created = ?, updated = ? WHERE id = ?", (start, start, session.game_id))
    for action in actions:
        now = next(ticks)
        result = session.submit(action)
        assert result.ok, result
        store._conn.execute("UPDATE games SET updated = ? WHERE id = ?", (now, session.game_id))
        store._conn.commit()
    return session.game_id


def _renamed(value, names: dict[str, str]):
    if isinstance(value, str):
        return names.get(value, value)
    if isinstance(value, list):
        return [_renamed(v, names) for v in value]
    if isinstance(value, dict):
        return {names.get(k, k): _renamed(v, names) for k, v in value.items()}
    return value


def seed(store, count: int, rng_seed: int = 16, start: float = 1_700_000_000.0, played: int = 1) -> list[int]:
    """`count` finished games (a third of each game), newest last; returns their ids. `played`
    real games of each game are played through the Session, the rest are copies of them."""
    rng = random.Random(rng_seed)
    originals = []
    for round_ in range(played):
        for index, game_name in enumerate(GAMES):
            names = ("Ana", "Ben", "Cleo", "Dev")[: 2 + (index + round_) % 3]
            originals.append(play_one(store, game_name, names, seed=rng_seed + 10 * round_ + index,
                                      start=start - 86400 * (played - round_)))
    ids = list(originals)
    conn = store._conn
    for n in range(count - len(originals)):
        source = originals[n % len(originals)]
        game, header, result, created = conn.execute(
            "SELECT game, header, result, created FROM games WHERE id = ?", (source,)).fetchone()
        old = json.loads(header)["players"]
        new = rng.sample(PEOPLE, len(old))
        names = dict(zip(old, new))
        began = start + n * 3600 * 5 + rng.randrange(3600)
        length = rng.randrange(20, 90) * 60
        with conn:
            cur = conn.execute(
                "INSERT INTO games (game, header, created, updated, finished, result) VALUES (?, ?, ?, ?, 1, ?)",
                (game, json.dumps(_renamed(json.loads(header), names)), began, began + length,
                 json.dumps(_renamed(json.loads(result), names))))
            gid = cur.lastrowid
            for seat, name in enumerate(new):
                conn.execute("INSERT INTO people (name, colour) VALUES (?, ?) ON CONFLICT(name) DO NOTHING",
                             (name, seat))
                conn.execute("INSERT INTO players (game_id, seat, name, person_id) "
                             "VALUES (?, ?, ?, (SELECT id FROM people WHERE name = ?))", (gid, seat, name, name))
            rows = conn.execute("SELECT seq, action, undone FROM actions WHERE game_id = ?", (source,)).fetchall()
            conn.executemany("INSERT INTO actions (game_id, seq, action, undone, at) VALUES (?, ?, ?, ?, ?)",
                             [(gid, seq, json.dumps(_renamed(json.loads(a), names)), undone, began)
                              for seq, a, undone in rows])
        ids.append(gid)
    return ids
