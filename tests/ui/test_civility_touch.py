"""Civility played by touch on the real app window (Xvfb): set-up with a city and its dials, the
Status cards, four rounds on the Action Ring, a World Event walkthrough, and a battle from army and
bridge placement to the war reward; then the layout at 1280x720 and the desktop keys.

One Kivy app per process, so the game is one module with ordered steps sharing a driver.
Screenshots go to tests/artifacts/civility-*.png (git-ignored).
"""
from __future__ import annotations

import time

import pytest

pytestmark = pytest.mark.ui

from layout_check import assert_layout, problems  # noqa: E402


def tap(drv, widget) -> None:
    """A finger's tap on `widget`: down, a frame, up, a frame (the table's pump runs in it and the
    screen redraws). One frame lighter than the driver's tap: Civility takes many taps a round."""
    from kivy.tests.common import UnitTestTouch

    assert widget.opacity > 0 and not widget.disabled, f"{widget} is not tappable now"
    touch = UnitTestTouch(*widget.to_window(*widget.center))
    touch.touch_down()
    drv.frames(1)  # a finger rests a moment: a scrolling menu tells a tap from a swipe by it
    touch.touch_up()
    drv.frames(1)


def offered(drv) -> list[str]:
    return list(drv.screen.menu_buttons)


def item(drv, label: str) -> None:
    """Tap the menu button `label` (scrolled into view first, as a finger would)."""
    buttons = drv.screen.menu_buttons
    assert label in buttons, f"{label!r} is not offered; the menu has {list(buttons)}"
    view, button = drv.screen.ids.menu.parent, buttons[label]
    drv.scroll_to_see(view, button)
    table = drv.table

    def progress():
        return len(table.session.actions), table.game_input.pick, drv.app.screens.current

    before = progress()
    tap(drv, buttons[label])
    # A scrollable menu passes a short tap on to the button only after its scroll timeout.
    for _ in range(200):
        if progress() != before or table.message_is_error:
            break
        time.sleep(0.01)
        drv.frames(1)
    assert not drv.table.message_is_error, drv.table.message
    assert progress() != before, (f"the tap on {label!r} at {button.to_window(*button.center)} did nothing; "
                                  f"menu {view.to_window(*view.pos)} {view.size} scroll_y {view.scroll_y}")


def choose(drv, *labels: str) -> None:
    """Tap down the menu: each word opens the next level, the last submits the action."""
    before = len(drv.table.session.actions)
    for label in labels:
        item(drv, label)
    assert len(drv.table.session.actions) == before + 1, drv.table.message


def roll(drv, *dice: int) -> None:
    """Tap the dice rolled on the pad, then confirm them."""
    screen = drv.screen
    for value in dice:
        tap(drv, screen.pad[value - 1])
    assert drv.table.game_input.pick.dice == tuple(dice)
    before = len(drv.table.session.actions)
    tap(drv, screen.ids.confirm)
    assert len(drv.table.session.actions) == before + 1, drv.table.message


def ring_die(drv, value: int) -> None:
    tap(drv, next(d for d in drv.screen.ring if d.value == value))
    assert [d.value for d in drv.screen.ring if d.marked] == [value]  # redrawn: the picked die ringed


def end_turn(drv) -> None:
    """Discard down to the hand limit if needed, then end the turn (drawing when allowed)."""
    state = drv.table.state
    player, hand = state.current, state.city(state.current).hand
    if "End the turn, draw 1" in offered(drv):
        choose(drv, "End the turn, draw 1")
    else:
        excess = hand - 4  # the hand limit at the end of a turn
        if excess > 0:
            choose(drv, "Discard cards", f"{excess} card{'s' if excess > 1 else ''}")
        choose(drv, "End the turn without drawing")
    assert drv.table.state.current != player or drv.table.state.step == "roll"


def test_set_up_civility_with_a_city_and_its_dials(drv):
    tap(drv, drv.screen.ids.new_game)
    setup = drv.screen
    civility = next(b for b in setup.ids.games.children if b.text == "Civility")
    tap(drv, civility)
    assert setup.game_name == "civility" and setup.ids.cities.opacity == 1
    tap(drv, setup.ids.add)
    for field, name in zip(setup.fields, ("Ann", "Bo", "Cy")):
        field.text = name  # the keyboard's typing itself is Kivy's business
    drv.screenshot("civility-setup")
    assert_layout(drv)
    tap(drv, setup.ids.cities)
    view = drv.window.children[0]
    tap(drv, view.seat_buttons[1])                      # Bo ...
    tap(drv, view.city_buttons["Medieval"])             # ... plays Medieval (rulebook: Army 3)
    assert view.dial_values["army"].text == "3"
    tap(drv, view.seat_buttons[2])                      # Cy copies Modern's dials from the City Board
    for _ in range(2):
        tap(drv, view.dials.children[-1].children[0])   # Education +2 (the first row's "+")
    assert view.dial_values["education"].text == "3"
    drv.screenshot("civility-setup-cities")
    found = problems(view, drv.window)
    assert not found, "\n".join(found)
    tap(drv, view.done)
    for _ in range(100):  # the view fades out before the set-up screen takes taps again
        if view.parent is None:
            break
        time.sleep(0.01)
        drv.frames(1)
    tap(drv, setup.ids.start)
    assert drv.app.screens.current == "civility", drv.table.message
    state = drv.table.state
    assert [c.city for c in state.cities] == ["Early Men", "Medieval", "Modern"]
    assert state.city("Bo").level("army") == 3 and state.city("Cy").level("education") == 3
    assert drv.table.session.header.options["levels"]["Cy"]["education"] == 3


def test_status_cards_turned_over_and_a_refusal_shown(drv):
    screen = drv.screen
    assert drv.table.session.prompt.kind == "reveal-status"
    drv.screenshot("civility-reveal")
    assert_layout(drv)
    choose(drv, "Win 2 Battles (battle)")  # a battle card goes beside the pile: one more to turn
    # The same card typed again is refused, with the rule in the banner.
    screen.ids.card_name.text = "Win 2 Battles"
    tap(drv, next(b for b in screen.ids.unlisted.children if getattr(b, "text", "") == "Battle"))
    assert drv.table.message_is_error and "(rule: " in screen.banner.text and screen.banner.opacity == 1
    drv.screenshot("civility-refused")
    assert_layout(drv)
    screen.ids.card_name.text = "Build the Great Library"  # a card the data file does not list
    tap(drv, next(b for b in screen.ids.unlisted.children if getattr(b, "text", "") == "City"))
    assert [c.name for c in drv.table.state.display] == ["Build the Great Library", "Win 2 Battles"]
    assert drv.table.session.prompt.kind == "roll" and not screen.banner.error
    assert screen.banner.text == "Status card turned over: Build the Great Library (city)."  # what changed


def test_round_1_the_army_moves_and_a_world_event_is_walked_through(drv):
    roll(drv, 6, 2)                                          # Ann, the Diplomat, rolls 2 dice (3 players)
    assert [d.value for d in drv.screen.ring] == [2, 6]
    drv.screenshot("civility-ring")
    ring_die(drv, 6)
    assert "Attack" not in offered(drv)                      # no army or bridge in anyone's port yet
    choose(drv, "Move army", "to Bo's port")
    assert drv.table.state.city("Ann").army == "Bo"
    end_turn(drv)
    ring_die(drv, 2)
    choose(drv, "Save the die")                              # Bo saves the 2 for a combo later
    end_turn(drv)
    assert drv.table.state.current == "Cy" and not drv.screen.ring
    choose(drv, "No die left: draw 2 cards")
    # One of Cy's two cards is Feast: each player from Ann rolls and draws half.
    choose(drv, "A card just drawn is...", "World Event: Feast")
    assert drv.table.session.prompt.kind == "event"
    drv.screenshot("civility-event")
    assert_layout(drv)
    hands = [c.hand for c in drv.table.state.cities]
    for value in (4, 1, 6):
        roll(drv, value)
    assert drv.table.state.event is None
    assert [c.hand - h for c, h in zip(drv.table.state.cities, hands)] == [2, 0, 3]
    end_turn(drv)
    assert drv.table.state.round == 2


def test_rounds_2_and_3_bridge_and_combo(drv):
    roll(drv, 4, 5)                                          # Bo is the Diplomat
    ring_die(drv, 4)
    choose(drv, f"Combo 2+4: Attack Anytime token")
    assert "attack-anytime" in drv.table.state.city("Bo").tokens
    end_turn(drv)
    ring_die(drv, 5)
    choose(drv, "Upgrade", "Technology")                     # Cy
    end_turn(drv)
    choose(drv, "No die left: draw 2 cards")                 # Ann
    end_turn(drv)
    assert drv.table.state.round == 3
    roll(drv, 4, 3)                                          # Cy is the Diplomat
    ring_die(drv, 3)
    choose(drv, "Draw a card")                               # Cy
    end_turn(drv)
    ring_die(drv, 4)
    choose(drv, "Build or move a bridge", "Bridge 1 to Bo's port")  # Ann: army and bridge at Bo's port
    assert drv.table.state.city("Ann").bridges[0] == "Bo"
    drv.screenshot("civility-placed")
    end_turn(drv)
    choose(drv, "No die left: draw 2 cards")                 # Bo
    end_turn(drv)
    assert drv.table.state.round == 4


def test_round_4_a_battle_from_the_port(drv):
    roll(drv, 6, 1)                                          # Ann is the Diplomat again
    ring_die(drv, 6)
    choose(drv, "Attack", "Bo")
    battle = drv.table.state.battle
    assert battle is not None and battle.defender_army_home
    assert drv.screen.ids.battle.opacity == 1 and drv.screen.ids.boards.opacity == 0
    drv.screenshot("civility-battle")
    assert_layout(drv)
    roll(drv, 5)                                             # Bo defends with a die: half of 5 is 2
    assert "Retreat (give 2 cards)" in offered(drv)          # Ann holds enough cards to retreat
    choose(drv, "Play battle cards", "2 cards")
    assert drv.table.state.battle.stage == "reveal"
    choose(drv, "Attacker +4", "Defender +0")
    b = drv.table.state.battle
    # Ann: Army 1 + Health 1 + cards 4 = 6; Bo: Defenders 1 + Army 3 (home) + 2 = 6: a tie with the
    # defender's army home goes to the attacker.
    assert b.stage == "reward" and b.winner == "Ann"
    drv.screenshot("civility-battle-result")
    assert_layout(drv)
    assert sorted(offered(drv)) == sorted(f"Bo loses {d}" for d in
                                          ("Education", "Health", "Technology", "Army", "Economy"))
    choose(drv, "Bo loses Economy")
    state = drv.table.state
    assert state.battle is None and state.city("Ann").army == "home" and state.city("Ann").bridges[0] == "home"
    assert state.city("Ann").level("government") == 2 and state.city("Bo").level("economy") == 1
    assert drv.screen.ids.boards.opacity == 1
    drv.screenshot("civility-after-battle")
    end_turn(drv)


def test_undo_and_redo_by_touch(drv):
    count = len(drv.table.session.actions)
    tap(drv, drv.screen.ids.undo)
    assert len(drv.table.session.actions) == count - 1 and drv.table.state.current == "Ann"
    tap(drv, drv.screen.ids.redo)
    assert len(drv.table.session.actions) == count


def press(drv, name: str, modifiers=()):
    from kivy.core.window import Keyboard

    code = Keyboard.keycodes[name]
    drv.window.dispatch("on_key_down", code, 0, name if len(name) == 1 else None, list(modifiers))
    drv.window.dispatch("on_key_up", code, 0)
    drv.frames(2)


def test_buttons_next_and_confirm_drive_the_menu(drv):
    state = drv.table.state
    assert state.current == "Bo" and state.step == "die"
    ring_die(drv, 1)
    labels = offered(drv)
    # Nothing is highlighted until Next: Confirm alone takes nothing.
    assert not any(b.chosen for b in drv.screen.menu_buttons.values())
    assert drv.screen.ids.confirm.disabled
    press(drv, "enter")
    assert drv.table.state.step == "die" and "Press Next" in drv.table.message
    target = labels.index("Draw a card")
    for _ in range(target + 1):
        press(drv, "n")                                      # Next: the first, then the next one
    assert drv.screen.menu_buttons["Draw a card"].chosen
    hand = state.city("Bo").hand
    press(drv, "enter")                                      # Confirm: the highlighted choice
    assert drv.table.state.city("Bo").hand == hand + 1 and drv.table.state.step == "cards"
    press(drv, "z", ["ctrl"])
    assert drv.table.state.step == "die"
    press(drv, "y", ["ctrl"])
    assert drv.table.state.step == "cards"


def test_the_winner_by_touch(drv):
    """A whole two-player game (seeded random play) entered up to its last choice; the last
    choice is tapped, and the winner's screen follows."""
    import random

    from companion.engine.civility.sim import play
    from companion.events import InputEvent

    game = play(("Ann", "Bo"), random.Random(2))
    assert drv.app.start_game("civility", ["Ann", "Bo"], {})
    for action in game.actions[:-1]:
        outcome = drv.table.handle(InputEvent("tap", ("action", action.to_json()), "test"))
        assert outcome.action is not None, outcome
    drv.frames(2)
    last = game.actions[-1]
    label = next(i.label for i in drv.table.game_input.items(drv.table) if i.action == last)
    choose(drv, label)
    assert drv.table.session.finished and drv.app.screens.current == "civility-end"
    screen = drv.screen
    assert screen.ids.title.text == f"{game.state.winner} wins Civility!"
    rows = screen.ids.ranking.children[::-1]
    assert [r.name for r in rows] == drv.table.session.summary()["ranking"]
    assert rows[0].score == "5"
    drv.screenshot("civility-winner")
    assert_layout(drv)
    tap(drv, screen.ids.undo)                                 # back to the table, the claim unpaid
    assert drv.app.screens.current == "civility" and not drv.table.session.finished
    press(drv, "n")                                          # the panel's Next: the only choice
    press(drv, "enter")                                      # and its Confirm
    assert drv.app.screens.current == "civility-end"
    tap(drv, next(b for b in drv.screen.walk() if getattr(b, "text", "") == "Home"))
    assert drv.app.screens.current == "home"
    first = drv.screen.ids.history.children[-1].text          # the newest game first
    assert first.startswith("Civility") and f"{game.state.winner} status 5" in first
    drv.screenshot("civility-home")


def test_six_cities_fit(drv):
    tap(drv, drv.screen.ids.new_game)
    setup = drv.screen
    tap(drv, next(b for b in setup.ids.games.children if b.text == "Civility"))
    while len(setup.fields) < 6:
        tap(drv, setup.ids.add)
    assert setup.ids.add.disabled
    assert_layout(drv)
    tap(drv, setup.ids.cities)
    view = drv.window.children[0]
    found = problems(view, drv.window)
    assert not found, "\n".join(found)
    drv.screenshot("civility-setup-6-cities")
    tap(drv, view.done)
    for _ in range(100):
        if view.parent is None:
            break
        time.sleep(0.01)
        drv.frames(1)
    tap(drv, setup.ids.start)
    assert drv.app.screens.current == "civility" and len(drv.table.state.cities) == 6
    choose(drv, "Lose 1 Battle (battle)")
    choose(drv, "Pass Your Played Ability Card (city)")
    roll(drv, 1, 3, 3, 5, 6)
    drv.screenshot("civility-6-players")
    assert_layout(drv)


def test_layout_at_1280x720(drv):
    """Last: after a resize the test's synthetic touches no longer land where they aim."""
    drv.resize(1280, 720)
    assert_layout(drv)
    drv.screenshot("civility-6-players-1280x720")
    drv.resize(800, 480)
    assert_layout(drv)
