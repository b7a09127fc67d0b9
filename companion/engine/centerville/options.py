"""Every legal action in a state, chance entries included (what the app offers, what bots search).

Dice that are interchangeable for the rules (two fates, which die a fate copies when colour does
not matter) give one representative action each; `apply` accepts every equivalent spelling.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import combinations, product
from typing import Iterator

from ..core import Action, pairs
from . import disasters
from .actions import (
    BotLoseVocations, Build, ChooseVictim, Done, Draw, Elect, Greenbelt, Hourglass, Keep, Landmark,
    Leisure, LoseOffice, LoseTown, LoseVocations, Media, NameMedia, OpenLegacy, Park, RevealLegacy,
    Reroll, River, Roll, SetMaster, TakeMaster, TakeVocation, Upgrade,
)
from .dice import default_dice
from .state import DIE_ORDER, State, available_cubes, empty_spaces

DICE = default_dice()


def legal_actions(s: State) -> Iterator[Action]:
    if s.phase == "over":
        return
    if s.pending:
        yield from _pending_options(s)
        return
    phase = s.phase
    if phase in ("setup-draw", "reseed"):
        for v, n in enumerate(s.bag, start=1):
            if n:
                yield Draw(vocation=v)
        if s.bag_disasters:
            for kind in s.board.disasters:
                if kind not in s.disasters_drawn:
                    yield Draw(disaster=kind)
    elif phase == "setup-legacy":
        for legacy in s.board.legacies:
            yield OpenLegacy(legacy)
    elif phase in ("masters", "roll"):
        if phase == "masters":
            for m, owner in zip(s.board.masters, s.masters):
                die = DIE_ORDER.index(m)
                if owner == s.active and die not in s.masters_set:
                    for face in DICE.labels(die):
                        yield SetMaster(face)
        labels = [DICE.labels(i) for i in s.to_roll]
        for faces in product(*labels):
            yield Roll(tuple(faces))
    elif phase == "keep":
        yield Keep()
        yield from _rerolls(tuple(i for i in range(6) if s.dice[i] is not None and not s.locked[i]))
    elif phase == "spend":
        yield from spend_actions(s)


@lru_cache(maxsize=64)
def _rerolls(dice: tuple[int, ...]) -> tuple[Reroll, ...]:
    return tuple(
        Reroll(tuple(DIE_ORDER[i] for i in combo))
        for k in range(1, len(dice) + 1)
        for combo in combinations(dice, k)
    )


def _pending_options(s: State) -> Iterator[Action]:
    p = s.pending[0]
    b = s.board
    if p.kind == "upgrade":
        if p.subject != s.bot:
            yield Upgrade()
        for zone, level in p.options:
            yield Upgrade(zone, level)
    elif p.kind == "lose-office":
        for i in p.options:
            yield LoseOffice(b.offices[i].name)
    elif p.kind == "lose-vocations":
        for combo in disasters.vocation_choices(s, p):
            yield LoseVocations(combo)
    elif p.kind == "bot-lose-vocations":
        for combo in disasters.vocation_choices(s, p):
            yield BotLoseVocations(combo)
    elif p.kind == "lose-town":
        for combo in disasters.town_choices(s, p):
            yield LoseTown(combo)
    elif p.kind == "bot-victim":
        for v in p.options:
            yield ChooseVictim(s.names[v])
    elif p.kind == "name-media":
        for v in range(1, b.vocation_types + 1):
            yield NameMedia(v)
    elif p.kind == "reveal-legacy":
        used = {x for x in s.legacies if x} | ({s.open_legacy} if s.open_legacy else set())
        for legacy in b.legacies:
            if legacy not in used:
                yield RevealLegacy(s.names[p.subject], legacy)


# ---------------------------------------------------------------------------------------------
# Spending
# ---------------------------------------------------------------------------------------------
class _Roll:
    """The unspent dice of a roll grouped by icon, and what a fate may copy."""

    def __init__(self, s: State):
        self.natural: dict[str, list[int]] = {}
        self.targets: dict[str, list[int]] = {}
        self.fates: list[int] = []
        self.hourglasses: list[int] = []
        for i, face in enumerate(s.dice):
            if face is None:
                continue
            icon = face.split("-", 1)[1]
            if icon not in ("fate", "hourglass"):
                self.targets.setdefault(icon, []).append(i)
            if s.spent[i]:
                continue
            if icon == "fate":
                self.fates.append(i)
            elif icon == "hourglass":
                self.hourglasses.append(i)
            else:
                self.natural.setdefault(icon, []).append(i)

    def choose(self, icon: str, n: int, colour: str | None = None):
        """(dice, copies) spending exactly n `icon`s, at least one of `colour` if given."""
        natural = self.natural.get(icon, [])
        targets = self.targets.get(icon, [])
        fates = self.fates if targets else []
        for a in range(max(0, n - len(fates)), min(n, len(natural)) + 1):
            k = n - a
            used_fates = fates[:k]
            for combo in combinations(natural, a):
                matched = colour is None or any(DIE_ORDER[i] == colour for i in combo)
                copies = {DIE_ORDER[f]: DIE_ORDER[targets[0]] for f in used_fates}
                if not matched:
                    match = [t for t in targets if DIE_ORDER[t] == colour]
                    if not k or not match:
                        continue
                    copies[DIE_ORDER[used_fates[0]]] = colour
                dice = tuple(DIE_ORDER[i] for i in sorted(combo + tuple(used_fates)))
                yield dice, pairs(copies)

    def count(self, icon: str) -> int:
        return len(self.natural.get(icon, [])) + (len(self.fates) if self.targets.get(icon) else 0)


def spend_actions(s: State) -> Iterator[Action]:
    """Every single spend open to the active player now, and Done when hourglasses are spent."""
    r = _Roll(s)
    me = s.active
    b = s.board
    cubes = available_cubes(s, me)
    favor = s.favors[me] > 0
    opponents = [p for p in range(s.players) if p != me]
    for die in r.hourglasses:
        for what in ("status", "wealth", "prestige"):
            yield Hourglass(DIE_ORDER[die], what)
    if not r.hourglasses:
        yield Done()
    # trees
    for dice, copies in r.choose("tree", 1):
        if s.greenbelt[me] < b.greenbelt_top:
            yield Greenbelt(dice[0], copies)
        else:
            for p in opponents:
                yield Greenbelt(dice[0], copies, s.names[p])
    if cubes and r.count("tree") >= 3:
        for dice, copies in r.choose("tree", 3):
            for i, space in enumerate(b.river_spaces):
                if s.river[i] is None:
                    yield River(dice, space, copies)
            bridge = b.river_north
            if favor and s.river[bridge] != me:
                yield River(dice, "bridge", copies, favor=True)
    if cubes and r.count("tree") >= 4:
        for dice, copies in r.choose("tree", 4):
            for z, zone in enumerate(b.zones):
                if empty_spaces(s, z, 4):
                    yield Build(dice, zone, 4, copies)
    # contracts
    if r.count("contract"):
        for level in b.contract_levels:
            if not cubes or r.count("contract") < level:
                break
            for z, zone in enumerate(b.zones):
                owners = s.town[z * 4 + level - 1]
                empty = empty_spaces(s, z, level) > 0
                victims = sorted({o for o in owners if o != me}) if favor else []
                if not empty and not victims:
                    continue
                for dice, copies in r.choose("contract", level, zone):
                    if empty:
                        yield Build(dice, zone, level, copies)
                    for v in victims:
                        yield Build(dice, zone, level, copies, favor=True, replace=s.names[v])
        if s.stars[me] == 1 and r.count("contract") >= 4:
            for dice, copies in r.choose("contract", 4):
                yield Landmark(dice, copies)
    # education
    if r.count("education"):
        seen = set()
        for space, v in enumerate(s.campus, start=1):
            cost = b.sections[space - 1]
            if v is None or (cost, v) in seen or r.count("education") < cost:
                continue
            seen.add((cost, v))
            for dice, copies in r.choose("education", cost):
                yield TakeVocation(dice, space, copies)
        if favor and r.count("education") >= 3:
            for dice, copies in r.choose("education", 3):
                for p in opponents:
                    for v, n in enumerate(s.vocations[p], start=1):
                        if n:
                            yield TakeVocation(dice, 0, copies, favor=True, from_player=s.names[p], vocation=v)
        if s.media != me and r.count("education") >= b.media_education:
            for dice, copies in r.choose("education", b.media_education):
                yield Media(dice, copies)
    # benches
    if r.count("bench"):
        if s.park[me]:
            for dice, copies in r.choose("bench", 1):
                yield Leisure(dice[0], copies)
        if cubes and r.count("bench") >= 3:
            for dice, copies in r.choose("bench", 3):
                yield Park(dice, copies)
    # votes
    votes = r.count("vote")
    if votes >= 2:
        for i, office in enumerate(b.offices):
            held = s.offices[i]
            present = held[1] if held else 0
            returned = present if held and held[0] == me else 0
            for x in range(max(2, present), votes + 1):
                if x > cubes + returned:
                    break
                if x == present and not favor:
                    continue
                for dice, copies in r.choose("vote", x, office.colour):
                    yield Elect(dice, office.name, copies, favor=(x == present))
        if votes >= 4:
            for dice, copies in r.choose("vote", 4):
                for m, owner in zip(b.masters, s.masters):
                    if owner is None:
                        yield TakeMaster(dice, m, copies)
