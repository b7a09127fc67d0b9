"""Centerville in words: every legal action has a sentence, the moves after an action match the
state, and the bot's turn reads as numbered instructions that stop at a player's decision."""
from __future__ import annotations

import random
import re

import pytest

from companion.engine.centerville import actions as A
from companion.engine.centerville.state import DIE_ORDER, cubes_on_board
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
def _bot_roll(s, faces):
    return edit(s, active=s.bot, phase="roll", to_roll=list(range(6)), rolls=0, dice=[None] * 6)


def test_the_bot_stops_for_the_victim_and_resumes():
    s = new_game(("Ann", "Bo"))
    s = edit(s, favors=[0, 0, 1], town=_town(("yellow", 1, (0, 0, 1))))
    s = _bot_roll(s, None)
    assert W.bot_keep_rules(s).startswith("First roll: roll all six dice")
    roll = A.Roll(("red-vote", "yellow-contract", "blue-vote", "purple-vote", "green-bench", "black-bench"))
    lines = W.bot_turn(s, roll)
    assert lines == [
        "1. Yellow contract: nothing to do. Then: The bot spends a Favor: choose whose level-1 building it takes."
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
        "Then: Public Works: choose the building of Bot that moves up one level.",
    ]
    paused = GAME.apply(paused, A.ChooseVictim("Ann"))
    lines = W.bot_turn(paused, A.Upgrade("yellow", 1))
    assert lines[0] == "3. Blue vote: Bot (brown): move a cube in the yellow zone from level 1 up to level 2, 1st space."
    assert lines[1].startswith("4. Purple vote: Bot (brown): put 1 cube in Finance; move Bot's wealth marker from 10 to 12")
    assert lines[2:] == [
        "5. Status (2 benches and hourglasses): nothing to do.",  # the bot is 1st already
        "Pass the dice to Ann (gray).",
    ]


def test_the_bot_rerolls_its_fates():
    s = _bot_roll(new_game(("Ann", "Bo")), None)
    roll = A.Roll(("red-fate", "yellow-contract", "blue-fate", "purple-vote", "green-bench", "black-bench"))
    assert W.bot_turn(s, roll) == []
    s = GAME.apply(s, roll)
    assert W.bot_keep_rules(s) == "Keep every non-fate die; reroll the 2 fates (red and blue)."
    s = GAME.apply(s, A.Roll(("red-fate", "blue-tree")))
    assert W.bot_keep_rules(s) == "Third roll: reroll the 1 fate (red); then the bot keeps all dice."
    lines = W.bot_turn(s, A.Roll(("red-fate",)))
    assert lines[0] == "1. Fate (1 fate): move Bot's wealth marker from 10 to 11; move Bot's prestige marker from 10 to 11."


_PUT = re.compile(r"Bot \(\w+\): (?:put (a|\d+)(?: more)? cubes?|replace)")


@pytest.mark.parametrize("seed", [11, 12, 13])
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
                assert placed >= cubes_on_board(steps[-1], s.bot) - cubes_on_board(start, s.bot), lines
                numbers = [int(line.split(".")[0]) for line in lines if line[0].isdigit()]
                assert numbers == list(range(numbers[0], numbers[0] + len(numbers)))
                checked += 1
        s = GAME.apply(s, a)
    assert checked > 5
