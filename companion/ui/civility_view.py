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
from companion.engine.civility.state import HOME, CivState
from companion.engine.civility.tables import BOOK, DEPARTMENTS
from companion.events import Command, TableLight
from companion.table import Draft, GameInput, Outcome, Table, wiring

ANYTIME = "Anytime (any player)"
DIAL_TITLES = {**{d: d.title() for d in DEPARTMENTS}, "defenders": "Defenders"}
SHORT = {"education": "Edu", "health": "Hea", "technology": "Tec", "army": "Arm", "government": "Gov",
         "economy": "Eco", "defenders": "Def"}
TOKEN_TITLES = {"attack-anytime": "Attack Anytime", "steal-a-turn": "Steal a Turn"}
PACIFIST_TITLES = {"army-health-doubled": "Army and Health doubled in battle",
                   "double-gains": "Department gains doubled"}


@dataclass(frozen=True)
class Pick:
    """Input in progress: dice entered (or the Action Ring die picked), the menu path, the cursor."""

    dice: tuple[int, ...] = ()
    path: tuple[str, ...] = ()
    cursor: int = 0


@dataclass(frozen=True)
class Item:
    """One menu button: a final action, or a word that opens the next level (`action` None)."""

    label: str
    action: A.Action | None = None
    player: str = ""  # whose choice it is, for the button's colour


# -- words ----------------------------------------------------------------------------------------
def place(state: CivState, where: str) -> str:
    return "home" if where == HOME else f"{where}'s port"


def dial_title(dial: str) -> str:
    return DIAL_TITLES.get(dial, dial)


def path_of(state: CivState, a: A.Action) -> tuple[str, ...] | None:
    """The menu words leading to `a`; None for dice, which are entered on the die pad."""
    me = state.current
    if isinstance(a, (A.Roll, A.BattleRoll, A.EventRoll)):
        return None
    if isinstance(a, A.DrawCard):
        return ("Draw a card",)
    if isinstance(a, A.MoveArmy):
        return ("Move army", f"to {place(state, a.to)}")
    if isinstance(a, A.BuildBridge):
        return ("Build or move a bridge", f"Bridge {a.bridge} to {a.to}'s port")
    if isinstance(a, A.Upgrade):
        return ("Upgrade", dial_title(a.department))
    if isinstance(a, A.Attack):
        if a.via == "die":
            return ("Attack", a.target)
        if a.via == "card":
            return ("Attack with an Action card", a.target)
        title = "Attack Anytime token" if a.via == "token" else "Anytime Attack card"
        return (ANYTIME, title, f"{a.player} attacks {a.target}")
    if isinstance(a, A.SaveDie):
        return ("Save the die",)
    if isinstance(a, A.Combo):
        faces = "+".join(map(str, BOOK.combos[a.token]))
        return (f"Combo {faces}: {TOKEN_TITLES[a.token]} token",)
    if isinstance(a, A.RecruitDefenders):
        return (f"Recruit {a.die} Defenders",)
    if isinstance(a, A.DieCard):
        what = "Action card" if a.kind == "action" else "Ability card"
        return ("Play a card with the die", f"{what} with the saved die" if a.with_saved else what)
    if isinstance(a, A.Decline):
        return ("Decline: lose a level", dial_title(a.department) if a.department else "(every level is 0)")
    if isinstance(a, A.DrawTwo):
        return ("No die left: draw 2 cards",)
    if isinstance(a, A.TurnInSavedDie):
        return ("Turn in the saved die for a card",)
    if isinstance(a, A.StealTurn):
        return (ANYTIME, "Steal a Turn token", f"{a.player} steals {me}'s turn")
    if isinstance(a, A.TakeFirstDie):
        return (ANYTIME, "Sabotage: take a die first", f"{a.player} takes the {a.die}")
    if isinstance(a, A.PlayCard):
        if a.kind == "action":
            return ("Play an Action card",)
        return (ANYTIME, "Play an Anytime card", a.player)
    if isinstance(a, A.Discard):
        return ("Discard cards", f"{a.count} card{'s' if a.count > 1 else ''}")
    if isinstance(a, A.DiscardToUpgrade):
        return (f"Discard {BOOK.upgrade_discard} to upgrade", dial_title(a.department))
    if isinstance(a, A.SetDial):
        return ("Enter the card's effect", a.player, dial_title(a.dial), f"{dial_title(a.dial)} {a.value}")
    if isinstance(a, A.MovePiece):
        piece = "Army" if a.piece == "army" else f"Bridge {a.piece[-1]}"
        return ("Enter the card's effect", a.player, piece, f"{piece} to {place(state, a.to)}")
    if isinstance(a, A.EndTurn):
        return ("End the turn, draw 1",) if a.draw else ("End the turn without drawing",)
    if isinstance(a, A.BattleCards):
        return ("Play battle cards", f"{a.cards} card{'s' if a.cards != 1 else ''}") if a.cards else (
            "No modifier",)
    if isinstance(a, A.Retreat):
        return ("Retreat (give 2 cards)",)
    if isinstance(a, A.BattleTotals):
        return (f"Attacker {a.attacker:+d}", f"Defender {a.defender:+d}")
    if isinstance(a, A.WarReward):
        b = state.battle
        if len(a.departments) == 1:
            return (f"{b.defender} loses {dial_title(a.departments[0])}",)
        first, second = a.departments
        return (f"Gain {dial_title(first)}", f"and {dial_title(second)}")
    if isinstance(a, A.RevealStatus):
        return (f"{a.name} ({a.kind})",)
    if isinstance(a, A.ClaimStatus):
        card = "Personal Status card" if a.card == "personal" else a.card
        return ("Claim a Status card", a.player, card)
    if isinstance(a, A.RenewStatus):
        return (ANYTIME, "Discard a Status card (ability)", f"{a.player} discards {a.card}")
    if isinstance(a, A.PayStatusCost):
        return (f"Pay 1 {dial_title(a.department)}",)
    if isinstance(a, A.StatusCostPaid):
        return ("The cost is paid",)
    if isinstance(a, A.GiveRenewal):
        return ("Lowest-status card drawn", a.player, f"give it to {a.to}")
    if isinstance(a, A.ChoosePacifist):
        return (PACIFIST_TITLES.get(a.option, a.option),)
    if isinstance(a, A.WorldEvent):
        return ("World Event drawn", a.player, a.event)
    if isinstance(a, A.EventChoice):
        return event_choice_path(state, a)
    return (a.type,)


def event_choice_path(state: CivState, a: A.EventChoice) -> tuple[str, ...]:
    stage = state.event.stage
    if stage == "wager":
        return ("Pass",) if a.number == 0 else ("Wager", str(a.number))
    if stage == "guess":
        return ("Pass",) if a.number == 0 else (f"Pick {a.number}",)
    if stage in ("pay", "zombie-up", "zombie-down"):
        return (dial_title(a.choice),)
    if stage == "claim":
        return (f"Claim {a.choice}",)
    if stage == "move":
        return (f"Army to {place(state, a.other or HOME)}",)
    if stage == "choose":
        verb = "take its level" if a.number == 0 else "give it my level"
        return (dial_title(a.choice), f"with {a.other}", verb)
    if stage == "cure":
        return ("Pass",) if not a.other else (f"Pay 1 Economy to {a.other}",)
    if stage == "modify":
        if a.choice == "cards":
            return ("Battle cards", str(a.number))
        return ("Roll a die",) if a.choice == "roll" else ("No modifier",)
    if stage == "totals":
        return (f"Cards add {a.number:+d}",)
    return (a.choice or str(a.number),)


def acting(a: A.Action) -> str:
    return getattr(a, "player", "") or ""


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
    if state.fresh and not state.winner:
        drew = ", ".join(f"{p} {n}" for p, n in state.fresh)
        lines.append(f"Cards just drawn ({drew}): a World Event among them is played now.")
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
    depth = len(pick.path)
    groups: dict[str, list[tuple[tuple[str, ...], A.Action]]] = {}
    for a in legal:
        d = _die(a)
        if d is not None and d != die:
            continue
        path = path_of(state, a)
        if path is None or len(path) <= depth or path[:depth] != pick.path:
            continue
        groups.setdefault(path[depth], []).append((path, a))
    items = []
    for label, members in groups.items():
        leaf = len(members) == 1 and len(members[0][0]) == depth + 1
        players = {acting(a) for _, a in members}
        items.append(Item(label, members[0][1] if leaf else None, players.pop() if len(players) == 1 else ""))
    return items


def settled_pick(state: CivState, legal, pick: Pick) -> Pick:
    """The pick kept valid: a path that still leads somewhere, a cursor on a button."""
    while pick.path and not menu(state, legal, pick):
        pick = replace(pick, path=pick.path[:-1], cursor=0)
    count = len(menu(state, legal, pick))
    return replace(pick, cursor=pick.cursor % count if count else 0)


# -- the wiring -----------------------------------------------------------------------------------
@wiring("civility")
class CivilityInput(GameInput):
    """Taps, keys, buttons and dice readings -> Civility actions, through the menu of legal ones."""

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
        state = table.state
        wanted = dice_wanted(state)
        if wanted is not None:
            dice = self.pick.dice + (value,) if len(self.pick.dice) < wanted[0] else (value,)
            return self._set(table, dice=dice)
        if value in ring_dice(state):
            return self._set(table, dice=(value,), path=(), cursor=0)
        shown = ", ".join(map(str, ring_dice(state))) or "none"
        return Outcome(info=f"No {value} is among the dice available now ({shown}).")

    def on_dice(self, table: Table, values: tuple[int, ...]) -> Outcome:
        wanted = dice_wanted(table.state)
        if wanted is None:
            return Outcome(info="Dice were read, but no roll is awaited now.")
        if len(values) != wanted[0]:
            return Outcome(info=f"The camera saw {len(values)} dice; {wanted[1]} rolls {wanted[0]}.")
        return self._set(table, dice=tuple(values))

    def on_clear(self, table: Table) -> Outcome:
        if self.pick.path:
            return self._set(table, path=self.pick.path[:-1], cursor=0)
        return self._set(table, dice=(), cursor=0)

    def on_back(self, table: Table) -> Outcome:
        return self.on_clear(table)

    def on_item(self, table: Table, label: str) -> Outcome:
        """A menu button: a final action is submitted, a word opens the next level."""
        for item in self.items(table):
            if item.label == label:
                if item.action is not None:
                    return table.submit(item.action)
                return self._set(table, path=self.pick.path + (label,), cursor=0)
        return Outcome(info=f'"{label}" is not offered now.')

    def on_action(self, table: Table, data: dict) -> Outcome:
        """An action spelled out in full (a panel or a test); the engine decides."""
        try:
            action = table.session.game.action_from_json(dict(data))
        except ValueError as exc:
            return Outcome(info=str(exc))
        return table.submit(action)

    def on_command(self, table: Table, command: Command) -> Outcome:
        if command is Command.NEXT:
            count = len(self.items(table))
            return self._set(table, cursor=self.pick.cursor + 1) if count else Outcome()
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
        return self.on_item(table, items[self.pick.cursor % len(items)].label)
