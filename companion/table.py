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
from dataclasses import dataclass, replace
from typing import Any, Callable, Mapping

from companion.engine.core import Action
from companion.engine.dice import pip_value
from companion.events import Command, EventQueue, InputEvent, TableLight
from companion.session import Accepted, Rejected, Session

# Desktop keys -> what they mean at the table. Digits enter dice; the initials of a game's
# Projects are added per game (see RollingVillageInput.key).
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
    the Project picked for the next square, and Avenue choices on a choice roll."""

    dice: tuple[int, ...] = ()
    player: str | None = None
    project: str | None = None
    choices: tuple[tuple[str, int], ...] = ()

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
        return self._input.light(self)

    # -- the game in play --------------------------------------------------------------------
    def open(self, session: Session) -> None:
        """Play `session` at this table (a new or resumed game)."""
        self.session = session
        self._input = input_for(session.game.name)
        self.draft = Draft()
        self.advice = None
        self.reading = False
        self.say(session.notice or "", error=bool(session.notice))
        self.draft = self._input.settle(self, Draft())
        self._changed()

    def close(self) -> None:
        self.session = None
        self._input = None
        self.draft = Draft()
        self.advice = None
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
        if self.session is None or self._input is None:
            return Outcome(info="No game is open.")
        intent = self._intent(event)
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
        elif outcome.action is not None:
            self.say("")
        self._changed()
        return outcome

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

    def undo(self) -> Outcome:
        return self._after(self.session.undo(), None)

    def redo(self) -> Outcome:
        return self._after(self.session.redo(), None)

    def read_dice(self) -> Outcome:
        if self.dice_reader is None:
            return Outcome(info="No dice camera is connected: tap the two dice instead.")
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


# Wiring kept beside a game's screen helpers (no Kivy there either), imported when first needed.
WIRING_MODULES = {"civility": "companion.ui.civility_view"}


def input_for(game_name: str) -> GameInput:
    """The wiring of `game_name`'s intents into its actions."""
    if game_name not in INPUTS and game_name in WIRING_MODULES:
        import importlib

        importlib.import_module(WIRING_MODULES[game_name])
    try:
        return INPUTS[game_name]()
    except KeyError:
        raise KeyError(f'The table has no input wiring for "{game_name}" yet.') from None


# ---------------------------------------------------------------------------------------------
# Rolling Village: dice for the building and the scoring rolls, squares on each player's sheet.
# ---------------------------------------------------------------------------------------------
@wiring("rolling-village")
class RollingVillageInput(GameInput):
    """Taps and keys -> roll / build / bonus / activate, in the phase the state is in."""

    # -- what the screen asks the wiring ---------------------------------------------------
    @staticmethod
    def projects_allowed(state, player: str) -> tuple[str, ...]:
        """The Projects `player` may draw next (in the legend's order)."""
        village = state.village(player)
        builds = [o for o in village.owed if o.kind in ("start", "build")]
        if builds:
            if builds[0].kind == "start":
                banned = {o.not_project for o in builds} if all(o.not_project for o in builds) else set()
                return tuple(n for n in state.legend.names if n not in banned)
            wanted = {o.project for o in builds}
            return tuple(n for n in state.legend.names if n in wanted)
        if village.owed:
            return tuple(n for n in state.legend.names if n not in village.bonus_used)
        return ()

    @staticmethod
    def legal_squares(state, player: str, project: str | None) -> list[tuple[int, int]]:
        """Where `project` may go for `player` now: the squares to highlight."""
        from companion.engine.rolling_village import views

        village = state.village(player)
        if project is None or not village.owed:
            return []
        if any(o.kind != "bonus" for o in village.owed):
            return views.legal_squares(state, player, project)
        return views.bonus_squares(state, player) if project not in village.bonus_used else []

    @staticmethod
    def choosing(state, draft: Draft) -> bool:
        """True while the scoring dice entered make each player choose an Avenue (2 or 12)."""
        return (state.phase == "activate" and len(draft.dice) == 2
                and state.sheet.avenue_for_sum(sum(draft.dice)) is None)

    # -- GameInput ---------------------------------------------------------------------------
    def settle(self, table: Table, draft: Draft) -> Draft:
        state = table.state
        players = state.players
        player = draft.player if draft.player in players else players[0]
        project = None
        if state.phase == "build":
            if not state.village(player).owed:
                start = players.index(player)
                ring = players[start:] + players[:start]
                player = next(p for p in ring if state.village(p).owed)
            allowed = self.projects_allowed(state, player)
            project = draft.project if draft.project in allowed else None
            if project is None:
                project = next((p for p in allowed if self.legal_squares(state, player, p)),
                               allowed[0] if allowed else None)
        return Draft(dice=draft.dice, player=player, project=project, choices=draft.choices)

    def key(self, table: Table, key: str) -> tuple | None:
        legend = table.state.legend
        for name, title in zip(legend.names, legend.titles):
            if title[:1].lower() == key:
                return ("project", name)
        return None

    def light(self, table: Table) -> TableLight:
        phase = table.state.phase
        if phase in ("roll", "activate"):
            if len(table.draft.dice) == 2:
                return TableLight.NEEDS_CONFIRMATION
            return TableLight.WAITING_FOR_DICE if phase == "roll" else TableLight.SCORING
        return TableLight.IDLE

    def _redraft(self, table: Table, **changes) -> Outcome:
        table.draft = self.settle(table, replace(table.draft, **changes))
        return Outcome()

    def on_die(self, table: Table, value: int) -> Outcome:
        state = table.state
        if not (_whole(value) and 1 <= value <= 6):
            return Outcome(info=f"A die shows 1 to 6, not {value!r}.")
        if state.phase not in ("roll", "activate"):
            return Outcome(info=f"The dice {list(state.dice)} are in: build first, then roll again.")
        dice = table.draft.dice + (value,) if len(table.draft.dice) < 2 else (value,)
        return self._redraft(table, dice=dice, choices=())

    def on_dice(self, table: Table, values: tuple[int, ...]) -> Outcome:
        if len(values) != 2:
            return Outcome(info=f"The camera saw {len(values)} dice; Rolling Village rolls 2.")
        if table.state.phase not in ("roll", "activate"):
            return Outcome(info="Dice were read, but nobody is rolling now: build first.")
        return self._redraft(table, dice=tuple(values), choices=())

    def on_clear(self, table: Table) -> Outcome:
        return self._redraft(table, dice=(), choices=())

    def on_player(self, table: Table, name: str) -> Outcome:
        if name not in table.state.players:
            return Outcome(info=f'"{name}" is not playing.')
        return self._redraft(table, player=name, project=None)

    def on_player_step(self, table: Table, step: int) -> Outcome:
        players = table.state.players
        step = step if _whole(step) else 1
        index = players.index(table.draft.player) if table.draft.player in players else 0
        return self.on_player(table, players[(index + step) % len(players)])

    def on_project(self, table: Table, name: str) -> Outcome:
        table.draft = replace(table.draft, project=name)
        return Outcome()

    def on_avenue(self, table: Table, player: str, row: int) -> Outcome:
        state = table.state
        if not self.choosing(state, table.draft):
            sums = " or ".join(str(s) for s in state.sheet.choice_sums)
            return Outcome(info=f"Players choose their Avenue only when the scoring roll adds up to "
                                f"{sums} (rule: Scoring Phase).")
        if player not in state.players or not (_whole(row) and 1 <= row <= state.sheet.avenues):
            return Outcome(info=f"An Avenue is chosen by a player, 1 to {state.sheet.avenues} from the top.")
        choices = dict(table.draft.choices)
        choices[player] = row
        return self._redraft(table, choices=tuple(sorted(choices.items())), player=player)

    def on_square(self, table: Table, player: str, row: int, street: int) -> Outcome:
        from companion.engine.rolling_village import Bonus, Build

        state = table.state
        if player not in state.players or not (_whole(row) and _whole(street)):
            return Outcome(info="A square is a player's Avenue and Street, as numbers.")
        if self.choosing(state, table.draft):
            return self.on_avenue(table, player, row)
        if player != table.draft.player and player in state.players:
            self.on_player(table, player)  # a tap on a sheet puts that player's sheet in front
        project = table.draft.project
        village = state.village(player)
        if any(o.kind != "bonus" for o in village.owed):
            # A tap on a square legal only for the other rolled Project builds that one.
            if (row, street) not in self.legal_squares(state, player, project):
                fits = [p for p in self.projects_allowed(state, player)
                        if (row, street) in self.legal_squares(state, player, p)]
                if len(fits) == 1:
                    project = fits[0]
        elif village.owed:
            return table.submit(Bonus(player, project or "", row, street))
        return table.submit(Build(player, project or state.legend.names[0], row, street))

    def on_command(self, table: Table, command: Command) -> Outcome:
        if command is Command.NEXT:
            return self.on_player_step(table, 1)
        return self.on_confirm(table)

    def on_confirm(self, table: Table) -> Outcome:
        from companion.engine.core import pairs
        from companion.engine.rolling_village import Activate, Roll

        state, draft = table.state, table.draft
        if state.phase == "build":
            return Outcome(info=f"{draft.player}: tap a highlighted square to build.")
        if len(draft.dice) != 2:
            return Outcome(info="Tap the two dice first (or press 1-6 twice).")
        if state.phase == "roll":
            return table.submit(Roll(draft.dice))
        if state.phase == "activate":
            choices = pairs(dict(draft.choices)) if draft.choices and self.choosing(state, draft) else None
            return table.submit(Activate(draft.dice, choices))
        return Outcome(info="The game is over.")

    def on_advise(self, table: Table) -> Outcome:
        state, player = table.state, table.draft.player or table.state.players[0]
        advise = table.advisor or advise_rolling_village
        table.advice = advise(state, player, table.draft)
        return Outcome(info=table.advice.text)


@dataclass(frozen=True)
class Suggestion:
    """The advisor's suggestion as the screen shows it: a sentence, squares to mark, an Avenue."""

    text: str
    player: str = ""
    squares: tuple[tuple[int, int, str], ...] = ()  # (row, street, project), in building order
    avenue: int | None = None


def advise_rolling_village(state, player: str, draft: Draft | None = None) -> Suggestion:
    """Ask the engine's advisor about `player`'s builds now, or their Avenue on a 2 or 12."""
    from companion.engine.rolling_village import advisor

    if draft is not None and RollingVillageInput.choosing(state, draft):
        row = advisor.choose_avenue(state, player)
        return Suggestion(f"{player}: Activate Avenue {state.sheet.label(row)}, it scores most now.",
                          player, avenue=row)
    if not state.village(player).owed:
        return Suggestion(f"{player} has nothing to build now; the advisor helps with building.", player)
    advice = advisor.advise(state, player)
    steps = [f"{'Bonus ' if a.type == 'bonus' else ''}{state.legend.title(a.project)} at Avenue "
             f"{state.sheet.label(a.row)}, Street {a.street}" for a in advice.actions]
    return Suggestion(f"Advice for {player}: {'; '.join(steps)} (expected final score "
                      f"{advice.expected_final:.0f}).", player,
                      tuple((a.row, a.street, a.project) for a in advice.actions))
