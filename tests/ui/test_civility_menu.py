"""Civility's menu and wiring without a window: every legal action is reachable by taps (the menu
or the dice), every button leads to a legal action, no two actions share a path; and taps, keys
and dice readings go through the real Table and Session."""
from __future__ import annotations

import random
from dataclasses import replace

import pytest

from companion.engine.civility import actions as A
from companion.engine.civility.rules import Civility
from companion.engine.civility.sim import step
from companion.events import Command, InputEvent, TableLight
from companion.session import Session
from companion.table import Table
from companion.table import civility as cv

GAME = Civility()


def positions(players: int, seed: int, every: int = 5):
    """States along a seeded random game (the engine's own random play)."""
    rng = random.Random(seed)
    names = tuple(f"P{i}" for i in range(1, players + 1))
    state = GAME.new(names, {})
    for count in range(400):
        if state.winner:
            break
        if count % every == 0:
            yield state
        state = GAME.apply(state, step(GAME, state, rng))
    yield state


def reach(state, legal, action, menus: dict) -> A.Action | None:
    """What tapping down the menu along `action`'s words gives (None: a word was not offered).
    `menus` keeps each level's buttons: one position has up to ~1000 actions (battle card totals)."""
    die = cv._die(action)
    pick = cv.Pick(dice=(die,) if die is not None else ())
    path = cv.path_of(state, action)
    for depth, label in enumerate(path):
        if pick not in menus:
            menus[pick] = {i.label: i for i in cv.menu(state, legal, pick)}
        item = menus[pick].get(label)
        if item is None:
            return None
        if depth == len(path) - 1:
            return item.action
        pick = replace(pick, path=pick.path + (label,))
    return None


@pytest.mark.parametrize("players,seed", [(2, 1), (3, 5), (4, 2), (6, 3)])
def test_every_legal_action_is_one_tap_path_and_every_button_is_legal(players, seed):
    for state in positions(players, seed):
        legal = GAME.legal_actions(state)
        paths: dict[tuple, A.Action] = {}
        menus: dict = {}
        for action in legal:
            path = cv.path_of(state, action)
            if path is None:
                dice = action.dice if isinstance(action, A.Roll) else (action.die,)
                assert cv.dice_action(state, dice) == action
                continue
            key = (cv._die(action),) + path
            assert paths.setdefault(key, action) == action, f"{action} and {paths[key]} share {path}"
            assert reach(state, legal, action, menus) == action, f"{action} is not reachable along {path}"
        # Every button of every level, followed down, ends in a legal action.
        stack = [cv.Pick(dice=(d,)) for d in set(cv.ring_dice(state))] or [cv.Pick()]
        while stack:
            pick = stack.pop()
            for item in menus.get(pick, {}).values() if pick in menus else cv.menu(state, legal, pick):
                if item.action is None:
                    stack.append(replace(pick, path=pick.path + (item.label,)))
                else:
                    assert item.action in legal


def play_table(players=("Ann", "Bo", "Cy")) -> Table:
    table = Table()
    table.open(Session.new("civility", list(players), {}))
    return table


def tap(table: Table, *value) -> None:
    table.handle(InputEvent("tap", value, "touch"))


def test_taps_keys_and_a_dice_reading_play_through_the_table():
    table = play_table()
    wiring = table.game_input
    assert isinstance(wiring, cv.CivilityInput)
    tap(table, "item", "Win 2 Battles (battle)")
    tap(table, "item", "Trade in 5 Economy and 1 Government (city)")
    assert table.session.prompt.kind == "roll" and table.light is TableLight.WAITING_FOR_DICE
    table.handle(InputEvent("dice", (3,), "camera"))     # one die read, but the Diplomat rolls two
    assert "rolls 2" in table.message and wiring.pick.dice == ()
    table.handle(InputEvent("dice", ("pip6", "pip1"), "camera"))
    assert wiring.pick.dice == (6, 1) and table.light is TableLight.NEEDS_CONFIRMATION
    table.handle(InputEvent("command", Command.CONFIRM, "button"))
    assert table.state.dice == (1, 6) and wiring.pick == cv.Pick()
    # Keys: a die picks it on the Action Ring; Next moves the highlight; Confirm presses it.
    table.handle(InputEvent("key", "6", "keyboard"))
    assert cv.chosen_die(table.state, wiring.pick) == 6
    labels = [i.label for i in wiring.items(table)]
    assert wiring.pick.cursor is None                    # nothing highlighted before Next
    for _ in range(labels.index("Move army") + 1):
        table.handle(InputEvent("command", Command.NEXT, "button"))
    table.handle(InputEvent("command", Command.CONFIRM, "button"))
    assert wiring.pick.path == ("Move army",)
    table.handle(InputEvent("key", "escape", "keyboard"))  # back up one level
    assert wiring.pick.path == ()
    tap(table, "item", "Move army")
    tap(table, "item", "to Bo's port")
    assert table.state.city("Ann").army == "Bo" and wiring.pick == cv.Pick()
    # A word that is not offered now changes nothing and says so.
    before = table.state
    tap(table, "item", "Upgrade")
    assert table.state is before and "not offered" in table.message


def test_an_action_the_rules_refuse_comes_back_with_the_rule():
    table = play_table()
    tap(table, "action", {"type": "reveal-status", "name": "Win 2 Battles", "kind": "city"})
    assert table.message_is_error and "(rule: Status Cards)" in table.message
    tap(table, "action", {"type": "no-such-thing"})
    tap(table, "action", 42)
    for garbage in ("x", 7, True, None):
        tap(table, "die", garbage)
        assert table.game_input.pick.dice == () and "1 to 6" in table.message
    tap(table, "item", 42)
    tap(table, "action", {"player": "Ann"})
    assert "cannot be read" in table.message
    assert table.state.reveals == 1  # nothing changed, nothing crashed


def test_sentences_for_the_screen():
    table = play_table()
    state = table.state
    assert cv.headline(state) == "Civility  \u00b7  Round 1  \u00b7  Diplomat Ann"
    assert "Turn over the next Status card" in cv.explain(state, table.session.prompt)


def test_the_action_ring_legend_comes_from_the_data_file():
    assert cv.ring_legend() == "1-3 draw, 4/6 bridge, 5 upgrade, 6 attack, any die: army"
