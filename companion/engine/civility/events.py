"""World Events as guided steps in table order, from the player after the drawer.

Each step waits for one player's `event-roll` (a die entered or read) or `event-choice` (a wager,
a guess, a department, a player, a pass); docs/game-log-civility.md lists each event's steps.
"""
from __future__ import annotations

from dataclasses import replace

from ..core import IllegalAction, OutOfTurn
from . import actions as A
from .checks import department, known_player, open_game
from .state import HOME, CivState, Event, add_hand, gain, lose, send_home, set_level, with_city
from .status import take_card
from .tables import BOOK

RULES = BOOK.event_rules
ROLL_EVENTS = ("Aliens Visit", "Famine", "Feast", "Pandemic", "Sabotage")


def in_deck(state: CivState, name: str) -> bool:
    city = BOOK.events.get(name)
    return city is not None and (city == "" or any(c.city == city for c in state.cities))


def declare(state: CivState, a: A.WorldEvent) -> CivState:
    """A World Event found among the cards `a.player` just drew: played at once, not kept."""
    open_game(state)
    known_player(state, a.player)
    if state.battle or state.event or state.claim or state.reveals or state.pacifist_choice:
        raise OutOfTurn("Finish what is under way before the World Event is played (rule: World Event Cards).",
                        rule="World Event Cards")
    fresh = dict(state.fresh)
    if min(fresh.get(a.player, 0), state.city(a.player).hand) < 1:
        raise IllegalAction(f"{a.player} has not just drawn a card: a World Event is played when it is drawn "
                            "(rule: World Event Cards).", rule="World Event Cards")
    if a.event not in BOOK.events:
        raise IllegalAction(f"{a.event!r} is not a World Event ({', '.join(BOOK.events)}).",
                            rule="World Event Cards")
    if not in_deck(state, a.event):
        raise IllegalAction(f"{a.event} is only in the deck when {BOOK.events[a.event]} City is played "
                            "(rule: World Event Cards).", rule="World Event Cards")
    fresh[a.player] -= 1
    state = replace(state, fresh=tuple(sorted((p, n) for p, n in fresh.items() if n)))
    state = with_city(state, a.player, hand=state.city(a.player).hand - 1)
    order = state.table_order_from(a.player)
    if a.event == "Moment of Peace":
        for p in state.players:
            state = with_city(state, p, army=HOME)
        return state
    if a.event == "Cthulhu Chaos":
        # Every hand passes clockwise: each player receives the hand of the player before them.
        hands = [c.hand for c in state.cities]
        for i, p in enumerate(state.players):
            state = with_city(state, p, hand=hands[i - 1])
        return state
    if a.event == "Zombie Fog":
        zombie = next(c.player for c in state.cities if c.city == "Zombie")
        if all(v == BOOK.level_max for v in state.city(zombie).levels):
            return state  # Zombie City is maxed out: the event is discarded.
        return replace(state, event=Event(a.event, a.player, state.table_order_from(zombie)[:-1],
                                          stage="opponent-roll", leader=zombie))
    if a.event == "Black Market":
        order = tuple(p for p in order if state.city(p).status <= RULES["black_market_max_status"])
        if not order:
            return state
        return replace(state, event=Event(a.event, a.player, order, stage="wager"))
    stage = {"Blind Faith": "wager", "Divine Intervention": "guess", "Communication Breakdown": "move",
             "Time Travel": "choose"}.get(a.event, "roll")
    return replace(state, event=Event(a.event, a.player, order, stage=stage))


# -- who acts now ------------------------------------------------------------------------------
def actor(state: CivState) -> str:
    e = state.event
    if e.stage in ("zombie-roll", "zombie-up", "zombie-down"):
        return e.leader
    if e.stage in ("pay", "claim") and e.leader:
        return e.leader
    return e.order[e.pos]


def _event(state: CivState, player: str, stages: tuple[str, ...]) -> Event:
    open_game(state)
    e = state.event
    if e is None:
        raise OutOfTurn("No World Event is being played (rule: World Event Cards).", rule="World Event Cards")
    if state.reveals or state.pacifist_choice:
        raise OutOfTurn("Turn over the next Status card (or choose the Pacifist option) first "
                        "(rule: Status Cards).", rule="Status Cards")
    who = actor(state)
    if player != who or e.stage not in stages:
        raise OutOfTurn(f"{e.name}: {describe(state)}", rule="World Event Cards")
    return e


def describe(state: CivState) -> str:
    e = state.event
    who = actor(state)
    return {
        "roll": f"{who} rolls a die.",
        "wager": f"{who} wagers (or passes with 0).",
        "guess": f"{who} picks a number 1-6 (or passes with 0).",
        "pay": f"{who} loses {e.owed} more department level(s): name one.",
        "claim": f"{who} chooses which Status card to claim.",
        "move": f"{who} moves their army elsewhere.",
        "choose": f"{who} chooses a department and a city to travel in time with.",
        "cure": f"{who} may pay 1 Economy to a player who found a cure (or pass).",
        "modify": f"{who} goes to war: modify with a die (\"roll\"), cards, or \"none\".",
        "modify-roll": f"{who} rolls a die to modify (half counts).",
        "totals": f"{who} enters what their battle cards add.",
        "opponent-roll": f"{who} rolls against Zombie City (half counts).",
        "zombie-roll": f"{who} (Zombie City) rolls a die (full number counts).",
        "zombie-up": f"{who} names a department to raise to 5.",
        "zombie-down": f"{who} names a department for {e.order[e.pos]} to lose.",
    }.get(e.stage, f"{who} acts.")


def _next(state: CivState, e: Event, stage: str | None = None) -> CivState:
    """Move on to the next player in the event's order, or finish the event."""
    e = replace(e, pos=e.pos + 1, stage=stage or e.stage, owed=0)
    if e.pos < len(e.order):
        return replace(state, event=e)
    return _finish(state, e)


def _done(state: CivState) -> CivState:
    return replace(state, event=None)


# -- dice --------------------------------------------------------------------------------------
def event_roll(state: CivState, a: A.EventRoll) -> CivState:
    e = _event(state, a.player, ("roll", "modify-roll", "opponent-roll", "zombie-roll"))
    if not 1 <= a.die <= 6:
        raise IllegalAction(f"A die shows 1 to 6, not {a.die} (rule: Dice).", rule="Dice")
    p, d = a.player, a.die
    if e.stage == "modify-roll":
        return _next(state, e.with_mark(p, d // 2), "roll")
    if e.stage == "opponent-roll":
        return replace(state, event=replace(e.with_mark(p, d // 2), stage="zombie-roll"))
    if e.stage == "zombie-roll":
        if d > e.mark(e.order[e.pos]):
            return replace(state, event=replace(e, stage="zombie-up", flags=()))
        return _done(state)  # Zombie lost or tied: the event is over.
    if e.name == "Aliens Visit":
        return _next(gain(state, p, "education", d), e)
    if e.name == "Famine":
        return _next(with_city(state, p, hand=max(0, state.city(p).hand - d // 2)), e)
    if e.name == "Feast":
        return _next(add_hand(state, p, d // 2), e)
    if e.name == "Pandemic":
        if d in RULES["pandemic_cure"]:
            return _next(state, replace(e, flags=e.flags + (f"cure:{p}",)))
        state = lose(state, p, "health", RULES["pandemic_loss"])
        return _next(state, replace(e, flags=e.flags + (f"sick:{p}",)))
    if e.name == "Sabotage":
        return _next(state, e.with_mark(p, d - state.city(p).status))
    if e.name == "Blind Faith":
        wager = e.mark(p, 0)
        if d in RULES["blind_faith_draw"]:
            state = add_hand(state, p, wager)
        else:
            state = with_city(state, p, hand=state.city(p).hand - wager)
        return _next(state, e, "wager")
    if e.name == "Divine Intervention":
        guess = e.mark(p, 0)
        if guess == d:
            return replace(state, event=replace(e, stage="claim", leader=p))
        owed = min(abs(guess - d), sum(state.city(p).levels))
        if owed:
            return replace(state, event=replace(e, stage="pay", owed=owed, leader=p))
        return _next(state, e, "guess")
    if e.name == "World War":
        if d in RULES["world_war_stay_home"]:
            return _next(state, e)
        return replace(state, event=replace(e, stage="modify", flags=e.flags + (f"war:{p}",)))
    raise IllegalAction(f"{e.name} has no die roll now.", rule="World Event Cards")


# -- choices -----------------------------------------------------------------------------------
def event_choice(state: CivState, a: A.EventChoice) -> CivState:
    e = _event(state, a.player, ("wager", "guess", "pay", "claim", "move", "choose", "cure", "modify",
                                 "totals", "zombie-up", "zombie-down"))
    p = a.player
    handler = {"wager": _wager, "guess": _guess, "pay": _pay, "claim": _claim, "move": _move,
               "choose": _time_travel, "cure": _cure, "modify": _modify, "totals": _totals,
               "zombie-up": _zombie_up, "zombie-down": _zombie_down}[e.stage]
    return handler(state, e, p, a)


def _wager(state, e, p, a):
    if e.name == "Blind Faith":
        if not 0 <= a.number <= state.city(p).hand:
            raise IllegalAction(f"{p} can wager 0 to {state.city(p).hand} cards (rule: Blind Faith).",
                                rule="Blind Faith")
        if a.number == 0:
            return _next(state, e)
        return replace(state, event=replace(e.with_mark(p, a.number), stage="roll"))
    # Black Market: beat the highest wager by any amount, or pass with 0.
    high = max((v for _, v in e.marks), default=0)
    have = sum(state.city(p).levels)
    if a.number and not high < a.number <= have:
        raise IllegalAction(f"{p} must wager more than {high} and at most their {have} department levels, or "
                            "pass with 0 (rule: Black Market).", rule="Black Market")
    if a.number:
        e = replace(e.with_mark(p, a.number), leader=p)
    return _next(state, e)


def _guess(state, e, p, a):
    if not 0 <= a.number <= 6:
        raise IllegalAction("Pick a number from 1 to 6, or 0 to pass (rule: Divine Intervention).",
                            rule="Divine Intervention")
    if a.number == 0:
        return _next(state, e)
    return replace(state, event=replace(e.with_mark(p, a.number), stage="roll"))


def _pay(state, e, p, a):
    department(a.choice)
    if state.city(p).level(a.choice) < 1:
        raise IllegalAction(f"{p}'s {a.choice.title()} is already 0 (rule: {e.name}).", rule=e.name)
    state = lose(state, p, a.choice)
    e = replace(e, owed=e.owed - 1)
    if e.owed and sum(state.city(p).levels):
        return replace(state, event=e)
    if e.name == "Black Market":
        return replace(state, event=replace(e, stage="claim", owed=0))
    return _next(state, replace(e, leader=""), "guess")


def _claim(state, e, p, a):
    names = [d.name for d in state.display]
    if a.choice not in names:
        raise IllegalAction(f'{p} claims one of the face-up Status cards ({", ".join(names)}) at no cost '
                            f"(rule: {e.name}).", rule=e.name)
    state = take_card(state, p, a.choice)
    if e.name == "World War":
        winners = [f.split(":", 1)[1] for f in e.flags if f.startswith("win:")]
        rest = winners[winners.index(p) + 1:]
        if rest and not state.winner:
            return replace(state, event=replace(e, leader=rest[0]))
        return _end_war(state, e)
    if e.name == "Black Market" or state.winner:
        return _done(state)
    return _next(state, replace(e, leader=""), "guess")


def _move(state, e, p, a):
    to = a.other or HOME
    if to != HOME:
        known_player(state, to)
    if to == p or to == state.city(p).army:
        raise IllegalAction(f"{p}'s army must relocate: home to a port, or a port to home or another port "
                            "(rule: Communication Breakdown).", rule="Communication Breakdown")
    return _next(with_city(state, p, army=to), e)


def _time_travel(state, e, p, a):
    department(a.choice)
    known_player(state, a.other)
    if a.other == p or a.number not in (0, 1):
        raise IllegalAction("Time Travel: name another city, and 0 to take its level or 1 to give it yours "
                            "(rule: Time Travel).", rule="Time Travel")
    mine, theirs = state.city(p).level(a.choice), state.city(a.other).level(a.choice)
    if a.number == 0:
        state = set_level(state, p, a.choice, theirs)
    else:
        state = set_level(state, a.other, a.choice, mine)
    return _next(state, e)


def _cure(state, e, p, a):
    if a.other:
        if a.other not in _curers(state, e):
            raise IllegalAction(f"{p} pays 1 Economy to a player who found a cure and is below 5 Economy "
                                "(rule: Pandemic).", rule="Pandemic")
        state = lose(state, p, "economy")
        state = gain(gain(state, a.other, "economy"), p, "health", RULES["pandemic_loss"])
    return _next_cure(state, replace(e, pos=e.pos + 1))


def _curers(state, e):
    return [f[5:] for f in e.flags if f.startswith("cure:") and state.city(f[5:]).level("economy") < BOOK.level_max]


def _next_cure(state, e):
    """Skip to the next player who lost Health and can pay someone; else the Pandemic is over."""
    while e.pos < len(e.order):
        p = e.order[e.pos]
        if f"sick:{p}" in e.flags and state.city(p).level("economy") > 0 and _curers(state, e):
            return replace(state, event=e)
        e = replace(e, pos=e.pos + 1)
    return _done(state)


def _modify(state, e, p, a):
    if a.choice == "roll":
        return replace(state, event=replace(e, stage="modify-roll"))
    if a.choice == "cards":
        if not 1 <= a.number <= state.city(p).hand:
            raise IllegalAction(f"{p} holds {state.city(p).hand} card(s) (rule: World War).", rule="World War")
        state = with_city(state, p, hand=state.city(p).hand - a.number)
        return _next(state, replace(e, flags=e.flags + (f"cards:{p}",)), "roll")
    if a.choice == "none":
        return _next(state, e, "roll")
    raise IllegalAction('Modify for World War with "roll", "cards" or "none" (rule: World War).', rule="World War")


def _totals(state, e, p, a):
    low, high = BOOK.card_totals
    if not low <= a.number <= high:
        raise IllegalAction(f"Battle cards add {low} to {high}, not {a.number} (rule: World War).", rule="World War")
    e = e.with_mark(p, e.mark(p, 0) + a.number)
    return _war_totals(state, replace(e, pos=e.pos + 1))


def _zombie_up(state, e, p, a):
    department(a.choice)
    if f"up:{a.choice}" in e.flags:
        raise IllegalAction("Zombie City raises 2 different departments (rule: Zombie Fog).", rule="Zombie Fog")
    state = set_level(state, p, a.choice, BOOK.level_max)
    e = replace(e, flags=e.flags + (f"up:{a.choice}",))
    if len(e.flags) < 2:
        return replace(state, event=e)
    return replace(state, event=replace(e, stage="zombie-down", flags=()))


def _zombie_down(state, e, p, a):
    department(a.choice)
    state = lose(state, e.order[e.pos], a.choice)
    if all(v == BOOK.level_max for v in state.city(e.leader).levels):
        return _done(state)  # Zombie City is maxed out: it battles nobody else.
    return _next(state, e, "opponent-roll")


# -- the end of a round of steps ----------------------------------------------------------------
def _finish(state: CivState, e: Event) -> CivState:
    if e.name == "Pandemic" and e.stage == "roll":
        return _next_cure(state, replace(e, pos=0, stage="cure"))
    if e.name == "Sabotage":
        scores = dict(e.marks)
        best = max(scores.values())
        tied = tuple(p for p in e.order if scores[p] == best)
        if len(tied) > 1:
            return replace(state, event=replace(e, order=tied, pos=0, marks=()))
        return _done(with_city(state, tied[0], sabotage=RULES["sabotage_uses"]))
    if e.name == "Black Market":
        if not e.leader:
            return _done(state)
        return replace(state, event=replace(e, stage="pay", owed=e.mark(e.leader), pos=0))
    if e.name == "World War":
        war = [f[4:] for f in e.flags if f.startswith("war:")]
        if not war:
            return replace(state, event=replace(e, pos=0, marks=(), flags=()))  # nobody goes: re-roll
        carded = tuple(p for p in e.order if f"cards:{p}" in e.flags)
        return _war_totals(state, replace(e, stage="totals", order=e.order, pos=0, leader="",
                                          flags=e.flags + tuple(f"card-order:{p}" for p in carded)))
    return _done(state)


def _war_totals(state: CivState, e: Event) -> CivState:
    carded = [f[11:] for f in e.flags if f.startswith("card-order:")]
    entered = e.pos
    if entered < len(carded):
        # `order` is walked by `pos`; during totals it indexes the players who played cards.
        return replace(state, event=replace(e, order=tuple(carded) or e.order, stage="totals"))
    war = [f[4:] for f in e.flags if f.startswith("war:")]
    totals = {p: state.city(p).level("army") + state.city(p).level("health") + state.city(p).defenders
              + e.mark(p, 0) for p in war}
    best = max(totals.values())
    top = [p for p in war if totals[p] == best]
    if len(top) > 1:
        gov = max(state.city(p).level("government") for p in top)
        top = [p for p in top if state.city(p).level("government") == gov]
    e = replace(e, stage="claim", leader=top[0], flags=e.flags + tuple(f"win:{p}" for p in top))
    return replace(state, event=e)


def _end_war(state: CivState, e: Event) -> CivState:
    for f in e.flags:
        if f.startswith("war:"):
            state = send_home(state, f[4:])
    return _done(state)
