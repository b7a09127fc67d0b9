"""Score our board without a window: the board entered row by row, its limits, the state-file
mapping it writes, and the round scored exactly as `companion score` scores that file."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from companion.engine.centerville.statefile import score_file
from companion.table.centerville_board_entry import NOT_NEEDED, BoardEntry

EXAMPLE = Path(__file__).resolve().parents[1] / "engine" / "centerville" / "data" / "town-example.json"
GRAY, WHITE, BROWN, ORANGE = range(4)


def town_example() -> BoardEntry:
    """The rulebook's town example (tests/engine/centerville/data/town-example.json), by rows."""
    e = BoardEntry()
    e.set_mode("4")
    for seat, name in enumerate(("Gray", "White", "Brown", "Orange")):
        e.rename(seat, name)
    marks = {GRAY: (10, 10, 4), WHITE: (12, 9, 2), BROWN: (10, 10, 0), ORANGE: (2, 11, 0)}
    for seat, (wealth, prestige, greenbelt) in marks.items():
        for key, target in ((("wealth",), wealth), (("prestige",), prestige), (("greenbelt",), greenbelt)):
            while e.value(key)[seat] != target:
                assert e.change(key, 1 if target > e.value(key)[seat] else -1, seat) is None
    e.change(("stars",), 1, WHITE)
    e.change(("park",), 1, BROWN)
    for v, n in ((5, 2), (6, 5), (9, 3)):
        for _ in range(n):
            assert e.change(("vocation", v), 1, BROWN) is None
    e.move_up(WHITE)  # status: white, gray, brown, orange
    for zone, level, seat in (("yellow", 1, BROWN), ("yellow", 1, ORANGE), ("yellow", 2, GRAY),
                              ("yellow", 2, WHITE), ("purple", 2, WHITE), ("purple", 3, WHITE)):
        assert e.change(("town", zone, level), 1, seat) is None
    e.choose(("river", 0), GRAY)
    e.choose(("river", 3), WHITE)  # the bridge
    e.choose(("river", 5), ORANGE)  # south-2
    e.choose(("villa", 5, 1), BROWN)
    for office, seat, cubes in ((0, WHITE, 3), (5, GRAY, 2), (4, GRAY, 1)):
        e.choose(("office", office), seat)
        for _ in range(cubes - 1):
            assert e.change(("office-cubes", office), 1) is None
    e.choose(("safe",), WHITE)
    e.choose(("media",), BROWN)
    e.choose(("media-vocation",), 6)
    return e


@pytest.mark.parametrize("scoring_round", [1, 2])
def test_the_town_example_entered_by_rows_scores_as_its_file(scoring_round):
    e = town_example()
    e.set_round(scoring_round)
    assert e.missing() is None
    assert score_file(e.data(), scoring_round) == score_file(json.loads(EXAMPLE.read_text()), scoring_round)
    s = e.score().state
    assert s.rounds[-1].number == scoring_round
    assert list(s.wealth) == [t["final_wealth"] for t in score_file(e.data(), scoring_round)["totals"].values()]


def test_every_step_is_a_page_then_the_summary_of_new_wealth_and_prestige():
    e = town_example()
    result = e.score()
    file = score_file(e.data(), 1)
    steps = [p for p in result.pages if p.title.startswith("Step ")]
    assert len(steps) == len(file["steps"])
    assert all(p.kind == "scoring" and p.lines for p in result.pages)
    assert result.areas[0] == ("zone-yellow", "park") and result.areas[-1] == ()
    last = result.pages[-1]
    assert last.title == "After scoring round 1"
    for line, (colour, total) in zip(last.lines, file["totals"].items()):
        assert f"({colour}): wealth {total['final_wealth']} ({total['wealth']:+d}), " \
               f"prestige {total['final_prestige']} ({total['prestige']:+d})" in line


def test_round_3_asks_for_every_legacy_and_the_media_vocation():
    e = town_example()
    e.set_round(3)
    assert "enter Gray's" in e.missing()
    for seat, tile in enumerate(("greenbelt", "offices", "vocations", "red-zone")):
        e.choose(("legacy", seat), tile)
    assert e.missing() is None
    e.choose(("media-vocation",), None)
    assert "Media" in e.missing()
    e.choose(("media-vocation",), 6)
    result = e.score()
    assert result.state.phase == "over"
    assert result.pages[-2].title == "Winning the Game"
    assert result.pages[-2].lines[-1] == f"{result.state.names[result.state.winner[0]]} wins"
    assert all("final score" in line for line in result.pages[-1].lines)
    assert score_file(e.data(), 3)["winner"] == result.state.colours[result.state.winner[0]]


def test_a_legacy_is_dealt_once():
    e = BoardEntry()
    e.choose(("legacy", 0), "greenbelt")
    e.choose(("legacy", 1), "greenbelt")
    assert e.legacies == [None, "greenbelt", None]


def test_a_level_holds_its_spaces_and_a_seat_its_32_cubes():
    e = BoardEntry()
    for seat in range(3):
        assert e.change(("town", "red", 1), 1, seat) is None
    assert "3 spaces: all are built" in e.change(("town", "red", 1), 1, 0)
    assert e.change(("town", "red", 4), 1, 0) is None
    assert "1 space" in e.change(("town", "red", 4), 1, 1)
    assert "none there" in e.change(("town", "red", 2), -1, 0)
    while e.cubes_left(0):
        assert e.change(("park",), 1, 0) is None
    assert e.cubes_on_board(0) == 32
    assert "no cubes left" in e.change(("town", "blue", 1), 1, 0)
    assert "no cubes left" in e.choose(("river", 0), 0)
    assert "no cubes left" in e.choose(("office", 0), 0)
    assert e.choose(("river", 0), 1) is None


def test_vocation_tiles_of_a_type_are_as_many_as_its_number_among_all_seats():
    e = BoardEntry()
    assert e.change(("vocation", 2), 1, 0) is None
    assert e.change(("vocation", 2), 1, 1) is None
    assert "2 tiles" in e.change(("vocation", 2), 1, 2)


def test_markers_greenbelt_stars_and_office_cubes_keep_to_the_board():
    e = BoardEntry()
    assert e.change(("wealth",), -10, 0) is None  # 10 - 10 stops at the track's lowest, 1
    assert e.value(("wealth",))[0] == 1
    assert "1 to 500" in e.change(("wealth",), -1, 0)
    assert "0 to 12" in e.change(("greenbelt",), -1, 0)
    assert "two" in e.change(("stars",), 2, 0)
    e.choose(("office", 2), 1)
    assert e.value(("office-cubes", 2)) == 1
    assert "at least 1" in e.change(("office-cubes", 2), -1)


def test_the_bot_seat_holds_no_media_and_its_game_has_an_open_legacy():
    e = BoardEntry()
    e.set_mode("2+bot")
    assert e.bot == 2 and e.names[2] == e.board.bot_name
    assert "bot can't" in e.choose(("media",), 2)
    assert 2 not in [v for v, _ in e.rows("media")[0].options]
    assert ("open-legacy",) in [r.key for r in e.rows("final")]
    e.choose(("open-legacy",), "vocations")
    data = e.data()
    assert data["players"][2]["bot"] is True and data["open_legacy"] == "vocations"
    assert e.missing() is None
    assert len(e.score().state.names) == 3


def test_colours_swap_and_a_new_mode_clears_the_board():
    e = BoardEntry()
    e.next_colour(0)
    assert e.colours == ["white", "gray", "brown"]
    e.change(("park",), 1, 0)
    e.rename(0, "Ana")
    e.set_mode("4")
    assert e.seats == 4 and e.cubes_on_board(0) == 0 and e.colours == ["gray", "white", "brown", "orange"]
    assert e.names == ["Ana", "Player 2", "Player 3", "Player 4"]
    e.set_mode("2+bot")
    e.set_mode("3")
    assert e.names == ["Ana", "Player 2", "Player 3"]  # the bot's name is not a player's


def test_every_board_area_has_an_editor_or_says_why_not():
    from companion.ui.widgets.centerville_areas import areas  # the board's tap areas (a TOML file, no Kivy)

    e = BoardEntry()
    for area in areas():
        assert e.rows(area) or area in NOT_NEEDED, area
    town = e.rows("zone-yellow")
    assert [r.label for r in town] == ["Level 1: 3 spaces", "Level 2: 5 spaces", "Level 3: 7 spaces", "Level 4: 1 space"]


def test_a_name_the_file_refuses_is_said_before_scoring():
    e = BoardEntry()
    e.rename(1, "Player 1")
    assert "same name" in e.missing()


def test_the_board_picture_shows_colours_while_a_name_is_empty():
    e = BoardEntry()
    e.rename(0, "")
    assert e.picture().names[0] == "gray"
