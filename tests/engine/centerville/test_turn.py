"""A turn: reseed, Masters, rolling with hourglasses locked, spending, passing the dice."""
import pytest

from companion.engine.core import IllegalAction, OutOfTurn
from companion.engine.centerville.actions import (
    Build, Done, Draw, Greenbelt, Hourglass, Keep, Reroll, Roll, SetMaster,
)

from .positions import GAME, edit, new_game, play

ALL_SIX = ("red-contract", "yellow-contract", "blue-tree", "purple-education", "green-bench", "black-vote")


def test_a_roll_names_one_face_for_each_die_rolled():
    s = new_game()
    with pytest.raises(IllegalAction, match="enter one face for each"):
        GAME.apply(s, Roll(ALL_SIX[:5]))
    with pytest.raises(IllegalAction, match="no hourglass face"):
        GAME.apply(s, Roll(("red-hourglass",) + ALL_SIX[1:]))
    with pytest.raises(IllegalAction, match="entered twice"):
        GAME.apply(s, Roll(ALL_SIX[:5] + ("red-vote",)))
    with pytest.raises(IllegalAction, match="not a Centerville die face"):
        GAME.apply(s, Roll(ALL_SIX[:5] + ("black-sword",)))


def test_hourglasses_are_kept_and_never_rerolled():
    s = new_game()
    s = GAME.apply(s, Roll(ALL_SIX[:5] + ("black-hourglass",)))
    assert s.phase == "keep"
    with pytest.raises(IllegalAction, match="hourglasses must always be kept"):
        GAME.apply(s, Reroll(("black",)))
    s = GAME.apply(s, Reroll(("red", "green")))
    assert s.to_roll == (0, 4)
    s = GAME.apply(s, Roll(("red-tree", "green-hourglass")))
    with pytest.raises(IllegalAction, match="hourglasses"):
        GAME.apply(s, Reroll(("green",)))


def test_three_rolls_at_most_then_spending():
    s = new_game()
    s = play(s, Roll(ALL_SIX), Reroll(("red",)), Roll(("red-vote",)), Reroll(("red",)), Roll(("red-tree",)))
    assert s.phase == "spend"
    with pytest.raises(OutOfTurn):
        GAME.apply(s, Reroll(("red",)))


def test_media_gives_a_fourth_roll():
    s = edit(new_game(), media=None)
    s = edit(s, media=s.active)
    s = play(s, Roll(ALL_SIX), Reroll(("red",)), Roll(("red-vote",)), Reroll(("red",)), Roll(("red-tree",)))
    assert s.phase == "keep"
    s = play(s, Reroll(("red",)), Roll(("red-fate",)))
    assert s.phase == "spend"


def test_no_die_is_spent_until_rolling_is_finished():
    s = GAME.apply(new_game(), Roll(ALL_SIX))
    with pytest.raises(OutOfTurn, match="until all rolling is declared finished"):
        GAME.apply(s, Greenbelt("blue"))


def test_kept_hourglasses_must_be_spent():
    s = play(new_game(), Roll(ALL_SIX[:5] + ("black-hourglass",)), Keep())
    with pytest.raises(IllegalAction, match="Kept hourglasses must be spent"):
        GAME.apply(s, Done())
    active = s.active
    s = GAME.apply(s, Hourglass("black", "wealth"))
    assert s.wealth[active] == 11 and s.time == 1
    s = GAME.apply(s, Done())  # the rest are dead dice
    assert s.active == (active + 1) % 3
    assert s.phase in ("roll", "reseed")


def test_hourglass_status_swaps_and_bumps_the_top_player_to_a_favor():
    s = play(new_game(), Roll(ALL_SIX[:5] + ("black-hourglass",)), Keep())
    me = s.active
    s = edit(s, status=[s.status[0], me] + [p for p in s.status[1:] if p != me])
    top = s.status[0]
    s = GAME.apply(s, Hourglass("black", "status"))
    assert s.status[0] == me and s.favors[top] == 1 and s.favor_supply == 9


def test_the_turn_passes_and_the_campus_is_reseeded():
    s = play(new_game(), Roll(ALL_SIX), Keep())
    me = s.active
    s = play(s, Build(("red",), "red", 1))
    s = GAME.apply(s, Done())
    assert s.active == (me + 1) % 3 and s.phase == "roll"  # campus still full: no reseed
    s = play(s, Roll(ALL_SIX[:3] + ("purple-education", "green-education", "black-education")), Keep())
    from companion.engine.centerville.actions import TakeVocation

    s = play(s, TakeVocation(("purple", "green", "black"), 1), Done())
    assert s.phase == "reseed" and s.campus[0] is None
    s = GAME.apply(s, Draw(vocation=9))
    assert s.campus == (2, 3, 4, 5, 6, 9) and s.phase == "roll"


def test_masters_set_a_die_that_is_then_locked():
    s = new_game()
    s = edit(s, masters=[s.active, None, None, None], phase="reseed")
    s = edit(s, campus=[1, 2, 3, 4, 5, 6])
    from companion.engine.centerville.turn import settle

    w = s.thaw()
    settle(w)
    s = w.freeze()
    assert s.phase == "masters"
    with pytest.raises(IllegalAction, match="do not own the yellow Master"):
        GAME.apply(s, SetMaster("yellow-contract"))
    s = GAME.apply(s, SetMaster("red-contract"))
    assert s.phase == "roll" and 0 not in s.to_roll
    s = GAME.apply(s, Roll(ALL_SIX[1:]))
    with pytest.raises(IllegalAction, match="a Master set it"):
        GAME.apply(s, Reroll(("red",)))


def test_urban_planning_gives_another_turn_without_the_green_die():
    from companion.engine.centerville.actions import Elect

    s = play(new_game(), Roll(("red-vote", "yellow-vote", "blue-tree", "purple-tree", "green-vote", "black-tree")), Keep())
    me = s.active
    s = GAME.apply(s, Elect(("green", "red"), "Urban Planning"))
    s = GAME.apply(s, Done())
    assert s.active == me and s.no_green and s.to_roll == (0, 1, 2, 3, 5)
    s = play(s, Roll(("red-vote", "yellow-vote", "blue-tree", "purple-tree", "black-tree")), Keep(), Done())
    assert s.active == (me + 1) % 3 and not s.no_green
