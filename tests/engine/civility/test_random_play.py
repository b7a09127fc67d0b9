"""Seeded random play (2-6 players): every game ends with a winner, every dial stays in range,
and the game log replays to the same state."""
import random

import pytest

from companion.engine import find_game
from companion.engine.civility.sim import play, step
from companion.engine.civility.tables import BOOK
from companion.engine.log import Header, encode, replay


def assert_in_range(state):
    for c in state.cities:
        assert all(0 <= v <= BOOK.level_max for v in c.levels), c
        assert 0 <= c.defenders <= BOOK.defenders_max, c
        assert 0 <= c.status <= BOOK.status_max, c
        assert c.hand >= 0, c
        assert c.saved_die is None or 1 <= c.saved_die <= 6, c
        assert c.army == "home" or c.army in state.players and c.army != c.player, c
        assert all(b == "home" or b in state.players and b != c.player for b in c.bridges), c
    for token, supply in BOOK.tokens.items():
        assert state.tokens_out(token) <= supply
    assert len(state.display) <= 2
    assert sum(c.status >= BOOK.status_max for c in state.cities) <= 1


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [0, 1])
def test_random_play_ends_with_a_winner_and_dials_in_range(players, seed):
    game = find_game("civility")
    rng = random.Random(1000 * players + seed)
    names = tuple(f"P{i + 1}" for i in range(players))
    options = {"cities": ["Zombie", "Cthulhu", "Medieval", "Thief", "Clone", "Modern"][:players]}
    state = game.new(names, options)
    actions = []
    while not game.finished(state):
        assert len(actions) < 20000, game.prompt(state)
        action = step(game, state, rng)
        assert game.action_from_json(action.to_json()) == action
        state = game.apply(state, action)
        assert_in_range(state)
        actions.append(action)
    summary = game.summary(state)
    assert summary["winner"] == state.winner and summary["ranking"][0] == state.winner
    assert state.city(state.winner).status == BOOK.status_max
    assert replay(encode(Header("civility", names, options), actions).splitlines(), keep_states=False).state == state


def test_the_same_seed_plays_the_same_game():
    a = play(("A", "B", "C"), random.Random(7))
    b = play(("A", "B", "C"), random.Random(7))
    assert a.actions == b.actions and a.state == b.state


def test_the_enumeration_shortcut_agrees_with_checking_every_candidate():
    from companion.engine.civility.legal import candidates
    from companion.engine.core import RulesError

    game = find_game("civility")
    for players, seed in ((3, 11), (6, 12)):
        rng = random.Random(seed)
        state = game.new(tuple(f"P{i + 1}" for i in range(players)), {})
        for n in range(400):
            if game.finished(state):
                break
            if n % 3 == 0:
                slow = []
                for a in candidates(state):
                    try:
                        game.apply(state, a)
                    except RulesError:
                        continue
                    slow.append(a)
                assert game.legal_actions(state) == slow
            state = game.apply(state, step(game, state, rng))
