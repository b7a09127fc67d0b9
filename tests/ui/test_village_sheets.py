"""A player's own Village Sheet chosen by touch on the real app window (Xvfb): a broken file is
refused with its file, key and line and starts no game; a good one (and a legend) goes into the
game's log header, the village screen draws its points and Avenue labels, and a resumed game keeps it.

One Kivy app per process, so the steps are ordered and share one driver (as test_touch_game.py).
"""
from __future__ import annotations

import pytest

pytestmark = pytest.mark.ui

from layout_check import problems  # noqa: E402

# Different Avenues from the printed sheet (3-5, 6, 7, 8, 9-11) and different points.
MARKET_DAY = """\
choice_sums = [2, 12]

[[avenue]]
label = "3-5"
sums = [3, 4, 5]
points = [4, 0, 1, 1, 0, 4]

[[avenue]]
label = "6"
sums = [6]
points = [0, 2, 0, 0, 2, 0]

[[avenue]]
label = "7"
sums = [7]
points = [1, 1, 5, 5, 1, 1]

[[avenue]]
label = "8"
sums = [8]
points = [0, 2, 0, 0, 2, 0]

[[avenue]]
label = "9-11"
sums = [9, 10, 11]
points = [4, 0, 1, 1, 0, 4]
"""
# Avenue 2 has points for five Streets only: line 11 of the file.
BROKEN = MARKET_DAY.replace("points = [0, 2, 0, 0, 2, 0]", "points = [0, 2, 0, 0, 2]", 1)
COTTAGES = """\
[[project]]
name = "house"
title = "Cottage"
dice = [1, 2]

[[project]]
name = "forest"
title = "Wood"
dice = [3, 4]

[[project]]
name = "lake"
title = "Pond"
dice = [5, 6]
"""


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory):
    folder = tmp_path_factory.mktemp("data")
    (folder / "sheets").mkdir()
    (folder / "sheets" / "market-day.toml").write_text(MARKET_DAY, "utf-8")
    (folder / "sheets" / "broken.toml").write_text(BROKEN, "utf-8")
    (folder / "legends").mkdir()
    (folder / "legends" / "cottages.toml").write_text(COTTAGES, "utf-8")
    return folder


@pytest.fixture(scope="module")
def drv(data_dir):
    from kivy_driver import Driver

    driver = Driver(data_dir)
    yield driver
    driver.close()


def chooser(drv):
    from kivy.core.window import Window

    from companion.ui.widgets.sheet_choice import SheetChoiceView

    found = [w for w in Window.children if isinstance(w, SheetChoiceView)]
    return found[0] if found else None


def open_chooser(drv):
    drv.tap(drv.screen.ids.sheets)
    drv.frames(3)  # the view opens with an animation
    view = chooser(drv)
    assert view is not None, "the Village Sheet button opened nothing"
    return view


def test_the_set_up_offers_the_printed_sheet_and_the_files(drv):
    drv.tap(drv.app.screens.get_screen("home").ids.new_game)
    assert drv.app.screens.current == "setup"
    button = drv.screen.ids.sheets
    assert button.opacity == 1 and "printed" in button.text  # Rolling Village is the first game
    def game(title):  # the game buttons are made anew on each choice
        return next(b for b in drv.screen.ids.games.children if b.text == title)

    drv.tap(game("Civility"))
    assert button.opacity == 0 and button.disabled and button.width == 0  # a Rolling Village choice only
    drv.tap(game("Rolling Village"))
    assert button.opacity == 1 and not button.disabled
    view = open_chooser(drv)
    assert list(view.buttons["sheets"]) == ["Printed sheet (default)", "broken", "market-day"]
    assert list(view.buttons["legends"]) == ["Printed legend (default)", "cottages"]
    assert view.buttons["sheets"]["Printed sheet (default)"].chosen
    drv.screenshot("village-sheet-choice")
    found = problems(view, drv.window)
    assert not found, "\n".join(found)


def test_a_broken_sheet_is_named_with_its_key_and_line_and_starts_no_game(drv):
    view = chooser(drv)
    drv.tap(view.buttons["sheets"]["broken"])
    assert "sheets/broken.toml" in view.note.text and "avenue[2].points" in view.note.text
    drv.tap(view.done)
    drv.frames(3)
    assert chooser(drv) is None
    banner = drv.app.banner
    assert banner.error and "avenue[2].points" in banner.text and "line 11" in banner.text
    assert "Avenue 2 needs points for 6 Streets, not 5" in banner.text
    # The banner lies below the screen, never over its buttons: Start takes a tap while it shows.
    drv.frames(2)
    start = drv.screen.ids.start
    assert start.to_window(*start.pos)[1] >= banner.top
    drv.tap(start)
    assert drv.app.screens.current == "setup"
    assert drv.store.games() == [] and drv.table.session is None
    assert banner.error and "sheets/broken.toml" in banner.text and "line 11" in banner.text
    drv.screenshot("village-sheet-refused")
    drv.tap(banner)


def test_the_chosen_sheet_and_legend_go_into_the_header(drv, data_dir):
    from companion.ui.village_sheets import load_legend, load_sheet

    view = open_chooser(drv)
    drv.tap(view.buttons["sheets"]["market-day"])
    drv.tap(view.buttons["legends"]["cottages"])
    assert view.problem() is None and "market-day" in view.note.text
    drv.tap(view.done)
    drv.frames(3)
    assert "market-day" in drv.screen.ids.sheets.text and drv.screen.ids.sheets.chosen
    drv.tap(drv.screen.ids.start)
    assert drv.app.screens.current == "village", drv.app.banner.text
    options = drv.table.session.header.options
    assert options["sheet"] == load_sheet(data_dir / "sheets" / "market-day.toml")
    assert options["projects"] == load_legend(data_dir / "legends" / "cottages.toml")
    assert drv.store.load(drv.store.games()[0].id)[0].options["sheet"]["avenue"][0]["sums"] == [3, 4, 5]


def test_the_village_screen_draws_the_sheet(drv):
    drawn = drv.screen.ids.sheet.view
    assert drawn.labels == ("3-5", "6", "7", "8", "9-11")
    assert drawn.points[2] == (1, 1, 5, 5, 1, 1) and drawn.points[0] == (4, 0, 1, 1, 0, 4)
    assert drv.table.state.legend.title("house") == "Cottage"
    drv.screenshot("village-own-sheet")
    found = problems(drv.app.root, drv.window)
    assert not found, "\n".join(found)


def test_a_resumed_game_keeps_the_sheet(drv):
    drv.app.go_home()
    drv.frames(2)
    home = drv.screen
    assert home.has_resume
    drv.tap(home.ids.resume)
    assert drv.app.screens.current == "village"
    assert drv.table.state.sheet.points[2] == (1, 1, 5, 5, 1, 1)
    assert drv.screen.ids.sheet.view.labels[0] == "3-5"

