"""Spending the dice: the contract example, colour matching, fate, cube limits, Favor Bonuses."""
import pytest

from companion.engine.core import IllegalAction, pairs
from companion.engine.centerville.actions import (
    Build, Done, Greenbelt, Landmark, Leisure, Media, Park, River, TakeVocation,
)
from companion.engine.centerville.options import spend_actions
from companion.engine.centerville.plans import spend_plans

from .positions import GAME, new_game, spend_position

EXAMPLE = ("yellow-contract", "red-fate", "purple-contract")


def _builds(plan):
    return sorted((a.zone, a.level) for a in plan if isinstance(a, Build))


def test_contract_example_lists_the_seven_building_options():
    s = spend_position(dice=EXAMPLE)
    plans = spend_plans(s)
    options = {tuple(_builds(p)) for p in plans}
    seven = [
        (("purple", 1), ("yellow", 1)),  # 1. yellow and purple level 1, fate for something else
        (("purple", 1), ("yellow", 1), ("yellow", 1)),  # 2. fate as yellow
        (("purple", 1), ("yellow", 2)),  # 3.
        (("yellow", 3),),  # 4. and 7.
        (("purple", 3),),
        (("purple", 1), ("purple", 1), ("yellow", 1)),  # 5. fate as purple
        (("purple", 2), ("yellow", 1)),  # 6.
    ]
    for option in seven:
        assert option in options, option
    assert not any(zone == "red" for p in plans for zone, _ in _builds(p))


def test_contract_example_red_zone_is_refused():
    s = spend_position(dice=EXAMPLE)
    with pytest.raises(IllegalAction, match="must be red"):
        GAME.apply(s, Build(("yellow", "red", "purple"), "red", 3, pairs({"red": "yellow"})))
    with pytest.raises(IllegalAction, match="Say which die the red fate copies"):
        GAME.apply(s, Build(("red",), "red", 1))


def test_fate_copies_colour_and_all():
    s = spend_position(dice=EXAMPLE)
    s = GAME.apply(s, Build(("yellow", "red"), "yellow", 2, pairs({"red": "yellow"})))
    assert s.town[s.board.town_index("yellow", 2)] == (s.active,)


def test_fate_never_copies_an_hourglass():
    s = spend_position(dice=("red-fate", "black-hourglass", "green-tree"))
    with pytest.raises(IllegalAction, match="never hourglass"):
        GAME.apply(s, Greenbelt("red", pairs({"red": "black"})))
    copies = [dict(a.copies) for a in spend_actions(s) if hasattr(a, "copies")]
    assert all(c.get("red") != "black" for c in copies)
    assert any(c.get("red") == "green" for c in copies)


def test_fate_needs_an_icon_to_copy():
    s = spend_position(dice=("red-fate", "black-hourglass"))
    assert {a.type for a in spend_actions(s)} == {"hourglass"}


def test_town_levels_cost_one_two_three_contracts_and_four_trees():
    s = spend_position(dice=("red-contract", "yellow-contract", "blue-contract"))
    with pytest.raises(IllegalAction, match="takes 2 contract icons, not 3"):
        GAME.apply(s, Build(("red", "yellow", "blue"), "red", 2))
    with pytest.raises(IllegalAction, match="Build in Town"):
        GAME.apply(s, Build(("red", "yellow", "blue"), "red", 4))
    s = spend_position(dice=("red-tree", "yellow-tree", "blue-tree", "green-tree"))
    me = s.active
    s = GAME.apply(s, Build(("red", "yellow", "blue", "green"), "purple", 4))  # no colour needed
    assert s.town[s.board.town_index("purple", 4)] == (me,)


def test_a_full_space_needs_the_favor_and_the_replaced_cube_goes_home():
    s = new_game()
    other = (s.active + 1) % 3
    town = [list(t) for t in s.town]
    town[s.board.town_index("red", 1)] = [other] * 3
    s = spend_position(s, dice=("red-contract",), town=town)
    with pytest.raises(IllegalAction, match="no empty level-1 space"):
        GAME.apply(s, Build(("red",), "red", 1))
    with pytest.raises(IllegalAction, match="needs a Favor tile"):
        GAME.apply(s, Build(("red",), "red", 1, favor=True, replace=s.names[other]))
    s = spend_position(s, dice=("red-contract",), favors=[1, 1, 1])
    me = s.active
    s = GAME.apply(s, Build(("red",), "red", 1, favor=True, replace=s.names[other]))
    assert sorted(s.town[s.board.town_index("red", 1)]) == sorted([me, other, other])
    assert s.favors[me] == 0 and s.favor_supply == 10  # a used Favor leaves the game


def test_cube_limit_refuses_a_build():
    s = new_game()
    s = spend_position(s, dice=("red-contract",))
    park = [0, 0, 0]
    park[s.active] = 32
    s = spend_position(s, dice=("red-contract",), park=park)
    with pytest.raises(IllegalAction, match="Component Limits"):
        GAME.apply(s, Build(("red",), "red", 1))
    assert not [a for a in spend_actions(s) if isinstance(a, Build)]


def test_landmark_flips_the_status_marker():
    s = spend_position(dice=("red-contract", "yellow-contract", "blue-contract", "purple-fate"))
    me = s.active
    s = GAME.apply(s, Landmark(("red", "yellow", "blue", "purple"), pairs({"purple": "red"})))
    assert s.stars[me] == 2


def test_education_sections_and_media():
    s = spend_position(dice=("red-education", "yellow-education", "blue-education", "purple-education"))
    with pytest.raises(IllegalAction, match="takes 3 education, not 2"):
        GAME.apply(s, TakeVocation(("red", "yellow"), 1))
    me = s.active
    t = GAME.apply(s, TakeVocation(("red", "yellow"), 4))
    assert t.vocations[me][3] == 1 and t.campus[3] is None
    t = GAME.apply(s, Media(("red", "yellow", "blue", "purple")))
    assert t.media == me


def test_rare_vocation_favor_takes_from_another_player():
    s = new_game()
    other = (s.active + 1) % 3
    voc = [[0] * 9 for _ in range(3)]
    voc[other][6] = 2
    fav = [0, 0, 0]
    fav[s.active] = 1
    s = spend_position(s, dice=("red-education", "yellow-education", "blue-education"), vocations=voc, favors=fav)
    s = GAME.apply(s, TakeVocation(("red", "yellow", "blue"), favor=True, from_player=s.names[other], vocation=7))
    assert s.vocations[other][6] == 1 and s.vocations[s.active][6] == 1


def test_benches_park_then_leisure():
    s = spend_position(dice=("green-bench", "black-bench", "red-fate", "yellow-fate"))
    me = s.active
    with pytest.raises(IllegalAction, match="none there"):
        GAME.apply(s, Leisure("green"))
    s = GAME.apply(s, Park(("green", "black", "red"), pairs({"red": "green"})))
    assert s.park[me] == 1
    s = GAME.apply(s, Leisure("yellow", pairs({"yellow": "black"})))
    assert s.status.index(me) == 1


def test_trees_greenbelt_river_and_the_bridge_favor():
    s = spend_position(dice=("red-tree", "yellow-tree", "blue-tree", "purple-tree"))
    me = s.active
    t = GAME.apply(s, River(("red", "yellow", "blue"), "south-1"))
    assert t.river[4] == me
    with pytest.raises(IllegalAction, match="taken"):
        GAME.apply(edit_river(s, 3, (me + 1) % 3), River(("red", "yellow", "blue"), "bridge"))
    fav = [1, 1, 1]
    u = GAME.apply(edit_river(s, 3, (me + 1) % 3, favors=fav), River(("red", "yellow", "blue"), "bridge", favor=True))
    assert u.river[3] == me and u.favors[me] == 0


def edit_river(s, index, owner, **more):
    from .positions import edit

    river = list(s.river)
    river[index] = owner
    return edit(s, river=river, **more)


def test_greenbelt_at_twelve_lowers_an_opponent():
    s = new_game()
    me = s.active
    other = (me + 1) % 3
    g = [5, 5, 5]
    g[me] = 12
    s = spend_position(s, dice=("red-tree",), greenbelt=g)
    with pytest.raises(IllegalAction, match="name the opponent"):
        GAME.apply(s, Greenbelt("red"))
    s = GAME.apply(s, Greenbelt("red", opponent=s.names[other]))
    assert s.greenbelt[other] == 4


def test_reaching_greenbelt_twelve_puts_its_disaster_in_the_bag():
    s = new_game()
    g = [0, 0, 0]
    g[s.active] = 11
    s = spend_position(s, dice=("red-tree", "black-hourglass"), greenbelt=g)
    s = GAME.apply(s, Greenbelt("red"))
    assert "greenbelt" not in s.disaster_sites and s.bag_disasters == 1


def test_dead_dice_end_the_turn_with_done():
    s = spend_position(dice=("red-vote",))
    assert [a.type for a in spend_actions(s)] == ["done"]
    active = s.active
    s = GAME.apply(s, Done())
    assert s.active != active
