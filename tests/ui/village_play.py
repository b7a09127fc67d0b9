"""A Rolling Village turn played by real touches on the app's window, every tap counted: the
tap-count test (tests/e2e/test_taps_per_turn.py) and the bench (bench/village_table.py).

A turn is the building roll, every player's builds, and the scoring roll. By hand the dice are
tapped on the pad (the second die enters the roll); with the camera the tray is read by the
camera's own thread and only the confirm is tapped (the simulator's `read_now` stands for the
players throwing the dice: no tap on the screen)."""
from __future__ import annotations

from companion.table.rolling_village import RollingVillageInput as RV


class Counted:
    """The driver's taps, counted (a tap is one finger down and up on the window)."""

    def __init__(self, drv):
        self.drv, self.taps = drv, 0

    def tap(self, widget) -> None:
        self.taps += 1
        self.drv.tap(widget)

    def square(self, row: int, street: int) -> None:
        self.taps += 1
        self.drv.tap_square(row, street)


def by_hand(counted: Counted, dice) -> None:
    screen = counted.drv.screen
    for value in dice:
        counted.tap(screen.pad[value - 1])
    table = counted.drv.table
    if len(table.draft.dice) == 2:  # a 2 or 12 on the scoring roll: each player's best Avenue
        counted.tap(screen.ids.confirm)


def build_all(counted: Counted) -> None:
    """Each player in turn taps a highlighted square for each Project owed (the sheet in front
    follows the turn: nobody taps a tab)."""
    drv = counted.drv
    while drv.table.state.phase == "build":
        state, player, project = drv.table.state, drv.table.draft.player, drv.table.draft.project
        assert drv.screen.player == player
        legal = RV.legal_squares(state, player, project)
        assert legal, f"{player} owes {state.village(player).owed} but nothing is highlighted"
        counted.square(*legal[0])
        assert drv.table.state is not state, drv.table.message


def turn_by_hand(drv, building, scoring) -> int:
    """One whole turn by hand; the taps it took."""
    counted = Counted(drv)
    turn = drv.table.state.turn
    by_hand(counted, building)
    build_all(counted)
    by_hand(counted, scoring)
    assert drv.table.state.turn == turn + 1 and drv.table.state.phase in ("roll", "over"), drv.table.message
    return counted.taps


def by_camera(counted: Counted, camera, until) -> None:
    drv = counted.drv
    before = len(drv.table.session.actions)
    camera.read_now()  # the players throw the dice into the tray
    until(drv, lambda: len(drv.table.draft.dice) == 2 or drv.table.dice_check is not None,
          what="the camera's dice")
    check = drv.screen.dice_check
    if drv.table.dice_check is not None:  # unsure of a die: the check's confirm takes it as read
        until(drv, lambda: check.showing, what="the dice check")
        counted.tap(check.ids.confirm)
        until(drv, lambda: len(drv.table.draft.dice) == 2, what="the checked dice")
    if len(drv.table.session.actions) == before:
        counted.tap(drv.screen.ids.confirm)
    assert len(drv.table.session.actions) == before + 1, drv.table.message


def turn_by_camera(drv, camera, until) -> int:
    counted = Counted(drv)
    turn = drv.table.state.turn
    by_camera(counted, camera, until)
    build_all(counted)
    by_camera(counted, camera, until)
    assert drv.table.state.turn == turn + 1, drv.table.message
    return counted.taps
