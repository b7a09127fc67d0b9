"""What one Rolling Village action changed, in the sheet's words, for the banner ("Ana: House at
Avenue [5-6], Street 2; 1 more to build") and for the Undo button ("Ana's House"). Pure."""
from __future__ import annotations


def _square(state, action) -> str:
    return f"Avenue {state.sheet.label(action.row)}, Street {action.street}"


def short(before, action) -> str:
    """The action in a few words, for the Undo button: "Ana's House", "roll 2 + 4"."""
    kind = action.type
    if kind in ("build", "bonus"):  # two lines on the button: "Bonus" is said by the banner
        return f"{action.player}'s {before.legend.title(action.project)}"
    a, b = action.dice
    return f"{'scoring ' if kind == 'activate' else ''}roll {a} + {b}"


def said(before, after, action) -> str:
    """What `action` changed from `before` to `after`: the banner kept until the next action."""
    kind = action.type
    if kind in ("build", "bonus"):
        player = action.player
        bonus = "Bonus " if kind == "bonus" else ""
        text = f"{player}: {bonus}{after.legend.title(action.project)} at {_square(after, action)}"
        owed = len(after.village(player).owed)
        if owed:
            return text + f"; {owed} more to build."
        waiting = [v.name for v in after.villages if v.owed]
        if waiting:
            return text + f"; {player} is done, {waiting[0]} builds next."
        return text + "; everybody has built: the Scoring Phase."
    a, b = action.dice
    if kind == "roll":
        if before.turn == 0:
            return f"Start roll {a} + {b}: each player builds two Projects."
        return f"Building Phase, roll {a} + {b}: each player builds."
    parts = []
    for name, result in zip(after.players, after.last_activation or ()):
        chosen = f" (Avenue {after.sheet.label(result.row)})" if result.chosen else ""
        parts.append(f"{name} +{result.score}{chosen}")
    row = after.sheet.avenue_for_sum(a + b)
    where = f"Avenue {after.sheet.label(row)} Activated" if row else "each player's Avenue Activated"
    return f"Scoring roll {a} + {b}, {where}: " + ", ".join(parts) + "."
