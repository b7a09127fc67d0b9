"""One conformance test for every registered game (OpenSpiel-style random simulation).

For several seeds: every enumerated legal action is accepted, round-trips through JSON, and the
encoded log replays to the very same state; the game ends with a summary of the agreed shape.
"""
import random

import pytest

from companion.engine.core import all_games
from companion.engine.log import Header, encode, replay

GAMES = all_games()
MAX_STEPS = 5000


def players_for(game):
    n = min(max(game.min_players, 3), game.max_players)
    return tuple(f"P{i + 1}" for i in range(n))


@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
@pytest.mark.parametrize("seed", range(3))
def test_random_legal_play_is_accepted_round_trips_and_replays(game, seed):
    rng = random.Random(seed)
    header = Header(game.name, players_for(game), {})
    state = game.new(header.players, header.options)
    actions = []
    for _ in range(MAX_STEPS):
        if game.finished(state):
            break
        legal = list(game.legal_actions(state))
        assert legal, f"{game.name}: no legal action but the game is not over ({game.prompt(state)})"
        action = rng.choice(legal)
        assert game.action_from_json(action.to_json()) == action
        state = game.apply(state, action)
        actions.append(action)
    assert game.finished(state), f"{game.name} did not end within {MAX_STEPS} actions"
    assert replay(encode(header, actions).splitlines(), keep_states=False).state == state
    summary = game.summary(state)
    assert summary["finished"] is True
    assert {p["name"] for p in summary["players"]} >= set(header.players)
    assert sorted(summary["ranking"]) == sorted(header.players)
