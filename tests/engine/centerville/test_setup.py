"""Setting Up the Game: 3 and 4 players, and 2 players with the bot as a third seat."""
import pytest

from companion.engine.core import IllegalAction, OutOfTurn, SetupError
from companion.engine.centerville.actions import Draw, OpenLegacy, Roll

from .positions import GAME, new_game


def test_four_player_status_runs_counterclockwise_and_the_last_starts():
    s = GAME.new(("Ann", "Bo", "Cy", "Di"), {"first": "Cy"})
    # Cy's marker drawn for 1st; counterclockwise: Bo 2nd, Ann 3rd, Di 4th; Di starts
    assert [s.names[p] for p in s.status] == ["Cy", "Bo", "Ann", "Di"]
    assert s.names[s.active] == "Di"
    assert s.wealth == (10,) * 4 and s.prestige == (10,) * 4 and s.greenbelt == (0,) * 4
    assert s.favor_supply == 10 and s.bag == tuple(range(1, 10))
    assert s.disaster_sites == ("clock-tower", "greenbelt", "victory-13", "victory-40")


def test_three_players_start_at_the_three_pawn_space():
    s = new_game()
    assert GAME.summary(s)["time"]["to_clock_tower"] == 7
    s4 = new_game(("A", "B", "C", "D"))
    assert GAME.summary(s4)["time"]["to_clock_tower"] == 8


def test_campus_draws_are_entered_and_sorted_bottom_up():
    s = GAME.new(("Ann", "Bo", "Cy"))
    for v in (9, 3, 5, 3, 1, 7):
        assert GAME.prompt(s).kind == "draw"
        s = GAME.apply(s, Draw(vocation=v))
    assert s.campus == (1, 3, 3, 5, 7, 9)
    assert s.bag[2] == 1 and s.bag[8] == 8
    assert s.phase == "roll"


def test_a_vocation_not_left_in_the_bag_is_refused():
    s = GAME.new(("Ann", "Bo", "Cy"))
    s = GAME.apply(s, Draw(vocation=1))
    with pytest.raises(IllegalAction, match="No vocation 1 is left"):
        GAME.apply(s, Draw(vocation=1))


def test_no_disaster_is_in_the_bag_at_set_up():
    s = GAME.new(("Ann", "Bo", "Cy"))
    with pytest.raises(IllegalAction, match="The Calm"):
        GAME.apply(s, Draw(disaster="town"))


def test_rolling_before_the_campus_is_seeded_is_refused():
    s = GAME.new(("Ann", "Bo", "Cy"))
    with pytest.raises(OutOfTurn):
        GAME.apply(s, Roll(("red-vote",)))


def test_two_players_get_the_bot_as_third_seat_and_an_open_legacy():
    s = GAME.new(("Ann", "Bo"))
    for v in (1, 2, 3, 4, 5, 6):
        s = GAME.apply(s, Draw(vocation=v))
    assert s.phase == "setup-legacy"
    s = GAME.apply(s, OpenLegacy("red-zone"))
    assert s.names == ("Ann", "Bo", "Bot") and s.bot == 2
    assert s.open_legacy == "red-zone"
    assert s.names[s.active] == "Ann"  # the players take turns 1 and 2, the bot the third
    assert s.colours == ("gray", "white", "brown")


def test_bad_set_ups_are_refused():
    with pytest.raises(SetupError):
        GAME.new(("Ann",))
    with pytest.raises(SetupError):
        GAME.new(("Ann", "Bo", "Cy", "Di", "Ed"))
    with pytest.raises(SetupError, match="colours"):
        GAME.new(("Ann", "Bo", "Cy"), {"colours": ["gray", "gray", "white"]})
    with pytest.raises(SetupError, match="first"):
        GAME.new(("Ann", "Bo", "Cy"), {"first": "Zed"})
    with pytest.raises(SetupError, match="bot"):
        GAME.new(("Ann", "Bot"))
    with pytest.raises(SetupError, match=r"^speed: unknown key \(known: first, colours, board, legacies\)$"):
        GAME.new(("Ann", "Bo", "Cy"), {"speed": 3})
    with pytest.raises(SetupError, match="^colors: unknown key; did you mean colours[?]$"):
        GAME.new(("Ann", "Bo", "Cy"), {"colors": ["gray", "white", "brown"]})
