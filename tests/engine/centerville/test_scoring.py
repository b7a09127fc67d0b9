"""Scoring rounds: each rulebook example and table, reset, Legacies, and the winner."""
import pytest

from companion.engine.core import IllegalAction
from companion.engine.centerville.actions import Hourglass, NameMedia, RevealLegacy
from companion.engine.centerville.scoring import ranking, run_round

from .positions import GAME, edit, new_game, spend_position

GRAY, WHITE, BROWN, ORANGE = range(4)


def four():
    return new_game(("Gray", "White", "Brown", "Orange"), colours=["gray", "white", "brown", "orange"])


def _town(s, builds):
    town = [[] for _ in range(16)]
    for player, zone, level in builds:
        town[s.board.town_index(zone, level)].append(player)
    return [sorted(t) for t in town]


def _step(result, name, detail_start=""):
    return [st for st in result.steps if st.name == name and st.detail.startswith(detail_start)]


def test_town_scoring_example():
    s = four()
    builds = [
        (GRAY, "yellow", 2), (WHITE, "yellow", 2), (BROWN, "yellow", 1), (ORANGE, "yellow", 1),
        (WHITE, "purple", 3), (WHITE, "purple", 2),
    ]
    s = edit(s, town=_town(s, builds), park=[0, 0, 1, 0])
    w = s.thaw()
    result = run_round(w, 1)
    (yellow,) = _step(result, "town", "yellow")
    assert yellow.wealth == (6, 6, 6, -3) and yellow.prestige == (0, 0, 0, 0)
    assert all(f"{name} {value}" in yellow.detail for name, value in
               (("Gray", 2), ("White", 2), ("Brown", 2), ("Orange", 1)))  # brown's +1 for the park cube
    (purple,) = _step(result, "town", "purple")
    assert purple.prestige == (-3, 6, 0, -3) and purple.wealth == (0, 0, 0, 0)
    assert "White 5" in purple.detail and "Brown 1" in purple.detail


def _vocations(s, player, tiles):
    voc = [[0] * 9 for _ in range(s.players)]
    for v, n in tiles.items():
        voc[player][v - 1] = n
    return voc


def test_vocation_scoring_example_david():
    s = new_game(("David", "Bo", "Cy"))
    s = edit(s, vocations=_vocations(s, 0, {5: 2, 6: 5, 9: 3}))  # Finance 2, Service 5, Retail 3
    result = run_round(s.thaw(), 3)
    (step,) = _step(result, "vocations")
    assert step.prestige[0] == 3
    assert step.wealth[0] == 0 + 20 + 5


@pytest.mark.parametrize("named, wealth, prestige", [(6, 0 + 35 + 5, 3), (7, 0 + 20 + 5, 6)])
def test_vocation_scoring_example_david_with_the_media(named, wealth, prestige):
    s = new_game(("David", "Bo", "Cy"))
    s = edit(s, vocations=_vocations(s, 0, {5: 2, 6: 5, 9: 3}), media=0, media_vocation=named)
    (step,) = _step(run_round(s.thaw(), 3), "vocations")
    assert (step.wealth[0], step.prestige[0]) == (wealth, prestige)


def test_offices_table():
    s = four()
    offices = [(WHITE, 1), (BROWN, 2), (BROWN, 1), (ORANGE, 1), (ORANGE, 3), (ORANGE, 1)]
    s = edit(s, offices=offices)
    (step,) = _step(run_round(s.thaw(), 1), "offices")
    assert step.wealth == (-3, 0, 3, 7) and step.prestige == (-3, 0, 3, 7)


def test_offices_table_six_offices():
    s = four()
    s = edit(s, offices=[(GRAY, 1)] * 6, wealth=[30] * 4, prestige=[30] * 4)
    (step,) = _step(run_round(s.thaw(), 1), "offices")
    assert step.wealth[GRAY] == 25


def test_status_table_by_rank_and_stars():
    s = four()
    s = edit(s, status=[GRAY, WHITE, BROWN, ORANGE], stars=[1, 2, 1, 2])
    (step,) = _step(run_round(s.thaw(), 1), "status")
    assert step.wealth == (4, 4, 1, 1) and step.prestige == (4, 4, 1, 1)


def test_river_payouts_and_villa_claims():
    s = new_game(("Ann", "Bo", "Cy"))
    river = [0, None, None, 1, 2, None, None]  # Ann north-1, Bo bridge, Cy south-1
    villas = [list(v) for v in s.villas]
    villas[4] = [1, 1, 1]  # the road of south-1 is full
    villas[0] = [None, None, 2]  # the furthest villa of north-1 (the 4) is Cy's already
    s = edit(s, river=river, villas=villas, greenbelt=[5, 3, 7])
    w = s.thaw()
    (step,) = _step(run_round(w, 1), "river")
    assert step.wealth == (5, 3, 0) and step.prestige == (0, 3, 7)
    assert w.villas[0] == [None, 0, 2]  # Ann takes the furthest empty: the 2 villa
    assert w.villas[3] == [None, None, 1]  # Bo's bridge cube slides to the end of the bridge road
    assert w.villas[4] == [1, 1, 1] and w.river == [None] * 7  # Cy's cube went home
    assert "Ann claims the 2 villa of north-1" in step.detail and "goes home" in step.detail


def test_an_early_river_presence_gives_the_better_paying_villa():
    # Play Tips: the first cube to slide along a road takes the furthest villa, the 4 (FACTS.md).
    s = new_game(("Ann", "Bo", "Cy"))
    assert s.board.villas[0] == (1, 2, 4)
    w = edit(s, river=[0, None, None, None, None, None, None], greenbelt=[1, 0, 0]).thaw()
    (step,) = _step(run_round(w, 1), "river")
    assert w.villas[0] == [None, None, 0] and "Ann claims the 4 villa of north-1" in step.detail
    w.river[0] = 1
    (step,) = _step(run_round(w, 2), "river")
    assert w.villas[0] == [None, 1, 0] and "Bo claims the 2 villa of north-1" in step.detail


def test_villas_scored_in_round_three():
    s = new_game(("Ann", "Bo", "Cy"))
    villas = [list(v) for v in s.villas]
    villas[0] = [None, 0, 0]  # north: 2 + 4 wealth
    villas[3] = [None, None, 1]  # bridge road: 1 and 1, whatever the column
    villas[6] = [2, None, None]  # south, nearest the river: 1 prestige
    s = edit(s, villas=villas)
    (step,) = _step(run_round(s.thaw(), 3), "villas")
    assert step.wealth == (6, 1, 0) and step.prestige == (0, 1, 1)


def test_reset_keeps_one_cube_per_office_and_resets_time():
    s = new_game()
    s = edit(s, offices=[(0, 3), None, (1, 2), None, None, (2, 1)], time=8)
    w = s.thaw()
    result = run_round(w, 2)
    assert w.offices == [(0, 1), None, (1, 1), None, None, (2, 1)] and w.time == 0
    assert result.steps[-1].name == "reset"
    assert not _step(run_round(s.thaw(), 3), "reset")


@pytest.mark.parametrize(
    "legacy, fields, most, fewest",
    [
        ("yellow-zone", {"town": "yellow"}, [0], [2]),
        ("blue-zone", {"town": "blue"}, [0], [2]),
        ("red-zone", {"town": "red"}, [0], [2]),
        ("purple-zone", {"town": "purple"}, [0], [2]),
        ("greenbelt", {"greenbelt": [9, 4, 4]}, [0], [1, 2]),
        ("vocations", {"vocations": [[1, 1] + [0] * 7, [1] + [0] * 8, [0] * 9], "media": 1}, [0, 1], [2]),
        ("offices", {"offices": [(0, 3), (1, 2), (1, 1), None, None, None]}, [0, 1], [2]),
    ],
)
def test_each_legacy(legacy, fields, most, fewest):
    s = new_game(("Ann", "Bo", "Cy"))
    if "town" in fields:
        zone = fields.pop("town")
        # Ann two cubes (level 1), Bo one (level 3: value does not matter), Cy none
        fields["town"] = _town(s, [(0, zone, 1), (0, zone, 1), (1, zone, 3)])
    s = edit(s, legacies=[legacy, None, None], media_vocation=1 if "media" in fields else None, **fields)
    (step,) = _step(run_round(s.thaw(), 3), "legacy")
    for p in range(3):
        expected = (6 if p in most else 0) + (-3 if p in fewest else 0)
        assert step.wealth[p] == expected and step.prestige[p] == expected, (p, step)


def test_the_open_legacy_is_scored_too():
    s = new_game(("Ann", "Bo"), campus=(1, 2, 3, 4, 5, 6))
    s = edit(s, legacies=["offices", "vocations", "red-zone"], greenbelt=[3, 0, 1])
    steps = _step(run_round(s.thaw(), 3), "legacy")
    assert len(steps) == 4 and steps[-1].detail.startswith("the open Legacy: greenbelt")
    assert steps[-1].wealth == (6, -3, 0)


def test_victory_points_never_drop_below_one_and_the_step_shows_the_actual_change():
    s = four()
    s = edit(s, town=_town(s, [(GRAY, "yellow", 1)]), wealth=[10, 10, 10, 2])
    (yellow,) = _step(run_round(s.thaw(), 1), "town", "yellow")
    assert yellow.wealth[ORANGE] == -1


def test_winning_the_game_example_48_wealth_and_55_prestige_is_a_final_score_of_48():
    # Winning the Game, 1: "having 48 wealth and 55 prestige means a final score of 48".
    s = edit(four(), wealth=[48, 10, 10, 10], prestige=[55, 10, 10, 10])
    gray = GAME.summary(s)["players"][GRAY]
    assert (gray["wealth"], gray["prestige"], gray["score"]) == (48, 55, 48)
    assert ranking(s)[0] == GRAY


def test_winner_by_lower_then_higher_then_status():
    s = four()
    s = edit(s, wealth=[48, 50, 50, 60], prestige=[55, 48, 48, 40], status=[BROWN, WHITE, GRAY, ORANGE])
    # Gray 48 (55), Brown and White 48 (50) with Brown higher in status, Orange 40
    assert ranking(s) == [GRAY, BROWN, WHITE, ORANGE]


def test_the_third_scoring_round_ends_the_game_with_every_legacy():
    s = new_game()
    me = s.active
    s = spend_position(s, dice=("black-hourglass",), rounds=[], time=6)
    from companion.engine.centerville.state import ScoringRound

    s = edit(s, rounds=[ScoringRound(1, ()), ScoringRound(2, ())], media=me)
    s = GAME.apply(s, Hourglass("black", "wealth"))
    assert s.phase == "final" and GAME.prompt(s).kind == "name-media"
    s = GAME.apply(s, NameMedia(4))
    order = [(me + i) % 3 for i in range(3)]
    with pytest.raises(IllegalAction, match="reveals their Legacy next"):
        GAME.apply(s, RevealLegacy(s.names[order[1]], "greenbelt"))
    s = GAME.apply(s, RevealLegacy(s.names[order[0]], "greenbelt"))
    with pytest.raises(IllegalAction, match="already face up"):
        GAME.apply(s, RevealLegacy(s.names[order[1]], "greenbelt"))
    s = GAME.apply(s, RevealLegacy(s.names[order[1]], "offices"))
    s = GAME.apply(s, RevealLegacy(s.names[order[2]], "vocations"))
    assert GAME.finished(s)
    summary = GAME.summary(s)
    assert summary["winner"] == summary["ranking"][0]
    final = summary["scoring"][-1]
    assert [st["step"] for st in final["steps"]] == [1, 1, 1, 1, 2, 3, 4, 6, 7, 8, 8, 8]


def test_a_scoring_round_interrupts_play_when_time_reaches_a_clock_tower():
    s = new_game()
    me = s.active
    s = spend_position(s, dice=("black-hourglass", "green-hourglass"), time=5, offices=[(me, 3)] + [None] * 5)
    s = GAME.apply(s, Hourglass("black", "wealth"))
    assert s.time == 6 and not s.rounds
    s = GAME.apply(s, Hourglass("green", "prestige"))
    assert len(s.rounds) == 1 and s.time == 0 and s.offices[0] == (me, 1)
    assert s.active == (me + 1) % 3
    # the time marker uncovered the clock tower's Disaster; scoring moved markers past 13
    assert "clock-tower" not in s.disaster_sites and "victory-13" not in s.disaster_sites
    assert s.bag_disasters == 2 and s.phase == "roll"  # campus full: no draw this turn
