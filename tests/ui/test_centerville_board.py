"""The Centerville board, its area view and a player's panel on the real app window (Xvfb): busy
mid-game states draw at 800x480 and 1280x720; every drawn text is big enough, has contrast and
stays on the board; every tap area is fingertip-sized; a real touch on each area opens its view
with that area's rule sentence; the areas file and the board name the same areas.

One Kivy app per module; the steps run in file order (800x480 first, then 1280x720).
"""
from __future__ import annotations

import random

import pytest

pytestmark = pytest.mark.ui

from layout_check import label_problems, problems, target_problems, text_problems  # noqa: E402

from companion.engine.core import find_game  # noqa: E402

GAME = find_game("centerville")
BOARD_RECT = (470, 380)  # the play screen's board rectangle at 800x480 (grows with ui_scale)


def walk(names, seed: int, steps: int):
    """A seeded random game `steps` actions in (the engine's legal actions, chance included)."""
    rng = random.Random(seed)
    state = GAME.new(names)
    for _ in range(steps):
        if GAME.finished(state):
            break
        state = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
    return state


# Busy positions: buildings in every zone, river cubes and villas, offices, Masters, the Safe.
BUSY = {
    "3 players": (("Ana", "Ben", "Cy"), 34, 300),
    "4 players": (("Ana", "Ben", "Cy", "Dee"), 30, 400),
    "2 players and the bot": (("Ana", "Ben"), 36, 400),
}


@pytest.fixture(scope="module")
def states():
    return {label: walk(names, seed, steps) for label, (names, seed, steps) in BUSY.items()}


@pytest.fixture(scope="module")
def board(drv):
    from kivy.uix.floatlayout import FloatLayout

    from companion.ui.widgets.centerville_board import CentervilleBoard
    from companion.ui.widgets.centerville_panel import CentervillePlayerPanel

    from kivy.graphics import Color, Rectangle

    from companion.ui import theme

    overlay = FloatLayout()
    with overlay.canvas.before:  # the app's screen underneath stays out of the screenshots
        Color(*theme.BACKGROUND)
        backdrop = Rectangle(size=(4000, 4000))
    del backdrop
    board = CentervilleBoard(size_hint=(None, None))
    panel = CentervillePlayerPanel(size_hint=(None, None))
    overlay.add_widget(board)
    overlay.add_widget(panel)
    drv.window.add_widget(overlay)
    board.panel = panel
    place(drv, board)
    yield board
    drv.window.remove_widget(overlay)


def place(drv, board) -> None:
    """The board left as on the play screen, the player panel right of it."""
    u = drv.app.ui_scale
    board.size = (BOARD_RECT[0] * u, BOARD_RECT[1] * u)
    board.pos = (6 * u, 50 * u)
    board.panel.size = (306 * u, 276 * u)
    board.panel.pos = (board.right + 8 * u, 104 * u)
    drv.frames(2)


def check_board(board, min_px) -> list[str]:
    return (text_problems(board.texts, min_px, bounds=(*board.pos, *board.size))
            + target_problems({n: board.area_rect(n) for n in board.area_names()}))


def test_areas_file_and_board_name_the_same_areas(board):
    from companion.ui.widgets.centerville_areas import areas

    assert set(areas()) == set(board.area_names())
    assert len(areas()) == len(board.area_names())


def test_busy_states_at_800x480(drv, board, states):
    drv.resize(800, 480)  # the window is one per process: a module before may have left it larger
    assert tuple(drv.window.size) == (800, 480) and drv.app.ui_scale == 1
    for label, state in states.items():
        board.show(state, highlight=("zone-red", "river"))
        drv.frames(2)
        assert board.texts, label
        found = check_board(board, 18)
        assert not found, f"{label}:\n" + "\n".join(found)
        for seat in range(state.players):
            board.panel.show(state, seat)
            found = text_problems(board.panel.texts, 18, bounds=(*board.panel.pos, *board.panel.size))
            assert not found, f"{label}, seat {seat}:\n" + "\n".join(found)
        assert not problems(drv.window, drv.window)
    board.show(states["4 players"], highlight=("zone-red",))
    board.panel.show(states["4 players"], 1)
    drv.screenshot("centerville-board-800x480")


def test_every_area_opens_its_view_by_touch(drv, board, states):
    from companion.ui.widgets.centerville_areas import areas

    board.show(states["3 players"])
    drv.frames(2)
    for name in board.area_names():
        x, y, w, h = board.area_rect(name)
        drv.touch(*board.to_window(x + w / 2, y + h / 2))
        view = board.view
        assert view is not None and view._window is not None, f"a tap on {name} opened no view"
        assert view.name == name
        assert view.rule.text == areas()[name].rule
        assert view.title.text == areas()[name].title
        found = label_problems(view, view.background_rgba) + text_problems(view.picture.texts, 18)
        found += problems(view, drv.window)
        assert not found, f"{name}:\n" + "\n".join(found)
        if name == "zone-yellow":
            drv.screenshot("centerville-area-800x480")
        drv.tap(view.close_button)
        assert view._window is None, f"Close left the {name} view open"
        board.view = None


def test_a_handler_can_keep_the_view_closed(drv, board, states):
    tapped = []

    def handler(_board, name):
        tapped.append(name)
        return True

    board.bind(on_area=handler)
    try:
        x, y, w, h = board.area_rect("campus")
        drv.touch(*board.to_window(x + w / 2, y + h / 2))
    finally:
        board.unbind(on_area=handler)
    assert tapped == ["campus"] and board.view is None


def test_an_unknown_highlight_is_refused(board, states):
    with pytest.raises(KeyError, match="no such area"):
        board.show(states["3 players"], highlight=("zone-green",))


def test_the_checks_can_fail(board, states):
    """The checks above catch what they claim to: a small, faint text, and a tiny tap area."""
    from dataclasses import replace

    board.show(states["3 players"])
    mark = board.texts[0]
    small = replace(mark, px=12, size=(8, 14))
    faint = replace(mark, colour=(0.3, 0.3, 0.3, 1), background=(0.25, 0.25, 0.25, 1))
    outside = replace(mark, pos=(board.right + 5, board.y))
    found = text_problems([small, faint, outside], 18, bounds=(*board.pos, *board.size))
    assert any("12 px" in f for f in found)
    assert any("contrast" in f for f in found)
    assert any("outside" in f for f in found)
    assert target_problems({"dot": (0, 0, 30, 60)}) == [
        "tap area dot is 30x60 px: a touch target needs 48 px each way"]


def test_the_panel_never_shows_a_legacy(drv, board):
    state = walk(("Ana", "Ben", "Cy"), 34, 2000)  # the game's end: every Legacy revealed
    assert GAME.finished(state) and all(state.legacies)
    legacy_words = {word.casefold() for tile in state.board.legacies for word in tile.split("-")}
    for seat in range(state.players):
        board.panel.show(state, seat)
        shown = {word.casefold().strip(",") for mark in board.panel.texts for word in mark.text.split()}
        assert not shown & legacy_words, f"seat {seat}'s panel shows {shown & legacy_words}"
    board.show(state)  # the final board draws too
    assert not check_board(board, 18)


def test_busy_states_at_1280x720(drv, board, states):
    drv.resize(1280, 720)
    drv.frames(3)
    assert drv.app.ui_scale == pytest.approx(1.5)
    place(drv, board)
    for label, state in states.items():
        board.show(state, highlight=("office-mayor",))
        drv.frames(2)
        found = check_board(board, 18 * 1.5 - 1)
        assert not found, f"{label}:\n" + "\n".join(found)
        board.panel.show(state, 0)
        found = text_problems(board.panel.texts, 18 * 1.5 - 1, bounds=(*board.panel.pos, *board.panel.size))
        assert not found, f"{label}:\n" + "\n".join(found)
    board.show(states["4 players"], highlight=("zone-red",))
    board.panel.show(states["4 players"], 1)
    drv.screenshot("centerville-board-1280x720")
    x, y, w, h = board.area_rect("office-police-fire")
    drv.touch(*board.to_window(x + w / 2, y + h / 2))
    view = board.view
    found = label_problems(view, view.background_rgba, 27) + text_problems(view.picture.texts, 27)
    assert not found, "\n".join(found)
    drv.tap(view.close_button)


def test_repainting_only_changed_areas_draws_what_a_whole_redraw_draws(drv, board):
    """After each action of a game the board repaints only the areas whose State fields changed;
    what it shows must equal a whole redraw of the same state (same texts, same instructions)."""
    from companion.ui.widgets.centerville_board import CentervilleBoard

    fresh = CentervilleBoard(size_hint=(None, None), size=board.size, pos=board.pos)
    board.parent.add_widget(fresh, index=len(board.parent.children))  # drawn, under the board

    def flat(value):
        return tuple(flat(v) for v in value) if isinstance(value, (list, tuple)) else round(value, 1)

    def signature(i):
        for attr in ("rgba", "pos", "circle", "rectangle", "rounded_rectangle", "ellipse", "points"):
            value = getattr(i, attr, None)
            if value:
                return type(i).__name__, flat(value)
        return (type(i).__name__,)

    def drawn(b):
        return [(m.text, m.pos, m.colour) for m in b.texts], [
            signature(i) for layer in b._layers.values() for i in layer.children]

    rng = random.Random(11)
    state = GAME.new(("Ana", "Ben", "Cy", "Dee"))
    for step in range(200):
        state = GAME.apply(state, rng.choice(list(GAME.legal_actions(state))))
        board.show(state)
        if step % 5 == 0:
            fresh._frame = None
            fresh.show(state)
            drv.frames(1)  # some instructions work out their points when first drawn
            mine, whole = drawn(board), drawn(fresh)
            first = next((k for k, (a, b) in enumerate(zip(mine[1], whole[1])) if a != b), None)
            assert mine == whole, (f"step {step}: the repainted board differs at instruction {first}: "
                                   f"{mine[1][first - 2:first + 2] if first else ''} != "
                                   f"{whole[1][first - 2:first + 2] if first else ''}")
    fresh.parent.remove_widget(fresh)
