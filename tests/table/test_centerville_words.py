"""Centerville in words: every legal action has a sentence, the moves after an action match the
state, and the bot's turn reads as numbered instructions that stop at a player's decision."""
from __future__ import annotations

import random
import re

import pytest

from companion.engine.centerville import actions as A
from companion.engine.centerville.state import Pending, cubes_on_board
from companion.table import centerville_words as W
from tests.engine.centerville.positions import GAME, edit, new_game, play, spend_position


def walk(names, seed, limit=2500):
    """(state, action, next state) along a seeded random game."""
    rng = random.Random(seed)
    s = GAME.new(list(names))
    for _ in range(limit):
        if s.phase == "over":
            return
        actions = list(GAME.legal_actions(s))
        yield s, actions
        a = rng.choice(actions)
        s = GAME.apply(s, a)


@pytest.mark.parametrize("names,seed", [(("Ana", "Ben"), 1), (("Ana", "Ben", "Cy"), 2), (("Ana", "Ben", "Cy", "Di"), 3),
                                        (("Ana", "Ben"), 4)])
def test_every_legal_action_has_a_sentence_and_a_group(names, seed):
    for s, actions in walk(names, seed):
        for a in actions:
            assert W.action_text(s, a).strip(), a
            assert W.action_group(a) != "Other", a


@pytest.mark.parametrize("names,seed", [(("Ana", "Ben"), 5), (("Ana", "Ben", "Cy"), 6)])
def test_changes_follow_every_step_of_a_game(names, seed):
    rng = random.Random(seed)
    lines = 0
    for s, actions in walk(names, seed):
        a = rng.choice(actions)
        after = GAME.apply(s, a)
        moves = W.changes(s, after)
        assert all(m.strip() for m in moves)
        assert W.changes(s, s) == []
        split = W.action_changes(s, a)
        assert sorted(split) == sorted(moves) or len(after.rounds) > len(s.rounds)
        lines += len(moves)
    assert lines > 100


# -- golden sentences ------------------------------------------------------------------------------
def test_build_names_the_dice_and_the_space():
    s = spend_position(dice=("red-contract", "blue-fate"), town=_town(("red", 2, (1, 2))))
    a = A.Build(("red", "blue"), "red", 2, (("blue", "red"),))
    assert W.action_text(s, a) == (
        "Build: red zone, level 2 (red contract, blue fate as red contract): a cube on the 3rd level-2 space"
    )
    assert W.action_group(a) == "Build"
    assert W.changes(s, GAME.apply(s, a))[0] == "Bo (white): put a cube on the red zone, level 2, 3rd space"


def _town(*built):
    town = [[] for _ in range(16)]
    zones = ("yellow", "blue", "red", "purple")
    for zone, level, owners in built:
        town[zones.index(zone) * 4 + level - 1] = list(owners)
    return town


def test_trees_hourglass_education_and_votes():
    s = spend_position(dice=("green-tree",))
    assert W.action_text(s, A.Greenbelt("green")) == "Greenbelt: +1 (green tree)"
    s = spend_position(dice=("red-tree", "yellow-tree", "green-tree"))
    river = A.River(("red", "yellow", "green"), "north-2")
    assert W.action_text(s, river) == "River: a cube on north 2 (red tree, yellow tree, green tree)"
    assert W.action_group(river) == "Trees"
    s = spend_position(dice=("black-hourglass",))
    assert W.action_text(s, A.Hourglass("black", "wealth")) == "Hourglass (black): time marker +1, +1 wealth"
    after = GAME.apply(s, A.Hourglass("black", "wealth"))
    assert W.changes(s, after)[:2] == [
        "Time marker: forward 1 space (6 before the clock tower)",
        "Move Bo's wealth marker from 10 to 11",
    ]
    s = spend_position(dice=("red-education", "yellow-education"))
    take = A.TakeVocation(("red", "yellow"), 4)
    assert W.action_text(s, take) == "Take the vocation on campus space 4 (vocation 4, 2 education: red education, yellow education)"
    assert W.changes(s, GAME.apply(s, take))[0] == "Bo takes vocation 4 from campus space 4"
    s = spend_position(dice=("black-vote", "red-vote", "blue-vote"))
    elect = A.Elect(("red", "blue", "black"), "Mayor")
    assert W.action_text(s, elect) == (
        "Elect: Mayor with 3 votes (red vote, blue vote, black vote); bonus: move to the top of the status track"
    )
    moves = W.changes(s, GAME.apply(s, elect))
    assert moves[0] == "Bo (white): put 3 cubes in Mayor"
    assert "Move Bo's status disc up from 3rd to 1st" in moves[1]
    assert moves[2] == "Ann takes 1 Favor tile (9 left in the stack)"


def test_media_and_reseed_draws():
    s = spend_position(dice=("red-education", "yellow-education", "blue-education", "purple-education"))
    media = A.Media(("red", "yellow", "blue", "purple"))
    assert W.action_text(s, media).startswith("National Headlines: take the Media tile (red education")
    assert W.changes(s, GAME.apply(s, media))[0] == "Bo takes the Media tile from the News space"
    s = GAME.new(["Ann", "Bo", "Cy"])
    s = play(s, A.Draw(vocation=5))
    after = GAME.apply(s, A.Draw(vocation=2))
    assert W.action_text(s, A.Draw(vocation=2)) == "Drawn from the bag: Transportation (2)"
    assert W.changes(s, after) == [
        "Draw Transportation (2) from the bag: put it on campus space 1, moving the tiles above it up one"
    ]


# -- the bot -----------------------------------------------------------------------------------------
def _bot_roll(s):
    """The bot's turn, its six dice about to be rolled."""
    return edit(s, active=s.bot, phase="roll", to_roll=list(range(6)), rolls=0, dice=[None] * 6)


def test_the_bot_stops_for_the_victim_and_resumes():
    s = new_game(("Ann", "Bo"))
    s = edit(s, favors=[0, 0, 1], town=_town(("yellow", 1, (0, 0, 1))))
    s = _bot_roll(s)
    assert W.bot_keep_rules(s).startswith("First roll: roll all six dice")
    roll = A.Roll(("red-vote", "yellow-contract", "blue-vote", "purple-vote", "green-bench", "black-bench"))
    lines = W.bot_turn(s, roll)
    assert lines == [
        "1. Yellow contract: The bot spends a Favor: choose whose level-1 building it takes (Bo chooses)."
    ]
    paused = GAME.apply(s, roll)
    lines = W.bot_turn(paused, A.ChooseVictim("Ann"))
    assert lines[0] == (
        "1. Yellow contract: Bot (brown): replace Ann's cube on the yellow zone, level 1; Ann's cube goes home; "
        "Bot discards 1 Favor tile to the box."
    )
    assert lines[1:] == [
        "2. Red vote: Bot (brown): put 1 cube in City Council; move Bot's prestige marker from 10 to 11.",
        "3. Blue vote: Bot (brown): put 1 cube in Public Works. "
        "Then: Public Works: choose the building of Bot that moves up one level (Bo chooses).",
    ]
    paused = GAME.apply(paused, A.ChooseVictim("Ann"))
    lines = W.bot_turn(paused, A.Upgrade("yellow", 1))
    assert lines[0] == "3. Blue vote: Bot (brown): move a cube in the yellow zone from level 1 up to level 2, 1st space."
    assert lines[1].startswith("4. Purple vote: Bot (brown): put 1 cube in Finance; move Bot's wealth marker from 10 to 12")
    assert lines[2:] == [
        "5. Status (2 benches and hourglasses): nothing to do (the bot is 1st already).",
        "Pass the dice to Ann (gray).",
    ]


def test_the_bot_rerolls_its_fates():
    s = _bot_roll(new_game(("Ann", "Bo")))
    roll = A.Roll(("red-fate", "yellow-contract", "blue-fate", "purple-vote", "green-bench", "black-bench"))
    assert W.bot_turn(s, roll) == []
    s = GAME.apply(s, roll)
    assert W.bot_keep_rules(s) == "Keep every non-fate die; reroll the 2 fates (red and blue)."
    s = GAME.apply(s, A.Roll(("red-fate", "blue-tree")))
    assert W.bot_keep_rules(s) == "Third roll: reroll the 1 fate (red); then the bot keeps all dice."
    lines = W.bot_turn(s, A.Roll(("red-fate",)))
    assert lines[0] == "1. Fate (1 fate): move Bot's wealth marker from 10 to 11; move Bot's prestige marker from 10 to 11."


_PUT = re.compile(r"Bot \(\w+\): (?:put (a|\d+)(?: more)? cubes?|replace)")


@pytest.mark.parametrize("seed", [11, 12, 13, 14, 15, 16])
def test_bot_instructions_account_for_every_bot_cube(seed):
    """Applied by hand, the numbered lines place as many bot cubes as the engine did."""
    rng = random.Random(seed)
    s = GAME.new(["Ann", "Bo"])
    checked = 0
    while s.phase != "over":
        a = rng.choice(list(GAME.legal_actions(s)))
        if s.active == s.bot and (isinstance(a, A.Roll) or s.phase == "bot"):
            lines = W.bot_turn(s, a)
            steps = [st for what, st in GAME.apply_steps(s, a) if what[0] in ("action", "bot-task")]
            if lines:
                start = s if s.phase == "bot" else steps[0]
                placed = sum(1 if m.group(1) in (None, "a") else int(m.group(1))
                             for line in lines for m in _PUT.finditer(line))
                assert placed == cubes_on_board(steps[-1], s.bot) - cubes_on_board(start, s.bot), lines
                numbers = [int(line.split(".")[0]) for line in lines if line[0].isdigit()]
                assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
                checked += 1
        s = GAME.apply(s, a)
    assert checked > 5


# -- scoring rounds ------------------------------------------------------------------------------
def four():
    return new_game(("Gray", "White", "Brown", "Orange"), colours=["gray", "white", "brown", "orange"])


def test_town_scoring_example_reads_per_player():
    """The rulebook's Town Scoring Example, scored through a real round (an hourglass at time 6)."""
    s = four()
    town = _town(("yellow", 1, (2, 3)), ("yellow", 2, (0, 1)), ("purple", 2, (1,)), ("purple", 3, (1,)))
    s = spend_position(s, dice=("black-hourglass",), time=7, town=town, park=[0, 0, 1, 0])
    before = s
    s = GAME.apply(s, A.Hourglass("black", "wealth"))
    steps = W.scoring_steps(s, 0)
    assert [v.title for v in steps][:5] == [
        "Step 1: Score the Town, yellow zone (wealth)", "Step 1: Score the Town, blue zone (wealth)",
        "Step 1: Score the Town, red zone (prestige)", "Step 1: Score the Town, purple zone (prestige)",
        "Step 2: Score the River",
    ]
    assert steps[0].lines == (
        "Gray (gray): most in the yellow zone (value 2), +6 wealth",
        "White (white): most in the yellow zone (value 2), +6 wealth",
        "Brown (brown): most in the yellow zone (value 2, with 1 park cube), +6 wealth",
        "Orange (orange): fewest in the yellow zone (value 1), -3 wealth",
    )
    assert steps[3].lines[1] == "White (white): most in the purple zone (value 5), +6 prestige"
    assert steps[3].lines[0] == "Gray (gray): fewest in the purple zone (value 0), -3 prestige"
    mover = before.names[before.active]
    assert steps[0].moves[0].startswith("Move Gray's wealth marker from ")
    assert [v.title for v in steps][5:] == ["Step 3: Score the Political Offices", "Step 4: Score Status", "Step 5: Reset"]
    assert "Time marker: back to its start space" in steps[-1].moves
    # the hourglass is the turn's own move, then the round (action_changes splits them)
    lines = W.action_changes(before, A.Hourglass("black", "wealth"))
    assert lines[0] == "Time marker: forward 1 space (on the first clock tower: a scoring round after this turn)"
    assert lines[1] == f"Move {mover}'s wealth marker from 10 to 11"
    assert "Scoring round 1" in lines


@pytest.mark.parametrize("names,seed", [(("Ana", "Ben"), 21), (("Ana", "Ben", "Cy"), 22), (("Ana", "Ben", "Cy", "Di"), 23)])
def test_every_round_of_a_game_has_its_steps_and_the_winner(names, seed):
    s = GAME.new(list(names))
    rng = random.Random(seed)
    while s.phase != "over":
        s = GAME.apply(s, rng.choice(list(GAME.legal_actions(s))))
    for i, r in enumerate(s.rounds):
        views = W.scoring_steps(s, i)
        steps = views[:-1] if r.number == 3 else views
        assert len(steps) == len(r.steps)
        for view, st in zip(steps, r.steps):
            assert view.title.startswith(f"Step {st.step}: ") and view.lines
            moved = sum(1 for m in view.moves if m.startswith("Move "))
            assert moved == sum(1 for d in st.wealth + st.prestige if d)
    final = W.scoring_steps(s, 2)[-1]
    assert final.title == "Winning the Game"
    assert final.lines[-1] == f"{s.names[s.winner[0]]} wins"
    legacies = [v.title for v in W.scoring_steps(s, 2) if v.title.startswith("Step 8")]
    assert len(legacies) == sum(1 for x in s.legacies if x) + (1 if s.open_legacy else 0)


def test_tie_breaks_are_named():
    s = four()
    s = edit(s, wealth=[48, 48, 48, 40], prestige=[55, 50, 50, 60], status=[2, 1, 0, 3], phase="over", winner=[0])
    from companion.table.centerville_scoring import winner_view

    view = winner_view(s)
    assert view.lines[:4] == (
        "1. Gray (gray): final score 48 (wealth 48, prestige 55)",
        "2. Brown (brown): final score 48 (wealth 48, prestige 50)",
        "3. White (white): final score 48 (wealth 48, prestige 50)",
        "4. Orange (orange): final score 40 (wealth 40, prestige 60)",
    )
    assert "Gray and Brown tie at 48: Gray's other marker is higher (55 to 50)" in view.lines
    assert "Brown and White tie at 48 and 50: Brown is higher in status (1st to 2nd)" in view.lines
    assert view.lines[-1] == "Gray wins"


# -- set-up ----------------------------------------------------------------------------------------
def test_setup_checklist_for_two_players_and_for_four():
    s = GAME.new(["Ana", "Ben"])
    lines = W.setup_checklist(s)
    assert "E. Status track, single star up, top to bottom: 1st Bot, 2nd Ben, 3rd Ana." in lines
    assert "F. Starting player: hand the six dice to Ana (last on the status track)." in lines
    assert any(line.startswith("2-player: the bot plays brown, as a third seat to Ben's left") for line in lines)
    assert any("one more lies face up on the board (the open Legacy)" in line for line in lines)
    assert "H. Time marker: on the start space for 2 players with the bot, 7 spaces before the first of the 2 clock towers." in lines
    s = new_game(("Ana", "Ben", "Cy", "Di"))
    lines = W.setup_checklist(s)
    assert "H. Time marker: on the start space for 4 players, 8 spaces before the first of the 2 clock towers." in lines
    assert "   Campus now (space: tile): 1 Energy (1), 2 Transportation (2), 3 vocation 3, 4 vocation 4, 5 Finance (5), 6 Service (6)." in lines
    assert lines[-1] == ("N. Disasters: shuffle the 4 Disaster tiles face down; put one on each of the first clock tower, "
                         "greenbelt 12, victory track 13 and victory track 40.")


def test_setup_checklist_follows_a_corrected_board_file():
    s = GAME.new(["Ana", "Ben", "Cy"], {"board": {"time": {"start": {"3": 9}}, "players": {"cubes": 30}}})
    lines = W.setup_checklist(s)
    assert any("9 spaces before the first" in line for line in lines)
    assert any("each takes 30 cubes" in line for line in lines)


# -- more golden moves ---------------------------------------------------------------------------
def test_urban_planning_keeps_the_dice_without_the_green_die():
    s = spend_position(dice=("green-vote", "black-vote"))
    elect = A.Elect(("green", "black"), "Urban Planning")
    assert W.action_text(s, elect) == (
        "Elect: Urban Planning with 2 votes (green vote, black vote); bonus: another turn after this one, without the green die"
    )
    assert W.changes(s, GAME.apply(s, elect)) == [
        "Bo (white): put 2 cubes in Urban Planning",
        "Bo keeps the dice and goes again, without the green die",
    ]


def test_police_and_fire_takes_the_safe_from_its_holder():
    s = spend_position(dice=("yellow-vote", "black-vote", "red-vote"), safe=0, offices=[None, None, (0, 2), None, None, None])
    elect = A.Elect(("red", "yellow", "black"), "Police & Fire")
    assert W.action_text(s, elect).endswith("; Ann's 2 cubes go home; bonus: take the Safe tile")
    assert W.changes(s, GAME.apply(s, elect))[:2] == [
        "Ann's 2 cubes in Police & Fire go home; Bo (white) puts 3 cubes there",
        "Bo takes the Safe tile from Ann",
    ]


def test_a_favor_build_replaces_the_cube_and_the_favor_goes_to_the_box():
    s = spend_position(dice=("red-contract", "green-tree"), favors=[0, 1, 0], town=_town(("red", 1, (0, 0, 2))))
    build = A.Build(("red",), "red", 1, favor=True, replace="Ann")
    assert W.action_text(s, build) == "Build with a Favor: red zone, level 1 (red contract): replace Ann's cube (it goes home)"
    assert W.changes(s, GAME.apply(s, build)) == [
        "Bo (white): replace Ann's cube on the red zone, level 1; Ann's cube goes home",
        "Bo discards 1 Favor tile to the box",
    ]


def test_a_disaster_takes_cubes_from_town_and_the_park():
    s = new_game()
    s = edit(s, town=_town(("red", 1, (1,)), ("red", 2, (1,)), ("blue", 1, (1,))), park=[0, 2, 0],
             pending=[Pending("lose-town", 1, 1, 3)])
    lose = A.LoseTown(("park", "red-1", "red-2"))
    assert W.action_text(s, lose) == "Disaster: Bo loses 1 cube from the park, 1 cube from red level 1 and 1 cube from red level 2"
    assert W.action_group(lose) == "Disaster"
    assert W.changes(s, GAME.apply(s, lose)) == [
        "Bo's cube on the red zone, level 1 goes home",
        "Bo's cube on the red zone, level 2 goes home",
        "1 cube of Bo in the park goes home",
    ]


def test_masters_are_set_before_rolling():
    s = new_game()
    s = edit(s, masters=[s.active, None, None, None], phase="masters", to_roll=list(range(6)))
    set_red = A.SetMaster("red-contract")
    assert W.action_text(s, set_red) == "Red Master: set the red die to contract"
    assert W.action_group(set_red) == "Rolling"
    assert W.changes(s, GAME.apply(s, set_red)) == ["Set the red die to contract (the red Master): it stays for the turn"]


def test_every_action_type_has_words_and_a_group():
    from companion.table.centerville_words import _GROUPS, _TEXT

    assert set(A.ALL_ACTIONS) - {A.Build} <= set(_GROUPS)
    assert set(A.ALL_ACTIONS) <= set(_TEXT)
    s = new_game(("Ann", "Bo"))
    s = edit(s, vocations=[[0] * 9, [0] * 9, [1, 1, 1, 0, 0, 0, 0, 0, 0]], pending=[Pending("bot-lose-vocations", None, 2, 2)])
    assert W.action_text(s, A.BotLoseVocations((1, 3))) == "Disaster: Bot loses Energy (1) and vocation 3 (drawn at random)"
    assert W.changes(s, GAME.apply(s, A.BotLoseVocations((1, 3)))) == [
        "Bot puts Energy (1) back in the box", "Bot puts vocation 3 back in the box",
    ]


def test_an_hourglass_from_second_bumps_the_first_to_a_favor():
    s = spend_position(dice=("black-hourglass",), status=[0, 1, 2])
    assert W.action_text(s, A.Hourglass("black", "status")) == (
        "Hourglass (black): time marker +1, +1 status (swap with Ann, who takes a Favor)"
    )


def test_the_bot_at_twelve_lowers_the_player_lower_in_status():
    s = _bot_roll(edit(new_game(("Ann", "Bo")), greenbelt=[3, 5, 12]))
    roll = A.Roll(("red-tree", "yellow-education", "blue-education", "purple-education", "green-bench", "black-bench"))
    lines = W.bot_turn(s, roll)
    assert lines[0] == (
        "1. Trees (1 tree): the bot is at 12, so the player lower in status goes back: "
        "move Ann's greenbelt disc from 3 to 2."
    )
    assert lines[1] == "2. Education (3 education): Bot takes Energy (1) from campus space 1."
