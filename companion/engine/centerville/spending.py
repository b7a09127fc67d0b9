"""Spending the dice: each action of the rulebook, with colour matching, cube limits and Favors.

Every spend names its dice by colour; a fate die must say which die it copies (rule: Fate). The
enumeration of every legal spend lives in `options.py`.
"""
from __future__ import annotations

from ..core import IllegalAction, OutOfTurn
from .actions import (
    Build, Done, Greenbelt, Hourglass, Landmark, Leisure, Media, Park, River, TakeVocation,
)
from .state import (
    DIE_ORDER, Work, advance_time, available_cubes, empty_spaces, gain, move_greenbelt,
    raise_status,
)


def icon_of(w, die: int) -> str:
    return w.dice[die].split("-", 1)[1]


def check_spending(w: Work) -> None:
    if w.phase != "spend":
        if w.phase in ("roll", "keep", "masters"):
            raise OutOfTurn("No die may be spent until all rolling is declared finished (rule: Rolling the Dice).")
        raise OutOfTurn("Dice are spent only after rolling, on your own turn (rule: Spending the Dice).")
    if w.pending:
        raise OutOfTurn("Another decision comes first: " + w.pending[0].kind + " (rule: Spending the Dice).")
    if w.active == w.bot:
        raise OutOfTurn("The bot spends its own dice (rule: Bot Actions).")


def effective(w: Work, dice: tuple[str, ...], copies, rule: str) -> list[tuple[int, str, str]]:
    """(die, colour, icon) of each die spent, fate replaced by what it copies. Validates."""
    copy_of = dict(copies)
    out = []
    seen = set()
    for colour in dice:
        if colour not in DIE_ORDER:
            raise IllegalAction(f'"{colour}" is not a die colour (rule: {rule}).')
        die = DIE_ORDER.index(colour)
        if w.dice[die] is None:
            raise IllegalAction(f"The {colour} die is not in this roll (rule: {rule}).")
        if die in seen:
            raise IllegalAction(f"The {colour} die is named twice (rule: Spending the Dice).")
        if w.spent[die]:
            raise IllegalAction(f"The {colour} die is already spent: each die is spent once (rule: Spending the Dice).")
        seen.add(die)
        icon = icon_of(w, die)
        if icon == "fate":
            target = copy_of.get(colour)
            if target is None:
                raise IllegalAction(f"Say which die the {colour} fate copies (rule: Fate).")
            if target not in DIE_ORDER or w.dice[DIE_ORDER.index(target)] is None:
                raise IllegalAction(f"The {colour} fate copies a die in this roll, not {target!r} (rule: Fate).")
            copied = icon_of(w, DIE_ORDER.index(target))
            if copied in ("fate", "hourglass"):
                raise IllegalAction(
                    f"Fate copies a bench, contract, education, tree or vote, never {copied} (rule: Fate)."
                )
            out.append((die, target, copied))
        else:
            if colour in copy_of:
                raise IllegalAction(f"Only a fate copies another die; the {colour} die shows {icon} (rule: Fate).")
            out.append((die, colour, icon))
    for colour in copy_of:
        if colour not in dice:
            raise IllegalAction(f"The {colour} die copies something but is not spent here (rule: Fate).")
    return out


def need(faces, icon: str, count: int | None, rule: str, at_least: int | None = None) -> None:
    wrong = [c for _, c, i in faces if i != icon]
    if wrong:
        raise IllegalAction(f"Only {icon} icons are spent here; the {wrong[0]} die is not one (rule: {rule}).")
    if count is not None and len(faces) != count:
        raise IllegalAction(f"{rule} takes {count} {icon} icons, not {len(faces)} (rule: {rule}).")
    if at_least is not None and len(faces) < at_least:
        raise IllegalAction(f"{rule} takes at least {at_least} {icon} icons (rule: {rule}).")


def spend_dice(w: Work, faces) -> None:
    for die, _, _ in faces:
        w.spent[die] = True


def use_favor(w: Work, rule: str) -> None:
    if w.favors[w.active] == 0:
        raise IllegalAction(f"A Favor Bonus needs a Favor tile, and you have none (rule: {rule}, Favor Bonus).")
    w.favors[w.active] -= 1  # discarded to the box, not back to the supply


def need_cube(w: Work, rule: str, count: int = 1, returned: int = 0) -> None:
    if available_cubes(w, w.active) + returned < count:
        raise IllegalAction(
            f"You have {available_cubes(w, w.active)} cubes left, and this needs {count} (rule: Component Limits)."
        )


def player_index(w, name: str, rule: str) -> int:
    if name not in w.names:
        raise IllegalAction(f'"{name}" is not at this table (rule: {rule}).')
    return w.names.index(name)


# ---------------------------------------------------------------------------------------------
def apply_hourglass(w: Work, a: Hourglass) -> None:
    check_spending(w)
    faces = effective(w, (a.die,), (), "Hourglasses")
    if faces[0][2] != "hourglass":
        raise IllegalAction(f"The {a.die} die shows no hourglass (rule: Hourglasses).")
    if a.gain not in ("status", "wealth", "prestige"):
        raise IllegalAction('An hourglass gains "status", "wealth" or "prestige" (rule: Time Marches On).')
    spend_dice(w, faces)
    advance_time(w)
    if a.gain == "status":
        raise_status(w, w.active)
    elif a.gain == "wealth":
        gain(w, w.active, wealth=1)
    else:
        gain(w, w.active, prestige=1)


def apply_greenbelt(w: Work, a: Greenbelt) -> None:
    check_spending(w)
    faces = effective(w, (a.die,), a.copies, "Expand City Limits")
    need(faces, "tree", 1, "Expand City Limits")
    if w.greenbelt[w.active] < w.board.greenbelt_top:
        if a.opponent is not None:
            raise IllegalAction("You lower an opponent only when you are already at 12 (rule: Expand City Limits).")
        move_greenbelt(w, w.active, 1)
    else:
        if a.opponent is None:
            raise IllegalAction("You are at 12: name the opponent whose marker goes down 1 (rule: Expand City Limits).")
        victim = player_index(w, a.opponent, "Expand City Limits")
        if victim == w.active:
            raise IllegalAction("At 12 you lower an opponent's marker, not your own (rule: Expand City Limits).")
        move_greenbelt(w, victim, -1)
    spend_dice(w, faces)


def apply_river(w: Work, a: River) -> None:
    check_spending(w)
    rule = "Develop the River"
    faces = effective(w, a.dice, a.copies, rule)
    need(faces, "tree", 3, rule)
    spaces = w.board.river_spaces
    if a.space not in spaces:
        raise IllegalAction(f'"{a.space}" is not a river space ({", ".join(spaces)}; rule: {rule}).')
    index = spaces.index(a.space)
    owner = w.river[index]
    if a.favor:
        if a.space != "bridge":
            raise IllegalAction(f"The Favor Bonus takes the bridge space, not {a.space} (rule: {rule}, Favor Bonus).")
        if owner == w.active:
            raise IllegalAction(f"You already control the bridge (rule: {rule}, Favor Bonus).")
        need_cube(w, rule)
        use_favor(w, rule)
    else:
        if owner is not None:
            raise IllegalAction(
                f"{a.space} is taken: choose an empty river space, or the bridge with a Favor (rule: {rule})."
            )
        need_cube(w, rule)
    w.river[index] = w.active  # a replaced cube goes back to its owner
    spend_dice(w, faces)


def apply_build(w: Work, a: Build) -> None:
    check_spending(w)
    b = w.board
    if a.zone not in b.zones:
        raise IllegalAction(f'"{a.zone}" is not a town zone ({", ".join(b.zones)}; rule: Contracts).')
    zone = b.zones.index(a.zone)
    if a.level == b.tree_level:
        rule = "Build in Town (4 trees)"
        faces = effective(w, a.dice, a.copies, rule)
        need(faces, "tree", 4, rule)
        if a.favor:
            raise IllegalAction(f"Building with trees has no Favor Bonus (rule: {rule}).")
    elif a.level in b.contract_levels:
        rule = "Build in Town"
        faces = effective(w, a.dice, a.copies, rule)
        need(faces, "contract", a.level, rule)
        if not any(colour == a.zone for _, colour, _ in faces):
            raise IllegalAction(
                f"At least one die spent to build in the {a.zone} zone must be {a.zone} (rule: Town Zones)."
            )
    else:
        raise IllegalAction(f"Town levels are 1 to 4, not {a.level} (rule: Town Neighborhoods).")
    owners = w.town[zone * 4 + a.level - 1]
    need_cube(w, rule)
    if a.favor:
        if a.replace is None:
            raise IllegalAction(f"Name whose building the Favor replaces (rule: {rule}, Favor Bonus).")
        victim = player_index(w, a.replace, rule)
        if victim == w.active or victim not in owners:
            raise IllegalAction(
                f"{a.replace} has no building in the {a.zone} zone at level {a.level} to replace (rule: {rule}, Favor Bonus)."
            )
        use_favor(w, rule)
        owners.remove(victim)
    else:
        if a.replace is not None:
            raise IllegalAction(f"Replacing a building takes the Favor Bonus (rule: {rule}).")
        if empty_spaces(w, zone, a.level) == 0:
            raise IllegalAction(
                f"The {a.zone} zone has no empty level-{a.level} space (rule: {rule}; a Favor builds on an occupied one)."
            )
    owners.append(w.active)
    owners.sort()
    spend_dice(w, faces)


def apply_landmark(w: Work, a: Landmark) -> None:
    check_spending(w)
    rule = "Landmark Building"
    faces = effective(w, a.dice, a.copies, rule)
    need(faces, "contract", 4, rule)
    if w.stars[w.active] == 2:
        raise IllegalAction(f"Your status marker already shows two stars (rule: {rule}).")
    w.stars[w.active] = 2
    spend_dice(w, faces)


def apply_vocation(w: Work, a: TakeVocation) -> None:
    check_spending(w)
    faces = effective(w, a.dice, a.copies, "Education")
    n = len(faces)
    need(faces, "education", None, "Education")
    if a.favor:
        rule = "Rare Vocation, Favor Bonus"
        if n != 3:
            raise IllegalAction(f"The Favor Bonus replaces a Rare Vocation: 3 education (rule: {rule}).")
        if a.from_player is None or a.vocation is None:
            raise IllegalAction(f"Name the player and the vocation you take (rule: {rule}).")
        victim = player_index(w, a.from_player, rule)
        v = a.vocation
        if victim == w.active or not 1 <= v <= w.board.vocation_types or w.vocations[victim][v - 1] == 0:
            raise IllegalAction(f"{a.from_player} has no vocation {v} to take (rule: {rule}).")
        use_favor(w, rule)
        w.vocations[victim][v - 1] -= 1
        w.vocations[w.active][v - 1] += 1
    else:
        if not 1 <= a.space <= w.board.campus:
            raise IllegalAction(f"Campus spaces are 1 (bottom) to {w.board.campus} (top), not {a.space} (rule: Education).")
        cost = w.board.sections[a.space - 1]
        names = {1: "Common Vocation", 2: "Uncommon Vocation", 3: "Rare Vocation"}
        if n != cost:
            raise IllegalAction(f"Campus space {a.space} takes {cost} education, not {n} (rule: {names[cost]}).")
        v = w.campus[a.space - 1]
        if v is None:
            raise IllegalAction(f"Campus space {a.space} is empty (rule: {names[cost]}).")
        w.campus[a.space - 1] = None
        w.vocations[w.active][v - 1] += 1
    spend_dice(w, faces)


def apply_media(w: Work, a: Media) -> None:
    check_spending(w)
    rule = "National Headlines"
    faces = effective(w, a.dice, a.copies, rule)
    need(faces, "education", w.board.media_education, rule)
    if w.media == w.active:
        raise IllegalAction(f"You already control the Media (rule: {rule}).")
    w.media = w.active
    spend_dice(w, faces)


def apply_park(w: Work, a: Park) -> None:
    check_spending(w)
    rule = "Public Spaces"
    faces = effective(w, a.dice, a.copies, rule)
    need(faces, "bench", 3, rule)
    need_cube(w, rule)
    w.park[w.active] += 1
    spend_dice(w, faces)


def apply_leisure(w: Work, a: Leisure) -> None:
    check_spending(w)
    rule = "Leisure Time"
    faces = effective(w, (a.die,), a.copies, rule)
    need(faces, "bench", 1, rule)
    if w.park[w.active] == 0:
        raise IllegalAction(f"Leisure Time gains status per cube in the park, and you have none there (rule: {rule}).")
    raise_status(w, w.active, w.park[w.active])
    spend_dice(w, faces)


def apply_done(w: Work, a: Done) -> None:
    check_spending(w)
    left = [DIE_ORDER[i] for i in range(6) if w.dice[i] is not None and not w.spent[i] and icon_of(w, i) == "hourglass"]
    if left:
        raise IllegalAction(f"Kept hourglasses must be spent: the {', '.join(left)} die (rule: Hourglasses).")
    for i in range(6):
        if w.dice[i] is not None:
            w.spent[i] = True  # the rest are dead dice, wasted
    # dice that were never rolled (the green die on an extra turn) are not in play
