"""Positions for Centerville tests, built from a real set-up and edited like a board at the table."""
from __future__ import annotations

from companion.engine.core import find_game
from companion.engine.centerville.actions import Draw, OpenLegacy
from companion.engine.centerville.state import DIE_ORDER

GAME = find_game("centerville")


def new_game(names=("Ann", "Bo", "Cy"), campus=(1, 2, 3, 4, 5, 6), **options):
    """A game after set-up: the campus drawn as given (and the open Legacy for 2 players)."""
    s = GAME.new(tuple(names), options)
    for v in campus:
        s = GAME.apply(s, Draw(vocation=v))
    if len(names) == 2:
        s = GAME.apply(s, OpenLegacy("greenbelt"))
    return s


def edit(state, **fields):
    """The state with some fields replaced (lists for per-player values are accepted)."""
    w = state.thaw()
    for k, v in fields.items():
        setattr(w, k, v)
    return w.freeze()


def spend_position(state=None, dice=(), **fields):
    """The active player spending exactly `dice` (face labels); every other die out of play."""
    state = state or new_game()
    faces = [None] * 6
    for face in dice:
        faces[DIE_ORDER.index(face.split("-")[0])] = face
    return edit(
        state,
        phase="spend",
        dice=faces,
        spent=[False] * 6,
        locked=[f is not None and f.endswith("hourglass") for f in faces],
        rolls=1,
        to_roll=[],
        **fields,
    )


def play(state, *actions):
    for a in actions:
        state = GAME.apply(state, a)
    return state

