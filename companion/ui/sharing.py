"""Sharing a stored play: its BG Stats link and the lines said beside the QR code."""
from __future__ import annotations

from companion import bgstats
from companion.history import SCORE_WORD, Play, plays


def find_play(store, game_id: int) -> Play | None:
    return next(iter(plays(store, only=game_id)), None)


def seat_lines(play: Play) -> list[str]:
    """"Ana: 56 points  (won)"; a Civility city "Ana: status 5"."""
    def score(s) -> str:
        if s.score is None:
            return ""
        return f"{SCORE_WORD[play.game]} {s.score}" if play.game in SCORE_WORD else f"{s.score} points"

    return [f"{s.name}: {score(s)}{'  (won)' if s.winner else ''}" for s in play.seats]


def share(store, game_id: int, title: str):
    """The ShareView of a finished game, or None (not finished, or not stored)."""
    from .widgets.qr import ShareView

    play = find_play(store, game_id)
    if play is None or not play.finished:
        return None
    return ShareView(bgstats.link(play, title), f"Share to BG Stats  \u00b7  {title}", seat_lines(play))
