"""Each game's play and end screens, loaded once by the app; the set-up screen offers the games
whose screens loaded. Its own module so that screens and the app both read it (no import circle)."""
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


def load_game_screens() -> list:
    """The play and end screens of every game whose screen modules are installed."""
    screens, made = [], {}
    for game, specs in GAME_SCREENS.items():
        try:
            loaded = [made.get(name) or getattr(importlib.import_module(module), cls)(name=name)
                      for name, module, cls in specs]
        except ModuleNotFoundError as exc:
            # Only a game whose screen module is absent is left out; any other error is loud.
            if exc.name not in {module for _, module, _ in specs}:
                raise
            continue
        for screen in loaded:
            if screen.name not in made:
                made[screen.name] = screen
                screens.append(screen)
        PLAY_SCREENS[game], END_SCREENS[game] = specs[0][0], specs[1][0]
    return screens
