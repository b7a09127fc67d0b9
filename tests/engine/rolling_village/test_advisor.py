"""The advisor: always legal, deterministic, and exact on the last turn."""
import random

import pytest

from companion.engine import find_game
from companion.engine.rolling_village import Activate, Roll, advisor, avenue_scores, expected_score

GAME = find_game("rolling-village")


def play_to(seed, stop, players=("Ann", "Bo")):
    """Random legal play (dice from `seed`) until `stop(state)` holds at a build phase."""
    rng = random.Random(seed)
    state = GAME.new(players)
    while not GAME.finished(state):
        if state.phase == "build" and stop(state):
            return state
        state = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
    raise AssertionError("the game ended before the position was reached")


@pytest.mark.parametrize("turn", [0, 1, 3, 5, 6, 8])
@pytest.mark.parametrize("seed", range(3))
def test_advice_is_legal_and_builds_everything_owed(seed, turn):
    state = play_to(seed, lambda s: s.turn == turn)
    for player in state.players:
        advice = advisor.advise(state, player)
        assert advice.actions, "a player who owes Projects gets advice"
        for action in advice.actions:
            state = GAME.apply(state, action)
        assert not state.village(player).owed
        assert advice.expected_final >= state.village(player).score


def test_advice_after_one_of_two_builds_covers_the_rest():
    state = play_to(7, lambda s: s.turn == 4)
    first = GAME.player_actions(state, "Ann")[-1]
    state = GAME.apply(state, first)
    advice = advisor.advise(state, "Ann")
    assert len(advice.actions) == 1
    assert not GAME.apply(state, advice.actions[0]).village("Ann").owed


def test_advice_is_deterministic():
    state = play_to(3, lambda s: s.turn == 2)
    assert advisor.advise(state, "Bo") == advisor.advise(state, "Bo")
    assert advisor.advise(state, "Bo", rng=random.Random(5)) == advisor.advise(state, "Bo", rng=random.Random(5))


def _best_expected(state, player):
    """Brute force through the engine: the best expected Activation over every way to build."""
    village = state.village(player)
    if not village.owed:
        return expected_score(village.grid, state.sheet)
    return max(_best_expected(GAME.apply(state, a), player) for a in GAME.player_actions(state, player))


@pytest.mark.parametrize("seed", range(4))
def test_on_the_last_turn_the_advice_is_the_best_placement(seed):
    state = play_to(seed, lambda s: s.turn == 9)
    for player in state.players:
        advice = advisor.advise(state, player)
        after = state
        for action in advice.actions:
            after = GAME.apply(after, action)
        best = _best_expected(state, player)
        assert expected_score(after.village(player).grid, state.sheet) == pytest.approx(best)
        assert advice.expected_final == pytest.approx(state.village(player).score + best)


def test_the_advisor_plays_far_better_than_random_building():
    """Seeded solo games with the same dice: a value function turned upside down (or advice
    that ignores the Networks) would not clear this bar; the benchmark measures the margin."""
    def final(seed, policy):
        dice, choices = random.Random(seed), random.Random(-seed)
        state = GAME.new(("Solo",))
        while not GAME.finished(state):
            if state.phase in ("roll", "activate"):
                roll = (dice.randint(1, 6), dice.randint(1, 6))
                state = GAME.apply(state, Roll(roll) if state.phase == "roll" else Activate(roll))
            elif policy == "random":
                state = GAME.apply(state, choices.choice(GAME.player_actions(state, "Solo")))
            else:
                for action in advisor.advise(state, "Solo", playouts=8).actions:
                    state = GAME.apply(state, action)
        return state.village("Solo").score

    seeds = range(6)
    advised = [final(s, "advisor") for s in seeds]
    randomly = [final(s, "random") for s in seeds]
    assert sum(advised) >= sum(randomly) + 15 * len(seeds), (advised, randomly)


def test_choose_avenue_is_the_best_scoring_one():
    state = play_to(2, lambda s: s.turn == 5)
    for player in state.players:
        scores = avenue_scores(state.village(player).grid, state.sheet)
        assert scores[advisor.choose_avenue(state, player) - 1] == max(scores)


@pytest.mark.parametrize("seed", range(5))
def test_the_fast_network_bookkeeping_agrees_with_scoring(seed):
    """The advisor's incremental gain/place must equal scoring the grid from scratch."""
    from companion.engine.rolling_village.evaluation import Evaluation, model_for

    rng = random.Random(seed)
    sheet, legend = GAME.new(("A",)).sheet, GAME.new(("A",)).legend
    m = model_for(sheet, legend)
    ev = Evaluation(m, [0] * (m.rows * m.streets))
    for _ in range(26):
        empty = [c for c, k in enumerate(ev.grid) if not k]
        cell, kind = rng.choice(empty), rng.randint(1, len(m.types))
        fresh = Evaluation(m, list(ev.grid))
        grid = [[legend.names[k - 1] if k else None for k in ev.grid[r * 6:(r + 1) * 6]] for r in range(5)]
        assert fresh.e == pytest.approx(expected_score(tuple(map(tuple, grid)), sheet))
        before = ev.e
        gain = ev.gain(kind, cell)
        ev.place(kind, cell)
        assert ev.e - before == pytest.approx(gain)
        assert ev.e == pytest.approx(Evaluation(m, list(ev.grid)).e)
