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
# The app's own; the games' come from the registry.
BASE_SCREENS = ["home", "setup", "score-board", "history", "stats", "dice-fairness", "box-photos"]
NAMES = {"rolling-village": ["Ana", "Ben"], "civility": ["Ana", "Ben"], "centerville": ["Ana", "Ben", "Cy"]}
GAME_OF = {name: game for game, specs in GAME_SCREENS.items() for name, _, _ in specs}
SCREENS = BASE_SCREENS + [name for specs in GAME_SCREENS.values() for name, _, _ in specs
                          if name not in BASE_SCREENS]

# Known problems, measured, kept failing strictly: (case, size, measure) -> reason.
XFAIL: dict[tuple[str, str, str], str] = {
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
    elif name in ("history", "stats", "dice-fairness"):
        _with_history(drv)
        app.go_home()
        app.screens.current = name
    elif name == "box-photos":
        _with_photo_to_box(drv)
        app.go_box_photos()
    else:
        app.go_home()
        app.screens.current = name
    drv.frames(4)


def _with_history(drv) -> None:
    """Finished games of all three games and camera-read dice: what the history screens show."""
    from history_games import seed

    if not drv.store.rows("SELECT 1 FROM games WHERE finished = 1 LIMIT 1"):
        ids = seed(drv.store, 6)
        drv.store.add_rolls(ids[0], [("red", str(1 + n % 6)) for n in range(90)])


def _with_photo_to_box(drv) -> None:
    """Two kept rolls to box: a tray of Centerville's six dice, one not named and one missed, shown
    first (its face buttons carry the longest words), and a tray of three pip dice with one missed
    and a box on no die."""
    import numpy as np

    from companion.checked_photos import FOLDER, ICON_FOLDER
    from companion.photos_to_box import FOLDER as TO_BOX
    from companion.photos_to_box import PhotosToBox
    from vision.synth.centerville import render_centerville_tray
    from vision.synth.scene import render_tray

    pips = PhotosToBox(drv.store.path.parent / FOLDER / TO_BOX)
    icons = PhotosToBox(drv.store.path.parent / ICON_FOLDER / TO_BOX, icons=True)
    if not pips.waiting():
        scene = render_tray(np.random.default_rng(5), 3, faces=[2, 5, 6])
        pips.add(cv2_jpeg(scene.image), (2, 5, 6), [(2, scene.dice[0].box), (5, scene.dice[1].box),
                                                    (3, (10, 10, 60, 60))], when=1_900_000_001)
        scene = render_centerville_tray(np.random.default_rng(9), faces=[5, 1, 4, 1, 3, 2])  # education, hourglass
        icons.add(cv2_jpeg(scene.image), [d.label for d in scene.dice],
                  [(None if k == 1 else d.label, d.box) for k, d in enumerate(scene.dice[:5])], when=1_900_000_000)


def cv2_jpeg(image) -> bytes:
    import cv2

    return cv2.imencode(".jpg", image)[1].tobytes()


def _share_view(drv):
    from companion.ui.sharing import share

    _with_history(drv)
    drv.app.go_home()
    game_id, game = drv.store.rows("SELECT id, game FROM games WHERE finished = 1 ORDER BY id DESC LIMIT 1")[0]
    share(drv.store, game_id, drv.app.game_title(game)).open()


def _rename_view(drv):
    from companion.ui.widgets.rename import RenameView

    drv.app.go_home()
    RenameView("Ana", lambda old, new: None).open()


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


_cameras: list = []  # the cameras attached for a dialog, closed with it


def _with_camera(drv, make_reader=None):
    """A Rolling Village game with the simulated dice camera attached (the real model)."""
    from companion.dice_camera import DiceCamera
    from companion.peripherals import attach
    from hardware.config import parse_config

    show_screen(drv, "village")
    kwargs = {"make_reader": make_reader} if make_reader else {}
    camera = DiceCamera("sim:?seed=21", drv.table.post, **kwargs)
    _cameras.append(attach(drv.table, parse_config({"gpio": {"enabled": False}}), camera=camera))
    assert drv.wait_for(lambda: drv.table.camera_status == "connected", 30), drv.table.message
    drv.frames(2)
    return camera


def _tray_popup(drv):
    _with_camera(drv)
    drv.tap(drv.screen.ids.camera_view)  # the labelled button beside Clear


def _dice_check(drv):
    from vision.reader import DiceReader
    from vision.settle import SettledReader

    # A threshold no die reaches: every die is "unsure", so the players are asked.
    camera = _with_camera(drv, lambda: SettledReader(DiceReader(threshold=1.0)))
    camera.read_now()
    assert drv.wait_for(lambda: drv.screen.dice_check.showing, 30), drv.table.message


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
    "ShareView": _share_view,
    "RenameView": _rename_view,
    "TrayPopup": _tray_popup,
    "DiceCheck": _dice_check,
    "TeachView": _teach_view,
}
NOT_OPENED: dict[str, str] = {}  # dialogs the audit cannot open yet, and why


def shown_dialog(drv):
    from kivy.uix.modalview import ModalView

    return next((w for w in drv.window.children if isinstance(w, ModalView)), None)


def close_dialogs(drv) -> None:
    while (view := shown_dialog(drv)) is not None:
        view.dismiss(animation=False)
        drv.frames(2)
    while _cameras:
        _cameras.pop().close()
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
    assert set(drv.app.screens.names) <= set(SCREENS), \
        f"screens the audit does not show: {sorted(set(drv.app.screens.names) - set(SCREENS))}"


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
