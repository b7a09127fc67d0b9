"""GameInput: one game's meaning of the table's intents, and the registry of each game's wiring."""
from __future__ import annotations

import importlib
import inspect
from typing import TYPE_CHECKING, Callable

from companion.events import Command, TableLight

from .draft import Draft, Outcome

if TYPE_CHECKING:
    from .table import Table


class GameInput:
    """One game's meaning of the table's intents; subclasses per game (see INPUTS)."""

    def settle(self, table: Table, draft: Draft) -> Draft:
        """The draft to show after a change (e.g. the next player who still has to build)."""
        return draft

    def opened(self, table: Table) -> None:
        """A game was opened at the table (new or resumed): what the screen must show first."""

    def changed(self, table: Table) -> None:
        """Something changed at the table (before the screen redraws): start work the players
        are likely to ask for next, e.g. the advisor's look at the sheet in front."""

    def said(self, before, after, action) -> str:
        """What an accepted `action` changed, for the banner kept until the next action ("" to
        say nothing: a game whose own intents already say it)."""
        return ""

    def short(self, before, action) -> str:
        """`action` (taken from `before`) in a few words, for the Undo button; "" says only Undo."""
        return ""

    def undone(self, table: Table, action) -> None:
        """`action` was undone: put in front what it changed (e.g. that player's sheet)."""

    def key(self, table: Table, key: str) -> tuple | None:
        return None

    def wants_dice(self, table: Table) -> bool:
        """True while dice are to be entered: only then does an unsure reading ask the players.
        False by default: a game opts in once its screen shows the dice check (a check no screen
        shows would only wait for a confirm)."""
        return False

    def dice_count(self, table: Table) -> int | None:
        """How many dice the roll awaited takes, when the dice check is offered (a reading with
        more opens the check, where a box on no die is dropped), else None."""
        return None

    def dice_entry(self, table: Table) -> int | None:
        """Where among the game's actions dice entered now go (a new roll's index, or the roll
        being corrected), or None while no dice are awaited: a camera reading is then judged by
        what the players enter there (companion.pip_checks). By default, a new roll while the
        dice check is offered."""
        return len(table.session.actions) if self.wants_dice(table) else None

    def reading_intent(self, table: Table, reading) -> tuple | None:
        """The intent of a camera reading for a game that reads it itself (icon dice), or None:
        the table's pip path (faces 1-6, the dice check for unsure dice) then applies."""
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
    "centerville": "companion.table.centerville",
}


def input_for(game_name: str) -> GameInput:
    """The wiring of `game_name`'s intents into its actions."""
    if game_name not in INPUTS and game_name in WIRING_MODULES:
        importlib.import_module(WIRING_MODULES[game_name])
    try:
        return INPUTS[game_name]()
    except KeyError:
        raise KeyError(f'The table has no input wiring for "{game_name}" yet.') from None
