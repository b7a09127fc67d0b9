"""Taps per 2-player Rolling Village turn, played by real touches on the app's window: at most 8
by hand, at most 6 with the dice read by the camera (the simulator and the real model). Also
the advisor's wait as the table feels it: a Thinking state while it works, never a frozen screen."""
from __future__ import annotations

import threading

import pytest

from .app_driver import until  # sets Kivy's environment before kivy is imported

from companion.dice_camera import DiceCamera  # noqa: E402

import village_play as play  # noqa: E402  (tests/ui, put on the path by app_driver)

# The camera game's app for this module too (one Kivy app a module), its config and camera.
from .test_camera_game import drv, with_camera  # noqa: E402,F401

pytestmark = pytest.mark.ui


@pytest.fixture
def game(drv):
    assert drv.app.start_game("rolling-village", ["Ana", "Ben"])
    drv.frames(2)
    counted = play.Counted(drv)
    play.by_hand(counted, (2, 4))  # the Start Phase: Streets 2 and 4, two Projects each
    play.build_all(counted)
    yield drv
    drv.app.go_home()
    drv.frames(1)


def test_a_turn_by_hand_takes_8_taps(game):
    taps = play.turn_by_hand(game, (1, 3), (5, 2))
    assert taps <= 8, f"{taps} taps"
    assert taps == 8  # 2 dice, 2 Projects for each of 2 players, 2 dice: nothing else asked
    assert game.table.state.turn == 2 and game.screen.banner.text.startswith("Scoring roll 5 + 2")


def test_a_turn_with_the_camera_takes_6_taps(game):
    camera = DiceCamera("sim:?seed=21&noise=0", game.table.post)  # as in test_camera_game
    with with_camera(game, camera):
        taps = play.turn_by_camera(game, camera, until)
    assert taps <= 6, f"{taps} taps"


def test_the_advisor_shows_it_is_thinking_and_the_screen_keeps_drawing(game):
    """The real advisor, held on its worker thread until the test lets it go: the button says
    Thinking, frames go on, the advice arrives through the Clock and marks the sheet."""
    from companion.table.rolling_village import advise_rolling_village

    table, screen = game.table, game.screen
    go = threading.Event()

    def held(*args):
        assert threading.current_thread() is not threading.main_thread()
        go.wait(10)
        return advise_rolling_village(*args)

    table.advisor = held
    try:
        play.by_hand(play.Counted(game), (6, 2))
        game.tap(screen.ids.advise)
        assert screen.ids.advise.text == "Thinking\u2026" and screen.ids.advise.disabled
        assert "Thinking" in screen.banner.text
        from kivy.clock import Clock

        ticks = Clock.frames
        game.frames(5)
        assert Clock.frames == ticks + 5 and table.advice is None  # the main loop runs on meanwhile
        go.set()
        until(game, lambda: table.advice is not None, what="the advice")
        game.frames(1)
        assert screen.ids.advise.text == "Advise" and screen.ids.sheet.view.advice
        assert table.advice.player == table.draft.player and not table.message_is_error
        assert screen.banner.text.startswith(f"Advice for {table.draft.player}")
    finally:
        go.set()
        table.advisor = None
