"""Votes: Local Politics (offices and their election bonuses) and Regional Politics (Masters)."""
from __future__ import annotations

from ..core import IllegalAction, OutOfTurn
from .actions import Elect, TakeMaster, Upgrade
from .spending import check_spending, effective, need, need_cube, spend_dice, use_favor
from .state import Pending, Work, empty_spaces, gain, status_to_top, town_cubes


def apply_elect(w: Work, a: Elect) -> None:
    check_spending(w)
    rule = "Local Politics"
    faces = effective(w, a.dice, a.copies, rule)
    need(faces, "vote", None, rule, at_least=2)
    try:
        index = w.board.office_index(a.office)
    except KeyError:
        names = ", ".join(o.name for o in w.board.offices)
        raise IllegalAction(f'"{a.office}" is not a political office ({names}; rule: {rule}).') from None
    office = w.board.offices[index]
    if not any(colour == office.colour for _, colour, _ in faces):
        raise IllegalAction(
            f"{office.name} is {office.colour}: one of the votes spent must be {office.colour} (rule: {rule})."
        )
    votes = len(faces)
    held = w.offices[index]
    present = held[1] if held else 0
    if a.favor:
        if held is None:
            raise IllegalAction(f"The Favor Bonus takes an occupied office; {office.name} is empty (rule: {rule}, Favor Bonus).")
        if votes != present:
            raise IllegalAction(
                f"With the Favor Bonus you assign exactly as many votes as cubes in {office.name} ({present}) (rule: {rule}, Favor Bonus)."
            )
    elif votes <= present:
        raise IllegalAction(
            f"{office.name} holds {present} vote cubes: it takes more votes than that ({votes} is not enough; rule: {rule})."
        )
    returned = present if held and held[0] == w.active else 0
    need_cube(w, rule, votes, returned)
    if a.favor:
        use_favor(w, rule)
    w.offices[index] = (w.active, votes)  # the old cubes go back to their owner
    spend_dice(w, faces)
    election_bonus(w, index, w.active)


def election_bonus(w: Work, index: int, player: int) -> None:
    """The bonus of the office just taken (rule: Election Bonus)."""
    bonus = w.board.offices[index].bonus
    if bonus == "mayor":
        status_to_top(w, player)
    elif bonus == "urban-planning":
        w.extra_turn = True
    elif bonus == "police-fire":
        w.safe = player
    elif bonus == "public-works":
        options = upgrade_options(w, player)
        if options:
            chooser = player
            if player == w.bot:  # "the player highest on the status track chooses"
                chooser = next(p for p in w.status if p != w.bot)
            w.pending.append(Pending("upgrade", chooser, player, 1, tuple(options)))
    elif bonus in ("finance", "city-council"):
        best = max((level for _, level in town_cubes(w, player)), default=0)
        if bonus == "finance":
            gain(w, player, wealth=best)
        else:
            gain(w, player, prestige=best)


def upgrade_options(w, player: int) -> list[tuple[str, int]]:
    """(zone, level) of each building that has an empty space one level up in its zone."""
    out = []
    for zone, level in sorted(set(town_cubes(w, player))):
        if level < 4 and empty_spaces(w, zone, level + 1) > 0:
            out.append((w.board.zones[zone], level))
    return out


def apply_upgrade(w: Work, a: Upgrade) -> None:
    if not w.pending or w.pending[0].kind != "upgrade":
        raise OutOfTurn("No Public Works upgrade is waiting (rule: Election Bonus, Public Works).")
    p = w.pending[0]
    if a.zone is None:
        if p.subject == w.bot:
            raise IllegalAction("The bot's Public Works bonus is executed: choose one of its buildings (rule: 2-Player Rules, Election Bonuses).")
        w.pending.pop(0)
        return
    if (a.zone, a.level) not in p.options:
        choices = ", ".join(f"{z}-{lv}" for z, lv in p.options)
        raise IllegalAction(
            f"Public Works moves a building up one level into an empty space of its zone: {choices} (rule: Public Works)."
        )
    w.pending.pop(0)
    zone = w.board.zones.index(a.zone)
    base = zone * 4 + a.level - 1
    w.town[base].remove(p.subject)
    w.town[base + 1].append(p.subject)
    w.town[base + 1].sort()


def apply_master(w: Work, a: TakeMaster) -> None:
    check_spending(w)
    rule = "Regional Politics"
    faces = effective(w, a.dice, a.copies, rule)
    need(faces, "vote", 4, rule)
    if a.master not in w.board.masters:
        raise IllegalAction(f'"{a.master}" is not a Master ({", ".join(w.board.masters)}; rule: {rule}).')
    i = w.board.masters.index(a.master)
    if w.masters[i] is not None:
        raise IllegalAction(f"The {a.master} Master has left the Airport already (rule: {rule}).")
    w.masters[i] = w.active
    spend_dice(w, faces)

