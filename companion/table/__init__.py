"""The table's wiring: every InputEvent (a tap, a key, a button, a panel line, a dice reading)
becomes an engine action for the current game and phase, submitted through the Session.

No UI toolkit here, so the wiring is tested without a window. The Kivy app drains the
`EventQueue` on its main thread (`pump`), and re-renders from `session.state` when told of a
change; LEDs follow `light`. What a player is in the middle of entering (the first of two dice,
the Project picked before tapping a square, the Avenues chosen on a 2 or 12) is the `Draft`:
input in progress, never a game fact, and cleared by every accepted action.

One module each: `table` (the Table), `draft` (Draft, Outcome), `game_input` (GameInput and the
registry of each game's wiring), `keys`; then one module per game.
"""
from .draft import Draft, Outcome, whole
from .game_input import INPUTS, WIRING_MODULES, GameInput, input_for, wiring
from .keys import KEYS
from .table import Table

__all__ = ["Draft", "GameInput", "INPUTS", "KEYS", "Outcome", "Table", "WIRING_MODULES",
           "input_for", "whole", "wiring"]
