"""The Storm: executing a drawn Disaster on each player in turn order (rule: Disasters).

The Safe's owner is immune. Where the player must choose (which office, which vocations, which
cubes) a pending decision is raised; the bot's variants follow 2-Player Rules, Disasters.
"""
from __future__ import annotations

from collections import Counter

from ..core import IllegalAction, OutOfTurn
from .actions import BotLoseVocations, LoseOffice, LoseTown, LoseVocations
from .state import Pending, Work, move_greenbelt

PARK_VALUE = 5  # for the bot, park cubes count as the most valuable (chosen last)


def strike(w: Work, kind: str, victim: int) -> None:
    if w.safe == victim:
        return  # The Safe Tile: immune to Disasters
    amount = w.board.disaster_amounts[kind]
    if kind == "greenbelt":
        move_greenbelt(w, victim, -amount)
    elif kind == "office":
        held = [i for i, o in enumerate(w.offices) if o is not None and o[0] == victim]
        if not held:
            return
        if victim == w.bot:
            # fewest cubes; a tie loses the bottommost office (closest to City Council)
            lose = min(held, key=lambda i: (w.offices[i][1], -i))
            w.offices[lose] = None
        elif len(held) == 1:
            w.offices[held[0]] = None
        else:
            w.pending.append(Pending("lose-office", victim, victim, 1, tuple(held)))
    elif kind == "vocations":
        tiles = w.vocations[victim]
        if sum(tiles) <= amount or sum(1 for t in tiles if t) == 1:
            _lose_vocations(w, victim, _forced_vocations(tiles, amount))
        elif victim == w.bot:
            w.pending.append(Pending("bot-lose-vocations", None, victim, amount))
        else:
            w.pending.append(Pending("lose-vocations", victim, victim, amount))
    elif kind == "town":
        cubes = town_cubes_of(w, victim)
        if len(cubes) <= amount or len(set(cubes)) == 1:
            _lose_town(w, victim, cubes[:amount] if len(set(cubes)) == 1 else cubes)
            return
        if victim == w.bot:
            least = _least_valuable(cubes, amount)
            if _forced(cubes, amount):
                _lose_town(w, victim, least)
                return
            chooser = next(p for p in w.status if p != w.bot)
            w.pending.append(Pending("lose-town", chooser, victim, amount))
        else:
            w.pending.append(Pending("lose-town", victim, victim, amount))


def _forced_vocations(tiles, amount) -> list[int]:
    out = []
    for t, n in enumerate(tiles, start=1):
        out += [t] * n
    return out[:amount]


def _lose_vocations(w: Work, player: int, lost) -> None:
    for v in lost:
        w.vocations[player][v - 1] -= 1  # back in the box, out of play


def town_cubes_of(w, player: int) -> list[str]:
    """Each of the player's cubes in town or park: "park" or "<zone>-<level>"."""
    cubes = ["park"] * w.park[player]
    for i, owners in enumerate(w.town):
        cubes += [f"{w.board.zones[i // 4]}-{i % 4 + 1}"] * owners.count(player)
    return cubes


def _value(cube: str) -> int:
    return PARK_VALUE if cube == "park" else int(cube.rsplit("-", 1)[1])


def _least_valuable(cubes, amount) -> list[str]:
    return sorted(cubes, key=_value)[:amount]


def _forced(cubes, amount) -> bool:
    # The chooser only has a choice when the cut-off value is shared by different places.
    values = sorted(_value(c) for c in cubes)
    cut = values[amount - 1]
    tied = {c for c in cubes if _value(c) == cut}
    return len(tied) == 1


def _lose_town(w: Work, player: int, cubes) -> None:
    for cube in cubes:
        if cube == "park":
            w.park[player] -= 1
        else:
            zone, level = cube.rsplit("-", 1)
            owners = w.town[w.board.zones.index(zone) * 4 + int(level) - 1]
            owners.remove(player)


def _take_pending(w: Work, kind: str, what: str):
    if not w.pending or w.pending[0].kind != kind:
        raise OutOfTurn(f"No Disaster asks for {what} now (rule: Disasters).")
    return w.pending.pop(0)


def apply_lose_office(w: Work, action: LoseOffice) -> None:
    p = _take_pending(w, "lose-office", "an office to lose")
    try:
        index = w.board.office_index(action.office)
    except KeyError:
        raise IllegalAction(f'"{action.office}" is not a political office (rule: Disasters).') from None
    if index not in p.options:
        w.pending.insert(0, p)
        raise IllegalAction(f"{w.names[p.subject]} does not control {action.office} (rule: Disasters, lose 1 office).")
    w.offices[index] = None


def _check_vocations(w: Work, p: Pending, lost) -> None:
    have = Counter()
    for t, n in enumerate(w.vocations[p.subject], start=1):
        have[t] = n
    want = Counter(lost)
    if len(lost) != p.amount or any(want[t] > have[t] for t in want):
        w.pending.insert(0, p)
        raise IllegalAction(
            f"{w.names[p.subject]} loses exactly {p.amount} vocations they own (rule: Disasters, lose 2 vocations)."
        )


def apply_lose_vocations(w: Work, action: LoseVocations) -> None:
    p = _take_pending(w, "lose-vocations", "vocations to lose")
    _check_vocations(w, p, action.vocations)
    _lose_vocations(w, p.subject, action.vocations)


def apply_bot_lose_vocations(w: Work, action: BotLoseVocations) -> None:
    p = _take_pending(w, "bot-lose-vocations", "the bot's vocations")
    _check_vocations(w, p, action.vocations)
    _lose_vocations(w, p.subject, action.vocations)


def apply_lose_town(w: Work, action: LoseTown) -> None:
    p = _take_pending(w, "lose-town", "cubes to lose from town")
    own = Counter(town_cubes_of(w, p.subject))
    want = Counter(action.cubes)
    if len(action.cubes) != p.amount or any(want[c] > own[c] for c in want):
        w.pending.insert(0, p)
        raise IllegalAction(
            f"{w.names[p.subject]} loses exactly {p.amount} of their cubes in town or park, "
            'each "park" or like "red-2" (rule: Disasters, lose 3 cubes).'
        )
    if p.subject == w.bot:
        least = sorted(_value(c) for c in _least_valuable(list(own.elements()), p.amount))
        if sorted(_value(c) for c in action.cubes) != least:
            w.pending.insert(0, p)
            raise IllegalAction("The bot loses its three least valuable cubes, park cubes last (rule: 2-Player Rules, Disasters).")
    _lose_town(w, p.subject, action.cubes)


def town_choices(w, p: Pending) -> list[tuple[str, ...]]:
    """Every distinct set of cubes the pending town Disaster may take."""
    from itertools import combinations

    cubes = sorted(town_cubes_of(w, p.subject))
    sets = sorted(set(combinations(cubes, p.amount)))
    if p.subject == w.bot:
        least = sorted(_value(c) for c in _least_valuable(cubes, p.amount))
        sets = [s for s in sets if sorted(_value(c) for c in s) == least]
    return sets


def vocation_choices(w, p: Pending) -> list[tuple[int, ...]]:
    from itertools import combinations

    tiles = _forced_vocations(w.vocations[p.subject], 99)
    return sorted(set(combinations(tiles, p.amount)))
