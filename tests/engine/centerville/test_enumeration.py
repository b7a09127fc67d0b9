"""The enumeration of legal spends is sound (every listed spend is accepted) and complete (every
accepted build or election, however its fates are spelled, has a listed spend with the same result)."""
import random
from itertools import combinations, product

import pytest

from companion.engine.core import RulesError, pairs
from companion.engine.centerville.actions import Build, Elect
from companion.engine.centerville.options import spend_actions
from companion.engine.centerville.simulate import play
from companion.engine.centerville.state import DIE_ORDER

from .positions import GAME, new_game, spend_position


def test_every_listed_spend_is_accepted_in_random_games():
    states = []
    play(GAME, ("Ann", "Bo", "Cy"), random.Random(21), on_state=states.append)
    spending = [s for s in states if s.phase == "spend" and not s.pending]
    assert len(spending) > 20
    for s in spending:
        for action in spend_actions(s):
            GAME.apply(s, action)  # raises if the enumeration offered an illegal spend


def _spellings(s):
    """Every build and election a player could type for this roll (all dice sets, all copies)."""
    dice = [i for i in range(6) if s.dice[i] is not None and not s.spent[i]]
    shown = [DIE_ORDER[i] for i in range(6) if s.dice[i] is not None]
    for k in range(1, len(dice) + 1):
        for combo in combinations(dice, k):
            colours = tuple(DIE_ORDER[i] for i in combo)
            fates = [c for c in colours if s.dice[DIE_ORDER.index(c)].endswith("fate")]
            for targets in product(shown, repeat=len(fates)):
                copies = pairs(dict(zip(fates, targets)))
                for zone in s.board.zones:
                    for level in (1, 2, 3, 4):
                        yield Build(colours, zone, level, copies)
                        for name in s.names:
                            yield Build(colours, zone, level, copies, favor=True, replace=name)
                for office in s.board.offices:
                    yield Elect(colours, office.name, copies)
                    yield Elect(colours, office.name, copies, favor=True)


def _result(s):
    # Fate dice are interchangeable (a fate's own colour never matters; fate cannot copy fate):
    # count the fates spent, name the other dice.
    spent = [i for i in range(6) if s.spent[i]]
    fates = sum(1 for i in spent if s.dice[i].endswith("fate"))
    named = tuple(i for i in spent if not s.dice[i].endswith("fate"))
    return (s.town, s.offices, s.favors, s.status, s.wealth, s.prestige, s.safe, s.extra_turn, named, fates)


@pytest.mark.parametrize(
    "dice, favors",
    [
        (("yellow-contract", "red-fate", "purple-contract"), 0),
        (("yellow-fate", "red-vote", "black-vote", "green-fate"), 1),
        (("red-contract", "blue-fate", "purple-fate", "black-vote", "green-vote"), 1),
    ],
)
def test_every_accepted_build_and_election_is_listed(dice, favors):
    s = new_game()
    other = (s.active + 1) % 3
    town = [[] for _ in range(16)]
    town[s.board.town_index("red", 1)] = [other] * 3
    fav = [favors] * 3
    offices = [(other, 2), None, None, None, None, (other, 1)]
    s = spend_position(s, dice=dice, town=town, favors=fav, offices=offices)
    listed = set()
    for action in spend_actions(s):
        if isinstance(action, (Build, Elect)):
            listed.add(_result(_before_end(s, action)))
    accepted = 0
    for action in _spellings(s):
        try:
            after = _before_end(s, action)
        except RulesError:
            continue
        accepted += 1
        assert _result(after) in listed, action
    assert accepted > 0


def _before_end(s, action):
    """Apply without letting the turn end (so the result is comparable): keep a spare die."""
    w = s.thaw()
    from companion.engine.centerville import elections, spending

    handler = spending.apply_build if isinstance(action, Build) else elections.apply_elect
    handler(w, action)
    return w.freeze()
