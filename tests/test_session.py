"""The session: the only mutator. Accepted or rejected, undo/redo of anything, corrections."""
import pytest
import race_game  # noqa: F401  (registers "test-race")
from race_game import Move, Roll

from companion.session import Accepted, Rejected, Session
from companion.store import Store, StoreError


def new_session(store=None):
    return Session.new("test-race", ["Ann", "Bo"], {"goal": 10}, store=store)


def test_illegal_action_is_rejected_with_the_rule_and_changes_nothing():
    s = new_session()
    before = s.state
    result = s.submit(Move("Ann", 3))
    assert isinstance(result, Rejected)
    assert result.reason == "Roll the die first." and result.rule == "One roll"
    assert s.state is before and s.actions == ()


def test_undo_and_redo_any_action_including_dice():
    s = new_session()
    assert isinstance(s.submit(Roll(4)), Accepted)
    assert isinstance(s.submit(Move("Ann", 4)), Accepted)
    after = s.state
    assert s.undo().ok and s.undo().ok
    assert s.state == s.game.new(("Ann", "Bo"), {"goal": 10})
    assert not s.undo().ok
    assert s.redo().ok and s.redo().ok
    assert s.state == after
    assert isinstance(s.redo(), Rejected)


def test_a_new_action_after_undo_drops_the_redo_stack():
    s = new_session()
    s.submit(Roll(4))
    s.undo()
    s.submit(Roll(2))
    assert not s.can_redo and s.actions == (Roll(2),)


def test_a_misread_die_is_corrected_and_the_rest_replayed():
    s = new_session()
    s.submit(Roll(3))
    s.submit(Move("Ann", 0))   # resting is legal whatever the die said
    s.submit(Roll(5))
    assert s.correct_last_chance(Roll(6)).ok
    assert s.actions == (Roll(3), Move("Ann", 0), Roll(6))
    assert s.state.rolled == 6


def test_a_correction_that_breaks_a_later_action_is_refused_and_nothing_changes():
    s = new_session()
    s.submit(Roll(3))
    s.submit(Move("Ann", 3))
    before = (s.state, s.actions)
    result = s.correct(0, Roll(5))
    assert isinstance(result, Rejected) and "would no longer be legal" in result.reason
    assert (s.state, s.actions) == before
    assert isinstance(s.correct(0, Move("Ann", 3)), Rejected)  # a roll is corrected by a roll


def test_everything_persists_and_resumes(tmp_path):
    db = tmp_path / "games.db"
    with Store.open(db) as store:
        s = new_session(store)
        for a in (Roll(6), Move("Ann", 6), Roll(2), Move("Bo", 2), Roll(1)):
            assert s.submit(a).ok
        s.undo()
        live, state, game_id = s.actions, s.state, s.game_id
    with Store.open(db) as store:
        again = Session.resume(store, game_id)
        assert again.actions == live and again.state == state
        assert again.can_redo and again.redo().ok and again.actions[-1] == Roll(1)
        assert store.unfinished().id == game_id


def test_finished_game_is_recorded_with_its_result(tmp_path):
    with Store.open(tmp_path / "g.db") as store:
        s = Session.new("test-race", ["Ann"], {"goal": 3}, store=store)
        s.submit(Roll(3))
        s.submit(Move("Ann", 3))
        record = store.games()[0]
        assert record.finished and record.result["ranking"] == ["Ann"]
        assert store.unfinished() is None
        s.undo()
        assert store.unfinished().id == s.game_id


def test_a_failed_write_is_rejected_and_the_game_is_unchanged(tmp_path):
    store = Store.open(tmp_path / "g.db")
    s = new_session(store)
    store.close()  # the disk is gone, as far as the session can tell
    before = s.state
    result = s.submit(Roll(2))
    assert isinstance(result, Rejected) and "could not be saved" in result.reason
    assert s.state is before and s.actions == ()


def test_export_is_a_replayable_log():
    from companion.engine.log import replay

    s = new_session()
    for a in (Roll(6), Move("Ann", 6), Roll(2)):
        s.submit(a)
    replayed = replay(s.export().splitlines())
    assert replayed.actions == s.actions and replayed.state == s.state


def test_a_stored_action_the_rules_now_refuse_is_set_aside_not_lost(tmp_path):
    import sqlite3

    db = tmp_path / "g.db"
    with Store.open(db) as store:
        s = new_session(store)
        for a in (Roll(4), Move("Ann", 4), Roll(2)):
            s.submit(a)
        game_id = s.game_id
    conn = sqlite3.connect(db)  # as if an older version had stored what the rules now refuse
    conn.execute("UPDATE actions SET action = ? WHERE seq = 1", ('{"type": "move", "player": "Ann", "steps": 5}',))
    conn.commit()
    conn.close()
    with Store.open(db) as store:
        again = Session.resume(store, game_id)
        assert again.actions == (Roll(4),)
        assert "Saved action 2 could not be replayed" in again.notice and "kept" in again.notice
        kept = store._conn.execute("SELECT seq, reason FROM set_aside ORDER BY seq").fetchall()
        assert [seq for seq, _ in kept] == [1, 2] and "Move 4 steps or rest" in kept[0][1]
        assert again.submit(Move("Ann", 0)).ok  # play goes on from the last good position


def test_a_new_game_on_a_read_only_store_is_refused_with_the_store_sentence(tmp_path):
    Store.open(tmp_path / "g.db").close()
    with Store.open(tmp_path / "g.db", read_only=True) as store:
        with pytest.raises(StoreError, match="read-only"):  # the home screen shows this sentence
            new_session(store)


def test_a_name_with_a_lone_surrogate_is_refused_by_name_and_nothing_is_stored(tmp_path):
    from companion.engine.core import SetupError

    with Store.open(tmp_path / "games.db") as store:
        with pytest.raises(SetupError, match=r"Player 2's name Bo\\ud800 .*lone surrogate"):
            Session.new("test-race", ["Ann", "Bo\ud800"], {"goal": 10}, store=store)
        assert store.games() == []
        assert Session.new("test-race", ["Ann", "Bo"], {"goal": 10}, store=store).game_id is not None
