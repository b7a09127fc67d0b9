"""Seeded random games reach the end with exactly three scoring rounds while invariants hold."""
import random

import pytest

from companion.engine.centerville.simulate import play
from companion.engine.centerville.state import cubes_on_board, available_cubes
from companion.engine.log import Header, encode, replay

from .positions import GAME


def check_invariants(s):
    b = s.board
    for p in range(s.players):
        assert cubes_on_board(s, p) + available_cubes(s, p) == b.cubes
        assert 0 <= available_cubes(s, p) <= b.cubes
        assert s.wealth[p] >= 1 and s.prestige[p] >= 1
        assert 0 <= s.greenbelt[p] <= b.greenbelt_top
    tiles = [v for v in s.campus if v is not None]
    assert tiles == sorted(tiles)
    assert sum(s.favors) + s.favor_supply <= b.favors
    assert sorted(s.status) == list(range(s.players))
    for z in range(4):
        for level in range(1, 5):
            assert len(s.town[z * 4 + level - 1]) <= b.spaces[level - 1]
    in_play = [sum(s.vocations[p][v] for p in range(s.players)) + s.bag[v] + s.campus.count(v + 1) for v in range(9)]
    assert all(n <= v + 1 for v, n in enumerate(in_play))  # lost vocations leave the game


@pytest.mark.parametrize("names", [("Ann", "Bo", "Cy"), ("Ann", "Bo", "Cy", "Di"), ("Ann", "Bo")])
@pytest.mark.parametrize("seed", range(4))
def test_random_games_end_after_three_scoring_rounds(names, seed):
    final, actions = play(GAME, names, random.Random(seed), on_state=check_invariants)
    assert GAME.finished(final)
    assert [r.number for r in final.rounds] == [1, 2, 3]
    summary = GAME.summary(final)
    assert summary["finished"] and summary["winner"] == summary["ranking"][0]
    assert len(summary["scoring"]) == 3


@pytest.mark.parametrize("names", [("Ann", "Bo"), ("Ann", "Bo", "Cy"), ("Ann", "Bo", "Cy", "Di")])
def test_a_log_replays_to_the_same_state_and_scores(names):
    final, actions = play(GAME, names, random.Random(11))
    text = encode(Header("centerville", names, {}), actions)
    replayed = replay(text.splitlines(), keep_states=False)
    assert replayed.state == final
    assert GAME.summary(replayed.state) == GAME.summary(final)


def test_actions_round_trip_through_json():
    _, actions = play(GAME, ("Ann", "Bo"), random.Random(5))
    for a in actions:
        assert GAME.action_from_json(a.to_json()) == a


@pytest.mark.parametrize("seed", range(3))
def test_the_bot_takes_every_third_turn_through_a_whole_game(seed):
    turns = {}

    def record(s):
        turns.setdefault(s.turn, (s.active, s.no_green))

    play(GAME, ("Ann", "Bo"), random.Random(seed), on_state=record)
    seats = [active for turn, (active, extra) in sorted(turns.items()) if turn and not extra]
    assert seats == [i % 3 for i in range(len(seats))]  # Ann, Bo, Bot, Ann, ... (extra turns aside)
