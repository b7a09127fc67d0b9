"""Welcome to Centerville in words: what the table says about a legal action, what to move on the
physical board after one, the bot's turn step by step, the scoring rounds and the set-up.

Pure: computed from engine states and actions, no Kivy, no I/O. Town spaces of one zone and level
are interchangeable for every rule, so "the 3rd level-2 space" means the next one to fill.

The table calls: action_text and action_group (menus), changes and action_changes (what to move),
bot_turn and bot_keep_rules (the 2-player bot), scoring_steps (centerville_scoring) and
setup_checklist (centerville_setup); the shared short names live in centerville_names.
"""
from __future__ import annotations

from collections import Counter

from companion.engine.centerville import actions as A
from companion.engine.centerville.state import DIE_ORDER, State, rank
from companion.engine.core import Action, find_game

from .centerville_changes import changes, who
from .centerville_names import (
    disaster_text, legacy_name, office_bonus, ordinal, plural, river_space, series, vocation,
)
from .centerville_scoring import StepView, scoring_steps
from .centerville_setup import setup_checklist

__all__ = [
    "action_text", "action_group", "changes", "action_changes", "bot_turn", "bot_keep_rules", "dice_text",
    "scoring_steps", "StepView", "setup_checklist",
]

GAME = find_game("centerville")


# -- the dice a spend names ------------------------------------------------------------------------
def die_text(s: State, colour: str, copies=()) -> str:
    """"red contract", or for a fate "blue fate as red contract" (rule: Fate)."""
    face = s.dice[DIE_ORDER.index(colour)]
    icon = face.split("-", 1)[1] if face else "?"
    target = dict(copies).get(colour)
    if icon == "fate" and target:
        copied = s.dice[DIE_ORDER.index(target)]
        return f"{colour} fate as {target} {copied.split('-', 1)[1] if copied else '?'}"
    return f"{colour} {icon}"


def dice_text(s: State, dice, copies=()) -> str:
    return ", ".join(die_text(s, c, copies) for c in dice)


# -- A. one sentence per legal action -------------------------------------------------------------
def action_text(s: State, a: Action) -> str:
    """One sentence for a menu button offering the legal action `a` in state `s`."""
    handler = _TEXT.get(type(a))
    return handler(s, a) if handler else a.type


def _hourglass(s: State, a: A.Hourglass) -> str:
    if a.gain == "status":
        place = rank(s, s.active)
        what = f"+1 status (swap with {s.names[s.status[place - 2]]}{_favor_to(s, place)})" if place > 1 else "+1 status (already 1st)"
    else:
        what = f"+1 {a.gain}"
    return f"Hourglass ({a.die}): time marker +1, {what}"


def _favor_to(s: State, place: int) -> str:
    """Rising from 2nd bumps the 1st, who takes a Favor (rule: The Favor Tiles)."""
    return ", who takes a Favor" if place == 2 and s.favor_supply > 0 else ""


def _greenbelt(s: State, a: A.Greenbelt) -> str:
    dice = die_text(s, a.die, a.copies)
    if a.opponent:
        return f"Greenbelt: {a.opponent}'s disc back 1, you are at {s.board.greenbelt_top} ({dice})"
    return f"Greenbelt: +1 ({dice})"


def _river(s: State, a: A.River) -> str:
    dice = dice_text(s, a.dice, a.copies)
    if a.favor:
        owner = s.river[s.board.river_north]
        home = f"; {s.names[owner]}'s cube goes home" if owner is not None else ""
        return f"River with a Favor: a cube on the bridge ({dice}){home}"
    return f"River: a cube on {river_space(a.space)} ({dice})"


def _build(s: State, a: A.Build) -> str:
    b = s.board
    owners = s.town[b.town_index(a.zone, a.level)]
    dice = dice_text(s, a.dice, a.copies)
    head = f"{a.zone} zone, level {a.level} ({dice})"
    if a.favor:
        return f"Build with a Favor: {head}: replace {a.replace}'s cube (it goes home)"
    if b.spaces[a.level - 1] == 1:
        return f"Build: {head}: a cube on the level-{a.level} space"
    return f"Build: {head}: a cube on the {ordinal(len(owners) + 1)} level-{a.level} space"


def _vocation(s: State, a: A.TakeVocation) -> str:
    dice = dice_text(s, a.dice, a.copies)
    if a.favor:
        return f"Take {a.from_player}'s {vocation(s.board, a.vocation)} with a Favor (3 education: {dice})"
    v = s.campus[a.space - 1]
    return f"Take the vocation on campus space {a.space} ({vocation(s.board, v)}, {len(a.dice)} education: {dice})"


def _media(s: State, a: A.Media) -> str:
    source = f" from {s.names[s.media]}" if s.media is not None else ""
    return f"National Headlines: take the Media tile{source} ({dice_text(s, a.dice, a.copies)})"


def _leisure(s: State, a: A.Leisure) -> str:
    n = s.park[s.active]
    return f"Leisure Time: +{n} status, one per cube in the park ({die_text(s, a.die, a.copies)})"


def _elect(s: State, a: A.Elect) -> str:
    b = s.board
    i = b.office_index(a.office)
    held = s.offices[i]
    head = "Elect with a Favor" if a.favor else "Elect"
    text = f"{head}: {b.offices[i].name} with {len(a.dice)} votes ({dice_text(s, a.dice, a.copies)})"
    if held is not None:
        home = "goes home" if held[1] == 1 else "go home"
        text += "; re-elected" if held[0] == s.active else f"; {s.names[held[0]]}'s {plural(held[1], 'cube')} {home}"
    return f"{text}; bonus: {office_bonus(s, b.offices[i].bonus, s.active)}"


def _done(s: State, a: A.Done) -> str:
    left = [DIE_ORDER[i] for i in range(6) if s.dice[i] is not None and not s.spent[i]]
    return f"Done: end the turn ({series(left)} {'die' if len(left) == 1 else 'dice'} unspent)" if left else "Done: end the turn"


def _draw(s: State, a: A.Draw) -> str:
    if a.disaster:
        return f"Drawn from the bag: a Disaster, {disaster_text(s.board, a.disaster)}"
    return f"Drawn from the bag: {vocation(s.board, a.vocation)}"


def _upgrade(s: State, a: A.Upgrade) -> str:
    subject = s.names[s.pending[0].subject] if s.pending else "your"
    if a.zone is None:
        return "Public Works: forgo the upgrade"
    return f"Public Works: move {subject}'s {a.zone} level-{a.level} building up to level {a.level + 1}"


def _subject(s: State) -> str:
    return s.names[s.pending[0].subject] if s.pending else s.names[s.active]


def _lose_office(s: State, a: A.LoseOffice) -> str:
    held = s.offices[s.board.office_index(a.office)]
    cubes = f" ({plural(held[1], 'cube')} {'goes' if held[1] == 1 else 'go'} home)" if held else ""
    return f"Disaster: {_subject(s)} loses {a.office}{cubes}"


def _lose_vocations(s: State, a) -> str:
    tiles = series([vocation(s.board, v) for v in a.vocations])
    random = " (drawn at random)" if isinstance(a, A.BotLoseVocations) else ""
    return f"Disaster: {_subject(s)} loses {tiles}{random}"


def town_cube_text(cube: str) -> str:
    """"park" -> "the park", "red-2" -> "red level 2"."""
    if cube == "park":
        return "the park"
    zone, level = cube.rsplit("-", 1)
    return f"{zone} level {level}"


def _lose_town(s: State, a: A.LoseTown) -> str:
    counts = Counter(a.cubes)
    parts = [f"{plural(n, 'cube')} from {town_cube_text(c)}" for c, n in sorted(counts.items())]
    return f"Disaster: {_subject(s)} loses {series(parts)}"


def _victim(s: State, a: A.ChooseVictim) -> str:
    zone = s.board.zones[s.pending[0].amount] if s.pending else "?"
    return f"The bot spends a Favor and takes {a.player}'s level-1 building in the {zone} zone"


_TEXT = {
    A.Hourglass: _hourglass,
    A.Greenbelt: _greenbelt,
    A.River: _river,
    A.Build: _build,
    A.Landmark: lambda s, a: f"Landmark Building: flip your status disc to two stars ({dice_text(s, a.dice, a.copies)})",
    A.TakeVocation: _vocation,
    A.Media: _media,
    A.Park: lambda s, a: f"Public Spaces: a cube in the central park ({dice_text(s, a.dice, a.copies)})",
    A.Leisure: _leisure,
    A.Elect: _elect,
    A.TakeMaster: lambda s, a: f"Regional Politics: take the {a.master} Master from the Airport ({dice_text(s, a.dice, a.copies)})",
    A.Done: _done,
    A.Draw: _draw,
    A.OpenLegacy: lambda s, a: f"Open Legacy: lay the {legacy_name(a.legacy)} tile face up on the board",
    A.Roll: lambda s, a: "Roll: " + ", ".join(f.replace("-", " ") for f in a.dice),
    A.SetMaster: lambda s, a: "{0} Master: set the {1} die to {2}".format(a.face.split("-")[0].capitalize(), *a.face.split("-", 1)),
    A.Reroll: lambda s, a: f"Reroll the {series(a.dice)} {'die' if len(a.dice) == 1 else 'dice'} (keep the rest)",
    A.Keep: lambda s, a: "Keep all dice: rolling is finished",
    A.Upgrade: _upgrade,
    A.LoseOffice: _lose_office,
    A.LoseVocations: _lose_vocations,
    A.BotLoseVocations: _lose_vocations,
    A.LoseTown: _lose_town,
    A.ChooseVictim: _victim,
    A.NameMedia: lambda s, a: f"The Media counts as {vocation(s.board, a.vocation)}",
    A.RevealLegacy: lambda s, a: f"{a.player}'s Legacy: {legacy_name(a.legacy)}",
}

_GROUPS = {
    A.Hourglass: "Hourglasses", A.Greenbelt: "Trees", A.River: "Trees", A.Landmark: "Build",
    A.TakeVocation: "Education", A.Media: "Education", A.Park: "Benches", A.Leisure: "Benches",
    A.Elect: "Votes", A.TakeMaster: "Votes", A.Done: "Finish", A.Draw: "Reseed Vocations",
    A.OpenLegacy: "Set-up", A.Roll: "Rolling", A.SetMaster: "Rolling", A.Reroll: "Rolling",
    A.Keep: "Rolling", A.Upgrade: "Public Works", A.LoseOffice: "Disaster",
    A.LoseVocations: "Disaster", A.BotLoseVocations: "Disaster", A.LoseTown: "Disaster",
    A.ChooseVictim: "Bot Actions", A.NameMedia: "Final scoring", A.RevealLegacy: "Final scoring",
}


def action_group(a: Action) -> str:
    """The menu group a player looks under for `a`, in the rulebook's words."""
    if isinstance(a, A.Build):
        return "Build" if a.level < 4 else "Trees"  # 4 trees build in town (rule: Trees)
    return _GROUPS.get(type(a), "Other")


# -- B. what changed ------------------------------------------------------------------------------
def action_changes(before: State, action: Action) -> list[str]:
    """`changes` for one entry, split where a scoring round begins: the turn's own moves first,
    then the round's (so an hourglass that reaches the clock tower reads in the order it is played)."""
    prev, lines = before, []
    for _, st in GAME.apply_steps(before, action):
        if len(st.rounds) > len(prev.rounds):
            lines += changes(before, prev)
            before = prev
        prev = st
    return lines + changes(before, prev)


# -- C. the bot's turn --------------------------------------------------------------------------
def _task_label(task: tuple) -> str:
    kind, arg = task
    if kind in ("contract", "vote"):
        return f"{arg.capitalize()} {kind}"
    if kind == "status":
        return f"Status ({arg} {'bench or hourglass' if arg == 1 else 'benches and hourglasses'})"
    if kind == "education":
        return f"Education ({arg} education)"  # the rulebook counts "3 education", never "educations"
    return f"{kind.capitalize()} ({plural(arg, 'tree' if kind == 'trees' else kind)})"


def bot_tasks(s: State) -> tuple:
    """Every task of the bot's roll in `s` (phase "bot"), in Bot Actions order."""
    from companion.engine.centerville import bot

    w = s.thaw()
    bot.begin(w)
    return tuple(w.bot_tasks)


def bot_turn(before: State, action: Action) -> list[str]:
    """The bot's spending as numbered instructions (Bot Actions order), from the state before the
    entry that ends its rolling (its last Roll, or a decision it paused for) and that entry.

    It stops at a decision the rules give a player (its prompt is the last line) and resumes
    when called with that decision. Empty while the bot is still rolling."""
    steps = list(GAME.apply_steps(before, action))
    resuming = before.phase == "bot" and before.pending
    if not resuming and not any(what[0] == "bot-task" for what, _ in steps):
        return []
    lines: list[str] = []
    prev = before
    tasks: tuple = ()
    number = 0
    for what, st in steps:
        if what[0] == "action" and resuming:
            tasks = bot_tasks(before)
            number = len(tasks) - len(before.bot_tasks)
            lines.append(_task_line(number, tasks[number - 1], changes(before, st)))
        elif what[0] == "bot-task":
            if not tasks:
                tasks = bot_tasks(prev)
            number = len(tasks) - len(st.bot_tasks)
            moves = changes(prev, st)
            if what[1][0] == "trees" and prev.greenbelt != st.greenbelt and prev.river == st.river \
                    and prev.greenbelt[prev.bot] == prev.board.greenbelt_top:
                moves[0] = f"the bot is at {prev.board.greenbelt_top}, so the player lower in status goes back: {_lower(moves[0])}"
            lines.append(_task_line(number, what[1], moves))
        elif lines:
            break  # the bot's spending is over (or never began in this entry)
        if st.pending:
            prompt = GAME.prompt(st)
            wait = f"{prompt.text[:-1]}{f' ({prompt.player} chooses)' if prompt.player else ''}."
            head, _, done = lines[-1].partition(": ")
            lines[-1] = f"{head}: {wait}" if done.startswith("nothing to do") else f"{lines[-1]} Then: {wait}"
            return lines
        prev = st
    final = steps[-1][1]
    if len(final.rounds) > len(before.rounds):
        lines.append(f"Then scoring round {len(final.rounds)}: the time marker is on a clock tower.")
    elif final.phase == "final":
        lines.append("Then the final scoring round: the time marker is on a clock tower.")
    elif final.phase != "over" and final.active != before.active:
        lines.append(f"Pass the dice to {who(final, final.active)}.")
    return lines


def _task_line(number: int, task: tuple, moves: list[str]) -> str:
    done = "; ".join(map(_lower, moves)) if moves else f"nothing to do ({_IDLE[task[0]]})"
    return f"{number}. {_task_label(task)}: {done}."


_IDLE = {  # why a bot task moved nothing
    "fate": "no change", "trees": "no greenbelt disc can move", "education": "those campus spaces are empty",
    "contract": "no cube left", "vote": "no cube left", "status": "the bot is 1st already",
}


def _lower(line: str) -> str:
    """An instruction inside a sentence: "Move Ben's ..." -> "move Ben's ..."."""
    first = line.split(" ", 1)[0]
    return line[0].lower() + line[1:] if first in _VERBS else line


_VERBS = {"Move", "Put", "Slide", "Arrange", "Lay", "Set", "Draw", "Time", "Pass"}


def bot_keep_rules(s: State) -> str:
    """The bot's keep rule for the roll now awaited (2-Player Rules, The Bot's Turn); "" when it
    is not the bot rolling."""
    if s.bot is None or s.active != s.bot:
        return ""
    if s.phase == "bot":
        return "The bot keeps all its dice and spends them in order (Bot Actions)."
    if s.phase != "roll":
        return ""
    if s.rolls == 0:
        dice = "the five dice, not the green one" if s.no_green else "all six dice"
        return f"First roll: roll {dice} for the bot; it keeps every non-fate die."
    fates = [DIE_ORDER[i] for i in s.to_roll]
    what = f"reroll the {plural(len(fates), 'fate')} ({series(fates)})"
    if s.rolls >= 2:
        return f"Third roll: {what}; then the bot keeps all dice."
    return f"Keep every non-fate die; {what}."
