"""The wiring without a window: keys, taps, commands and dice readings -> the right actions."""
from __future__ import annotations

import threading

import pytest

from companion.engine.rolling_village import Activate, Bonus, Build, Roll
from companion.events import Command, InputEvent, TableLight
from companion.session import Session
from companion.store import Store
from companion.table import Table
from companion.table.rolling_village import RollingVillageInput as RV


def key(k):
    return InputEvent("key", k, "keyboard")


def tap(*value):
    return InputEvent("tap", value, "touch")


@pytest.fixture
def table(tmp_path):
    store = Store.open(tmp_path / "games.db")
    t = Table()
    t.open(Session.new("rolling-village", ["Ann", "Bo"], store=store))
    yield t
    store.close()


def feed(table, *events):
    for e in events:
        table.post(e)
    return table.pump()


def test_digits_and_enter_make_the_start_roll(table):
    assert table.light is TableLight.WAITING_FOR_DICE
    feed(table, key("2"), key("4"))
    assert table.draft.dice == (2, 4)
    assert table.light is TableLight.NEEDS_CONFIRMATION
    feed(table, key("enter"))
    assert table.session.actions == (Roll((2, 4)),)
    assert table.draft.dice == ()
    assert table.draft.player == "Ann"


def test_a_third_digit_starts_the_roll_again(table):
    feed(table, key("1"), key("2"), key("5"))
    assert table.draft.dice == (5,)


def test_the_rulebook_example_by_taps_house_in_street_2_forest_in_street_4(table):
    feed(table, key("1"), key("3"), key("enter"))  # start roll
    for player in ("Ann", "Bo"):
        feed(table, tap("project", "house"), tap("square", player, 1, 1),
             tap("project", "lake"), tap("square", player, 1, 3))
    assert table.state.turn == 1
    feed(table, tap("die", 2), tap("die", 4), tap("confirm"))
    assert table.draft.project == "house"  # the first Project still owed, preselected
    # A tap in Street 4 (legal only for the Forest) builds the Forest there.
    feed(table, tap("square", "Ann", 2, 4))
    assert table.session.actions[-1] == Build("Ann", "forest", 2, 4)
    feed(table, tap("square", "Ann", 2, 2))
    assert table.session.actions[-1] == Build("Ann", "house", 2, 2)
    assert table.draft.player == "Bo"  # Ann is done: Bo's sheet comes up


def test_an_illegal_tap_is_refused_with_the_rule_and_nothing_changes(table):
    feed(table, key("1"), key("3"), key("enter"))
    before = table.state
    feed(table, tap("square", "Ann", 1, 5))
    assert table.state is before
    assert table.message_is_error
    assert "rule: Start Phase" in table.message


def test_undo_and_redo_keys(table):
    feed(table, key("1"), key("3"), key("enter"))
    feed(table, key("ctrl+z"))
    assert table.session.actions == ()
    feed(table, key("ctrl+y"))
    assert table.session.actions == (Roll((1, 3)),)
    feed(table, InputEvent.command(Command.UNDO, "gpio"))
    assert table.session.actions == ()


def test_a_dice_reading_from_another_thread_waits_for_confirmation(table):
    worker = threading.Thread(target=table.post, args=(InputEvent("dice", ("pip6", "pip2"), "camera"),))
    worker.start()
    worker.join()
    feed(table)
    assert table.draft.dice == (6, 2)
    assert table.session.actions == ()
    feed(table, InputEvent.command(Command.CONFIRM, "panel"))
    assert table.session.actions == (Roll((6, 2)),)


def test_an_unreadable_die_asks_for_a_tap(table):
    feed(table, InputEvent("dice", ("pip6", "blur"), "camera"))
    assert table.draft.dice == ()
    assert "tap them" in table.message


def play_to_turn_3_scoring(table):
    feed(table, key("1"), key("3"), key("enter"))
    for p in ("Ann", "Bo"):
        feed(table, key("h"), tap("square", p, 1, 1), key("l"), tap("square", p, 1, 3))
    rows = {1: 2, 2: 3, 3: 4}
    for turn in (1, 2, 3):
        feed(table, key("2"), key("5"), key("enter"))  # Forest in 5 and Forest in 2
        for p in ("Ann", "Bo"):
            feed(table, tap("square", p, rows[turn], 5), tap("square", p, rows[turn], 2))
        if turn == 3:
            return
        feed(table, key("3"), key("4"), key("enter"))


def test_bonus_on_turn_3_and_the_choice_on_a_12(table):
    play_to_turn_3_scoring(table)
    assert table.state.phase == "build"
    assert table.draft.project == "house"  # the first Bonus type not yet used
    feed(table, tap("player", "Ann"), key("l"), tap("square", "Ann", 5, 6))
    assert table.session.actions[-1] == Bonus("Ann", "lake", 5, 6)
    feed(table, tap("square", "Bo", 5, 1))
    assert table.session.actions[-1] == Bonus("Bo", "house", 5, 1)
    assert table.light is TableLight.SCORING
    feed(table, key("6"), key("6"))
    feed(table, tap("square", "Ann", 4, 1))  # on a 12, a tap on a sheet chooses that Avenue
    assert table.draft.choice("Ann") == 4
    feed(table, key("enter"))
    assert table.session.actions[-1] == Activate((6, 6), (("Ann", 4),))
    assert table.state.turn == 4


def test_choosing_an_avenue_on_a_7_is_refused_with_the_rule(table):
    play_to_turn_3_scoring(table)
    feed(table, tap("square", "Ann", 5, 6), tap("square", "Bo", 5, 1))
    feed(table, key("3"), key("4"), tap("avenue", "Ann", 2))
    assert "rule: Scoring Phase" in table.message
    assert table.draft.choices == ()


def test_next_switches_the_sheet_in_front(table):
    feed(table, key("n"))
    assert table.draft.player == "Bo"
    feed(table, key("right"))
    assert table.draft.player == "Ann"


def test_observers_and_lights_are_told(table):
    seen, lights = [], []
    table.subscribe(lambda t: seen.append(t.state.phase))
    table.on_light(lights.append)
    feed(table, key("1"), key("3"), key("enter"))
    assert seen[-1] == "build"
    assert lights == [TableLight.NEEDS_CONFIRMATION, TableLight.IDLE]


def test_read_dice_without_a_camera_says_so(table):
    feed(table, key("r"))
    assert "No dice camera" in table.message


def test_advise_marks_the_squares_the_advisor_suggests(table):
    feed(table, key("2"), key("4"), key("enter"))
    feed(table, key("a"))
    advice = table.advice
    assert advice.player == "Ann" and len(advice.squares) == 2
    assert {s for _, s, _ in advice.squares} == {2, 4}
    assert table.message.startswith("Advice for Ann")
    # Following the advice by taps is legal.
    for row, street, project in advice.squares:
        feed(table, tap("project", project), tap("square", "Ann", row, street))
    assert not table.state.village("Ann").owed
    assert table.advice is None


def test_the_config_files_keys_replace_the_command_keys(tmp_path):
    from hardware.config import key_lookup, parse_config

    config = parse_config({"keys": {"undo": ["u"], "confirm": ["c"]}})
    t = Table(command_keys=key_lookup(config.keys))
    t.open(Session.new("rolling-village", ["Ann"]))
    feed(t, key("2"), key("4"), key("c"))
    assert t.session.actions == (Roll((2, 4)),)
    feed(t, key("ctrl+z"))  # no longer undo
    assert len(t.session.actions) == 1
    feed(t, key("u"))
    assert t.session.actions == ()


@pytest.mark.parametrize("event", [
    InputEvent("command", "launch", "panel"),
    InputEvent("tap", ("square", "Ann", "top", 2), "touch"),
    InputEvent("tap", ("square", "Zed", 1, 2), "touch"),
    InputEvent("tap", ("square",), "touch"),
    InputEvent("tap", ("die", 9), "touch"),
    InputEvent("tap", ("die", True), "touch"),
    InputEvent("tap", ("avenue", "Ann", 7), "touch"),
    InputEvent("tap", ("warp", 1), "touch"),
    InputEvent("tap", "confirm-ish", "touch"),
    InputEvent("dice", None, "camera"),
    InputEvent("dice", (0, 7), "camera"),
    InputEvent("wobble", 3, "gpio"),
])
def test_garbled_events_are_refused_without_a_crash_or_a_change(table, event):
    feed(table, key("1"), key("3"), key("enter"))
    before, draft = table.state, table.draft
    feed(table, event)
    assert table.state is before and table.draft.dice == draft.dice
    assert table.message and not table.session.actions[1:]


def test_a_misread_roll_is_corrected_by_entering_it_again(table):
    feed(table, key("2"), key("5"), key("enter"))  # the dice showed 2 and 4
    feed(table, tap("correct"))
    assert table.draft.correcting and table.light is TableLight.WAITING_FOR_DICE
    feed(table, tap("die", 2), tap("die", 4), tap("confirm"))
    assert table.session.actions == (Roll((2, 4)),)
    assert table.state.dice == (2, 4) and not table.draft.correcting


def test_a_correction_that_would_break_a_later_build_is_refused(table):
    feed(table, key("2"), key("4"), key("enter"))
    feed(table, tap("project", "house"), tap("square", "Ann", 1, 2))
    before = table.state
    feed(table, tap("correct"), key("1"), key("3"), key("enter"))
    assert table.state is before and table.message_is_error
    assert "no longer be legal" in table.message
    feed(table, key("backspace"), key("backspace"))  # clear the dice, then leave the correction
    assert not table.draft.correcting


def test_every_action_says_what_it_changed_and_undo_what_it_takes_back(table):
    from companion.ui.screens import undo_text

    feed(table, key("2"), key("4"), key("enter"))
    assert table.message == "Start roll 2 + 4: each player builds two Projects."
    assert undo_text(table) == "Undo\nroll 2 + 4"
    player, project = table.draft.player, table.draft.project
    row, street = RV.legal_squares(table.state, player, project)[0]
    feed(table, tap("square", player, row, street))
    title = table.state.legend.title(project)
    assert table.message == f"Ann: {title} at Avenue {table.state.sheet.label(row)}, Street {street}; 1 more to build."
    assert undo_text(table) == f"Undo\nAnn's {title}"
    feed(table, tap("player", "Bo"))  # looking at another sheet is no action: the banner stays
    assert table.message.startswith("Ann: ")
    feed(table, InputEvent("command", "undo", "touch"))
    assert table.message == f"Undone: Ann's {title}." and table.draft.player == "Ann"


def test_a_civility_action_says_the_dials_and_dice_it_changed(tmp_path):
    from companion.table.civility_changes import said, short
    from companion.engine.core import find_game

    game = find_game("civility")
    session = Session.new("civility", ["Ann", "Bo"])
    state = session.state
    for _ in range(50):
        draw = next((a for a in game.legal_actions(state) if a.type == "draw-card"), None)
        if draw is not None:
            break
        state = game.apply(state, next(iter(game.legal_actions(state))))
    assert draw is not None
    after = game.apply(state, draw)
    text = said(state, after, draw)
    who = draw.player if getattr(draw, "player", "") else state.current
    assert text.startswith(f"{who}: Draw a card; {who} +1 card") and text.endswith("left.")
    assert short(state, draw) == f"{who}'s Draw a card"
