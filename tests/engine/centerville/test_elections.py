"""Votes: the vote example, election bonuses, the Favor Bonus, Masters."""
import pytest

from companion.engine.core import IllegalAction, OutOfTurn, pairs
from companion.engine.centerville.actions import Done, Elect, TakeMaster, Upgrade
from companion.engine.centerville.options import spend_actions

from .positions import GAME, edit, new_game, spend_position

VOTE_DICE = ("yellow-fate", "red-vote", "black-vote", "green-fate")


def _offices(s, **held):
    offices = [None] * 6
    for name, value in held.items():
        offices[[o.name for o in s.board.offices].index(name.replace("_", " "))] = value
    return offices


def _vote_example():
    s = new_game()
    gray = s.colours.index("gray")
    me = next(p for p in range(3) if p != gray and p == s.active) if s.active != gray else (gray + 1) % 3
    s = edit(s, active=me)
    other = next(p for p in range(3) if p not in (gray, me))
    offices = _offices(s, Mayor=(other, 4), City_Council=(gray, 3))
    return spend_position(s, dice=VOTE_DICE, offices=offices), me, gray


def test_vote_example():
    s, me, gray = _vote_example()
    elects = [a for a in spend_actions(s) if isinstance(a, Elect)]
    # no Mayor (too few votes), none of the middle four (no votes of their colour)
    assert {a.office for a in elects} == {"City Council"}
    # City Council from gray with all four dice, one of them the red vote
    assert all(len(a.dice) == 4 and "red" in a.dice for a in elects)
    with pytest.raises(IllegalAction, match="more votes than that"):
        GAME.apply(s, Elect(("red", "black", "yellow"), "Mayor", pairs({"yellow": "red"})))
    with pytest.raises(IllegalAction, match="must be blue"):
        GAME.apply(s, Elect(("red", "black", "yellow", "green"), "Public Works", pairs({"yellow": "red", "green": "red"})))
    t = GAME.apply(s, Elect(("yellow", "red", "black", "green"), "City Council", pairs({"yellow": "red", "green": "black"})))
    assert t.offices[5] == (me, 4)


def test_two_votes_minimum_even_for_an_empty_office():
    s = spend_position(dice=("black-vote",))
    with pytest.raises(IllegalAction, match="at least 2"):
        GAME.apply(s, Elect(("black",), "Mayor"))


def test_favor_bonus_takes_an_office_with_equal_votes():
    s = new_game()
    other = (s.active + 1) % 3
    fav = [1, 1, 1]
    s = spend_position(s, dice=("red-vote", "black-vote"), offices=_offices(s, City_Council=(other, 2)), favors=fav)
    with pytest.raises(IllegalAction, match="more votes"):
        GAME.apply(s, Elect(("red", "black"), "City Council"))
    me = s.active
    t = GAME.apply(s, Elect(("red", "black"), "City Council", favor=True))
    assert t.offices[5] == (me, 2) and t.favors[me] == 0


def test_mayor_moves_to_the_top_and_the_old_first_takes_a_favor():
    s = new_game()
    me = s.active
    top = s.status[0]
    s = spend_position(s, dice=("black-vote", "red-fate"))
    s = GAME.apply(s, Elect(("black", "red"), "Mayor", pairs({"red": "black"})))
    assert s.status[0] == me and s.status[1] == top and s.favors[top] == 1


def test_police_and_fire_takes_the_safe_from_its_owner():
    s = new_game()
    other = (s.active + 1) % 3
    s = spend_position(s, dice=("yellow-vote", "red-vote"), safe=other)
    me = s.active
    s = GAME.apply(s, Elect(("yellow", "red"), "Police & Fire"))
    assert s.safe == me


def test_public_works_moves_a_building_up_a_level_or_is_forfeit():
    s = new_game()
    me = s.active
    town = [[] for _ in range(16)]
    town[s.board.town_index("blue", 1)] = [me]
    town[s.board.town_index("red", 3)] = [me]
    s = spend_position(s, dice=("blue-vote", "red-vote", "green-tree"), town=town)
    s = GAME.apply(s, Elect(("blue", "red"), "Public Works"))
    assert GAME.prompt(s).kind == "upgrade" and GAME.prompt(s).player == s.names[me]
    with pytest.raises(OutOfTurn):
        GAME.apply(s, Done())
    with pytest.raises(IllegalAction, match="blue-1, red-3"):
        GAME.apply(s, Upgrade("yellow", 1))
    t = GAME.apply(s, Upgrade("red", 3))
    assert t.town[s.board.town_index("red", 4)] == (me,) and t.town[s.board.town_index("red", 3)] == ()
    t = GAME.apply(s, Upgrade())  # the bonus may be forgone
    assert t.town == s.town


def test_public_works_without_buildings_is_forfeit():
    s = spend_position(dice=("blue-vote", "red-vote", "green-tree"))
    s = GAME.apply(s, Elect(("blue", "red"), "Public Works"))
    assert not s.pending


def test_finance_and_city_council_pay_the_best_building():
    s = new_game()
    me = s.active
    town = [[] for _ in range(16)]
    town[s.board.town_index("blue", 1)] = [me]
    town[s.board.town_index("red", 3)] = [me]
    s = spend_position(s, dice=("purple-vote", "red-vote", "yellow-fate", "blue-fate"), town=town, park=[2, 2, 2])
    s = GAME.apply(s, Elect(("purple", "yellow"), "Finance", pairs({"yellow": "purple"})))
    assert s.wealth[me] == 13
    s = GAME.apply(s, Elect(("red", "blue"), "City Council", pairs({"blue": "red"})))
    assert s.prestige[me] == 13


def test_reelection_returns_your_own_cubes_first():
    s = new_game()
    me = s.active
    park = [0, 0, 0]
    park[me] = 29  # one cube left in hand, two in the office
    s = spend_position(s, dice=("red-vote", "black-vote", "yellow-fate"), offices=_offices(s, City_Council=(me, 2)), park=park)
    s = GAME.apply(s, Elect(("red", "black", "yellow"), "City Council", pairs({"yellow": "red"})))
    assert s.offices[5] == (me, 3)


def test_four_votes_take_a_master_of_any_colour():
    s = spend_position(dice=("red-vote", "black-vote", "green-vote", "yellow-vote"))
    me = s.active
    s = GAME.apply(s, TakeMaster(("red", "black", "green", "yellow"), "purple"))
    assert s.masters == (None, None, None, me)
    t = spend_position(s, dice=("red-vote", "black-vote", "green-vote", "yellow-vote"))
    with pytest.raises(IllegalAction, match="left the Airport"):
        GAME.apply(t, TakeMaster(("red", "black", "green", "yellow"), "purple"))
