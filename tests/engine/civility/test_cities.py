"""Cities data and set-up: known starting levels, player-set dials, validation naming the field."""
import pytest

from companion.engine.civility.cities import CITIES, cities_from_dict
from companion.engine.core import DataFileError, SetupError


def test_medieval_starts_as_printed(game):
    s = game.new(("Ann", "Bo"), {"cities": ["Medieval", "Thief"]})
    ann = s.city("Ann")
    assert (ann.city, ann.level("economy"), ann.level("health"), ann.level("army"), ann.defenders) == (
        "Medieval", 2, 1, 3, 1)
    assert set(CITIES) >= {"Early Men", "Fantasy", "Modern", "Utopian", "Thief", "Medieval", "Zombie", "Clone",
                           "Cthulhu"}


def test_players_set_any_city_dials_at_set_up(game):
    s = game.new(("Ann", "Bo"), {"cities": {"Ann": "Modern", "Bo": "Fantasy"},
                                 "levels": {"Bo": {"technology": 4, "defenders": 6}}})
    assert s.city("Bo").level("technology") == 4 and s.city("Bo").defenders == 6


@pytest.mark.parametrize("options, words", [
    ({"cities": ["Medieval", "Medieval"]}, "different city"),
    ({"cities": ["Atlantis", "Thief"]}, "no city 'Atlantis'"),
    ({"cities": ["Thief"]}, "must list 2 cities"),
    ({"levels": {"Bo": {"army": 6}}}, "Bo's army must be a whole number 0-5"),
    ({"levels": {"Bo": {"defenders": 7}}}, "0-6"),
    ({"levels": {"Bo": {"luck": 1}}}, r"^levels.Bo.luck: unknown key \(known: education, .*, defenders\)$"),
    ({"levels": {"Bo": {"armmy": 1}}}, "^levels.Bo.armmy: unknown key; did you mean army[?]$"),
    ({"levels": {"Zed": {"army": 1}}}, r"^levels.Zed: unknown key \(known: Ann, Bo\)$"),
    ({"levels": {"Bo": 3}}, "map player names"),
    ({"citys": ["Thief", "Modern"]}, "^citys: unknown key; did you mean cities[?]$"),
])
def test_bad_set_up_options_name_the_option(game, options, words):
    with pytest.raises(SetupError, match=words):
        game.new(("Ann", "Bo"), options)


def test_player_counts(game):
    with pytest.raises(SetupError):
        game.new(("Ann",), {})
    with pytest.raises(SetupError):
        game.new(tuple("ABCDEFG"), {})
    assert len(game.new(tuple("ABCDEF"), {}).cities) == 6


def test_a_bad_city_file_names_the_key():
    good = {"default": {"levels": {d: 1 for d in ("education", "health", "technology", "army", "government",
                                                   "economy")}, "defenders": 1}}
    with pytest.raises(DataFileError) as err:
        cities_from_dict({**good, "city": [{"name": "X", "levels": {"army": 9}}]})
    assert err.value.key == "city[0].levels.army"
    with pytest.raises(DataFileError) as err:
        cities_from_dict({**good, "city": [{"name": "X", "levels": {"magic": 1}}]})
    assert err.value.key == "city[0].levels.magic"
    with pytest.raises(DataFileError) as err:
        cities_from_dict({"city": []})
    assert err.value.key == "default"


@pytest.mark.parametrize("mutate, key", [
    (lambda d: d.__setitem__("cty", []), "cty"),
    (lambda d: d["default"].__setitem__("defender", 1), "default.defender"),
    (lambda d: d["city"][0].__setitem__("expanson", True), "city[0].expanson"),
])
def test_a_city_file_refuses_an_unknown_key_with_the_nearest_known_key(mutate, key):
    data = {"default": {"levels": {d: 1 for d in ("education", "health", "technology", "army", "government",
                                                   "economy")}, "defenders": 1}, "city": [{"name": "X"}]}
    mutate(data)
    with pytest.raises(DataFileError) as err:
        cities_from_dict(data)
    assert err.value.key == key and "unknown key; did you mean" in str(err.value)
