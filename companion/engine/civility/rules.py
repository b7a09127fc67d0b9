"""Civility as a `Game`: set-up, one place that applies every action, prompts and the summary."""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from ..core import Action, Game, IllegalAction, Prompt, SetupError, register
from . import actions as A
from . import battle, cards, events, ring, status
from .cities import seat_cities
from .legal import legal
from .state import CivState, City, HOME
from .tables import BOOK, DEPARTMENTS

HANDLERS = {
    A.Roll: ring.roll, A.DrawCard: ring.draw_card, A.MoveArmy: ring.move_army, A.BuildBridge: ring.build_bridge,
    A.Upgrade: ring.upgrade, A.SaveDie: ring.save_die, A.Combo: ring.combo,
    A.RecruitDefenders: ring.recruit_defenders, A.Decline: ring.decline, A.DrawTwo: ring.draw_two,
    A.TurnInSavedDie: ring.turn_in_saved_die, A.DieCard: ring.die_card, A.StealTurn: ring.steal_turn,
    A.TakeFirstDie: ring.take_first_die, A.EndTurn: ring.end_turn,
    A.PlayCard: cards.play_card, A.Discard: cards.discard, A.DiscardToUpgrade: cards.discard_to_upgrade,
    A.SetDial: cards.set_dial, A.MovePiece: cards.move_piece,
    A.Attack: battle.attack, A.BattleRoll: battle.battle_roll, A.BattleCards: battle.battle_cards,
    A.Retreat: battle.retreat, A.BattleTotals: battle.battle_totals, A.WarReward: battle.war_reward,
    A.RevealStatus: status.reveal, A.ClaimStatus: status.claim, A.PayStatusCost: status.pay_cost,
    A.StatusCostPaid: status.cost_paid, A.ChoosePacifist: status.choose_pacifist,
    A.GiveRenewal: status.give_renewal, A.RenewStatus: status.renew,
    A.WorldEvent: events.declare, A.EventRoll: events.event_roll, A.EventChoice: events.event_choice,
}
# Drawn cards stay "fresh" (a World Event among them is played at once) only until the next
# action that is not part of resolving what the draw started.
KEEPS_FRESH = (A.WorldEvent, A.GiveRenewal, A.EventRoll, A.EventChoice, A.RevealStatus, A.ChoosePacifist, A.PayStatusCost,
               A.StatusCostPaid)


def _option_int(options: Mapping[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = options.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SetupError(f'Option "{key}" must be a whole number {low}-{high}, not {value!r}.')
    return value


@register
class Civility(Game):
    name = "civility"
    title = "Civility"
    min_players = 2
    max_players = 6
    actions = A.ALL_ACTIONS
    options = ("dice", "quick_play", "diplomat", "cities", "levels")

    def new(self, players, options=None) -> CivState:
        options = self.check_options(options)
        names = self.check_players(players)
        if HOME in names or "personal" in names:
            raise SetupError(f'"{HOME}" and "personal" are words of the game, not player names.')
        dice = _option_int(options, "dice", len(names) - 1, 1, 6)
        quick = options.get("quick_play", False)
        if not isinstance(quick, bool):
            raise SetupError('Option "quick_play" must be true or false (rule: Quick Play).')
        diplomat = options.get("diplomat", names[0])
        if diplomat not in names:
            raise SetupError(f'Option "diplomat" must name a player, not {diplomat!r} (rule: Set-Up).')
        seats = seat_cities(names, options)
        cities = tuple(
            City(s.player, s.city, s.levels, s.defenders, status=1 if quick else 0, hand=BOOK.starting_hand,
                 bridges=tuple(HOME for _ in range(BOOK.bridges)))
            for s in seats)
        # Quick Play removes the Pacifist Perks from play: mark it as already taken.
        return CivState(names, cities, dice, diplomat=names.index(diplomat), pacifist_taken=quick,
                        quick_play=quick, reveals=2 if quick else 1)

    def apply(self, state: CivState, action: Action) -> CivState:
        handler = HANDLERS.get(type(action))
        if handler is None:
            raise IllegalAction(f"{action.type!r} is not an action of Civility.", rule="action format")
        if not isinstance(action, KEEPS_FRESH) and state.fresh:
            state = replace(state, fresh=())
        if state.effects and not isinstance(action, (A.SetDial, A.MovePiece)):
            state = replace(state, effects=0)
        return handler(state, action)

    def legal_actions(self, state: CivState) -> list[Action]:
        return legal(state, self.apply)

    def is_chance(self, action: Action) -> bool:
        return isinstance(action, A.CHANCE)

    def finished(self, state: CivState) -> bool:
        return bool(state.winner)

    def prompt(self, state: CivState) -> Prompt:
        if state.winner:
            return Prompt("game-over", f"{state.winner} reached status {BOOK.status_max} and wins!", state.winner)
        if state.reveals:
            return Prompt("reveal-status", "Turn over the next Status card and enter its name and kind.")
        if state.pacifist_choice:
            return Prompt("choose", f"{state.pacifist_choice} chooses a Pacifist Perk option.",
                          state.pacifist_choice, BOOK.pacifist_options)
        if state.claim:
            return Prompt("pay", f"{state.claim.player} pays for \"{state.claim.card}\": enter each level paid, "
                          "then done.", state.claim.player, DEPARTMENTS)
        if state.battle:
            b = state.battle
            who = {"defender": b.defender, "attacker": b.attacker, "reward": b.winner}.get(b.stage)
            return Prompt("battle", battle.waiting(b), who)
        if state.event:
            return Prompt("event", f"{state.event.name}: {events.describe(state)}", events.actor(state))
        diplomat = state.players[state.diplomat]
        if state.step == "roll":
            return Prompt("roll", f"{diplomat}, the Diplomat, rolls {state.dice_per_round} dice.", diplomat)
        if state.step == "die":
            dice = ring.available(state)
            text = (f"{state.current}: take a die action with {', '.join(map(str, dice))}." if dice else
                    f"{state.current}: no die is left; draw 2 cards.")
            if state.stolen_by:
                text = f"{state.stolen_by} plays {state.current}'s stolen turn. " + text
            return Prompt("die-action", text, state.actor, dice)
        return Prompt("cards", f"{state.current}: play or discard cards, then end the turn "
                      f"(at most {BOOK.hand_limit} cards).", state.actor)

    def summary(self, state: CivState) -> dict:
        players = [{
            "name": c.player, "city": c.city,
            "departments": {d: c.level(d) for d in DEPARTMENTS},
            "defenders": c.defenders, "status": c.status, "cards": c.hand,
            "saved_die": c.saved_die, "tokens": list(c.tokens), "army": c.army, "bridges": list(c.bridges),
            "perks": list(c.perks), "pacifist": c.pacifist, "personal_status": c.personal_status,
            "abilities": list(c.abilities), "sabotage": c.sabotage, "renewals": c.renewals,
        } for c in state.cities]
        return {
            "game": self.name, "finished": self.finished(state), "turn": state.round, "round": state.round,
            "diplomat": state.players[state.diplomat], "current": state.current,
            "dice": list(ring.available(state)) if state.step == "die" else None,
            "status_cards": [{"name": c.name, "kind": c.kind} for c in state.display],
            "battles": len(state.battles), "players": players,
            "winner": state.winner or None, "ranking": ranking(state),
        }


def ranking(state: CivState) -> list[str]:
    """Winner first, then by status; ties by total department levels, then Defenders, then table order."""
    def key(i: int):
        c = state.cities[i]
        return (c.player != state.winner, -c.status, -sum(c.levels), -c.defenders, i)
    return [state.cities[i].player for i in sorted(range(len(state.cities)), key=key)]
