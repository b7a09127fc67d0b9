"""Score our board by real touches on the app's window (Xvfb): from Home, 3 players named and
coloured, a few buildings in two zones, some vocations, an office, a wealth marker and the status
order entered by tapping areas of the board and their editors' buttons; round 1 scored and every
page read; the result is the one `companion score` gives for the same board file. Screenshots
go to tests/artifacts/score-board*.png (git-ignored); docs/screenshot-centerville-score-board.png
is a copy of score-board.png (the board entered, at 800x480)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.ui

from centerville_play import wait  # noqa: E402
from layout_check import FLOOR_TEXT_PX, MIN_CONTRAST, assert_layout, contrast_ratio, problems, text_problems  # noqa: E402

NAMES = ("Ana", "Ben", "Cy")
ANA, BEN, CY = range(3)


def check(drv) -> None:
    """assert_layout on the screen and on an open editor (a ModalView lies on the window, not
    under the app's root); at 800x480 every word at least 18 px, the board's drawn ones too;
    every button's text 4.5:1 on its fill, the board's on their backgrounds."""
    from kivy.uix.label import Label
    from kivy.uix.modalview import ModalView

    from companion.ui.widgets.centerville_board import CentervilleBoard
    from companion.ui.widgets.common import TouchButton

    assert_layout(drv)
    views = [w for w in drv.window.children if isinstance(w, ModalView)]
    found = [p for view in views for p in problems(view, drv.window)]
    min_px = 18 if drv.window.size == (800, 480) else FLOOR_TEXT_PX

    def walk(widget):
        for w in widget.children:
            if w.opacity == 0 or w.width <= 0 or w.height <= 0:
                continue
            if isinstance(w, Label) and w.text.strip():
                if w.font_size < min_px:
                    found.append(f"{type(w).__name__}({w.text[:30]!r}) is {w.font_size:.0f} px")
                fill = w.chosen_fill if isinstance(w, TouchButton) and w.chosen else getattr(w, "fill", None)
                if fill is not None and not w.disabled and contrast_ratio(w.color, fill) < MIN_CONTRAST:
                    found.append(f"{w.text[:30]!r}: contrast {contrast_ratio(w.color, fill):.1f}")
            if isinstance(w, CentervilleBoard):
                found.extend(text_problems(w.texts, min_px))
            walk(w)

    for root in [drv.app.root] + views:
        walk(root)
    assert not found, "\n".join(found)


def editor(drv):
    return drv.screen.editor


def press(drv, *key) -> None:
    """Tap an editor's button (scrolled into view first, as a finger would) and wait for it."""
    button = editor(drv).buttons[key]
    drv.scroll_to_see(editor(drv).scroll, button)
    before = drv.screen.changes
    drv.tap(button)
    wait(drv, lambda: drv.screen.changes != before, f"the tap on {button.text!r}")


def tap_area(drv, name: str) -> None:
    board = drv.screen.ids.board
    x, y, w, h = board.area_rect(name)
    drv.touch(*board.to_window(x + w / 2, y + h / 2))
    wait(drv, lambda: editor(drv) is not None and editor(drv).area == name and editor(drv).parent,
         f"the {name} editor")


def close_editor(drv) -> None:
    drv.tap(editor(drv).done)
    wait(drv, lambda: editor(drv).parent is None, "the editor to close")


def type_name(drv, field, name: str) -> None:
    from kivy.core.window import Window

    drv.tap(field)
    wait(drv, lambda: field.focus, "the name field's keyboard")
    field.select_all()
    Window.dispatch("on_textinput", name)
    drv.frames(2)
    assert field.text == name


def test_home_offers_score_our_board(drv):
    drv.resize(800, 480)  # the window is not always made at the size asked for (seen: 800x600)
    assert tuple(drv.window.size) == (800, 480)
    home = drv.screen
    assert drv.app.screens.current == "home"
    assert "Score our board" in home.ids.score_board.text
    assert_layout(drv)  # Home is not this screen: its own sizes are its own
    drv.tap(home.ids.score_board)
    assert drv.app.screens.current == "score-board"
    assert drv.screen.ids.stages.current == "players"


def test_the_players_named_and_coloured(drv):
    screen = drv.screen
    drv.tap(screen.mode_buttons["4"])
    assert len(screen.name_fields) == 4
    drv.tap(screen.mode_buttons["3"])
    assert len(screen.name_fields) == 3
    for field, name in zip(screen.name_fields, NAMES):
        type_name(drv, field, name)
    drv.tap(screen.colour_chips[BEN])  # white -> brown; Cy takes white
    assert screen.entry.colours == ["gray", "brown", "white"]
    check(drv)
    drv.screenshot("score-board-players")
    drv.tap(screen.ids.to_board)
    assert screen.ids.stages.current == "board"


def test_the_pieces_entered_by_tapping_the_board(drv):
    screen = drv.screen
    tap_area(drv, "zone-yellow")
    check(drv)
    press(drv, ("town", "yellow", 1), ANA, 1)
    press(drv, ("town", "yellow", 1), ANA, 1)
    press(drv, ("town", "yellow", 2), BEN, 1)
    press(drv, ("town", "yellow", 4), CY, 1)
    press(drv, ("town", "yellow", 4), ANA, 1)  # refused: level 4 has one space
    assert "1 space" in drv.screen.banner.text
    drv.screenshot("score-board-zone-editor")
    close_editor(drv)
    tap_area(drv, "zone-red")
    press(drv, ("town", "red", 1), CY, 1)
    press(drv, ("town", "red", 2), ANA, 1)
    close_editor(drv)
    tap_area(drv, "campus")
    for key, seat in (((("vocation", 3)), ANA), ((("vocation", 3)), ANA), ((("vocation", 5)), BEN),
                      ((("vocation", 9)), CY)):
        press(drv, key, seat, 1)
    check(drv)
    close_editor(drv)
    tap_area(drv, "office-mayor")
    press(drv, ("office", 0), BEN)
    press(drv, ("office-cubes", 0), None, 1)  # the cubes row appears once the office is held
    close_editor(drv)
    tap_area(drv, "victory")
    press(drv, ("wealth",), ANA, 10)
    press(drv, ("prestige",), CY, -1)
    close_editor(drv)
    tap_area(drv, "status")
    press(drv, ("status",), CY)  # Cy up to 2nd
    check(drv)
    close_editor(drv)
    e = screen.entry
    assert e.data()["town"]["yellow"] == {"1": ["gray", "gray"], "2": ["brown"], "3": [], "4": ["white"]}
    assert e.data()["town"]["red"]["1"] == ["white"] and e.data()["town"]["red"]["2"] == ["gray"]
    assert e.data()["offices"]["Mayor"] == {"colour": "brown", "cubes": 2}
    assert e.data()["status"] == ["gray", "white", "brown"]
    assert [p["vocations"] for p in e.data()["players"]] == [{"3": 2}, {"5": 1}, {"9": 1}]
    drv.tap(screen.round_buttons[1])
    drv.screenshot("score-board")
    check(drv)


def test_round_1_walked_through_page_by_page_as_companion_score_says(drv, tmp_path):
    screen = drv.screen
    drv.tap(screen.ids.score)
    assert screen.ids.stages.current == "scoring"
    result = screen.result
    read = []
    for number, page in enumerate(result.pages):
        assert screen.page == number
        assert screen.ids.page_title.text == page.title
        assert all(line in screen.ids.page.text for line in page.lines + page.moves)
        read.append(page.title)
        if number == 1:
            drv.screenshot("score-board-step")
            check(drv)
        if number < len(result.pages) - 1:
            drv.tap(screen.ids.next_page)
    assert read[-1] == "After scoring round 1"
    assert len(read) == len(result.state.rounds[-1].steps) + 1

    path = tmp_path / "board.json"
    path.write_text(json.dumps(screen.entry.data()))
    cli = Path(sys.executable).with_name("companion")
    done = subprocess.run([str(cli), "score", "centerville", str(path), "--round", "1"],
                          capture_output=True, text=True, check=True)
    expected = json.loads(done.stdout)
    s = result.state
    assert expected["players"] == dict(zip(s.colours, s.names))
    assert [(st["name"], [st["changes"][c]["wealth"] for c in s.colours], [st["changes"][c]["prestige"] for c in s.colours])
            for st in expected["steps"]] == [(st.name, list(st.wealth), list(st.prestige)) for st in s.rounds[-1].steps]
    totals = {c: (s.wealth[p], s.prestige[p]) for p, c in enumerate(s.colours)}
    assert totals == {c: (t["final_wealth"], t["final_prestige"]) for c, t in expected["totals"].items()}
    summary = screen.ids.page.text
    for p, colour in enumerate(s.colours):
        t = expected["totals"][colour]
        assert (f"{s.names[p]} ({colour}): wealth {t['final_wealth']} ({t['wealth']:+d}), "
                f"prestige {t['final_prestige']} ({t['prestige']:+d})") in summary


def test_the_layout_at_1280x720(drv):
    screen = drv.screen
    drv.resize(1280, 720)
    try:
        check(drv)  # the summary page
        drv.tap(screen.ids.next_page)  # back to the board
        assert screen.ids.stages.current == "board"
        check(drv)
        tap_area(drv, "campus")
        check(drv)
        drv.screenshot("score-board-1280x720-campus")
        close_editor(drv)
    finally:
        drv.resize(800, 480)


def test_every_editor_fits_with_four_players_and_the_final_scoring(drv):
    screen = drv.screen
    drv.tap(screen.ids.to_players)
    drv.tap(screen.mode_buttons["4"])
    drv.tap(screen.ids.to_board)
    drv.tap(screen.round_buttons[3])
    drv.tap(screen.ids.score)
    assert "Legacy" in drv.screen.banner.text  # round 3 is not scored before every Legacy is entered
    assert screen.ids.stages.current == "board"
    for area in screen.ids.board.area_names():
        tap_area(drv, area)
        check(drv)
        if area in ("victory", "villas", "status", "office-mayor", "time"):
            drv.screenshot(f"score-board-4-{area}")
        close_editor(drv)
    drv.tap(screen.ids.final)
    wait(drv, lambda: editor(drv).area == "final" and editor(drv).parent, "the final scoring's editor")
    check(drv)
    drv.screenshot("score-board-final")
    close_editor(drv)
