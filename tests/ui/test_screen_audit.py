"""The screen audit: every screen and dialog of every game at 800x480 and 1280x720 on the real
window, checked from the widget tree and the rendered textures (see layout_check.audit_problems):
text not cut off, text sizes, contrast, touch targets and their overlaps, inputs above the
docked keyboard. Screens come from the app's ScreenManager and the game_screens registry; dialogs
are every ModalView the app defines, each opened the way a screen opens it.

Screenshots go to tests/artifacts/audit-<case>-<size>.png (git-ignored)."""
from __future__ import annotations

import pytest

from companion.ui.game_screens import GAME_SCREENS
from layout_check import audit_problems, keyboard_problems

pytestmark = pytest.mark.ui

SIZES = [(800, 480), (1280, 720)]
BASE_SCREENS = ["home", "setup", "score-board"]  # the app's own; the games' come from the registry
NAMES = {"rolling-village": ["Ana", "Ben"], "civility": ["Ana", "Ben"], "centerville": ["Ana", "Ben", "Cy"]}
GAME_OF = {name: game for game, specs in GAME_SCREENS.items() for name, _, _ in specs}
SCREENS = BASE_SCREENS + [name for specs in GAME_SCREENS.values() for name, _, _ in specs
                          if name not in BASE_SCREENS]

# Known problems, measured, kept failing strictly: (case, size, measure) -> reason.
_SHEET = ("the Village Sheet's printed small numbers (a square's points, the turn tracker's turn "
          "numbers) are drawn at a fraction of a square; 16 px needs a new sheet layout")
_KEYBOARD = ("the docked keyboard covers the lower name fields; Kivy's Window.softinput_mode "
             "'below_target' (or the fields moved up) is the fix, not yet made")
XFAIL: dict[tuple[str, str, str], str] = {
    ("village", "800x480", "text-size"): "TurnTracker 10 px, VillageSheet 14 px: " + _SHEET,
    ("village", "1280x720", "text-size"): "TurnTracker 15 px, VillageSheet 21 px (of 24): " + _SHEET,
    ("setup", "1280x720", "keyboard"): "Player 2 at y=260, Player 3 at y=170 under 366 px: " + _KEYBOARD,
    ("score-board", "800x480", "keyboard"): "Player 2 at y=172, Player 3 at y=112 under 229 px: " + _KEYBOARD,
    ("score-board", "1280x720", "keyboard"): "Player 1 at y=350, Player 2 at 260, Player 3 at 170 under "
                                             "366 px: " + _KEYBOARD,
}


def setup_for(drv, game: str):
    drv.app.go_home()
    drv.app.go_setup(NAMES[game])
    setup = drv.app.screens.get_screen("setup")
    setup.choose_game(game)
    drv.frames(2)
    return setup


def start(drv, game: str) -> None:
    setup = setup_for(drv, game)
    setup.start()
    drv.frames(3)
    assert drv.app.table.session is not None, \
        f"{game} did not start: {drv.table.message}"


def show_screen(drv, name: str) -> None:
    """Bring screen `name` up as a player would find it."""
    app = drv.app
    if name == "home":
        app.go_home()
    elif name == "setup":
        app.go_home()
        app.go_setup(["Ana", "Ben"])
    elif name == "score-board":
        app.go_home()
        app.go_score_board()
    elif name in GAME_OF:
        start(drv, GAME_OF[name])
        app.screens.current = name  # an end screen renders the table's state as it stands
    else:
        app.go_home()
        app.screens.current = name
    drv.frames(4)


def _setup_dialog(game, method):
    def open_(drv):
        getattr(setup_for(drv, game), method)()
    return open_


def _player_view(drv):
    show_screen(drv, "centerville")
    drv.screen.open_player(0)


def _legacy_privately(drv):
    from companion.ui.widgets.centerville_setup import LegacyPrivately

    drv.app.go_home()
    LegacyPrivately("Ana").open()


def _area_view(drv):
    from companion.ui.widgets.centerville_areas import areas

    show_screen(drv, "centerville")
    board = next(w for w in drv.screen.walk() if type(w).__name__ == "CentervilleBoard")
    board.dispatch("on_area", next(iter(areas())))


def _area_editor(drv):
    from companion.ui.widgets.centerville_areas import areas

    show_screen(drv, "score-board")
    drv.screen.to_board()
    drv.frames(2)
    drv.screen.open_area(next(iter(areas())))


def _teach_view(drv):
    """Teach the camera at Centerville's set-up, a rendered tray's dice read and shown."""
    from companion.events import InputEvent
    from companion.ui.widgets.teach_camera import open_teaching
    from tests.table.test_centerville_camera import tray_reading

    setup_for(drv, "centerville").edit_seats()
    open_teaching(drv.app)
    drv.table.handle(InputEvent("dice", tray_reading(4), "camera"))


# Each dialog, opened the way the app opens it (the audit fails on a ModalView missing here).
DIALOGS = {
    "CitySetupView": _setup_dialog("civility", "edit_cities"),
    "SheetChoiceView": _setup_dialog("rolling-village", "edit_sheets"),
    "SeatsView": _setup_dialog("centerville", "edit_seats"),
    "LegacyPrivately": _legacy_privately,
    "PlayerView": _player_view,
    "AreaView": _area_view,
    "AreaEditor": _area_editor,
    "TeachView": _teach_view,
}
# Dialogs the audit cannot open yet, and why (the completeness test below names any other).
NOT_OPENED = {
    "TrayPopup": "needs a camera (the thumbnail shows only with one)",
    "DiceCheck": "needs a camera reading to check",
}


def shown_dialog(drv):
    from kivy.uix.modalview import ModalView

    return next((w for w in drv.window.children if isinstance(w, ModalView)), None)


def close_dialogs(drv) -> None:
    while (view := shown_dialog(drv)) is not None:
        view.dismiss(animation=False)
        drv.frames(2)


# Each problem belongs to one measure (a case's measures pass or fail, or are xfailed, apart).
MEASURES = {
    "clipped": ("cut off", "shortened", "outside the"),
    "text-size": ("font ", "drawn text"),
    "contrast": ("contrast",),
    "targets": ("touch target", "overlap", "squares"),
    "keyboard": ("keyboard",),
}
_found: dict[tuple[str, tuple], list[str]] = {}


def measure_of(problem: str) -> str:
    return next(m for m, words in MEASURES.items() if any(w in problem for w in words))


def audit(drv, case: str, root, size) -> list[str]:
    found = audit_problems(root, drv.window, drv.app.ui_scale) + keyboard_problems(drv, root)
    drv.screenshot(f"audit-{case}-{size[0]}x{size[1]}")
    return found


def audited(drv, case: str, size) -> list[str]:
    """The problems of screen or dialog `case` at `size` (audited once, then each measure reads them)."""
    if (case, size) not in _found:
        close_dialogs(drv)
        drv.resize(*size)
        if case in DIALOGS:
            DIALOGS[case](drv)
            drv.frames(4)
            view = shown_dialog(drv)
            assert view is not None and type(view).__name__ == case, f"{case} did not open: {view}"
            try:
                _found[case, size] = audit(drv, case, view, size)
            finally:
                close_dialogs(drv)
        else:
            show_screen(drv, case)
            assert drv.app.screens.current == case
            _found[case, size] = audit(drv, case, drv.app.root, size)
    return _found[case, size]


def cases() -> list:
    params = []
    for size in SIZES:
        for case in SCREENS + list(DIALOGS):
            for measure in MEASURES:
                at = f"{size[0]}x{size[1]}"
                reason = XFAIL.get((case, at, measure))
                marks = [pytest.mark.xfail(reason=reason, strict=True)] if reason else []
                params.append(pytest.param(case, size, measure, marks=marks, id=f"{case}-{at}-{measure}"))
    return params


@pytest.mark.parametrize("case,size,measure", cases())
def test_audit(drv, case, size, measure):
    found = [p for p in audited(drv, case, size) if measure_of(p) == measure]
    assert not found, f"{case} at {size[0]}x{size[1]}, {measure}: {len(found)} problems\n" + "\n".join(found)


def test_every_screen_and_dialog_is_audited(drv):
    """A screen or dialog added later is audited, or this names it."""
    import importlib
    import pkgutil

    from kivy.uix.modalview import ModalView

    import companion.ui.screens
    import companion.ui.widgets

    for package in (companion.ui.screens, companion.ui.widgets):
        for info in pkgutil.iter_modules(package.__path__):
            importlib.import_module(f"{package.__name__}.{info.name}")

    def subclasses(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from subclasses(sub)

    dialogs = {c.__name__ for c in subclasses(ModalView) if c.__module__.startswith("companion.")}
    known = set(DIALOGS) | set(NOT_OPENED)
    assert dialogs <= known, f"dialogs the audit does not open: {sorted(dialogs - known)}"
    assert set(drv.app.screens.screen_names) <= set(SCREENS), \
        f"screens the audit does not show: {sorted(set(drv.app.screens.screen_names) - set(SCREENS))}"


def test_the_audit_names_a_shrunk_label_and_its_measures(drv):
    """The audit itself: a label shrunk below its text, small and faint, is named with each measure."""
    from kivy.uix.floatlayout import FloatLayout
    from kivy.uix.label import Label

    from companion.ui import theme
    from companion.ui.widgets.common import TouchButton

    close_dialogs(drv)
    drv.resize(800, 480)
    show_screen(drv, "home")
    root = FloatLayout()
    root.add_widget(Label(text="A long sentence in a tiny box", font_size=12, color=theme.PANEL_LIGHT,
                          size_hint=(None, None), size=(60, 20), pos=(10, 10)))
    root.add_widget(TouchButton(text="Go", size_hint=(None, None), size=(44, 44), pos=(200, 10)))
    root.add_widget(TouchButton(text="Stop", size_hint=(None, None), size=(60, 60), pos=(220, 20)))
    drv.window.add_widget(root)
    try:
        drv.frames(3)
        found = audit_problems(root, drv.window, 1.0)
    finally:
        drv.window.remove_widget(root)
    text = "\n".join(found)
    assert {measure_of(p) for p in found} == {"clipped", "text-size", "contrast", "targets"}, text
    assert "Label('A long sentence in a tiny box'): font 12.0 px, at least 16 px" in text
    assert "px wide in a 60 px box (cut off)" in text and "tiny box'): contrast " in text
    assert "TouchButton('Go') is 44x44" in text and "overlap" in text
