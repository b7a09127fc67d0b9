"""Civility through the real Session and SQLite store: refusals as sentences, resume after a
power cut, a misread die corrected, JSON round trips of every action type."""
import dataclasses
import typing

import pytest

from companion.engine import find_game
from companion.engine.civility import actions as A
from companion.engine.core import MalformedAction
from companion.session import Session
from companion.store import Store

OPTIONS = {"cities": ["Medieval", "Modern", "Thief"]}


def test_a_refused_action_is_a_sentence_and_changes_nothing(tmp_path):
    with Store.open(tmp_path / "games.db") as store:
        s = Session.new("civility", ["Ann", "Bo", "Cy"], OPTIONS, store=store)
        assert s.submit(A.RevealStatus("Win 2 Battles", "battle")).ok
        assert s.submit(A.RevealStatus("Trade in 5 Economy and 1 Government", "city")).ok
        assert s.submit(A.Roll((4, 4))).ok
        before = s.state
        result = s.submit(A.Upgrade("Ann", 4, "army"))
        assert not result.ok and "needs a 5" in result.reason and "rule" in result.reason
        assert s.state == before


def test_resume_after_a_power_cut_and_correct_a_misread_die(tmp_path):
    path = tmp_path / "games.db"
    with Store.open(path) as store:
        s = Session.new("civility", ["Ann", "Bo", "Cy"], OPTIONS, store=store)
        for a in (A.RevealStatus("Trade in 5 Economy and 1 Government", "city"), A.Roll((3, 5)),
                  A.Upgrade("Ann", 5, "health")):
            assert s.submit(a).ok, a
        game_id = s.game_id
        state = s.state
    with Store.open(path) as store:
        again = Session.resume(store, game_id)
        assert again.state == state
        # The camera read a 5 that was a 6: correcting the roll replays what followed, and the
        # upgrade on a 5 is now refused, so the correction is refused as a whole.
        assert not again.correct(1, A.Roll((3, 6))).ok
        assert again.correct(1, A.Roll((3, 5))).ok


def _sample(cls):
    values = {int: 1, str: "Ann", bool: True}
    kwargs = {}
    for f in dataclasses.fields(cls):
        hint = typing.get_type_hints(cls)[f.name]
        if hint == tuple[int, ...]:
            kwargs[f.name] = (1, 2)
        elif hint == tuple[str, ...]:
            kwargs[f.name] = ("army",)
        else:
            kwargs[f.name] = values.get(hint, 1)
    return cls(**kwargs)


@pytest.mark.parametrize("cls", A.ALL_ACTIONS, ids=[c.type for c in A.ALL_ACTIONS])
def test_every_action_round_trips_through_json(cls):
    game = find_game("civility")
    action = _sample(cls)
    assert game.action_from_json(action.to_json()) == action


def test_a_mistyped_field_is_named():
    game = find_game("civility")
    with pytest.raises(MalformedAction) as err:
        game.action_from_json({"type": "roll", "dice": ["6"]})
    assert err.value.field == "dice"
    with pytest.raises(MalformedAction, match='needs the field "department"'):
        game.action_from_json({"type": "upgrade", "player": "Ann", "die": 5})
