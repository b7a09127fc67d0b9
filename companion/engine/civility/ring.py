"""The round and the Action Ring: the Diplomat's roll, one die action a turn, saving, combos,
Recruit Defenders, declining, drawing two, turning in a saved die, and the end of a turn."""
from __future__ import annotations

from dataclasses import replace

from ..core import IllegalAction, OutOfTurn
from . import actions as A
from .checks import department, die_face, known_player, nothing_pending, own_turn
from .state import HOME, CivState, add_hand, gain, lose, set_defenders, with_city
from .tables import BOOK, DEPARTMENTS


def roll(state: CivState, action: A.Roll) -> CivState:
    nothing_pending(state)
    if state.step != "roll":
        raise OutOfTurn("The dice were already rolled this round (rule: Gameplay).", rule="Gameplay")
    if len(action.dice) != state.dice_per_round:
        raise IllegalAction(f"The Diplomat rolls {state.dice_per_round} dice this round (players minus one), "
                            f"not {len(action.dice)} (rule: Gameplay).", rule="Gameplay")
    for d in action.dice:
        die_face(d)
    return replace(state, dice=tuple(sorted(action.dice)), step="die")


def available(state: CivState) -> tuple[int, ...]:
    """The dice the current player may choose from (a Sabotage die is theirs alone)."""
    if state.step != "die" or state.dice is None:
        return ()
    if state.sabotage_die and state.sabotage_die[0] == state.current:
        return (state.sabotage_die[1],)
    return state.dice


def _die_step(state: CivState, player: str) -> None:
    own_turn(state, player)
    if state.step != "die":
        raise OutOfTurn(f"{player} has already taken a die action this turn: only 1 die per turn "
                        "(rule: Die Action Options).", rule="Die Action Options")


def take(state: CivState, player: str, die: int, faces: tuple[int, ...] | None = None,
         what: str = "") -> CivState:
    """Use `die` from the available dice for this turn's die action."""
    _die_step(state, player)
    die_face(die)
    dice = available(state)
    if die not in dice:
        shown = ", ".join(map(str, dice)) or "none"
        raise IllegalAction(f"There is no {die} among the dice available to {player} ({shown}) "
                            "(rule: Die Action Options).", rule="Die Action Options")
    if faces is not None and die not in faces:
        raise IllegalAction(f"{what} needs a {' or '.join(map(str, faces))} on the Action Ring, not a {die} "
                            "(rule: The Actions).", rule="The Actions")
    if state.sabotage_die and state.sabotage_die[0] == state.current:
        state = replace(state, sabotage_die=None)
    else:
        rest = list(state.dice)
        rest.remove(die)
        state = replace(state, dice=tuple(rest))
    return replace(state, step="cards", took_die=True)


def draw_card(state: CivState, a: A.DrawCard) -> CivState:
    state = take(state, a.player, a.die, BOOK.ring["draw"], "Draw a Card")
    return add_hand(state, a.player, 1)


def check_army_move(state: CivState, player: str, to: str) -> None:
    c = state.city(player)
    if to != HOME:
        known_player(state, to)
        if to == player:
            raise IllegalAction(f"{player}'s own city is home: move the army \"home\" (rule: Move Army).",
                                rule="Move Army")
    if c.army == to:
        where = "home" if to == HOME else f"in {to}'s port"
        raise IllegalAction(f"{player}'s army is already {where}; it must move elsewhere (rule: Move Army).",
                            rule="Move Army")


def move_army(state: CivState, a: A.MoveArmy) -> CivState:
    known_player(state, a.player)
    check_army_move(state, a.player, a.to)
    state = take(state, a.player, a.die, BOOK.ring["army"], "Move Army")
    return with_city(state, a.player, army=a.to)


def check_bridge_move(state: CivState, player: str, bridge: int, to: str, home_ok: bool = False) -> None:
    c = state.city(player)
    if not 1 <= bridge <= len(c.bridges):
        raise IllegalAction(f"Each city has {len(c.bridges)} bridges: bridge 1 or 2, not {bridge} "
                            "(rule: Components).", rule="Components")
    if to == HOME and home_ok:
        pass
    else:
        known_player(state, to)
        if to == player:
            raise IllegalAction(f"A bridge is built in another city's port, not in {player}'s own "
                                "(rule: Build Bridge).", rule="Build Bridge")
    if c.bridges[bridge - 1] == to:
        raise IllegalAction(f"{player}'s bridge {bridge} is already there (rule: Build Bridge).", rule="Build Bridge")


def build_bridge(state: CivState, a: A.BuildBridge) -> CivState:
    known_player(state, a.player)
    check_bridge_move(state, a.player, a.bridge, a.to)
    state = take(state, a.player, a.die, BOOK.ring["bridge"], "Build Bridge")
    bridges = list(state.city(a.player).bridges)
    bridges[a.bridge - 1] = a.to
    return with_city(state, a.player, bridges=tuple(bridges))


def upgrade(state: CivState, a: A.Upgrade) -> CivState:
    department(a.department, allow_government=False)
    known_player(state, a.player)
    if state.city(a.player).level(a.department) >= BOOK.level_max:
        raise IllegalAction(f"{a.player}'s {a.department.title()} is already at {BOOK.level_max} "
                            "(rule: Departments 0-5).", rule="Departments")
    state = take(state, a.player, a.die, BOOK.ring["upgrade"], "Upgrade 1 Department Level")
    return gain(state, a.player, a.department)


def save_die(state: CivState, a: A.SaveDie) -> CivState:
    known_player(state, a.player)
    if state.city(a.player).saved_die is not None:
        raise IllegalAction(f"{a.player} already saves a {state.city(a.player).saved_die}: one saved die at a "
                            "time, and no swapping (rule: Saving Dice).", rule="Saving Dice")
    state = take(state, a.player, a.die)
    return with_city(state, a.player, saved_die=a.die)


def combo(state: CivState, a: A.Combo) -> CivState:
    known_player(state, a.player)
    if a.token not in BOOK.combos:
        raise IllegalAction(f"{a.token!r} is not a combo on the Action Ring ({', '.join(BOOK.combos)}).",
                            rule="Combos")
    c = state.city(a.player)
    faces = BOOK.combos[a.token]
    title = a.token.replace("-", " ").title()
    if c.saved_die is None:
        raise IllegalAction(f"{title} needs a saved die from an earlier turn; two dice may not be taken at "
                            "once (rule: Saving Dice).", rule="Saving Dice")
    if sorted((c.saved_die, a.die)) != sorted(faces):
        raise IllegalAction(f"{title} is the combo {faces[0]}+{faces[1]}; {a.player} saved a {c.saved_die} and "
                            f"takes a {a.die} (rule: Combos).", rule="Combos")
    if state.stolen_by:
        raise IllegalAction("Steal a Turn and Attack Anytime tokens may not be used or stolen in a stolen turn "
                            "(rule: Steal a Turn).", rule="Steal a Turn")
    if a.token in c.tokens:
        raise IllegalAction(f"{a.player} already holds a {title} token: one of each at a time "
                            "(rule: Tokens).", rule="Tokens")
    if state.tokens_out(a.token) >= BOOK.tokens[a.token]:
        raise IllegalAction(f"Both {title} tokens are taken (rule: Tokens).", rule="Tokens")
    state = take(state, a.player, a.die)
    return with_city(state, a.player, saved_die=None, tokens=tuple(sorted(c.tokens + (a.token,))))


def recruit_defenders(state: CivState, a: A.RecruitDefenders) -> CivState:
    known_player(state, a.player)
    _die_step(state, a.player)
    if available(state).count(a.die) < 2:
        raise IllegalAction(f"Recruit Defenders needs doubles: there is no pair of {a.die}s among the dice "
                            "available (rule: Recruit Defenders).", rule="Recruit Defenders")
    state = take(state, a.player, a.die)
    return set_defenders(state, a.player, state.city(a.player).defenders + a.die)


def decline(state: CivState, a: A.Decline) -> CivState:
    _die_step(state, a.player)
    if not available(state):
        raise IllegalAction(f"No dice are left for {a.player}: draw 2 cards instead (rule: No-Die Actions).",
                            rule="No-Die Actions")
    c = state.city(a.player)
    if a.department == "" and any(c.levels):
        raise IllegalAction("Choosing not to play a die costs a department level: name the department "
                            "(rule: No-Die Actions).", rule="No-Die Actions")
    if a.department:
        department(a.department)
        if c.level(a.department) == 0:
            raise IllegalAction(f"{a.player}'s {a.department.title()} is already 0: lose a level elsewhere "
                                "(rule: No-Die Actions).", rule="No-Die Actions")
        state = lose(state, a.player, a.department)
    return replace(state, step="cards")


def draw_two(state: CivState, a: A.DrawTwo) -> CivState:
    _die_step(state, a.player)
    if available(state):
        raise IllegalAction(f"Dice are still available to {a.player}: draw two only when none is left "
                            "(rule: No-Die Actions).", rule="No-Die Actions")
    state = replace(state, step="cards", drew_two=True)
    return add_hand(state, a.player, 2)


def turn_in_saved_die(state: CivState, a: A.TurnInSavedDie) -> CivState:
    _die_step(state, a.player)
    if state.city(a.player).saved_die is None:
        raise IllegalAction(f"{a.player} has no saved die to turn in (rule: Saving Dice).", rule="Saving Dice")
    state = with_city(state, a.player, saved_die=None)
    return add_hand(replace(state, step="cards"), a.player, 1)


def die_card(state: CivState, a: A.DieCard) -> CivState:
    known_player(state, a.player)
    if a.kind not in ("action", "ability"):
        raise IllegalAction('A card played with a die is an "action" or an "ability" (rule: The Cards).',
                            rule="The Cards")
    c = state.city(a.player)
    if c.hand < 1:
        raise IllegalAction(f"{a.player} has no card in hand to play (rule: The Cards).", rule="The Cards")
    if a.with_saved and c.saved_die is None:
        raise IllegalAction(f"{a.player} has no saved die for a combo card (rule: Saving Dice).", rule="Saving Dice")
    state = take(state, a.player, a.die)
    state = with_city(state, a.player, hand=c.hand - 1, saved_die=None if a.with_saved else c.saved_die)
    if a.kind == "action":
        state = replace(state, effects=BOOK.card_effects)
    if a.kind == "ability":
        slot = "combo" if a.with_saved else "single"
        # One single-die and one combo ability at a time: a new one replaces (discards) the old one.
        abilities = tuple(sorted(set(state.city(a.player).abilities) | {slot}))
        state = with_city(state, a.player, abilities=abilities)
    return state


def steal_turn(state: CivState, a: A.StealTurn) -> CivState:
    nothing_pending(state)
    known_player(state, a.player)
    if "steal-a-turn" not in state.city(a.player).tokens:
        raise IllegalAction(f"{a.player} holds no Steal a Turn token (rule: Steal a Turn).", rule="Steal a Turn")
    if state.step != "die" or a.player == state.current or state.stolen_by:
        raise OutOfTurn("A turn is stolen from another player before they take a die action "
                        "(rule: Steal a Turn).", rule="Steal a Turn")
    tokens = tuple(t for t in state.city(a.player).tokens if t != "steal-a-turn")
    return replace(with_city(state, a.player, tokens=tokens), stolen_by=a.player)


def take_first_die(state: CivState, a: A.TakeFirstDie) -> CivState:
    nothing_pending(state)
    known_player(state, a.player)
    if state.city(a.player).sabotage < 1:
        raise IllegalAction(f"{a.player} has no use of the Sabotage ability left (rule: Sabotage).",
                            rule="Sabotage")
    if state.step != "die" or state.seat != 0 or state.sabotage_die:
        raise OutOfTurn("The Sabotage die is taken right after the Diplomat rolls (rule: Sabotage).",
                        rule="Sabotage")
    if state.dice is None or a.die not in state.dice:
        raise IllegalAction(f"There is no {a.die} among the rolled dice (rule: Sabotage).", rule="Sabotage")
    rest = list(state.dice)
    rest.remove(a.die)
    state = with_city(state, a.player, sabotage=state.city(a.player).sabotage - 1)
    return replace(state, dice=tuple(rest), sabotage_die=(a.player, a.die))


def end_turn(state: CivState, a: A.EndTurn) -> CivState:
    own_turn(state, a.player)
    if state.step != "cards":
        raise OutOfTurn(f"{a.player} takes a die action first (rule: On Your Turn).", rule="On Your Turn")
    hand = state.city(a.player).hand
    if a.draw and state.drew_two:
        raise IllegalAction("No die was left, so the 2 cards drawn replace the final draw (rule: No-Die Actions).",
                            rule="No-Die Actions")
    after = hand + (1 if a.draw else 0)
    if after > BOOK.hand_limit:
        raise IllegalAction(f"{a.player} would end the turn holding {after} cards; at most {BOOK.hand_limit}: "
                            "discard first (rule: hand size).", rule="Hand Size")
    if a.draw:
        state = add_hand(state, a.player, 1)
    return next_turn(state)


def next_turn(state: CivState) -> CivState:
    state = replace(state, seat=state.seat + 1, step="die", stolen_by="", took_die=False, drew_two=False,
                    action_cards=0, claimed=())
    if state.seat < len(state.players):
        return state
    # The round is over: the Diplomat Token passes clockwise and the new Diplomat rolls.
    return replace(state, seat=0, diplomat=(state.diplomat + 1) % len(state.players), round=state.round + 1,
                   dice=None, step="roll", sabotage_die=None)


def decline_options(state: CivState, player: str) -> tuple[str, ...]:
    c = state.city(player)
    options = tuple(d for d in DEPARTMENTS if c.level(d) > 0)
    return options or ("",)
