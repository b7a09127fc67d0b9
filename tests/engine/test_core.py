"""The engine core: actions round-trip through JSON, errors name the field or rule, the registry."""
from dataclasses import dataclass

import pytest

from companion.engine.core import Action, MalformedAction, Pairs, SetupError, find_game, pairs


@dataclass(frozen=True)
class Sample(Action):
    type = "sample"
    player: str
    dice: tuple[int, ...]
    choices: Pairs | None = None
    flag: bool = False


def test_action_round_trips_through_json():
    action = Sample("Ann", (2, 4), pairs({"Bo": 3, "Ann": 1}), True)
    data = action.to_json()
    assert data == {"type": "sample", "player": "Ann", "dice": [2, 4], "choices": {"Ann": 1, "Bo": 3}, "flag": True}
    assert Sample.from_json(data) == action
    assert hash(Sample.from_json(data)) == hash(action)


def test_optional_none_field_is_left_out():
    assert "choices" not in Sample("Ann", (1, 1)).to_json()


@pytest.mark.parametrize("data, field", [
    ({"type": "sample", "dice": [1, 2]}, "player"),
    ({"type": "sample", "player": "Ann", "dice": "12"}, "dice"),
    ({"type": "sample", "player": "Ann", "dice": [1, "2"]}, "dice"),
    ({"type": "sample", "player": 7, "dice": [1]}, "player"),
    ({"type": "sample", "player": "Ann", "dice": [1], "flag": 1}, "flag"),
    ({"type": "sample", "player": "Ann", "dice": [1], "choices": [1]}, "choices"),
])
def test_malformed_action_names_the_field(data, field):
    with pytest.raises(MalformedAction) as err:
        Sample.from_json(data)
    assert err.value.field == field
    assert f'"{field}"' in str(err.value)


def test_bool_is_not_a_number():
    with pytest.raises(MalformedAction):
        Sample.from_json({"type": "sample", "player": "Ann", "dice": [True]})


def test_unknown_game_is_a_setup_error_listing_known_games():
    with pytest.raises(SetupError, match="no game called"):
        find_game("chess")


def test_unknown_action_type_lists_the_known_ones():
    import race_game  # noqa: F401

    game = find_game("test-race")
    with pytest.raises(MalformedAction, match='"jump" is not an action of Test Race'):
        game.action_from_json({"type": "jump"})
    with pytest.raises(MalformedAction, match='needs a "type"'):
        game.action_from_json({"die": 3})


def test_player_names_are_checked():
    import race_game  # noqa: F401

    game = find_game("test-race")
    with pytest.raises(SetupError, match="same name"):
        game.check_players(["Ann", "ann"])
    with pytest.raises(SetupError, match="1 to 4 players"):
        game.check_players(["a", "b", "c", "d", "e"])
    with pytest.raises(SetupError, match="needs a name"):
        game.check_players(["Ann", "  "])
