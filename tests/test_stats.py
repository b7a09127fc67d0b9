"""Statistics of plays (companion/stats.py), worked by hand on three small plays."""
from __future__ import annotations

from companion.history import Play, Seat
from companion.stats import distribution, game_stats, win_shares


def play(pid, scores, started, minutes=30, game="rolling-village"):
    top = max(scores.values())
    seats = tuple(Seat(i, n, n, i + 1, i, s, s == top) for i, (n, s) in enumerate(scores.items()))
    return Play(pid, game, started, started + minutes * 60, True, False, True, seats, ())


PLAYS = [
    play(1, {"Ana": 40, "Ben": 38}, 100, 30),
    play(2, {"Ben": 51, "Ana": 45, "Cy": 20}, 200, 50),
    play(3, {"Ana": 30, "Cy": 30}, 300, 40),           # a tie: both win
    play(4, {"Ana": 99, "Ben": 1}, 400, game="civility"),  # another game: not counted
]


def test_per_game_and_per_player_figures():
    stats = game_stats(PLAYS, "rolling-village")
    assert stats.overall.plays == 3 and stats.overall.average_minutes == 40
    ana, ben, cy = (stats.players[n] for n in ("Ana", "Ben", "Cy"))
    assert (ana.plays, ana.wins, ana.best, ana.worst) == (3, 2, 45, 30)
    assert round(ana.win_rate, 3) == 0.667 and round(ana.average, 2) == 38.33
    assert (ben.plays, ben.wins, cy.wins) == (2, 1, 1)
    assert ana.seat_averages() == {0: 35.0, 1: 45.0}
    assert stats.overall.seat_averages() == {0: 40.333333333333336, 1: 37.666666666666664, 2: 20.0}
    records = {r.what: (r.value, r.who, r.play_id) for r in stats.records}
    assert records == {"Highest score": ("51 points", "Ben", 2),
                       "Closest finish": ("a tie", "Ana and Cy", 3)}
    assert [scores for _, scores in stats.timeline] == [{"Ana": 40, "Ben": 38}, {"Ben": 51, "Ana": 45, "Cy": 20},
                                                       {"Ana": 30, "Cy": 30}]


def test_win_shares_and_the_distribution():
    stats = game_stats(PLAYS, "rolling-village")
    assert win_shares(stats) == [("Ana", 2), ("Ben", 1), ("Cy", 1)]
    assert win_shares(stats, most=1) == [("Ana", 2), ("2 others", 2)]
    assert distribution([20, 30, 30, 38, 40, 45, 51], bins=4) == [(20, 27, 1), (28, 35, 2), (36, 43, 2),
                                                                 (44, 51, 2)]
    assert distribution([]) == []
    assert game_stats(PLAYS, "centerville").overall.plays == 0
