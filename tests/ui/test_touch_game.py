"""A whole 2-player Rolling Village game played by touch on the real app window (Xvfb).

One Kivy app per process, so the whole game is one module with ordered steps sharing a driver.
Screenshots of every screen go to tests/artifacts/ (git-ignored).
"""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui

from companion.table.rolling_village import RollingVillageInput as RV  # noqa: E402

from layout_check import assert_layout  # noqa: E402

# The building rolls of turns 1-9 and the scoring rolls; turn 3 scores on a 12 (each player
# chooses an Avenue) and turn 7 on a 2 (nobody taps: everybody gets their best Avenue).
START = (2, 4)
BUILDING = [(1, 2), (3, 5), (6, 6), (2, 3), (4, 1), (5, 5), (1, 6), (2, 2), (3, 4)]
SCORING = [(3, 4), (1, 2), (6, 6), (5, 3), (2, 5), (4, 4), (1, 1), (6, 5), (3, 3)]


def enter_dice(drv, dice):
    """Tap the dice rolled on the pad: the second tap enters the roll (but a correction, or a
    2 or 12 whose Avenues are chosen, waits for the confirm)."""
    screen = drv.screen
    for value in dice:
        drv.tap(screen.pad[value - 1])


def build_everything(drv):
    """Every player builds what they owe by tapping the first highlighted square."""
    state = drv.table.state
    while state.phase == "build":
        player, project = drv.table.draft.player, drv.table.draft.project
        assert drv.screen.player == player  # the sheet in front is the builder's
        legal = RV.legal_squares(state, player, project)
        assert set(legal) == set(drv.screen.ids.sheet.view.legal)  # what is highlighted is legal
        before = len(drv.table.session.actions)
        drv.tap_square(*legal[0])
        assert len(drv.table.session.actions) == before + 1, drv.table.message
        state = drv.table.state


def test_home_offers_a_new_game(drv):
    assert drv.app.screens.current == "home"
    assert drv.screen.ids.resume.disabled  # nothing to resume in a fresh data folder
    drv.screenshot("home")
    assert_layout(drv)
    drv.tap(drv.screen.ids.new_game)
    assert drv.app.screens.current == "setup"


def test_set_up_two_players(drv):
    screen = drv.screen
    drv.tap(screen.ids.add)
    assert len(screen.fields) == 3
    drv.tap(screen.ids.drop)
    assert len(screen.fields) == 2
    for field, name in zip(screen.fields, ("Ann", "Bo")):
        drv.tap(field)
        assert field.focus
        field.text = name  # the keyboard's typing itself is Kivy's business
    drv.screenshot("setup")
    assert_layout(drv)
    drv.tap(screen.ids.start)
    assert drv.app.screens.current == "village"
    assert drv.table.session.header.players == ("Ann", "Bo")


def test_start_roll_and_start_projects(drv):
    screen = drv.screen
    assert screen.ids.confirm.disabled
    enter_dice(drv, START[:1])
    assert drv.table.draft.dice == START[:1]
    drv.screenshot("village-dice")
    assert_layout(drv)
    enter_dice(drv, START[1:])  # the second die enters the roll
    assert drv.table.state.phase == "build" and drv.table.state.dice == START
    drv.screenshot("village-start-phase")


def test_a_misread_die_is_corrected_by_tapping_the_rolled_dice(drv):
    screen = drv.screen
    drv.tap(screen.ids.undo)
    enter_dice(drv, (START[0], 5))  # the second die misread as a 5
    drv.tap(screen.ids.first)
    assert drv.table.draft.correcting and screen.ids.confirm.text == "Correct roll"
    enter_dice(drv, START)
    drv.screenshot("village-correcting")
    assert_layout(drv)
    drv.tap(screen.ids.confirm)
    assert drv.table.state.dice == START and not drv.table.draft.correcting
    assert [a.to_json() for a in drv.table.session.actions] == [{"type": "roll", "dice": list(START)}]
    build_everything(drv)
    assert drv.table.state.turn == 1


def test_an_illegal_tap_is_refused_with_the_rule_shown(drv):
    enter_dice(drv, BUILDING[0])
    state, player = drv.table.state, drv.table.draft.player
    allowed = {sq for p in RV.projects_allowed(state, player) for sq in RV.legal_squares(state, player, p)}
    empty = [(r, s) for r in range(1, 6) for s in range(1, 7) if state.village(player).grid[r - 1][s - 1] is None]
    illegal = next(sq for sq in empty if sq not in allowed)
    drv.tap_square(*illegal)
    assert drv.table.state is state  # unchanged
    banner = drv.screen.banner
    assert banner.error and "(rule: " in banner.text and banner.opacity == 1
    drv.screenshot("village-refused")
    assert_layout(drv)
    build_everything(drv)
    # An accepted build replaces the refusal with what it changed, kept until the next action.
    last = drv.table.session.actions[-1]
    assert not banner.error and banner.text.startswith(f"{last.player}: ")


def test_undo_and_redo_by_touch(drv):
    screen = drv.screen
    enter_dice(drv, SCORING[0])
    assert drv.table.state.turn == 2
    count = len(drv.table.session.actions)
    drv.tap(screen.ids.undo)
    assert len(drv.table.session.actions) == count - 1 and drv.table.state.phase == "activate"
    drv.tap(screen.ids.redo)
    assert len(drv.table.session.actions) == count and drv.table.state.turn == 2


def play_turn(drv, turn):
    screen = drv.screen
    enter_dice(drv, BUILDING[turn - 1])
    if turn == 4:
        drv.tap(screen.ids.advise)
        assert drv.wait_for(lambda: drv.table.advice is not None), drv.table.message
        drv.frames(1)
        assert screen.ids.sheet.view.advice and screen.ids.advise.text == "Advise"
        drv.screenshot("village-advice")
    build_everything(drv)
    enter_dice(drv, SCORING[turn - 1])
    if sum(SCORING[turn - 1]) in (2, 12) and turn == 3:
        assert RV.choosing(drv.table.state, drv.table.draft)
        drv.tap(screen.ids.tabs.children[-1])  # Ann's sheet
        drv.tap_avenue(2)
        assert drv.table.draft.choice("Ann") == 2
        drv.screenshot("village-avenue-choice")
        assert_layout(drv)
    if sum(SCORING[turn - 1]) in (2, 12):
        drv.tap(screen.ids.confirm)  # the Avenues chosen (or each player's best), confirmed
    if turn == 7:
        # The Avenue Activated and the Networks it lit stay on the sheets until the next roll.
        lit = drv.table.state.last_activation[0]
        assert screen.ids.sheet.view.lit == lit.squares and screen.ids.sheet.view.activated == lit.row
        drv.screenshot("village-scored")


def test_turns_2_to_9_with_bonuses_and_choices(drv):
    play_turn(drv, 2)
    enter_dice(drv, BUILDING[2])
    # Build the rolled Projects, then the Bonus Project is what is owed.
    state = drv.table.state
    while any(o.kind != "bonus" for v in state.villages for o in v.owed):
        player, project = drv.table.draft.player, drv.table.draft.project
        if all(o.kind == "bonus" for o in state.village(player).owed):
            drv.tap(drv.screen.ids.tabs.children[::-1][state.players.index(player) ^ 1])
            continue
        drv.tap_square(*RV.legal_squares(state, player, project)[0])
        state = drv.table.state
    drv.screenshot("village-bonus")
    build_everything(drv)
    assert all(len(v.bonus_used) == 1 for v in drv.table.state.villages)
    enter_dice(drv, SCORING[2])
    drv.tap(drv.screen.ids.tabs.children[-1])
    drv.tap_avenue(2)
    drv.screenshot("village-avenue-choice")
    drv.tap(drv.screen.ids.confirm)
    last = drv.table.state.last_activation
    assert last[0].row == 2 and last[0].chosen  # Ann's chosen Avenue
    for turn in range(4, 10):
        play_turn(drv, turn)
    assert drv.table.session.finished
    assert drv.app.screens.current == "end"


def test_end_screen_ranks_and_charts(drv):
    summary = drv.table.session.summary()
    rows = drv.screen.ids.ranking.children[::-1]
    assert [r.name.replace("  (tie)", "") for r in rows] == summary["ranking"]
    assert [r.score for r in rows] == [str(next(p["score"] for p in summary["players"] if p["name"] == n))
                                       for n in summary["ranking"]]
    assert all(len(p["turn_scores"]) == 9 for p in summary["players"])
    assert drv.screen.ids.chart.series
    drv.screenshot("end")
    assert_layout(drv)
    record = drv.store.games()[0]
    assert record.finished and record.result["ranking"] == summary["ranking"]


def test_layout_at_1280x720(drv):
    drv.resize(1280, 720)
    assert_layout(drv)
    drv.screenshot("end-1280x720")
    drv.tap(drv.screen.ids.undo)  # take back the last scoring roll: back to the table
    assert drv.app.screens.current == "village"
    assert_layout(drv)
    drv.screenshot("village-1280x720")
    drv.tap(drv.screen.ids.home)
    assert drv.app.screens.current == "home"
    assert not drv.screen.ids.resume.disabled  # the undone game is unfinished again
    assert_layout(drv)
    drv.screenshot("home-1280x720")
    drv.tap(drv.screen.ids.resume)
    assert drv.app.screens.current == "village"
    drv.resize(800, 480)
    assert_layout(drv)


def press(drv, name: str, modifiers=()):
    from kivy.core.window import Keyboard

    code = Keyboard.keycodes[name]
    drv.window.dispatch("on_key_down", code, 0, name if len(name) == 1 else None, list(modifiers))
    drv.window.dispatch("on_key_up", code, 0)
    drv.frames(2)


def test_desktop_keys_drive_the_table(drv):
    assert drv.app.screens.current == "village" and drv.table.state.phase == "activate"
    press(drv, "3")
    press(drv, "4")
    assert drv.table.draft.dice == (3, 4)
    press(drv, "enter")
    assert drv.table.session.finished and drv.app.screens.current == "end"
    press(drv, "z", ["ctrl"])
    assert not drv.table.session.finished and drv.app.screens.current == "village"
    press(drv, "y", ["ctrl"])
    assert drv.table.session.finished


def test_six_players_fit_as_tabs(drv):
    assert drv.app.screens.current == "end"
    drv.tap(drv.screen.ids.again)
    setup = drv.screen
    assert [f.text for f in setup.fields] == ["Ann", "Bo"]  # play again: same players
    for _ in range(5):
        if not setup.ids.add.disabled:
            drv.tap(setup.ids.add)
    assert len(setup.fields) == 6 and setup.ids.add.disabled
    assert_layout(drv)
    drv.tap(setup.ids.start)
    assert len(drv.table.state.players) == 6
    enter_dice(drv, (3, 3))
    drv.tap(drv.screen.ids.tabs.children[0])  # the sixth player's sheet
    assert drv.screen.player == "Player 6"
    assert_layout(drv)
    drv.screenshot("village-6-players")


def test_the_history_opens_a_finished_game_at_its_end_screen(drv):
    drv.tap(drv.screen.ids.home)
    assert drv.app.screens.current == "home"
    rows = drv.screen.ids.history.children[::-1]  # most recent first
    assert len(rows) == 2 and "Player 6" not in rows[1].text and "finished" in rows[1].text
    assert "Ann, Bo, Player 3" in drv.screen.ids.resume_text.text  # the six-player game is offered
    drv.tap(rows[1])
    assert drv.app.screens.current == "end"
    assert drv.table.session.header.players == ("Ann", "Bo")
    assert_layout(drv)
