"""Civility at the table without Kivy: what the screen offers and how taps and keys become actions.

The engine enumerates every legal action (`legal_actions`); here each one gets a path of words
("Upgrade", "Education") and the screen offers them as a menu, one level at a time, so a player
only ever sees choices the rules allow. Dice for the Diplomat's roll, battles and World Events are
entered (tapped, typed, or read by the camera) and confirmed. What a player is in the middle of
choosing (the die picked on the Action Ring, the menu level, the highlighted item) is the `Pick`:
input in progress, never a game fact, cleared by every accepted action.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from companion.engine.civility import actions as A
from companion.engine.civility.state import CivState
from companion.engine.civility.tables import BOOK
from companion.events import Command, TableLight
from . import Draft, Outcome, Table, civility_changes, wiring
from .menu import Item, MenuInput, level

from .civility_words import (  # noqa: F401  (the screen's widgets take the words from here too)
    ANYTIME, DIAL_TITLES, PACIFIST_TITLES, SHORT, TOKEN_TITLES, acting, dial_title, path_of, place)

@dataclass(frozen=True)
class Pick:
    """Input in progress: dice entered (or the Action Ring die picked), the menu path, the cursor."""

    dice: tuple[int, ...] = ()
    path: tuple[str, ...] = ()
    cursor: int | None = None  # nothing highlighted until Next: a careless confirm takes nothing


# -- sentences for the screen -----------------------------------------------------------------------
def headline(state: CivState) -> str:
    if state.winner:
        return f"Civility  \u00b7  {state.winner} wins!"
    text = f"Civility  \u00b7  Round {state.round}  \u00b7  Diplomat {state.players[state.diplomat]}"
    if state.step != "roll":
        text += f"  \u00b7  {state.current}'s turn"
        if state.stolen_by:
            text += f" (stolen by {state.stolen_by})"
    return text


def event_steps(state: CivState) -> str:
    """A World Event's guided steps: who has acted, who acts now, who follows (table order)."""
    from companion.engine.civility.events import actor

    e = state.event
    who = actor(state)
    parts = []
    for i, p in enumerate(e.order):
        mark = e.mark(p)
        tag = p + (f" ({mark})" if mark is not None else "")
        if p == who:
            parts.append(f"[b][color=#ffcc44]{tag}: now[/color][/b]")
        elif i < e.pos:
            parts.append(f"[color=#8fd19e]{tag}: done[/color]")
        else:
            parts.append(tag)
    return f"[b]{e.name}[/b], drawn by {e.drawer}. In table order: " + " \u203a ".join(parts)


def faces(values: tuple[int, ...]) -> str:
    """Die faces as the board prints them: "1-3", "4/6", "any"."""
    if len(values) == 6:
        return "any die"
    if len(values) > 2 and values == tuple(range(values[0], values[-1] + 1)):
        return f"{values[0]}-{values[-1]}"
    return "/".join(map(str, values))


def ring_legend() -> str:
    """The Action Ring from the data file: "1-3 draw, 4/6 bridge, 5 upgrade, 6 attack, any die: army"."""
    order = sorted(BOOK.ring, key=lambda name: len(BOOK.ring[name]) == 6)  # "any die" last
    return ", ".join(f"{faces(BOOK.ring[name])}{':' if len(BOOK.ring[name]) == 6 else ''} {name}"
                     for name in order)


def explain(state: CivState, prompt) -> str:
    """The prompt, with what helps to answer it (event steps, the cards limits), as markup."""
    lines = [f"[b]{prompt.text}[/b]"]
    if state.event is not None and not state.winner:
        lines.append(event_steps(state))
    elif state.claim is not None:
        lines.append(f"{state.claim.paid} level(s) paid so far.")
    elif state.step == "cards" and not (state.battle or state.winner or state.reveals):
        c = state.city(state.current)
        lines.append(f"{c.player} holds {c.hand} card(s); Action cards played {state.action_cards} of "
                     f"{BOOK.action_card_limit}.")
    return "\n".join(lines)


# -- dice -----------------------------------------------------------------------------------------
def dice_wanted(state: CivState) -> tuple[int, str] | None:
    """(how many dice, who rolls) when the game waits for dice to be entered, else None."""
    if state.winner or state.reveals or state.pacifist_choice or state.claim:
        return None
    if state.battle is not None:
        b = state.battle
        if b.stage in ("defender", "attacker"):
            return (1, b.defender if b.stage == "defender" else b.attacker)
        return None
    if state.event is not None:
        from companion.engine.civility.events import actor

        if state.event.stage in ("roll", "modify-roll", "opponent-roll", "zombie-roll"):
            return (1, actor(state))
        return None
    if state.step == "roll":
        return (state.dice_per_round, state.players[state.diplomat])
    return None


def ring_dice(state: CivState) -> tuple[int, ...]:
    """The dice still available on the Action Ring this turn."""
    from companion.engine.civility.ring import available

    if state.winner or state.battle or state.event or state.claim or state.reveals or state.pacifist_choice:
        return ()
    return available(state)


def chosen_die(state: CivState, pick: Pick) -> int | None:
    """The Action Ring die the menu is for: the one tapped, else the first still available."""
    dice = ring_dice(state)
    if not dice:
        return None
    return pick.dice[0] if pick.dice and pick.dice[0] in dice else dice[0]


def dice_action(state: CivState, dice: tuple[int, ...]) -> A.Action | None:
    wanted = dice_wanted(state)
    if wanted is None or len(dice) != wanted[0]:
        return None
    if state.battle is not None:
        return A.BattleRoll(wanted[1], dice[0])
    if state.event is not None:
        return A.EventRoll(wanted[1], dice[0])
    return A.Roll(tuple(sorted(dice)))


# -- the menu -------------------------------------------------------------------------------------
def _die(a: A.Action) -> int | None:
    if isinstance(a, (A.DrawCard, A.MoveArmy, A.BuildBridge, A.Upgrade, A.SaveDie, A.Combo,
                      A.RecruitDefenders, A.DieCard)):
        return a.die
    if isinstance(a, A.Attack) and a.via == "die":
        return a.die
    return None


def menu(state: CivState, legal, pick: Pick) -> list[Item]:
    """The buttons at the pick's menu level, in the engine's order (die actions first)."""
    die = chosen_die(state, pick)
    entries = []
    for a in legal:
        d = _die(a)
        path = None if d is not None and d != die else path_of(state, a)
        if path is not None:
            entries.append((path, a, acting(a)))
    # Ending the turn is what most turns end with: first, where Confirm finds it.
    return level(entries, pick.path, first=lambda a: isinstance(a, A.EndTurn))


def settled_pick(state: CivState, legal, pick: Pick) -> Pick:
    """The pick kept valid: a path that still leads somewhere, a cursor on a button."""
    while pick.path and not menu(state, legal, pick):
        pick = replace(pick, path=pick.path[:-1], cursor=None)
    count = len(menu(state, legal, pick))
    return replace(pick, cursor=pick.cursor % count if count and pick.cursor is not None else None)


def _face(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= 6


# -- the wiring -----------------------------------------------------------------------------------
@wiring("civility")
class CivilityInput(MenuInput):
    """Taps, keys, buttons and dice readings -> Civility actions, through the menu of legal ones."""

    fresh_cursor = None  # nothing highlighted on a new level either

    def said(self, before, after, action) -> str:
        return civility_changes.said(before, after, action)

    def short(self, before, action) -> str:
        return civility_changes.short(before, action)

    def __init__(self):
        self.pick = Pick()
        self._legal: tuple[int, list] | None = None  # (id of the state, its legal actions)

    def legal(self, table: Table) -> list:
        state = table.state
        if self._legal is None or self._legal[0] is not state:
            self._legal = (state, table.session.legal_actions())
        return self._legal[1]

    def items(self, table: Table) -> list[Item]:
        return menu(table.state, self.legal(table), self.pick)

    def settle(self, table: Table, draft: Draft) -> Draft:
        self.pick = Pick()
        return Draft(player=table.state.actor if table.state is not None else None)

    def dice_entry(self, table: Table) -> int | None:
        return len(table.session.actions) if dice_wanted(table.state) is not None else None

    def light(self, table: Table) -> TableLight:
        if dice_wanted(table.state) is None:
            return TableLight.IDLE
        wanted = dice_wanted(table.state)[0]
        return TableLight.NEEDS_CONFIRMATION if len(self.pick.dice) == wanted else TableLight.WAITING_FOR_DICE

    def _set(self, table: Table, **changes) -> Outcome:
        self.pick = settled_pick(table.state, self.legal(table), replace(self.pick, **changes))
        return Outcome()

    # -- intents ---------------------------------------------------------------------------
    def on_die(self, table: Table, value: int) -> Outcome:
        if not _face(value):
            return Outcome(info=f"A die shows 1 to 6, not {value!r}.")
        state = table.state
        wanted = dice_wanted(state)
        if wanted is not None:
            dice = self.pick.dice + (value,) if len(self.pick.dice) < wanted[0] else (value,)
            return self._set(table, dice=dice)
        if value in ring_dice(state):
            return self._set(table, dice=(value,), path=(), cursor=None)
        shown = ", ".join(map(str, ring_dice(state))) or "none"
        return Outcome(info=f"No {value} is among the dice available now ({shown}).")

    def on_dice(self, table: Table, values: tuple[int, ...]) -> Outcome:
        if not all(_face(v) for v in values):
            return Outcome(info=f"A die shows 1 to 6: {values!r} cannot be entered.")
        wanted = dice_wanted(table.state)
        if wanted is None:
            return Outcome(info="Dice were read, but no roll is awaited now.")
        if len(values) != wanted[0]:
            return Outcome(info=f"The camera saw {len(values)} dice; {wanted[1]} rolls {wanted[0]}.")
        return self._set(table, dice=tuple(values))

    def on_clear(self, table: Table) -> Outcome:
        if self.pick.path:
            return self._set(table, path=self.pick.path[:-1], cursor=None)
        return self._set(table, dice=(), cursor=None)

    def on_command(self, table: Table, command: Command) -> Outcome:
        if command is Command.NEXT:
            count = len(self.items(table))
            if not count:
                return Outcome()
            return self._set(table, cursor=0 if self.pick.cursor is None else self.pick.cursor + 1)
        return self.on_confirm(table)

    def on_confirm(self, table: Table) -> Outcome:
        """Enter the dice, else press the highlighted button."""
        state = table.state
        wanted = dice_wanted(state)
        if wanted is not None and self.pick.dice:
            action = dice_action(state, self.pick.dice)
            if action is None:
                return Outcome(info=f"{wanted[1]} rolls {wanted[0]} dice: tap {wanted[0] - len(self.pick.dice)} more.")
            return table.submit(action)
        items = self.items(table)
        if not items:
            if wanted is not None:
                return Outcome(info=f"{wanted[1]}: tap the die rolled (or press 1-6).")
            return Outcome(info="Nothing to confirm now.")
        if self.pick.cursor is None:
            return Outcome(info="Press Next to pick a choice, then confirm (or tap it).")
        return self.on_item(table, items[self.pick.cursor % len(items)].label)
