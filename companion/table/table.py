"""The Table: one table's session, draft and observers; every InputEvent goes through `handle`."""
from __future__ import annotations

import threading
from typing import Any, Callable, Mapping

from companion.engine.core import Action
from companion.engine.dice import pip_value
from companion.events import Command, EventQueue, InputEvent, TableLight
from companion.table.fair_rolls import FairRolls
from companion.session import Accepted, Session

from .draft import Draft, Outcome, whole
from .game_input import GameInput, input_for
from .keys import KEYS


class Table:
    """The wiring for one table: a session (or none, on the home screen), the draft, observers."""

    def __init__(self, queue: EventQueue | None = None, advisor: Callable | None = None,
                 dice_reader: Callable[[], None] | None = None,
                 command_keys: Mapping[str, Command] | None = None, background: bool = False):
        self.queue = queue or EventQueue()
        # Long work (the advisor) on a worker thread, its result posted back through the queue:
        # the app's window must never freeze. Off, it runs at once (the table without a window).
        self.background = background
        self.thinking = ""              # what long work the table waits for ("" when none)
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
        self.panel_status = ""  # "connected" / "disconnected" once the serial panel said so
        self.dice_check: Any = None     # an uncertain camera reading awaiting the players' check
        self._check_kept: list[int] = []   # which of the reading's dice are still in the check
        # The table's taught Centerville dice (companion.taught_dice.TaughtDice; the app sets it)
        # and the lesson teaching them, while it is open (companion.table.teach.Teaching).
        self.taught: Any = None
        self.teaching: Any = None
        # The camera's pip reads as the players checked them (companion.pip_checks.PipChecks; the
        # app sets it beside games.db): by them the table earns fewer questions.
        self.pip_checks: Any = None
        self.fair_rolls = FairRolls()   # the camera's rolls for the fairness statistics, once each
        # Centerville's rolls kept as labelled photos ([camera] keep_photos; companion.checked_photos.
        # HeldPhotos; pip rolls go through pip_checks, which judges them).
        self.icon_photos: Any = None
        # What of them still waits, written down beside games.db against a power cut
        # (companion.waiting_rolls.WaitingRolls; the app sets it).
        self.waiting: Any = None
        self._observers: list[Callable[["Table"], None]] = []
        self._light_observers: list[Callable[[TableLight], None]] = []
        self._light = TableLight.IDLE
        self._input: GameInput | None = None

    # -- observers ---------------------------------------------------------------------------
    def subscribe(self, callback: Callable[["Table"], None]) -> None:
        """`callback(table)` after every change: the screen re-renders from `table.session.state`."""
        self._observers.append(callback)

    def unsubscribe(self, callback: Callable[["Table"], None]) -> None:
        """Stop calling `callback` (a dialog that closes)."""
        if callback in self._observers:
            self._observers.remove(callback)

    def on_light(self, callback: Callable[[TableLight], None]) -> None:
        """`callback(light)` whenever what the table waits for changes (LEDs, the panel ring)."""
        self._light_observers.append(callback)

    @property
    def light(self) -> TableLight:
        return self._light

    def _changed(self) -> None:
        if self._input is not None and self.session is not None:
            self._input.changed(self)
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
        self.settle_rolls()
        self.session = session
        self._input = input_for(session.game.name)
        self.draft = Draft()
        self.advice = None
        self.reading = False
        self.dice_check = None
        self.say(session.notice or "", error=bool(session.notice))
        self.draft = self._input.settle(self, Draft())
        self._input.opened(self)
        self._changed()

    def close(self) -> None:
        self.settle_rolls()
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
        outcome = self._handle(event)
        self._write_waiting()
        return outcome

    def _handle(self, event: InputEvent) -> Outcome:
        if event.kind == "status":
            return self._on_status(event)
        if event.kind == "done" and event.source == "worker":
            then, result = event.value
            outcome = then(result)
            if outcome is not None and outcome.info:
                self.say(outcome.info, error=isinstance(result, Exception))
            self._changed()
            return outcome or Outcome()
        if self.teaching is not None:
            outcome = self.teaching.handle(self, event)
            if outcome is not None:  # the lesson's: a reading, read-dice, confirm, its taps
                self.say(outcome.info or "")
                self._changed()
                return outcome
        if self.session is None or self._input is None:
            return Outcome(info="No game is open.")
        own = self._input.reading_intent(self, event.value) if event.kind == "dice" else None
        checks = ""   # what the table's checked pip reads say (companion.pip_checks)
        # Where among the game's actions the dice read now would go (None: none awaited).
        at = self._input.dice_entry(self) if event.kind == "dice" else None
        if own is None and at is not None and self.pip_checks is not None:
            checks = self.pip_checks.read(event.value, self.session, at)
        count = self._input.dice_count(self) if event.kind == "dice" else None
        extra = count is not None and len(getattr(event.value, "dice", ())) > count
        if own is None and (event.kind == "dice" and (getattr(event.value, "uncertain", False) or extra)
                and self._input.wants_dice(self)):
            # The camera was unsure of a die, or boxed more than are rolled: the players check it first.
            self.reading = False
            self.dice_check = event.value
            self._check_kept = list(range(len(event.value.dice)))   # the reading's dice still in the check
            if extra:
                self.say(f"The camera saw {len(event.value.dice)} dice, and {count} are rolled: tap Not a die "
                         f"beside each box on no die, correct the rest, then confirm. {checks}".strip())
            else:
                self.say(f"Check the dice the camera was unsure of: correct them or confirm. {checks}".strip())
            self._changed()
            return Outcome(info=self.message)
        check_tap = self._check_tap(event.value) if event.kind == "tap" else None
        if self.dice_check is not None and check_tap is not None:
            outcome = check_tap(*event.value[1:])
            if outcome.info:
                self.say(outcome.info)
            self._changed()
            return outcome
        if (self.dice_check is not None and event.kind == "command"
                and event.value in (Command.CONFIRM, Command.CONFIRM.value)):
            # Confirm (a button as well as the dialog) takes the dice as the camera read them.
            event = InputEvent("dice", self.dice_check, event.source)
            at = self._input.dice_entry(self)
            if self.pip_checks is not None:
                # each die's face, as the players checked it
                self.pip_checks.confirmed(self.dice_check.faces, tuple(self._check_kept))
        if own is not None:
            self.reading = False
        intent = own if own is not None else self._intent(event)
        if intent is not None and intent[0] in ("dice", "die", "clear"):
            self.dice_check = None
        if intent is None:
            # An unknown key or a garbled panel line: ignored, and said so, never a crash.
            outcome = Outcome(info=f'"{event.value}" from {event.source or event.kind} means nothing here.')
            if event.kind == "key":
                return outcome  # stray keys on a desktop are not worth a banner
        else:
            outcome = self._input.dispatch(self, intent)
            if event.kind == "dice" and intent[0] != "unreadable" and outcome.rejected is None:
                # For the fairness statistics: only a camera reading has dice (and their colours),
                # kept once the game has moved past its entry, with the faces entered there.
                self.fair_rolls.read(event.value, self.session, at)
        if outcome.rejected is not None:
            self.say(outcome.rejected.reason, error=True)
        elif outcome.info:
            self.say(outcome.info)
        elif outcome.action is not None or event.kind == "dice":
            self.say("")    # also clears "Reading the dice..." once they are read
        if outcome.action is not None:
            settled = self._settle(everything=False)   # a roll entered: the one before is final
            checks = checks or settled
        if checks:
            self.say(f"{self.message} {checks}".strip(), error=self.message_is_error)
        self._changed()
        return outcome

    def settle_rolls(self) -> None:
        """Keep and judge the last camera rolls of the game being left or the app closing (fair_rolls,
        companion.pip_checks): what the game took of them is the best the table will know."""
        self._settle(everything=True)
        self._write_waiting()

    def _settle(self, everything: bool) -> str:
        """The camera rolls the game has moved past (every one with `everything`) kept by each of their
        holders; what the checked pip reads say of them ("" for nothing)."""
        self.fair_rolls.settle(everything)
        if self.icon_photos is not None:
            self.icon_photos.settle(everything)
        return self.pip_checks.settle(everything) if self.pip_checks is not None else ""

    def _write_waiting(self) -> None:
        if self.waiting is not None:
            self.waiting.save(self)

    def _check_tap(self, value) -> Callable[..., Outcome] | None:
        """What a tap does to the reading being checked: ("drop_die", i) or ("correct_die", i, face)."""
        if isinstance(value, (tuple, list)) and len(value) == 2 and value[0] == "drop_die":
            return self._drop_die
        if isinstance(value, (tuple, list)) and len(value) == 3 and value[0] == "correct_die":
            return self._correct_die
        return None

    def _drop_die(self, index) -> Outcome:
        """The players say die `index` of the reading being checked is no die (a box on a shadow, a
        die's side face boxed again): it leaves the reading."""
        from dataclasses import replace

        dice = tuple(self.dice_check.dice)
        if not (whole(index) and 0 <= index < len(dice)):
            return Outcome(info=f"There is no die {index!r} to drop.")
        if len(dice) == 1:
            return Outcome(info="The last die cannot be dropped: enter the dice by hand instead.")
        self.dice_check = replace(self.dice_check, dice=dice[:index] + dice[index + 1:])
        self._check_kept.pop(index)
        return Outcome()

    def _correct_die(self, index, face) -> Outcome:
        """The players set die `index` of the reading being checked to `face` (1-6)."""
        from dataclasses import replace

        dice = tuple(self.dice_check.dice)
        if not (whole(index) and 0 <= index < len(dice) and whole(face) and 1 <= face <= 6):
            return Outcome(info=f"A die is corrected to 1 to 6, not {face!r}.")
        fixed = replace(dice[index], face=face, label=f"pip{face}", confidence=1.0, uncertain=False)
        self.dice_check = replace(self.dice_check, dice=dice[:index] + (fixed,) + dice[index + 1:])
        return Outcome()

    def _on_status(self, event: InputEvent) -> Outcome:
        """A device's news: {"camera": "connected" | "unavailable", "message": "..."}."""
        value = event.value if isinstance(event.value, dict) else {}
        if value.get("panel") in ("connected", "disconnected"):
            # The panel's buttons are one more way in: touch and keys work without it.
            self.panel_status = value["panel"]
            if value.get("message"):
                self.say(str(value["message"]), error=value["panel"] == "disconnected")
            self._changed()
            return Outcome(info=str(value.get("message") or ""))
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
    def off_main(self, work: Callable[[], Any], then: Callable[[Any], "Outcome | None"]) -> None:
        """Run `work()` on a worker thread (with `background`), then `then(result)` on the main
        thread when the pump meets its "done" event (Kivy's Clock runs the pump every frame);
        `result` is the exception if `work` raised. Without `background`, both run now."""
        def run():
            try:
                result = work()
            except Exception as exc:  # said on the banner; the table carries on
                result = exc
            return result

        if not self.background:
            then(run())  # the caller's own outcome says what came of it
            return
        threading.Thread(target=lambda: self.queue.put(InputEvent("done", (then, run()), "worker")),
                         name="table-worker", daemon=True).start()

    def submit(self, action: Action) -> Outcome:
        before = self.state
        return self._said(before, self._after(self.session.submit(action), action))

    def _said(self, before, outcome: Outcome, done: str = "") -> Outcome:
        """An accepted action's banner: what it changed (the game's words), kept until the next."""
        if outcome.action is not None and not outcome.info:
            outcome.info = done + self._input.said(before, self.state, outcome.action)
        return outcome

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
        before = self.state
        return self._said(before, self._after(self.session.correct_last_chance(action), action), "Corrected: ")

    def undo(self) -> Outcome:
        undone = self.undo_words()
        outcome = self._after(self.session.undo(), None)
        if outcome.action is not None:
            outcome.info = f"Undone: {undone}." if undone else "Undone."
            self._input.undone(self, outcome.action)
        return outcome

    def redo(self) -> Outcome:
        before = self.state
        return self._said(before, self._after(self.session.redo(), None), "Redone: ")

    def undo_words(self) -> str:
        """What Undo would take back, in a few of the game's words ("" if nothing or unknown)."""
        if self.session is None or self._input is None or not self.session.can_undo:
            return ""
        return self._input.short(self.session.before_last, self.session.actions[-1])

    def start_teaching(self) -> None:
        """Open a lesson teaching the camera the table's dice (companion.table.teach)."""
        from .teach import Teaching

        if self.taught is None:
            raise RuntimeError("The table has no place to keep taught dice (table.taught is unset).")
        self.teaching = Teaching(self.taught)
        self.say("Roll the dice into the tray, then read the dice." if self.dice_reader is not None
                 else "No dice camera is connected: the camera cannot be taught now.")
        self._changed()

    def stop_teaching(self) -> None:
        self.teaching = None
        self.reading = False
        self.say("")
        self._changed()

    def read_dice(self) -> Outcome:
        if self.dice_reader is None:
            return Outcome(info="No dice camera is connected: tap the two dice instead.")
        if self.camera_status == "unavailable":
            return Outcome(info="The dice camera is unavailable: enter the dice by hand.")
        self.reading = True
        self.dice_reader()
        return Outcome(info="Reading the dice...")
