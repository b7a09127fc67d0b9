"""Status: turning Status cards over (two-card display rule), claiming them (one per turn; battle
cards also on another's turn), Personal Status cards, perks, the Pacifist Perk and the winner."""
from __future__ import annotations

from dataclasses import replace

from ..core import IllegalAction, OutOfTurn
from . import actions as A
from .checks import department, known_player, nothing_pending, open_game
from .state import Claim, CivState, StatusCard, lose, with_city
from .tables import BOOK

PERSONAL = "personal"


def reveal(state: CivState, a: A.RevealStatus) -> CivState:
    open_game(state)
    if not state.reveals:
        raise OutOfTurn("No Status card is to be turned over now (rule: Status Cards).", rule="Status Cards")
    if a.kind not in ("battle", "city"):
        raise IllegalAction('A Status card is a "battle" card or a "city" card (rule: Status Cards).',
                            rule="Status Cards")
    facts = BOOK.status_cards.get(a.name)
    if facts and facts.kind != a.kind:
        raise IllegalAction(f'"{a.name}" is a {facts.kind} Status card (rule: Status Cards).', rule="Status Cards")
    if not a.name.strip() or a.name == PERSONAL:
        raise IllegalAction("Enter the name printed on the Status card (rule: Status Cards).", rule="Status Cards")
    if any(c.name == a.name for c in state.display):
        raise IllegalAction(f'"{a.name}" is already face up (rule: Status Cards).', rule="Status Cards")
    card = StatusCard(a.name, a.kind, len(state.battles))
    # "At the turn of a new Status Card, Perks are awarded to the players leading."
    state = award_perks(state)
    if state.quick_play:
        # Quick Play: the battle deck and the other deck each show one card.
        slot = "side" if a.kind == "battle" else "top"
        if getattr(state, slot) is not None:
            raise IllegalAction(f"The {'battle' if slot == 'side' else 'other'} Status deck already shows "
                                f'"{getattr(state, slot).name}" (rule: Quick Play).', rule="Quick Play")
        return replace(state, reveals=state.reveals - 1, **{slot: card})
    if a.kind == "battle" and state.side is None:
        # A battle card goes beside the pile and the next card is turned over (two-card display rule).
        return replace(state, side=card)
    return replace(state, top=card, reveals=0)


def vacate(state: CivState, name: str) -> CivState:
    """A face-up card leaves (claimed or discarded); the pile's next card follows if one is due."""
    if state.side is not None and state.side.name == name:
        return replace(state, side=None, reveals=state.reveals + (1 if state.quick_play else 0))
    return replace(state, top=None, reveals=state.reveals + 1)


def battles_toward(state: CivState, player: str, card: StatusCard) -> list[int]:
    """The battles of `player` that count toward `card`: fought after its reveal, not yet spent."""
    spent = state.city(player).spent
    return [i for i in range(card.revealed_at, len(state.battles))
            if i not in spent and player in (state.battles[i].attacker, state.battles[i].defender)]


def _battle_spend(state: CivState, player: str, card: StatusCard) -> tuple[int, ...] | None:
    """The battles to spend on a known battle card, or None if the condition is not met."""
    facts = BOOK.status_cards.get(card.name)
    if facts is None:
        return ()
    records = [(i, state.battles[i]) for i in battles_toward(state, player, card)]
    wins = [i for i, r in records if r.winner == player]
    clean = [i for i, r in records if r.winner == player and not r.winner_used_cards]
    losses = [i for i, r in records if r.winner and r.winner != player]
    spend: list[int] = []
    if facts.wins_without_cards:
        if len(clean) < facts.wins_without_cards:
            return None
        spend += clean[: facts.wins_without_cards]
    if facts.wins:
        # Spend wins that used cards first so that clean wins stay for the other card (FAQ).
        rest = sorted((i for i in wins if i not in spend), key=lambda i: (i in clean, i))
        if len(rest) < facts.wins:
            return None
        spend += rest[: facts.wins]
    if facts.losses:
        if len(losses) < facts.losses:
            return None
        spend += losses[: facts.losses]
    return tuple(spend)


def claim(state: CivState, a: A.ClaimStatus) -> CivState:
    nothing_pending(state)
    known_player(state, a.player)
    c = state.city(a.player)
    if a.player in state.claimed:
        raise IllegalAction(f"{a.player} has claimed a Status card this turn already: one per turn "
                            "(rule: Status Cards).", rule="Status Cards")
    if a.card == PERSONAL:
        if not c.personal_status:
            raise IllegalAction(f"{a.player}'s Personal Status card was used (rule: Personal Status).",
                                rule="Personal Status")
        if c.status + 1 >= BOOK.status_max:
            raise IllegalAction(f"A Personal Status card cannot take a city to status {BOOK.status_max} "
                                "(rule: Personal Status).", rule="Personal Status")
        _own_turn_claim(state, a.player)
        return replace(state, claim=Claim(a.player, PERSONAL))
    card = next((d for d in state.display if d.name == a.card), None)
    if card is None:
        shown = ", ".join(f'"{d.name}"' for d in state.display) or "none"
        raise IllegalAction(f'"{a.card}" is not a face-up Status card (face up: {shown}) (rule: Status Cards).',
                            rule="Status Cards")
    if card.kind != "battle":
        _own_turn_claim(state, a.player)
    spend = _battle_spend(state, a.player, card) if card.kind == "battle" else ()
    if spend is None:
        raise IllegalAction(f'{a.player} has not met "{card.name}" with battles fought since it was turned over '
                            "(rule: battle Status Cards).", rule="Battle Status Cards")
    state = with_city(state, a.player, spent=c.spent + spend)
    facts = BOOK.status_cards.get(card.name)
    if facts is None:
        return replace(state, claim=Claim(a.player, card.name))
    for dept, n in facts.cost:
        if state.city(a.player).level(dept) < n:
            raise IllegalAction(f'"{card.name}" costs {n} {dept.title()}; {a.player} has '
                                f"{state.city(a.player).level(dept)} (rule: claiming a Status Card).",
                                rule="Status Cards")
        state = lose(state, a.player, dept, n)
    return take_card(state, a.player, card.name)


def _own_turn_claim(state: CivState, player: str) -> None:
    if player != state.current or state.step == "roll":
        raise OutOfTurn(f"Status cards are claimed during the claimer's own turn; it is {state.current}'s "
                        "(rule: Status Cards).", rule="Status Cards")


def _claiming(state: CivState, player: str) -> Claim:
    open_game(state)
    if state.claim is None or state.claim.player != player:
        raise OutOfTurn("No Status card is being paid for by this player (rule: Status Cards).", rule="Status Cards")
    return state.claim


def pay_cost(state: CivState, a: A.PayStatusCost) -> CivState:
    cl = _claiming(state, a.player)
    department(a.department)
    if state.city(a.player).level(a.department) < 1:
        raise IllegalAction(f"{a.player}'s {a.department.title()} is 0 and cannot pay (rule: claiming a Status "
                            "Card).", rule="Status Cards")
    state = lose(state, a.player, a.department)
    return replace(state, claim=replace(cl, paid=cl.paid + 1))


def cost_paid(state: CivState, a: A.StatusCostPaid) -> CivState:
    cl = _claiming(state, a.player)
    return take_card(replace(state, claim=None), a.player, cl.card)


def take_card(state: CivState, player: str, name: str) -> CivState:
    """The claimer takes the card, moves up a status, perks move, Pacifist and next card follow."""
    c = state.city(player)
    state = with_city(state, player, status=c.status + 1)
    if name == PERSONAL:
        state = with_city(state, player, personal_status=False)
    else:
        state = vacate(state, name)
    state = replace(state, claimed=state.claimed + (player,))
    # Step 4 of a claim: perks go (or move) to the departments' new leaders.
    state = award_perks(state)
    status = state.city(player).status
    if status >= BOOK.status_max:
        return replace(state, winner=player, reveals=0)
    if (not state.pacifist_taken and status == BOOK.pacifist_status and not state.city(player).battled):
        state = replace(state, pacifist_choice=player)
    return state


def give_renewal(state: CivState, a: A.GiveRenewal) -> CivState:
    nothing_pending(state)
    known_player(state, a.player)
    known_player(state, a.to)
    if min(dict(state.fresh).get(a.player, 0), state.city(a.player).hand) < 1:
        raise IllegalAction(f"{a.player} has not just drawn a card: the lowest-status card is given when drawn "
                            "(rule: Noteworthy Cards).", rule="Noteworthy Cards")
    lowest = min(c.status for c in state.cities)
    if state.city(a.player).status == lowest:
        allowed = [a.player]  # the drawer with the lowest status keeps it
    else:
        allowed = [c.player for c in state.cities if c.status == lowest]
    if a.to not in allowed:
        raise IllegalAction(f"The card goes to the city with the lowest status: {' or '.join(allowed)} "
                            "(rule: Noteworthy Cards).", rule="Noteworthy Cards")
    fresh = dict(state.fresh)
    fresh[a.player] -= 1
    state = replace(state, fresh=tuple(sorted((p, n) for p, n in fresh.items() if n)))
    state = with_city(state, a.player, hand=state.city(a.player).hand - 1)
    return with_city(state, a.to, renewals=BOOK.renewal_uses)


def renew(state: CivState, a: A.RenewStatus) -> CivState:
    nothing_pending(state)
    known_player(state, a.player)
    if state.city(a.player).renewals < 1:
        raise IllegalAction(f"{a.player} holds no use of the card that discards a Status card "
                            "(rule: Noteworthy Cards).", rule="Noteworthy Cards")
    if a.player != state.current or state.step == "roll":
        raise OutOfTurn("This ability is used during the holder's own turn (rule: Noteworthy Cards).",
                        rule="Noteworthy Cards")
    if a.card not in [c.name for c in state.display]:
        raise IllegalAction(f'"{a.card}" is not a face-up Status card (rule: Noteworthy Cards).',
                            rule="Noteworthy Cards")
    state = with_city(state, a.player, renewals=state.city(a.player).renewals - 1)
    return vacate(state, a.card)


def award_perks(state: CivState) -> CivState:
    """Each Perk department's single leader holds its Perk; nobody does on a tie."""
    held: dict[str, list[str]] = {p: [] for p in state.players}
    for dept in BOOK.perk_departments:
        levels = [(state.city(p).level(dept), p) for p in state.players]
        top = max(v for v, _ in levels)
        leaders = [p for v, p in levels if v == top]
        if len(leaders) == 1:
            held[leaders[0]].append(dept)
    for p in state.players:
        state = with_city(state, p, perks=tuple(held[p]))
    return state


def choose_pacifist(state: CivState, a: A.ChoosePacifist) -> CivState:
    open_game(state)
    if state.pacifist_choice != a.player:
        raise OutOfTurn("Nobody else is choosing a Pacifist Perk option now (rule: Pacifist Perk).",
                        rule="Pacifist Perk")
    if a.option not in BOOK.pacifist_options:
        raise IllegalAction(f"The Pacifist Perk's options are {' and '.join(BOOK.pacifist_options)} "
                            "(rule: Pacifist Perk).", rule="Pacifist Perk")
    state = with_city(state, a.player, pacifist=a.option)
    return replace(state, pacifist_choice="", pacifist_taken=True)


def claimable(state: CivState, player: str) -> list[str]:
    """Cards `player` could name in a claim (the claim itself may still be refused)."""
    names = [d.name for d in state.display]
    if state.city(player).personal_status:
        names.append(PERSONAL)
    return names

