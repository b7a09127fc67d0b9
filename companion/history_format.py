"""`companion history` output: plain text, and the two stable formats (docs/history.md).

The JSON and CSV columns are a contract with whatever reads them: add a field at the end if
need be, never rename or reorder one."""
from __future__ import annotations

import csv
import io
import json
import time

from companion.history import Play

FORMAT_VERSION = 1
CSV_COLUMNS = ("game_id", "game", "started_utc", "duration_min", "finished", "archived", "seat",
               "player", "played_as", "score", "winner")


def _utc(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(seconds))


def play_dict(play: Play) -> dict:
    return {
        "id": play.id, "game": play.game, "started_utc": _utc(play.started), "ended_utc": _utc(play.ended),
        "duration_min": play.minutes, "finished": play.finished, "archived": play.archived,
        "players": [{"seat": s.seat, "name": s.name, "played_as": s.played_as, "score": s.score,
                     "winner": s.winner} for s in play.seats],
        "winners": list(play.winners),
    }


def as_json(found: list[Play]) -> str:
    return json.dumps({"format": FORMAT_VERSION, "games": [play_dict(p) for p in found]},
                      ensure_ascii=False, indent=1) + "\n"


def as_csv(found: list[Play]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for play in found:
        started = _utc(play.started)
        for s in play.seats:
            writer.writerow((play.id, play.game, started, play.minutes, int(play.finished), int(play.archived),
                             s.seat, s.name, s.played_as, "" if s.score is None else s.score, int(s.winner)))
    return out.getvalue()


def as_text(found: list[Play]) -> str:
    lines = []
    for play in found:
        state = "finished" if play.finished else "set aside" if play.archived else "unfinished"
        players = ", ".join(f"{s.name}{'' if s.score is None else ' ' + str(s.score)}{' (won)' if s.winner else ''}"
                            for s in play.seats)
        lines.append(f"{play.id}\t{play.game}\t{play.date}\t{play.minutes} min\t{state}\t{players}")
    return "\n".join(lines) + ("\n" if lines else "")
