"""The table's wiring: every InputEvent (a tap, a key, a button, a panel line, a dice reading)
becomes an engine action for the current game and phase, submitted through the Session.

No UI toolkit here, so the wiring is tested without a window. The Kivy app drains the
`EventQueue` on its main thread (`pump`), and re-renders from `session.state` when told of a
change; LEDs follow `light`. What a player is in the middle of entering (the first of two dice,
the Project picked before tapping a square, the Avenues chosen on a 2 or 12) is the `Draft`:
input in progress, never a game fact, and cleared by every accepted action.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from companion.engine.core import Action
from companion.engine.dice import pip_value
from companion.events import Command, EventQueue, InputEvent, TableLight
from companion.session import Accepted, Rejected, Session

# Desktop keys -> what they mean at the table. Digits enter dice; the initials of a game's
# Projects are added per game (see GameInput.key).
KEYS: dict[str, tuple] = {
    **{str(n): ("die", n) for n in range(1, 7)},
    **{f"numpad{n}": ("die", n) for n in range(1, 7)},
    "enter": ("command", Command.CONFIRM),
    "numpadenter": ("command", Command.CONFIRM),
    "spacebar": ("command", Command.CONFIRM),
    "ctrl+z": ("command", Command.UNDO),
    "ctrl+y": ("command", Command.REDO),
    "ctrl+shift+z": ("command", Command.REDO),
    "n": ("command", Command.NEXT),
    "tab": ("command", Command.NEXT),
    "r": ("command", Command.READ_DICE),
    "a": ("advise",),
    "right": ("player_step", 1),
    "left": ("player_step", -1),
    "backspace": ("clear",),
    "escape": ("clear",),
}


@dataclass(frozen=True)
class Draft:
    """Input in progress: dice entered but not confirmed, the player whose sheet is in front,
    the Project picked for the next square, Avenue choices on a choice roll, and whether the
    dice being entered correct the last roll (a misread die) instead of making a new one."""

    dice: tuple[int, ...] = ()
    player: str | None = None
    project: str | None = None
    choices: tuple[tuple[str, int], ...] = ()
    correcting: bool = False

    def choice(self, player: str) -> int | None:
        return dict(self.choices).get(player)


@dataclass
class Outcome:
    """What one event did: an accepted action, a refusal (with the rule sentence), or nothing."""

    action: Action | None = None
    rejected: Rejected | None = None
    info: str = ""


class Table:
    """The wiring for one table: a session (or none, on the home screen), the draft, observers."""

    def __init__(self, queue: EventQueue | None = None, advisor: Callable | None = None,
                 dice_reader: Callable[[], None] | None = None,
                 command_keys: Mapping[str, Command] | None = None):
        self.queue = queue or EventQueue()
        # The config file's [keys] ("ctrl+z" -> undo, ...) replace the default command keys.
        self.keys = dict(KEYS) if command_keys is None else {
            **{k: v for k, v in KEYS.items() if v[0] != "command"},
            **{chord: ("command", Command(command)) for chord, command in command_keys.items()}}
        self.session: Session | None = None
        self.draft = Draft()
        self.message: str = ""          # the last refusal or notice, for the banner
        self.message_is_error = False
        self.message_count = 0          # grows with every message: the same refusal twice shows twice
        self.advice: Any = None         # the advisor's last suggestion (game-specific value)
        self.reading = False            # a dice reading was asked for and has not arrived
        self.advisor = advisor
        self.dice_reader = dice_reader
        # The dice camera (companion/peripherals.py), when one is attached: the live view reads
        # its latest frame; `camera_status` is "connected" or "unavailable" (manual entry).
        self.camera: Any = None
        self.camera_status = ""
        self.dice_check: Any = None     # an uncertain camera reading awaiting the players' check
        self._observers: list[Callable[["Table"], None]] = []
        self._light_observers: list[Callable[[TableLight], None]] = []
        self._light = TableLight.IDLE
        self._input: GameInput | None = None

    # -- observers ---------------------------------------------------------------------------
    def subscribe(self, callback: Callable[["Table"], None]) -> None:
        """`callback(table)` after every change: the screen re-renders from `table.session.state`."""
        self._observers.append(callback)

    def on_light(self, callback: Callable[[TableLight], None]) -> None:
        """`callback(light)` whenever what the table waits for changes (LEDs, the panel ring)."""
        self._light_observers.append(callback)

    @property
    def light(self) -> TableLight:
        return self._light

    def _changed(self) -> None:
        for callback in list(self._observers):
            callback(self)
        light = self._compute_light()
        if light != self._light:
            self._light = light
            for callback in list(self._light_observers):
                callback(light)

    def _compute_light(self) -> TableLight:
        if self.session is None or self._input is None:
            return TableLight.IDLE
        if self.session.finished:
            return TableLight.GAME_OVER
        if self.reading:
            return TableLight.READING
        if self.dice_check is not None:
            return TableLight.NEEDS_CONFIRMATION
        return self._input.light(self)

    # -- the game in play --------------------------------------------------------------------
    def open(self, session: Session) -> None:
        """Play `session` at this table (a new or resumed game)."""
        self.session = session
        self._input = input_for(session.game.name)
        self.draft = Draft()
        self.advice = None
        self.reading = False
        self.dice_check = None
        self.say(session.notice or "", error=bool(session.notice))
        self.draft = self._input.settle(self, Draft())
        self._changed()

    def close(self) -> None:
        self.session = None
        self._input = None
        self.draft = Draft()
        self.advice = None
        self.dice_check = None
        self.say("")
        self._changed()

    @property
    def state(self):
        return None if self.session is None else self.session.state

    @property
    def game_input(self) -> "GameInput | None":
        """The open game's wiring: screens ask it what to offer (e.g. Civility's menu of choices)."""
        return self._input

    # -- events ------------------------------------------------------------------------------
    def post(self, event: InputEvent) -> None:
        """Any thread: queue an event for the main thread."""
        self.queue.put(event)

    def pump(self, *_args) -> int:
        """Main thread: handle every queued event (Kivy calls this from Clock.schedule_interval)."""
        events = self.queue.drain()
        for event in events:
            self.handle(event)
        return len(events)

    def handle(self, event: InputEvent) -> Outcome:
        """Turn one event into at most one action; tell the observers."""
        if event.kind == "status":
            return self._on_status(event)
        if self.session is None or self._input is None:
            return Outcome(info="No game is open.")
        if (event.kind == "dice" and getattr(event.value, "uncertain", False)
                and self._input.wants_dice(self)):
            # The camera was unsure of a die: the players check (and correct) it first.
            self.reading = False
            self.dice_check = event.value
            self.say("Check the dice the camera was unsure of: correct them or confirm.")
            self._changed()
            return Outcome(info=self.message)
        if (self.dice_check is not None and event.kind == "tap" and isinstance(event.value, (tuple, list))
                and len(event.value) == 3 and event.value[0] == "correct_die"):
            outcome = self._correct_die(*event.value[1:])
            if outcome.info:
                self.say(outcome.info)
            self._changed()
            return outcome
        if (self.dice_check is not None and event.kind == "command"
                and event.value in (Command.CONFIRM, Command.CONFIRM.value)):
            # Confirm (a button as well as the dialog) takes the dice as the camera read them.
            event = InputEvent("dice", self.dice_check, event.source)
        intent = self._intent(event)
        if intent is not None and intent[0] in ("dice", "die", "clear"):
            self.dice_check = None
        if intent is None:
            # An unknown key or a garbled panel line: ignored, and said so, never a crash.
            outcome = Outcome(info=f'"{event.value}" from {event.source or event.kind} means nothing here.')
            if event.kind == "key":
                return outcome  # stray keys on a desktop are not worth a banner
        else:
            outcome = self._input.dispatch(self, intent)
        if outcome.rejected is not None:
            self.say(outcome.rejected.reason, error=True)
        elif outcome.info:
            self.say(outcome.info)
        elif outcome.action is not None or event.kind == "dice":
            self.say("")    # also clears "Reading the dice..." once they are read
        self._changed()
        return outcome

    def _correct_die(self, index, face) -> Outcome:
        """The players set die `index` of the reading being checked to `face` (1-6)."""
        from dataclasses import replace

        dice = tuple(self.dice_check.dice)
        if not (_whole(index) and 0 <= index < len(dice) and _whole(face) and 1 <= face <= 6):
            return Outcome(info=f"A die is corrected to 1 to 6, not {face!r}.")
        fixed = replace(dice[index], face=face, label=f"pip{face}", confidence=1.0, uncertain=False)
        self.dice_check = replace(self.dice_check, dice=dice[:index] + (fixed,) + dice[index + 1:])
        return Outcome()

    def _on_status(self, event: InputEvent) -> Outcome:
        """A device's news: {"camera": "connected" | "unavailable", "message": "..."}."""
        value = event.value if isinstance(event.value, dict) else {}
        camera = value.get("camera")
        if camera not in ("connected", "unavailable"):
            return Outcome(info=f'"{event.value}" from {event.source or event.kind} means nothing here.')
        self.camera_status = camera
        if camera == "unavailable":
            self.reading = False
            self.dice_check = None
        message = str(value.get("message") or "")
        if message:
            self.say(message, error=camera == "unavailable")
        self._changed()
        return Outcome(info=message)

    def say(self, message: str, error: bool = False) -> None:
        """Set the banner's message (a refusal's rule sentence, or information)."""
        self.message, self.message_is_error = message, error
        self.message_count += 1

    def _intent(self, event: InputEvent) -> tuple | None:
        if event.kind == "command":
            try:
                return ("command", Command(event.value))
            except ValueError:
                return None
        if event.kind == "key":
            key = str(event.value).lower()
            return self.keys.get(key) or self._input.key(self, key)
        if event.kind == "tap":
            return tuple(event.value) if isinstance(event.value, (tuple, list)) else (event.value,)
        if event.kind == "dice":
            self.reading = False
            faces = getattr(event.value, "faces", event.value)
            if not isinstance(faces, (tuple, list)):
                return ("unreadable", (str(faces),))
            values = [f if isinstance(f, int) and not isinstance(f, bool) and 1 <= f <= 6
                      else pip_value(str(f)) for f in faces]
            if any(v is None for v in values):
                return ("unreadable", tuple(str(f) for f in faces))
            return ("dice", tuple(values))
        return None

    # -- helpers for GameInput ---------------------------------------------------------------
    def submit(self, action: Action) -> Outcome:
        result = self.session.submit(action)
        return self._after(result, action)

    def _after(self, result, action: Action | None) -> Outcome:
        if isinstance(result, Accepted):
            self.advice = None
            self.reading = False
            self.draft = self._input.settle(self, Draft(player=self.draft.player))
            return Outcome(action=result.action or action)
        return Outcome(rejected=result)

    def correct(self, action: Action) -> Outcome:
        """Replace the last chance entry of the same kind (a misread die) and replay what followed;
        refused, with nothing changed, if a later action would become illegal."""
        return self._after(self.session.correct_last_chance(action), action)

    def undo(self) -> Outcome:
        return self._after(self.session.undo(), None)

    def redo(self) -> Outcome:
        return self._after(self.session.redo(), None)

    def read_dice(self) -> Outcome:
        if self.dice_reader is None:
            return Outcome(info="No dice camera is connected: tap the two dice instead.")
        if self.camera_status == "unavailable":
            return Outcome(info="The dice camera is unavailable: enter the dice by hand.")
        self.reading = True
        self.dice_reader()
        return Outcome(info="Reading the dice...")


class GameInput:
    """One game's meaning of the table's intents; subclasses per game (see INPUTS)."""

    def settle(self, table: Table, draft: Draft) -> Draft:
        """The draft to show after a change (e.g. the next player who still has to build)."""
        return draft

    def key(self, table: Table, key: str) -> tuple | None:
        return None

    def wants_dice(self, table: Table) -> bool:
        """True while dice are to be entered: only then does an unsure reading ask the players.
        False by default: a game opts in once its screen shows the dice check (a check no screen
        shows would only wait for a confirm)."""
        return False

    def light(self, table: Table) -> TableLight:
        return TableLight.IDLE

    def dispatch(self, table: Table, intent: tuple) -> Outcome:
        kind = intent[0]
        if kind == "command":
            command = intent[1]
            if command is Command.UNDO:
                return table.undo()
            if command is Command.REDO:
                return table.redo()
            if command is Command.READ_DICE:
                return table.read_dice()
        if kind == "unreadable":
            return Outcome(info=f"The dice could not be read ({', '.join(intent[1])}): tap them instead.")
        handler = getattr(self, f"on_{kind}", None) if isinstance(kind, str) else None
        if handler is None:
            return Outcome(info=f'"{kind}" is not used in this game.')
        try:
            inspect.signature(handler).bind(table, *intent[1:])
        except TypeError:
            return Outcome(info=f"{intent!r} is not a complete instruction; nothing changed.")
        return handler(table, *intent[1:])


def _whole(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


INPUTS: dict[str, Callable[[], GameInput]] = {}


def wiring(game_name: str):
    """Class decorator: the GameInput for `game_name`."""
    def add(cls):
        INPUTS[game_name] = cls
        return cls
    return add


# Each game's wiring module (no Kivy in any), imported when the game is first opened; a module
# registers its GameInput with @wiring.
WIRING_MODULES = {
    "rolling-village": "companion.table.rolling_village",
    "civility": "companion.table.civility",
}


def input_for(game_name: str) -> GameInput:
    """The wiring of `game_name`'s intents into its actions."""
    if game_name not in INPUTS and game_name in WIRING_MODULES:
        import importlib

        importlib.import_module(WIRING_MODULES[game_name])
    try:
        return INPUTS[game_name]()
    except KeyError:
        raise KeyError(f'The table has no input wiring for "{game_name}" yet.') from None
