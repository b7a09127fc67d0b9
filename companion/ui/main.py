"""The Kivy App: the screens, the banner, keys, and the table's event pump on the main thread."""
from __future__ import annotations

import gc
import resource
import time
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Keyboard, Window
from kivy.properties import NumericProperty
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.screenmanager import NoTransition

from companion.engine.core import RulesError, find_game
from companion.events import InputEvent
from companion.memory import release_freed_memory
from companion.pip_checks import PipChecks
from companion.waiting_rolls import WaitingRolls
from companion.session import Session
from companion.store import StoreError
from companion.table import Table
from companion.taught_dice import TaughtDice

from . import theme
from .game_screens import END_SCREENS, PLAY_SCREENS, load_game_screens
from .keyboard_lift import KeyboardLift
from .lazy_screens import LazyScreens
from .screens.box_photos import BoxPhotosScreen
from .screens.dice_fairness import DiceFairnessScreen
from .screens.history import HistoryScreen
from .screens.home import HomeScreen
from .screens.stats import StatsScreen
from .screens.score_board import ScoreBoardScreen
from .screens.setup import SetupScreen
from .widgets.common import Banner

_KEY_NAMES = {code: name for name, code in Keyboard.keycodes.items()}


class CompanionApp(App):
    title = "Tabletop Companion"
    # 1 at 800x480; larger windows scale fonts and fixed rows alike (1.5 at 1280x720).
    ui_scale = NumericProperty(1.0)

    def __init__(self, store, exit_after: float | None = None, started: float | None = None,
                 command_keys=None, **kwargs):
        super().__init__(**kwargs)
        self.store = store
        self.table = Table(command_keys=command_keys, background=True)  # the window never waits
        # The camera's taught Centerville dice live beside games.db: they belong to the table.
        self.table.taught = TaughtDice(Path(store.path).parent)
        # So do its checked pip reads: by them it earns fewer questions (companion.pip_checks).
        self.table.pip_checks = PipChecks(Path(store.path).parent)
        # And the camera rolls still waiting to be final: written down, so a power cut loses none.
        self.table.waiting = WaitingRolls(Path(store.path).parent)
        self.exit_after = exit_after  # seconds after the first frame to quit (benches), or None
        self.started = started if started is not None else time.perf_counter()
        self.first_frame: float | None = None

    # -- building ----------------------------------------------------------------------------
    def build(self):
        Window.clearcolor = theme.BACKGROUND
        self._rescale(Window, Window.size)
        Window.bind(size=self._rescale)
        # The banner sits below the screens, not over them: while it shows a message the screen
        # above it is shorter, and no button is covered (it takes no room when empty).
        root = BoxLayout(orientation="vertical")
        self.screens = LazyScreens({"home": HomeScreen, "setup": SetupScreen, "score-board": ScoreBoardScreen,
                                    "history": HistoryScreen, "stats": StatsScreen,
                                    "dice-fairness": DiceFairnessScreen, "box-photos": BoxPhotosScreen,
                                    **load_game_screens()},
                                   transition=NoTransition())
        root.add_widget(self.screens)
        self.banner = Banner()
        root.add_widget(self.banner)
        self.table.subscribe(self.on_table_change)
        Clock.schedule_interval(self.table.pump, 0)  # every frame: input never waits on a timer
        Window.bind(on_key_down=self.on_key_down, on_flip=self._on_first_flip)
        self.keyboard_lift = KeyboardLift.on(Window)  # a focused field stays above the docked keyboard
        if self.store.notice:
            self.say(self.store.notice, error=True)
        self.screens.current = "home"
        return root

    def _rescale(self, _window, size) -> None:
        width, height = size
        scale = max(1.0, min(width / 800, height / 480, 2.5))
        if abs(scale - self.ui_scale) > 0.01:
            self.ui_scale = scale
            screens = getattr(self, "screens", None)
            if screens is not None:
                Clock.schedule_once(lambda _dt: self._rerender(), 0)

    def _rerender(self) -> None:
        current = self.screens.current_screen
        if hasattr(current, "render") and self.table.session is not None:
            current.render(self.table)
        elif hasattr(current, "refresh"):
            current.refresh()

    def _on_first_flip(self, *_args) -> None:
        Window.unbind(on_flip=self._on_first_flip)
        self.first_frame = time.perf_counter() - self.started
        # Start-up's objects (Kivy, the engines, the screens) are set aside from the collector:
        # a full collection during a redraw took 90-200 ms; with them frozen the Centerville
        # board's whole redraw went from p95 52-68 ms to 21-26 ms (bench/centerville_board.py).
        gc.freeze()
        release_freed_memory()   # what start-up built and let go
        if self.exit_after is not None:
            peak_kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
            print(f"first frame after {self.first_frame:.3f} s; peak memory {peak_kb / 1024:.1f} MB", flush=True)
            Clock.schedule_once(lambda _dt: self.stop(), self.exit_after)

    # -- messages ----------------------------------------------------------------------------
    def say(self, message: str, error: bool = False) -> None:
        """A message not coming from the table (set-up errors, the store's notice)."""
        self.table.say(message, error)
        self._banner().say(message, error, self.table.message_count)

    def _banner(self) -> Banner:
        # The play screen has its own message box beside the dice, so nothing covers a button.
        return getattr(self.screens.current_screen, "banner", None) or self.banner

    # -- moving between screens --------------------------------------------------------------
    def go_home(self) -> None:
        self.table.close()
        self.screens.current = "home"
        self.screens.get_screen("home").refresh()

    def go_setup(self, players=None) -> None:
        if self.table.session is not None:
            self.table.close()  # "Play again": the game's last banner stays with that game
        self.screens.get_screen("setup").prepare(players)
        self.screens.current = "setup"

    def go_history(self) -> None:
        """Every game played, with filters; each opens, resumes, is set aside or deleted."""
        self.table.close()
        self.screens.current = "history"

    def go_stats(self) -> None:
        self.table.close()
        self.screens.current = "stats"

    def go_dice(self) -> None:
        self.table.close()
        self.screens.current = "dice-fairness"

    def go_box_photos(self) -> None:
        """The photos of rolls the camera boxed wrongly, for a person to box."""
        self.table.close()
        self.screens.current = "box-photos"

    def share_game(self, game_id: int | None) -> None:
        """A finished game's BG Stats link as a QR code to scan."""
        from .sharing import share

        game = self.table.session.game.name if self.table.session is not None else None
        view = share(self.store, game_id, self.game_title(game)) if game_id is not None and game else None
        if view is None:
            self.say("Only a finished, saved game can be shared.", error=True)
            return
        view.open()

    def go_score_board(self) -> None:
        """Score our board: a Centerville board entered as it stands, no game tracked."""
        self.screens.get_screen("score-board").start_over()
        self.screens.current = "score-board"

    def start_game(self, game_name: str, players, options=None) -> bool:
        try:
            session = Session.new(game_name, players, options, store=self.store)
        except (RulesError, StoreError) as exc:  # StoreError: read-only or full, the game is not stored
            self.say(str(exc), error=True)
            return False
        self._play(session)
        return True

    def resume(self, game_id: int) -> None:
        try:
            session = Session.resume(self.store, game_id)
        except (RulesError, KeyError, ValueError) as exc:
            self.say(f"That game cannot be opened: {exc}", error=True)
            return
        self._play(session)

    def _play(self, session: Session) -> None:
        screen = PLAY_SCREENS.get(session.game.name)
        if screen is None:
            self.say(f"{session.game.title} has no table screen yet.", error=True)
            return
        self.table.open(session)
        self.screens.current = END_SCREENS[session.game.name] if session.finished else screen

    def show_result(self, game_id: int) -> None:
        """A finished game from the history: its end screen."""
        self.resume(game_id)

    # -- the table ---------------------------------------------------------------------------
    def post(self, kind: str, value, source: str = "touch") -> None:
        """Widgets call this: every tap becomes an InputEvent on the table's queue."""
        self.table.post(InputEvent(kind, value, source))

    def on_table_change(self, table: Table) -> None:
        self._banner().say(table.message, table.message_is_error, table.message_count)
        if table.session is None:
            return
        end = END_SCREENS[table.session.game.name]
        if table.session.finished and self.screens.current != end:
            self.screens.current = end
        elif not table.session.finished and self.screens.current == end:
            # an undo from the end screen goes back to the play
            self.screens.current = PLAY_SCREENS[table.session.game.name]
        current = self.screens.current_screen
        if hasattr(current, "render"):
            current.render(table)

    def on_key_down(self, _window, key, _scancode, _codepoint, modifiers) -> bool:
        name = _KEY_NAMES.get(key)
        if name is None:
            return False
        if getattr(self.screens.current_screen, "typing", False):
            return False  # keys belong to the text field being typed in
        if self.screens.current in ("home", "setup", "score-board", "history", "stats", "dice-fairness"):
            if name == "escape" and self.screens.current != "home":
                self.go_home()
                return True
            return False
        # Modifiers in alphabetical order, as the config's [keys] chords are written ("ctrl+shift+z").
        mods = sorted(m for m in ("alt", "ctrl", "meta", "shift") if m in modifiers)
        if name in ("lctrl", "rctrl", "shift", "rshift", "alt", "alt-gr", "super", "compose"):
            return False
        self.table.post(InputEvent("key", "+".join(mods + [name]), "keyboard"))
        return True

    def game_title(self, name: str) -> str:
        try:
            return find_game(name).title
        except RulesError:
            return name

