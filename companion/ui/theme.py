"""Colours and sizes shared by the screens and widgets (no Kivy import: plain values)."""
from __future__ import annotations

# Sizes in dp: a fingertip needs at least 48 px on the 800x480 screen (density 1).
TOUCH = 48
BAR = 56

BACKGROUND = (0.12, 0.15, 0.19, 1)
PANEL = (0.17, 0.21, 0.26, 1)
PANEL_LIGHT = (0.23, 0.28, 0.34, 1)
TEXT = (0.95, 0.95, 0.93, 1)
TEXT_DIM = (0.70, 0.74, 0.78, 1)
PAPER = (0.98, 0.95, 0.87, 1)
PAPER_POINTS = (0.93, 0.88, 0.74, 1)
INK = (0.16, 0.16, 0.20, 1)
GRID_LINE = (0.55, 0.50, 0.42, 1)
INK_DIM = (0.45, 0.41, 0.34, 1)  # numbers still to come on the paper: 4.9:1 (GRID_LINE is 3.5:1)
ACCENT = (0.98, 0.72, 0.20, 1)
LEGAL = (1.0, 0.93, 0.55, 1)
LIT = (1.0, 0.80, 0.25, 1)
ADVICE = (0.20, 0.75, 0.85, 1)
GOOD = (0.28, 0.64, 0.38, 1)
ERROR = (0.78, 0.22, 0.20, 1)
INFO = (0.22, 0.42, 0.62, 1)
BUTTON = (0.28, 0.34, 0.42, 1)
BUTTON_DOWN = (0.40, 0.48, 0.58, 1)
# Dark enough for TEXT at 4.8:1 (WCAG AA asks 4.5; the brighter green it replaced gave 3.4:1).
CONFIRM = (0.16, 0.47, 0.27, 1)
CONFIRM_DEEP = CONFIRM

PROJECT_COLOURS = {
    "house": (0.82, 0.32, 0.25, 1),
    "forest": (0.24, 0.58, 0.30, 1),
    "lake": (0.22, 0.50, 0.86, 1),
}
_SPARE = [(0.62, 0.40, 0.75, 1), (0.85, 0.55, 0.20, 1), (0.40, 0.40, 0.40, 1)]

# One colour per player (tabs, chart lines), up to the 6 the screen offers.
PLAYER_COLOURS = [
    (0.98, 0.72, 0.20, 1),
    (0.35, 0.70, 0.95, 1),
    (0.90, 0.40, 0.45, 1),
    (0.45, 0.80, 0.45, 1),
    (0.78, 0.55, 0.95, 1),
    (0.95, 0.95, 0.95, 1),
]


def project_colour(name: str, names: tuple[str, ...] = ()) -> tuple:
    """The colour of a Project; a Project from a player's own legend gets a spare colour."""
    if name in PROJECT_COLOURS:
        return PROJECT_COLOURS[name]
    index = names.index(name) if name in names else 0
    return _SPARE[index % len(_SPARE)]


def player_colour(index: int) -> tuple:
    return PLAYER_COLOURS[index % len(PLAYER_COLOURS)]


def scaled(value: float) -> float:
    """`value` dp, grown with the window (see CompanionApp.ui_scale)."""
    from kivy.app import App
    from kivy.metrics import dp

    app = App.get_running_app()
    return dp(value) * (app.ui_scale if app is not None else 1.0)
