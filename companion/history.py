"""Every stored game as a play: who sat where, their scores, the winner, when and how long.

Read from the store in two queries (games, then all their seats) so the history of a thousand
games opens at once; nothing here writes. A player is a person (a stable id in the `people`
table): a renamed player's past games show, and count, under the new name.
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass

from companion.store import GameRecord

# A Civility city scores no points: its status decides the game, so it stands in for the score.
SCORE_WORD = {"civility": "status"}


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str            # the person's name now
    played_as: str       # the name in the game's own log (what a renamed player was called then)
    person_id: int | None
    colour: int          # the palette seat of the person's usual colour
    score: int | None
    winner: bool


@dataclass(frozen=True)
class Play:
    id: int
    game: str
    started: float
    ended: float         # the last entry's time
    finished: bool
    archived: bool
    readable: bool
    seats: tuple[Seat, ...]
    rounds: tuple[tuple[str, tuple[str, ...]], ...]  # (round's name, each seat's entry)

    @property
    def minutes(self) -> int:
        """From the first entry to the last, in whole minutes (a game left overnight counts whole)."""
        return max(0, round((self.ended - self.started) / 60))

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(s.name for s in self.seats if s.winner)

    @property
    def day(self) -> str:
        return time.strftime("%d %b %Y", time.localtime(self.started))

    @property
    def date(self) -> str:
        return time.strftime("%Y-%m-%d %H:%M", time.localtime(self.started))

    def with_player(self, name: str) -> bool:
        wanted = name.casefold()
        return any(wanted in (s.name.casefold(), s.played_as.casefold()) for s in self.seats)


def score_of(game: str, player: dict) -> int | None:
    key = SCORE_WORD.get(game, "score")
    value = player.get(key)
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def winners_of(result: dict) -> set[str]:
    """Who won: the named winner, else everyone in first place (Rolling Village), else the
    highest score; ties share the win."""
    if isinstance(result.get("winner"), str) and result["winner"]:
        return {result["winner"]}
    ranking, places = result.get("ranking") or [], result.get("places") or []
    if places:
        return {name for name, place in zip(ranking, places) if place == 1}
    scores = {p.get("name"): p.get("score") for p in result.get("players") or [] if isinstance(p, dict)
              and isinstance(p.get("score"), int)}
    top = max(scores.values(), default=None)
    return {name for name, score in scores.items() if score == top} if top is not None else set()


def rounds_of(game: str, result: dict, names: list[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Round-by-round entries: Rolling Village's turn scores, Centerville's scoring rounds."""
    players = {p.get("name"): p for p in result.get("players", []) if isinstance(p, dict)}
    if game == "rolling-village":
        scores = [players.get(n, {}).get("turn_scores") or [] for n in names]
        turns = max(map(len, scores), default=0)
        return tuple((f"Turn {t + 1}", tuple(str(s[t]) if t < len(s) else "" for s in scores))
                     for t in range(turns))
    if game == "centerville":
        out = []
        for r in result.get("scoring", []):
            sums = {n: [0, 0] for n in names}
            for step in r.get("steps", []):
                for name, change in (step.get("changes") or {}).items():
                    if name in sums:
                        sums[name][0] += change.get("wealth", 0)
                        sums[name][1] += change.get("prestige", 0)
            out.append((f"Scoring {r.get('round', len(out) + 1)}",
                        tuple(f"{w:+d} wealth, {p:+d} prestige" for w, p in (sums[n] for n in names))))
        return tuple(out)
    return ()


def plays(store, game: str | None = None, player: str | None = None, archived: bool = True,
          limit: int | None = None, only: int | None = None) -> list[Play]:
    """Every game, newest first; `game` by its name or title, `player` by name (now or then);
    `only`: just the game of that number."""
    from companion.engine.core import RulesError, find_game

    if game is not None:
        try:
            game = find_game(game).name
        except RulesError:
            game = next((g.name for g in _games() if g.title.casefold() == game.casefold()), game)
    where, params = [], []
    if game is not None:
        where.append("g.game = ?")
        params.append(game)
    if not archived:
        where.append("g.archived = 0")
    if only is not None:
        where.append("g.id = ?")
        params.append(int(only))
    where_sql = " WHERE " + " AND ".join(where) if where else ""
    order = " ORDER BY g.updated DESC, g.id DESC" + (f" LIMIT {int(limit)}" if limit is not None else "")
    seats: dict[int, list[tuple]] = {}
    for row in store.rows("SELECT p.game_id, p.seat, p.name, p.person_id, people.name, people.colour "
                          "FROM players p LEFT JOIN people ON people.id = p.person_id"
                          + (" WHERE p.game_id = ?" if only is not None else "") + " ORDER BY p.game_id, p.seat",
                          () if only is None else (int(only),)):
        seats.setdefault(row[0], []).append(row[1:])
    if only is not None:  # one game, shown in full: the whole stored result, rounds and all
        rows = store.rows("SELECT g.id, g.game, g.header, g.created, g.updated, g.finished, g.result, g.archived "
                          "FROM games g" + where_sql + order, params)
        found = [_play(store.record(row[:7]), bool(row[7]), seats.get(row[0], [])) for row in rows]
    else:
        found = [_listed(row, seats.get(row[0], [])) for row in store.rows(_LIST_SQL + where_sql + order, params)]
    return [p for p in found if player is None or p.with_player(player)]


# The list needs from each result only the names, scores and winner: SQLite picks them out (a
# Centerville result is kilobytes of scoring detail; parsing a thousand of them in Python took
# 0.3 s). A result or header that is not valid JSON gives NULL here: listed, marked unreadable.
_LIST_SQL = """SELECT g.id, g.game, g.created, g.updated, g.finished, g.archived,
    json_valid(g.header) AND json_type(g.header, '$.players') = 'array',
    CASE WHEN g.finished AND json_valid(g.result) THEN json_object(
        'winner', g.result -> '$.winner', 'ranking', g.result -> '$.ranking', 'places', g.result -> '$.places',
        'players', (SELECT json_group_array(json_object('name', value -> '$.name', 'score', value -> '$.score',
                                                        'status', value -> '$.status'))
                    FROM json_each(g.result, '$.players'))) END
    FROM games g"""


def _listed(row, stored: list[tuple]) -> Play:
    gid, game, created, updated, finished, archived, header_ok, compact = row
    result = None
    if compact is not None:
        try:
            result = json.loads(compact)
        except ValueError:
            result = None
    readable = bool(header_ok) and (not finished or result is not None)
    names = tuple(name for _, name, *_ in stored)
    record = GameRecord(id=gid, game=str(game), players=names, created=created, updated=updated,
                        finished=bool(finished) and readable, result=result if readable else None,
                        readable=readable)
    return _play(record, bool(archived), stored, rounds=False)


def _games():
    from companion.engine.core import all_games

    return all_games()


def _play(record: GameRecord, archived: bool, stored: list[tuple], rounds: bool = True) -> Play:
    result = record.result if record.finished and record.result else {}
    scored = {p.get("name"): p for p in result.get("players", []) if isinstance(p, dict)}
    won = winners_of(result) if result else set()
    people = {seat: (name, person_id, now, colour) for seat, name, person_id, now, colour in stored}
    seats = []
    for index, name in enumerate(record.players):
        _, person_id, now, colour = people.get(index, (name, None, None, None))
        seats.append(Seat(seat=index, name=now or name, played_as=name, person_id=person_id,
                          colour=index if colour is None else colour,
                          score=score_of(record.game, scored[name]) if name in scored else None,
                          winner=name in won))
    # A player of the result who has no seat at the table: Centerville's 2-player bot.
    for name, entry in scored.items():
        if isinstance(name, str) and name not in record.players:
            seats.append(Seat(seat=len(seats), name=name, played_as=name, person_id=None, colour=len(seats),
                              score=score_of(record.game, entry), winner=name in won))
    return Play(id=record.id, game=record.game, started=record.created, ended=record.updated,
                finished=record.finished, archived=archived, readable=record.readable, seats=tuple(seats),
                rounds=rounds_of(record.game, result, [s.played_as for s in seats]) if result and rounds else ())


def recent_people(store, limit: int = 8) -> list[tuple[str, int]]:
    """(name, usual colour) of the people who played most recently, most recent first."""
    return [(name, colour) for name, colour in store.rows(
        "SELECT people.name, people.colour FROM people JOIN players p ON p.person_id = people.id "
        "JOIN games g ON g.id = p.game_id GROUP BY people.id "
        "ORDER BY MAX(g.updated) DESC, MAX(g.id) DESC, MIN(p.seat) LIMIT ?", (limit,))]
