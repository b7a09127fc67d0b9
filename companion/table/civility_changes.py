"""What one Civility action changed, for the banner kept until the next action ("Ana: Upgrade
Education; Education 2 -> 3; 2 dice left") and for the Undo button ("Ana's Upgrade"). Pure."""
from __future__ import annotations

from companion.engine.civility.state import CivState
from companion.engine.civility.tables import DEPARTMENTS

from .civility_words import acting, dial_title, path_of


def _what(state: CivState, action) -> str:
    path = path_of(state, action)
    if path is None:  # dice, entered on the pad
        dice = getattr(action, "dice", None) or ()
        return "roll " + " + ".join(map(str, dice)) if dice else action.type
    if len(path) == 1:
        return path[0]
    head, last = path[-2:]
    # "Upgrade" + "Education" read as one; "Bridge 1 to Bo's port" says it all alone.
    return last if len(last.split()) >= 3 and last[:1].isupper() else f"{head} {last}"


def short(before: CivState, action) -> str:
    """A few words for the Undo button: "Ana's Upgrade", "roll 3 + 5"."""
    who = acting(action) or before.current
    what = _what(before, action)
    return f"{who}'s {what}" if who and path_of(before, action) is not None else what


def _city_changes(b, a) -> list[str]:
    out = []
    for dept, old, new in zip(DEPARTMENTS, b.levels, a.levels):
        if old != new:
            out.append(f"{a.player} {dial_title(dept)} {old} \u2192 {new}")
    if a.defenders != b.defenders:
        out.append(f"{a.player} Defenders {b.defenders} \u2192 {a.defenders}")
    if a.status != b.status:
        out.append(f"{a.player} Status {b.status:+d} \u2192 {a.status:+d}")
    if a.hand != b.hand:
        change = a.hand - b.hand
        out.append(f"{a.player} {change:+d} card{'s' if abs(change) != 1 else ''}")
    return out


def said(before: CivState, after: CivState, action) -> str:
    """The action, what it changed on the cities, and the dice left to the Diplomat's round."""
    if action.type == "reveal-status" or type(action).__name__ == "RevealStatus":
        return f"Status card turned over: {_what(before, action)}."
    who = acting(action) or before.current
    parts = [f"{who}: {_what(before, action)}" if who else _what(before, action)]
    for b, a in zip(before.cities, after.cities):
        parts += _city_changes(b, a)
    if after.dice is not None and after.dice != before.dice:
        left = len(after.dice)
        parts.append(f"{left} {'die' if left == 1 else 'dice'} left")
    return "; ".join(parts) + "."
