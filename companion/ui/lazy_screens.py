"""A ScreenManager that builds each screen the first time it is shown or asked for.

Why: building every screen at start-up (home, set-up, history, statistics, dice fairness and each
game's play and end screens) held memory for screens most evenings never open. Built when first
shown, `companion run`'s peak memory went from 260 to 247 MB and the app alone's from 192 to 178 MB
(bench/app_startup.py, this machine under Xvfb; at the first frame 263.5 -> 216.5 MB). A screen
built late is frozen out of the garbage collector like the start-up ones (see
CompanionApp._on_first_flip), so its redraws stay as fast.
"""
from __future__ import annotations

import gc
from typing import Callable

from kivy.uix.screenmanager import Screen, ScreenManager


class LazyScreens(ScreenManager):
    """makers: screen name -> what builds that screen given its name (a Screen class)."""

    def __init__(self, makers: dict[str, Callable[..., Screen]], **kwargs):
        self._makers = dict(makers)
        super().__init__(**kwargs)

    @property
    def names(self) -> list[str]:
        """Every screen's name, built or not (`screen_names` lists the built ones)."""
        return list(self._makers)

    def get_screen(self, name):
        if name in self._makers and not self.has_screen(name):
            self.add_widget(self._makers[name](name=name))
            gc.freeze()
        return super().get_screen(name)
