"""A play as BG Stats takes it from a link: `https://app.bgstatsapp.com/createPlay.html?data=`
and the play as URL-encoded JSON (docs/history.md names the source of the format).

Opening the link on a phone with BG Stats shows its import dialog; nothing is sent anywhere by
the app itself, the link only carries the play.
"""
from __future__ import annotations

import json
import time
from urllib.parse import parse_qs, quote, urlsplit

from companion.history import SCORE_WORD, Play

CREATE_PLAY = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "Tabletop Companion"


def play_json(play: Play, title: str) -> dict:
    """The play in BG Stats' fields: the game, its date (UTC, when it started), its duration in
    minutes, and each player's name, score and whether they won."""
    data = {
        "sourceName": SOURCE_NAME,
        "sourcePlayId": str(play.id),  # with sourceName: BG Stats knows a play sent twice
        "playDate": time.strftime("%Y-%m-%d %H:%M:%S", time.gmtime(play.started)),
        "durationMin": play.minutes,
        "game": {"name": title, "sourceGameId": play.game},
        "players": [],
    }
    if play.game in SCORE_WORD:
        data["game"]["noPoints"] = True  # Civility is won by status, not points: no score column
    for seat in play.seats:
        # sourcePlayerId: the person's stable id, so BG Stats matches a renamed player too.
        player = {"name": seat.name, "sourcePlayerId": str(seat.person_id or seat.name), "winner": seat.winner}
        if seat.score is not None and play.game not in SCORE_WORD:
            player["score"] = seat.score
        data["players"].append(player)
    return data


def link(play: Play, title: str) -> str:
    """The createPlay link. ":" and "," stay as they are (a URL's query may hold them): the
    link is shorter, so its QR code has fewer, larger squares."""
    return CREATE_PLAY + quote(json.dumps(play_json(play, title), ensure_ascii=False, separators=(",", ":")),
                               safe=":,")


def decode(url: str) -> dict:
    """The play inside a createPlay link (what BG Stats reads); ValueError for any other link."""
    parts = urlsplit(url)
    if f"{parts.scheme}://{parts.netloc}{parts.path}?data=" != CREATE_PLAY:
        raise ValueError(f"not a BG Stats createPlay link: {url[:60]!r}")
    values = parse_qs(parts.query, keep_blank_values=True).get("data")
    if not values:
        raise ValueError("the link has no data= part")
    return json.loads(values[0])


__all__ = ["CREATE_PLAY", "decode", "link", "play_json"]
