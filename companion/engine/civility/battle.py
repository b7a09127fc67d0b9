"""Battles: bases, the defender then the attacker choosing a die or cards, retreat, ties,
the war rewards with the winner's choices, and armies and bridges going home."""
from __future__ import annotations

from dataclasses import replace

from ..core import IllegalAction, OutOfTurn
from . import actions as A
from .armies import check_placement, check_target
from .checks import department, nothing_pending, open_game, own_turn
from .ring import take
from .state import HOME, Battle, BattleRecord, CivState, City, gain, lose, set_defenders, with_city
from .status import vacate
from .tables import BOOK, DEPARTMENTS

LOSE_ONE = "Lose 1 Battle"
REWARD_GAINS = ("government", "economy", "education", "technology")


def attack(state: CivState, a: A.Attack) -> CivState:
    nothing_pending(state)
    check_target(state, a.player, a.target)
    bridge = None
    if a.via == "die":
        if a.die is None:
            raise IllegalAction("An attack on the Action Ring needs a die: a 6 (rule: Attack).", rule="Attack")
        bridge = check_placement(state, a.player, a.target)
        state = take(state, a.player, a.die, BOOK.ring["attack"], "Attack")
    elif a.via == "card":
        own_turn(state, a.player)
        if state.step != "cards":
            raise OutOfTurn("Action cards are played after the die action (rule: Gameplay).", rule="Gameplay")
        if state.action_cards >= BOOK.action_card_limit:
            raise IllegalAction(f"{a.player} has played {BOOK.action_card_limit} Action cards this turn "
                                "(rule: card play limit).", rule="Card Play Limit")
        bridge = check_placement(state, a.player, a.target)
        state = _spend_card(replace(state, action_cards=state.action_cards + 1), a.player)
    elif a.via == "anytime-card":
        state = _spend_card(state, a.player)
    elif a.via == "token":
        c = state.city(a.player)
        if "attack-anytime" not in c.tokens:
            raise IllegalAction(f"{a.player} holds no Attack Anytime token (rule: Attack Anytime).",
                                rule="Attack Anytime")
        if state.stolen_by and a.player == state.current:
            raise IllegalAction("Tokens may not be used in a stolen turn (rule: Steal a Turn).", rule="Steal a Turn")
        state = with_city(state, a.player, tokens=tuple(t for t in c.tokens if t != "attack-anytime"))
    else:
        raise IllegalAction('An attack goes "via" "die", "card", "anytime-card" or "token" (rule: Attack).',
                            rule="Attack")
    defender_home = state.city(a.target).army == HOME
    state = _lose_one_battle_between_fours(state, a.player, a.target)
    state = with_city(state, a.player, battled=True)
    state = with_city(state, a.target, battled=True)
    return replace(state, battle=Battle(a.player, a.target, a.via, bridge, defender_home))


def _lose_one_battle_between_fours(state: CivState, attacker: str, defender: str) -> CivState:
    """Two status-4 cities about to battle discard "Lose 1 Battle" when another battle card is up
    (rule: Lose 1 Battle), so that the loser cannot win the game on it."""
    shown = state.display
    lose1 = next((c for c in shown if c.name == LOSE_ONE), None)
    others = [c for c in shown if c.kind == "battle" and c.name != LOSE_ONE]
    if lose1 is None or not others or state.city(attacker).status != 4 or state.city(defender).status != 4:
        return state
    return vacate(state, LOSE_ONE)


def _spend_card(state: CivState, player: str) -> CivState:
    if state.city(player).hand < 1:
        raise IllegalAction(f"{player} has no card to play (rule: The Cards).", rule="The Cards")
    return with_city(state, player, hand=state.city(player).hand - 1)


def _battle(state: CivState, player: str, stage: str) -> Battle:
    open_game(state)
    b = state.battle
    if b is None:
        raise OutOfTurn("There is no battle under way (rule: Attack).", rule="Attack")
    if b.stage != stage:
        raise OutOfTurn(waiting(b), rule="Attack")
    who = b.defender if stage == "defender" else b.attacker
    if stage in ("defender", "attacker") and player != who:
        raise OutOfTurn(waiting(b), rule="Attack")
    return b


def waiting(b: Battle) -> str:
    return {
        "defender": f"The defender, {b.defender}, modifies first: a die or cards (rule: Modifiers).",
        "attacker": f"The attacker, {b.attacker}, now retreats or modifies (rule: Modifiers).",
        "reveal": "The battle cards are turned up: enter what they add to each side (rule: Modifiers).",
        "reward": f"{b.winner} chooses the war reward (rule: War rewards and consequences).",
    }[b.stage]


def _modifier_step(state: CivState, player: str) -> Battle:
    """The battle, when `player` is the side now choosing a die or cards (defender, then attacker)."""
    stage = state.battle.stage if state.battle and state.battle.stage == "attacker" else "defender"
    return _battle(state, player, stage)


def battle_roll(state: CivState, a: A.BattleRoll) -> CivState:
    b = _modifier_step(state, a.player)
    if not 1 <= a.die <= 6:
        raise IllegalAction(f"A die shows 1 to 6, not {a.die} (rule: Dice).", rule="Dice")
    if b.stage == "defender":
        b = replace(b, defender_roll=a.die // 2, stage="attacker")
        return replace(state, battle=b)
    return _after_attacker(state, replace(b, attacker_roll=a.die // 2))


def battle_cards(state: CivState, a: A.BattleCards) -> CivState:
    b = _modifier_step(state, a.player)
    hand = state.city(a.player).hand
    if not 0 <= a.cards <= hand:
        raise IllegalAction(f"{a.player} holds {hand} card(s) and cannot play {a.cards} (rule: Modifiers).",
                            rule="Modifiers")
    state = with_city(state, a.player, hand=hand - a.cards)
    if b.stage == "defender":
        return replace(state, battle=replace(b, defender_cards=a.cards, stage="attacker"))
    return _after_attacker(state, replace(b, attacker_cards=a.cards))


def retreat(state: CivState, a: A.Retreat) -> CivState:
    b = _battle(state, a.player, "attacker")
    attacker, defender = state.city(b.attacker), state.city(b.defender)
    if attacker.hand < 2:
        raise IllegalAction(f"{b.attacker} holds {attacker.hand} card(s): a retreat needs 2 cards for the defender "
                            "to steal (rule: Retreat).", rule="Retreat")
    state = with_city(state, b.attacker, hand=attacker.hand - 2)
    # The defender steals two cards and takes back the cards played face down.
    state = with_city(state, b.defender, hand=defender.hand + 2 + b.defender_cards)
    record = BattleRecord(b.attacker, b.defender, "", False)
    return _go_home(replace(state, battle=None, battles=state.battles + (record,)), b)


def _after_attacker(state: CivState, b: Battle) -> CivState:
    if b.attacker_cards or b.defender_cards:
        return replace(state, battle=replace(b, stage="reveal"))
    return _decide(state, b)


def battle_totals(state: CivState, a: A.BattleTotals) -> CivState:
    b = _battle(state, "", "reveal")
    low, high = BOOK.card_totals
    for side, value in (("attacker", a.attacker), ("defender", a.defender)):
        if not low <= value <= high:
            raise IllegalAction(f"The {side}'s battle cards add {low} to {high}, not {value} (rule: Battle Cards).",
                                rule="Battle Cards")
    return _decide(state, replace(b, attacker_total=a.attacker, defender_total=a.defender))


def levels(state: CivState, b: Battle) -> tuple[int, int]:
    """(attacker, defender) battle levels: bases plus dice halves plus card totals."""
    return (attack_base(state.city(b.attacker)) + b.attacker_roll + b.attacker_total,
            defence_base(state.city(b.defender), b.defender_army_home) + b.defender_roll + b.defender_total)


def attack_base(c: City) -> int:
    m = 2 if c.pacifist == "army-health-doubled" else 1
    return m * (c.level("army") + c.level("health"))


def defence_base(c: City, army_home: bool) -> int:
    m = 2 if c.pacifist == "army-health-doubled" else 1
    return c.defenders + (m * c.level("army") if army_home else 0)


def _decide(state: CivState, b: Battle) -> CivState:
    att, dfn = levels(state, b)
    if att == dfn:
        # A tie goes to the defender whose army is away, to the attacker if it was home.
        winner = b.attacker if b.defender_army_home else b.defender
    else:
        winner = b.attacker if att > dfn else b.defender
    used = b.attacker_cards if winner == b.attacker else b.defender_cards
    record = BattleRecord(b.attacker, b.defender, winner, used > 0)
    state = replace(state, battles=state.battles + (record,))
    if winner == b.attacker:
        for d in REWARD_GAINS:
            state = gain(state, b.attacker, d)
        state = set_defenders(state, b.attacker, state.city(b.attacker).defenders - 1)
    else:
        state = set_defenders(state, b.defender, state.city(b.defender).defenders - 1)
        state = lose(lose(state, b.attacker, "army"), b.attacker, "government")
    return replace(state, battle=replace(b, stage="reward", winner=winner))


def reward_options(state: CivState) -> list[tuple[str, ...]]:
    b = state.battle
    choices = [d for d in DEPARTMENTS if d != "government"]
    if b.winner == b.attacker:
        return [(d,) for d in choices]
    return [(d, e) for i, d in enumerate(choices) for e in choices[i:]]


def war_reward(state: CivState, a: A.WarReward) -> CivState:
    b = _battle(state, a.player, "reward")
    if a.player != b.winner:
        raise OutOfTurn(waiting(b), rule="War rewards and consequences")
    for d in a.departments:
        department(d, allow_government=False)
    if b.winner == b.attacker:
        if len(a.departments) != 1:
            raise IllegalAction("The winning attacker names 1 department for the defender to lose a level in "
                                "(rule: War rewards and consequences).", rule="War rewards and consequences")
        state = lose(state, b.defender, a.departments[0])
    else:
        if len(a.departments) != 2:
            raise IllegalAction("The winning defender names 2 departments to gain a level in (the same one twice "
                                "for 2 levels) (rule: War rewards and consequences).",
                                rule="War rewards and consequences")
        for d in a.departments:
            state = gain(state, b.defender, d)
    return _go_home(replace(state, battle=None), b)


def _go_home(state: CivState, b: Battle) -> CivState:
    """After battle the attacker's army and the bridge it used return home."""
    c = state.city(b.attacker)
    state = with_city(state, b.attacker, army=HOME if c.army == b.defender else c.army)
    if b.bridge is not None:
        owner, i = b.bridge
        bridges = list(state.city(owner).bridges)
        bridges[i - 1] = HOME
        state = with_city(state, owner, bridges=tuple(bridges))
    else:
        # An attack from anywhere: the attacker's bridges in the defender's port still go home.
        bridges = tuple(HOME if at == b.defender else at for at in state.city(b.attacker).bridges)
        state = with_city(state, b.attacker, bridges=bridges)
    return state
