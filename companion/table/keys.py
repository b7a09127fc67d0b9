"""Desktop keys and what they mean at the table (a game adds its own, see GameInput.key)."""
from __future__ import annotations

from companion.events import Command

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
