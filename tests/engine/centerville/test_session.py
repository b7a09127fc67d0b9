"""Centerville through the real Session: refusals with their rule, undo, and correcting a roll."""
from companion.engine.centerville.actions import Draw, Greenbelt, Keep, Roll
from companion.session import Session

SIX = ("red-tree", "yellow-contract", "blue-contract", "purple-education", "green-bench", "black-vote")


def test_session_plays_refuses_undoes_and_corrects_a_misread_die():
    session = Session.new("centerville", ["Ann", "Bo", "Cy"])
    for v in (1, 2, 3, 4, 5, 6):
        assert session.submit(Draw(vocation=v)).ok
    rejected = session.submit(Greenbelt("red"))
    assert not rejected.ok and rejected.rule == "Rolling the Dice"
    assert session.submit(Roll(SIX)).ok and session.submit(Keep()).ok
    assert session.submit(Greenbelt("red")).ok
    me = session.state.active
    assert session.state.greenbelt[me] == 1
    assert session.undo().ok and session.state.greenbelt[me] == 0
    # the red die was misread: it showed a vote; the tree spend that followed no longer fits
    fixed = session.correct(6, Roll(("red-vote",) + SIX[1:]))
    assert fixed.ok and session.state.dice[0] == "red-vote"
