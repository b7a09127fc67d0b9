"""A whole 2-player game of Welcome to Centerville with the bot, by real touches (Xvfb): the
2-player set-up (the open Legacy, the bot's seat), the bot's rolls (tapped, or rolled by the app
when the table asks), its whole turn as numbered placements confirmed one page at a time, the
decisions the rules give a player, the scoring rounds, the winner; then export and replay."""
from __future__ import annotations

import random

import pytest

pytestmark = [pytest.mark.ui, pytest.mark.timeout(1500)]  # a whole game by touch: minutes, not seconds

from centerville_play import play_one, play_to_the_end, set_up  # noqa: E402
from layout_check import assert_layout  # noqa: E402
from replay_check import assert_replays  # noqa: E402


def test_two_players_and_the_bot_to_the_winner(drv):
    set_up(drv, ("Ana", "Ben"), {"Ana": "vocations", "Ben": "blue-zone"})
    state = drv.table.state
    assert state.bot == 2 and len(state.names) == 3
    rng = random.Random(7)
    seen = {}
    while not seen.get("bot"):
        play_one(drv, rng, seen)
        if drv.table.game_input.pages and drv.table.game_input.pages[0].kind == "bot":
            drv.screenshot("centerville-bot-turn")
            assert_layout(drv)
            page = drv.table.game_input.pages[0]
            assert page.lines and page.lines[0].startswith("1.") or page.lines
    assert drv.table.state.open_legacy is not None  # laid face up at set-up (2-Player Setup)
    rest = play_to_the_end(drv, rng)
    assert rest.get("bot", 0) >= 5 and rest.get("scoring", 0) >= 8, rest
    assert drv.table.state.phase == "over"


def test_the_exported_log_replays_to_the_same_scores(drv, tmp_path):
    assert_replays(drv, tmp_path)
