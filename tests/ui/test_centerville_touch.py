"""A whole 3-player game of Welcome to Centerville by real touches on the app's window (Xvfb):
set-up with each Legacy entered privately, the checklist, every roll tapped face by face, the
menu of legal actions, the three scoring rounds walked through step by step, the winner; then
`companion export` and `companion replay` give the same scores. Screenshots go to
tests/artifacts/centerville-*.png (git-ignored)."""
from __future__ import annotations

import random

import pytest

pytestmark = [pytest.mark.ui, pytest.mark.timeout(1500)]  # a whole game by touch: minutes, not seconds

from centerville_play import play_one, set_up  # noqa: E402
from layout_check import assert_layout  # noqa: E402
from replay_check import assert_replays  # noqa: E402

NAMES = ("Ana", "Ben", "Cy")
LEGACIES = {"Ana": "greenbelt", "Ben": "offices", "Cy": "red-zone"}


def test_set_up_three_players_with_their_secret_legacies(drv):
    set_up(drv, NAMES, LEGACIES)
    table = drv.table
    assert table.state.names == NAMES
    assert table.session.header.options["legacies"] == LEGACIES
    page = table.game_input.pages[0]
    assert page.kind == "setup"
    drv.screenshot("centerville-setup-checklist")
    assert_layout(drv)
    # Nobody's Legacy is on the screen before final scoring: no text that names a Legacy names
    # its tile, and the private views are closed.
    from companion.ui.widgets.centerville_setup import LegacyPrivately, legacy_title

    texts = [getattr(w, "text", "") for top in drv.window.children for w in top.walk()]
    for line in (line for text in texts for line in text.splitlines()):
        if "Legacy" in line:
            assert not any(legacy_title(tile) in line for tile in LEGACIES.values()), line
    assert not any(isinstance(w, LegacyPrivately) for w in drv.window.children)


def test_a_turn_the_scoring_rounds_and_the_winner(drv):
    rng = random.Random(2026)
    seen = {}
    while drv.table.state.phase in ("setup-draw",) or drv.table.game_input.pages:
        play_one(drv, rng, seen)
    drv.screenshot("centerville-turn")
    assert_layout(drv)
    shot = spent = False
    while drv.app.screens.current != "centerville-end":
        wiring = drv.table.game_input
        if not shot and wiring.pages and wiring.pages[0].kind == "scoring":
            drv.screenshot("centerville-scoring")
            assert_layout(drv)
            shot = True
        if not spent and drv.table.state.phase == "spend" and wiring.pick.path and not wiring.pages:
            drv.screenshot("centerville-spend")  # a group of the menu open: where each piece goes
            assert_layout(drv)
            spent = True
        play_one(drv, rng, seen)
    assert seen.get("scoring", 0) >= 10, seen  # three rounds, read step by step
    state = drv.table.state
    assert state.phase == "over" and len(state.rounds) == 3
    # Each Legacy revealed at the final scoring is the one its player entered privately.
    assert {name: state.legacies[seat] for seat, name in enumerate(state.names)} == LEGACIES
    end = drv.screen
    winner = drv.table.session.summary()["winner"]
    assert winner in end.ids.title.text
    assert "Scoring round 3" in end.ids.steps.text and "Scoring round 1" in end.ids.steps.text
    drv.screenshot("centerville-end")
    assert_layout(drv)


def test_the_exported_log_replays_to_the_same_scores(drv, tmp_path):
    assert_replays(drv, tmp_path)


def test_the_end_and_the_board_read_at_1280x720(drv):
    from centerville_play import tap

    drv.resize(1280, 720)
    drv.screenshot("centerville-end-1280x720")
    assert_layout(drv)
    tap(drv, drv.screen.ids.undo)  # the last entry undone: back at the board, before the winner
    drv.frames(3)
    assert drv.app.screens.current == "centerville" and not drv.table.session.finished
    drv.screenshot("centerville-1280x720")
    assert_layout(drv)
    drv.resize(800, 480)
