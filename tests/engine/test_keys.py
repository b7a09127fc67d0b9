"""The one wording of an unknown key: its path, then the nearest known key (or the known keys)."""
import pytest

from companion.engine.keys import check_keys, join_path, nearest, unknown_keys


@pytest.mark.parametrize("word, known, near", [
    ("office", ("offices", "town", "river"), "offices"),
    ("grenbelt", ("greenbelt", "park"), "greenbelt"),
    ("vilas", ("villas", "river"), "villas"),
    ("MAYOR", ("Mayor", "Finance"), "Mayor"),  # the wrong case is close by any measure
    ("speed", ("first", "colours", "board"), None),  # nothing close: no suggestion
])
def test_the_nearest_known_key(word, known, near):
    assert nearest(word, known) == near


def test_every_unknown_key_in_the_files_order_with_its_path():
    found = unknown_keys({"wealth": 1, "grenbelt": 2, "zzz": 3}, ("wealth", "greenbelt"), "players[0]")
    assert [str(u) for u in found] == [
        "players[0].grenbelt: unknown key; did you mean greenbelt?",
        "players[0].zzz: unknown key (known: wealth, greenbelt)",
    ]
    assert join_path("", "offices") == "offices" and join_path("town", "red") == "town.red"


def test_check_keys_raises_the_readers_own_error_for_the_first():
    class Bad(ValueError):
        def __init__(self, path, problem):
            super().__init__(f"{path}: {problem}")
            self.path = path

    check_keys({"town": {}}, ("town",), "", Bad)  # all known: nothing raised
    with pytest.raises(Bad) as err:
        check_keys({"town": {}, "office": {}, "vilas": {}}, ("town", "offices", "villas"), "", Bad)
    assert err.value.path == "office" and str(err.value) == "office: unknown key; did you mean offices?"
