"""The end screen's ranking text: ties share a place; subtotals like the paper tracker."""
from companion.ui.results import blocks, places


def summary(scores):
    players = [{"name": n, "score": s} for n, s in scores.items()]
    ranking = sorted(scores, key=lambda n: -scores[n])
    return {"players": players, "ranking": ranking}


def test_ties_share_a_place_and_the_next_place_is_skipped():
    got = places(summary({"Ann": 40, "Bo": 52, "Cy": 40, "Di": 12}))
    assert got == [("1st", "Bo", False), ("2nd", "Ann", True), ("2nd", "Cy", True), ("4th", "Di", False)]


def test_everybody_tied_is_everybody_first():
    assert [p for p, _, tied in places(summary({"Ann": 7, "Bo": 7})) if tied] == ["1st", "1st"]


def test_block_subtotals_follow_turns_3_6_and_9():
    assert blocks([1, 2, 3, 4, 5, 6, 7, 8, 9]) == "6 + 15 + 24"
    assert blocks([1, 2, 3, 4]) == "6"
    assert blocks([1, 2]) == ""
