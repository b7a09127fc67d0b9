"""Rolling Village rules, one test per rulebook example and per refusal."""
import pytest

from companion.engine import GameOver, IllegalAction, MalformedAction, OutOfTurn, RulesError, SetupError
from companion.engine.rolling_village import Activate, Bonus, Build, Roll, legal_squares, views

from .helpers import Table


def refused(table, action, rule, cls=RulesError):
    """Enter `action`, expect a refusal naming `rule`, and the state left as it was."""
    before = table.state
    with pytest.raises(cls) as caught:
        table.do(action)
    assert caught.value.rule == rule
    assert f"(rule: {rule})" in str(caught.value)
    assert table.state is before
    return str(caught.value)


def build_everything(table, bonus=True):
    """Every player builds what they owe with their first legal option (a deterministic filler);
    with bonus=False, the rolled Projects only."""
    def owing(v):
        return [o for o in v.owed if bonus or o.kind != "bonus"]

    while any(owing(v) for v in table.state.villages):
        player = next(v.name for v in table.state.villages if owing(v))
        table.do(table.game.player_actions(table.state, player)[0])


def play_turns(table, count, dice=(3, 5), scoring=(3, 4)):
    for _ in range(count):
        table.roll(*dice)
        build_everything(table)
        table.activate(*scoring)


# -- Start Phase ----------------------------------------------------------------------------
def test_start_phase_two_different_projects_in_the_two_rolled_streets(table):
    table.roll(3, 5)
    assert table.state.turn == 0 and table.state.phase == "build"
    table.build("Ann", "house", 4, 3)
    refused(table, Build("Ann", "house", 2, 5), "Start Phase")
    refused(table, Build("Ann", "lake", 2, 1), "Start Phase")
    table.build("Ann", "lake", 2, 5)
    assert table.state.turn == 1 and table.state.phase == "roll"
    assert views.grid(table.state, "Ann")[3][2] == "house"
    assert views.grid(table.state, "Ann")[1][4] == "lake"


def test_start_phase_doubles_put_both_projects_in_that_street(table):
    table.roll(4, 4)
    assert set(legal_squares(table.state, "Ann", "forest")) == {(r, 4) for r in range(1, 6)}
    table.build("Ann", "forest", 1, 4)
    refused(table, Build("Ann", "forest", 2, 4), "Start Phase")
    refused(table, Build("Ann", "house", 2, 3), "Start Phase")
    table.build("Ann", "house", 5, 4)
    assert table.state.turn == 1


def test_start_phase_waits_for_every_player(two):
    two.start("Ann")
    message = refused(two, Roll((1, 1)), "Building Phase", OutOfTurn)
    assert "Bo still has to build" in message and "Ann" not in message.split(":")[1]
    refused(two, Build("Ann", "lake", 3, 1), "Building Phase", OutOfTurn)
    two.build("Bo", "lake", 5, 2)
    two.build("Bo", "house", 5, 1)
    assert two.state.phase == "roll" and two.state.turn == 1


# -- Building Phase: the die swap -----------------------------------------------------------
def test_example_roll_2_4_house_in_street_2_forest_in_street_4(table):
    table.start()
    table.roll(2, 4)
    assert set(legal_squares(table.state, "Ann", "house")) == {(r, 2) for r in range(2, 6)}
    assert set(legal_squares(table.state, "Ann", "forest")) == {(r, 4) for r in range(1, 6)}
    assert legal_squares(table.state, "Ann", "lake") == []
    refused(table, Build("Ann", "house", 3, 4), "Die swap")
    refused(table, Build("Ann", "forest", 3, 2), "Die swap")
    refused(table, Build("Ann", "lake", 3, 2), "Die swap")
    # Either order.
    table.build("Ann", "forest", 5, 4)
    table.build("Ann", "house", 2, 2)
    assert table.state.phase == "activate"


def test_roll_with_one_project_type_twice(table):
    table.start()
    table.roll(1, 4)  # House in Street 4 and House in Street 1
    table.build("Ann", "house", 2, 1)
    refused(table, Build("Ann", "house", 3, 1), "Die swap")
    table.build("Ann", "house", 3, 4)
    assert table.state.phase == "activate"


def test_full_street_sends_the_project_to_any_empty_square(table):
    table.start(dice=(2, 2), first=("house", 1, 2), second=("lake", 2, 2))
    table.roll(2, 2)  # two Forests in Street 2
    table.build("Ann", "forest", 3, 2)
    table.build("Ann", "forest", 4, 2)
    table.activate(3, 4)
    table.roll(2, 2)  # Street 2 has one empty square left
    message = refused(table, Build("Ann", "forest", 5, 1), "Full Street")
    assert "Street 2 still has empty squares" in message
    table.build("Ann", "forest", 5, 2)
    # Now Street 2 is full: the second Forest goes anywhere empty.
    assert len(legal_squares(table.state, "Ann", "forest")) == 30 - 5
    table.build("Ann", "forest", 1, 6)
    table.activate(3, 4)
    table.roll(1, 2)  # a House for full Street 2 (anywhere), a Forest for Street 1
    assert len(legal_squares(table.state, "Ann", "house")) == 30 - 6
    refused(table, Build("Ann", "forest", 3, 5), "Full Street")
    table.build("Ann", "house", 3, 5)
    table.build("Ann", "forest", 1, 1)


def test_building_on_a_built_square_or_off_the_grid_is_refused(table):
    table.start()
    table.roll(1, 2)  # House in Street 2, Forest in Street 1
    refused(table, Build("Ann", "house", 1, 2), "Village Grid")
    refused(table, Build("Ann", "house", 6, 2), "Village Grid")
    refused(table, Build("Ann", "house", 1, 7), "Village Grid")
    refused(table, Build("Ann", "castle", 2, 2), "Projects! Legend")
    refused(table, Build("Zed", "house", 2, 2), "Players")


def test_a_roll_is_refused_while_builds_are_pending_and_dice_are_checked(table):
    refused(table, Roll((7, 1)), "Components")
    refused(table, Roll((3,)), "Components")
    refused(table, Build("Ann", "house", 1, 1), "Building Phase", OutOfTurn)
    refused(table, Activate((3, 4)), "Scoring Phase", OutOfTurn)
    table.roll(1, 2)
    refused(table, Roll((1, 2)), "Building Phase", OutOfTurn)
    table.build("Ann", "house", 1, 1)
    table.build("Ann", "lake", 1, 2)
    table.roll(5, 6)
    table.build("Ann", "lake", 2, 5)
    table.build("Ann", "forest", 2, 6)
    refused(table, Roll((1, 2)), "Scoring Phase", OutOfTurn)
    refused(table, Activate((0, 2)), "Components")


# -- Bonus Build Phase ----------------------------------------------------------------------
def test_activation_waits_for_every_player_and_says_who_builds_what(two):
    two.start("Ann")
    two.build("Bo", "house", 1, 1)
    two.build("Bo", "forest", 1, 2)
    two.roll(2, 4)
    two.build("Bo", "house", 2, 2)
    message = refused(two, Activate((3, 4)), "Building Phase", OutOfTurn)
    assert "Ann still has to build a Forest in Street 4 and a House in Street 2" in message
    assert "Bo still has to build a Forest in Street 4" in message


def test_bonus_project_on_turns_3_6_9_once_per_type(table):
    table.start()
    play_turns(table, 1)
    table.roll(3, 5)
    refused(table, Bonus("Ann", "house", 5, 5), "Bonus Project", OutOfTurn)  # not a Bonus turn
    build_everything(table)
    table.activate(3, 4)
    table.roll(3, 5)  # turn 3
    refused(table, Bonus("Ann", "house", 5, 5), "Bonus Project", OutOfTurn)  # rolled Projects first
    build_everything(table, bonus=False)
    message = refused(table, Activate((3, 4)), "Bonus Project", OutOfTurn)
    assert "Ann still has to build a Bonus Project" in message
    refused(table, Build("Ann", "forest", 5, 5), "Bonus Project", OutOfTurn)
    table.bonus("Ann", "house", 5, 5)
    assert table.state.village("Ann").bonus_used == ("house",)
    refused(table, Bonus("Ann", "lake", 5, 6), "Building Phase", OutOfTurn)  # one Bonus a turn
    table.activate(3, 4)
    play_turns(table, 2)
    table.roll(3, 5)  # turn 6
    build_everything(table, bonus=False)
    message = refused(table, Bonus("Ann", "house", 4, 6), "Bonus Project")
    assert "already used the House Bonus" in message
    assert {a.project for a in table.game.player_actions(table.state, "Ann")} == {"forest", "lake"}
    table.bonus("Ann", "lake", 4, 6)
    table.activate(3, 4)
    play_turns(table, 2)
    table.roll(3, 5)  # turn 9: only the Forest Bonus is left
    build_everything(table, bonus=False)
    assert {a.project for a in table.game.player_actions(table.state, "Ann")} == {"forest"}


# -- Scoring Phase --------------------------------------------------------------------------
SMALL_NETWORKS = [
    ". . . . . .",
    ". H . . . .",
    "H H L . . .",
    ". L L . . .",
    ". . . . . .",
]


def ready_to_score(table, grid):
    table.start()
    table.roll(2, 4)
    build_everything(table)
    return table.with_grid("Ann", grid)


@pytest.mark.parametrize("dice, avenue, score", [
    ((2, 3), 2, 3), ((1, 5), 2, 3),  # Avenue [5-6]
    ((3, 4), 3, 5),                  # Avenue [7]
    ((4, 4), 4, 2), ((3, 6), 4, 2),  # Avenue [8-9]
    ((1, 2), 1, 0), ((5, 6), 5, 0),
])
def test_example_scoring_small_networks(table, dice, avenue, score):
    state = ready_to_score(table, SMALL_NETWORKS)
    after = table.game.apply(state, Activate(dice))
    lit = views.last_activation(after, "Ann")
    assert (lit.row, lit.score) == (avenue, score)
    assert after.village("Ann").turn_scores == (score,)


def test_a_network_activates_as_a_whole_and_diagonals_do_not_connect(table):
    ready_to_score(table, [
        "F . . . . H",
        "F . . . H .",
        "F F F F . .",
        ". . . F . .",
        ". . . F F F",
    ])
    after = table.game.apply(table.state, Activate((2, 2)))  # sum 4: Avenue [3-4]
    lit = views.last_activation(after, "Ann")
    # The Forest Network runs from Avenue 1 to Avenue 5: 3+2+1+1+2+3 = 12; the House at (1,6)
    # scores 3 and its diagonal neighbour at (2,5) is its own Network, not on Avenue 1.
    assert lit.score == 12 + 3
    assert (2, 5) not in lit.squares and (5, 6) in lit.squares
    assert len(lit.networks) == 2


def test_two_or_twelve_each_player_chooses_their_avenue(two):
    two.start("Ann")
    two.build("Bo", "house", 1, 1)
    two.build("Bo", "forest", 1, 2)
    two.roll(2, 4)
    build_everything(two)
    two.with_grid("Ann", SMALL_NETWORKS)
    two.with_grid("Bo", ["L . . . . .", ". . . . . .", ". . . . . .", ". . . . . .", ". . . . . H"])
    state = two.game.apply(two.state, Activate((1, 1), choices=(("Ann", 2),)))
    assert views.last_activation(state, "Ann").row == 2
    assert state.village("Ann").turn_scores == (3,)
    # Bo chose nothing: Bo gets the Avenue that scores most for Bo; of Avenues 1 and 5 (3 points
    # each) the topmost.
    bo = views.last_activation(state, "Bo")
    assert bo.chosen and bo.row == 1 and bo.score == 3
    # Without choices, everyone gets their best Avenue: Ann's is [7] with 5.
    state = two.game.apply(two.state, Activate((6, 6)))
    assert views.last_activation(state, "Ann").row == 3
    assert state.village("Ann").turn_scores == (5,)


def test_avenue_choices_are_only_for_2_and_12_and_are_checked(two):
    two.start("Ann")
    two.build("Bo", "house", 1, 1)
    two.build("Bo", "forest", 1, 2)
    two.roll(2, 4)
    build_everything(two)
    refused(two, Activate((3, 4), (("Ann", 2),)), "Scoring Phase")
    with pytest.raises(MalformedAction) as caught:
        two.do(Activate((6, 6), (("Cy", 2),)))
    assert caught.value.field == "choices"
    with pytest.raises(MalformedAction):
        two.do(Activate((6, 6), (("Ann", 6),)))
    with pytest.raises(MalformedAction):
        two.do(two.game.action_from_json({"type": "activate", "dice": [6, 6], "choices": {"Ann": "3"}}))


# -- End of the game --------------------------------------------------------------------------
def test_nine_turns_then_game_over_with_subtotals(table):
    table.start()
    play_turns(table, 8)
    assert not table.game.finished(table.state) and table.state.turn == 9
    play_turns(table, 1)
    assert table.game.finished(table.state)
    scores = table.state.village("Ann").turn_scores
    assert len(scores) == 9
    assert views.subtotals(table.state, "Ann") == [sum(scores[0:3]), sum(scores[3:6]), sum(scores[6:9])]
    for action in (Roll((1, 2)), Activate((1, 2)), Build("Ann", "house", 5, 6)):
        refused(table, action, "End of the Game", GameOver)
    assert table.game.legal_actions(table.state) == []
    assert table.game.prompt(table.state).kind == "over"


def test_ties_share_a_place():
    table = Table(("Ann", "Bo", "Cy"))
    table.roll(1, 2)
    for name in ("Ann", "Bo"):
        table.build(name, "house", 1, 1)
        table.build(name, "forest", 1, 2)
    table.build("Cy", "lake", 5, 1)
    table.build("Cy", "forest", 5, 2)
    play_turns(table, 9, dice=(1, 1), scoring=(1, 2))
    summary = table.game.summary(table.state)
    scores = {p["name"]: p["score"] for p in summary["players"]}
    assert scores["Ann"] == scores["Bo"] != scores["Cy"]
    tied_first = scores["Ann"] > scores["Cy"]
    assert summary["places"] == ([1, 1, 3] if tied_first else [1, 2, 2])
    assert "tie for first place" in table.game.prompt(table.state).text if tied_first else True


def test_player_count_is_1_to_12():
    Table(tuple(f"P{i}" for i in range(12)))
    with pytest.raises(SetupError):
        Table(tuple(f"P{i}" for i in range(13)))
    with pytest.raises(SetupError):
        Table(())


def test_every_refusal_is_a_rules_error_subclass_naming_a_rule(table):
    assert issubclass(OutOfTurn, IllegalAction) and issubclass(GameOver, RulesError)
    table.roll(1, 2)
    with pytest.raises(IllegalAction) as caught:
        table.do(Build("Ann", "house", 1, 3))
    assert caught.value.rule == "Start Phase"
