"""Each game's play and end screens, loaded once by the app and built when first shown; the set-up
screen offers the games whose screens loaded. Its own module so that screens and the app both read it (no import circle)."""
from __future__ import annotations

import importlib

# Each game's screens: (name, module, class) of its play screen, then of its end screen. A game
# is offered on the set-up screen once its screens load; a game whose end is not a score table
# brings its own end screen.
GAME_SCREENS = {
    "rolling-village": (("village", "companion.ui.screens.village", "VillageScreen"),
                        ("end", "companion.ui.screens.end", "EndScreen")),
    "civility": (("civility", "companion.ui.screens.civility", "CivilityScreen"),
                 ("civility-end", "companion.ui.screens.civility_end", "CivilityEndScreen")),
    "centerville": (("centerville", "companion.ui.screens.centerville", "CentervilleScreen"),
                    ("centerville-end", "companion.ui.screens.centerville_end", "CentervilleEndScreen")),
}
PLAY_SCREENS: dict[str, str] = {}  # game -> play screen name, for the games whose screens loaded
END_SCREENS: dict[str, str] = {}


def load_game_screens() -> dict:
    """name -> screen class, for the play and end screens of every game whose screen modules are
    installed (the modules are imported here; the screens are built when first shown)."""
    makers = {}
    for game, specs in GAME_SCREENS.items():
        try:
            classes = [getattr(importlib.import_module(module), cls) for _, module, cls in specs]
        except ModuleNotFoundError as exc:
            # Only a game whose screen module is absent is left out; any other error is loud.
            if exc.name not in {module for _, module, _ in specs}:
                raise
            continue
        for (name, _, _), cls in zip(specs, classes):
            makers.setdefault(name, cls)
        PLAY_SCREENS[game], END_SCREENS[game] = specs[0][0], specs[1][0]
    return makers
