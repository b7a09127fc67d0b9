"""Set-up and the shape of a turn: reseed the campus, Disasters, Masters, rolling, passing the dice.

`settle(w)` moves the game on through everything automatic until a player or the table must
enter something (a pending decision, a draw, a roll, a spend).
"""
from __future__ import annotations

from typing import Any, Mapping

from ..core import IllegalAction, OutOfTurn, SetupError
from . import bot, disasters, scoring
from .actions import Draw, Keep, OpenLegacy, Reroll, Roll, SetMaster
from .board import Board
from .dice import default_dice, split_face
from .state import DIE_ORDER, GREEN, State, Work, time_start

DICE = default_dice()


def new_state(board: Board, names: tuple[str, ...], options: Mapping[str, Any]) -> State:
    """Set-up (rulebook: Setting Up the Game; 2 players: the bot is a third seat)."""
    seats = list(names)
    bot_seat = None
    if len(names) == 2:
        if board.bot_name.casefold() in (n.casefold() for n in names):
            raise SetupError(f'"{board.bot_name}" is the bot\'s seat; give the player another name.')
        seats.append(board.bot_name)
        bot_seat = 2
    n = len(seats)
    colours = options.get("colours", list(board.player_colours[:n]))
    if len(names) == 2 and isinstance(colours, list) and len(colours) == 2:
        colours = colours + [c for c in board.player_colours if c not in colours][:1]
    if (
        not isinstance(colours, list)
        or len(colours) != n
        or len(set(colours)) != n
        or not all(c in board.player_colours for c in colours)
    ):
        raise SetupError(
            f"Option colours: give each seat its own player colour from {', '.join(board.player_colours)} "
            "(rule: Player Colors)."
        )
    first = options.get("first")
    if bot_seat is not None:
        first_seat = bot_seat
        if first is not None:
            raise SetupError("Option first: in the 2-player game the bot's status marker is 1st (2-Player Setup).")
    elif first is None:
        first_seat = 0
    elif first not in names:
        raise SetupError(f'Option first: "{first}" is not a player (rule: Status Marker).')
    else:
        first_seat = names.index(first)
    # Status counterclockwise from the drawn marker; the last on the track starts (set-up E, F).
    status = [(first_seat - i) % n for i in range(n)]
    sites = ["clock-tower", "greenbelt"] + [f"victory-{v}" for v in board.disaster_victory_spaces]
    state = State(
        board=board,
        names=tuple(seats),
        colours=tuple(colours),
        bot=bot_seat,
        wealth=(board.victory_start,) * n,
        prestige=(board.victory_start,) * n,
        greenbelt=(0,) * n,
        stars=(1,) * n,
        favors=(0,) * n,
        vocations=((0,) * board.vocation_types,) * n,
        park=(0,) * n,
        status=tuple(status),
        town=((),) * 16,
        river=(None,) * len(board.river_spaces),
        villas=tuple((None,) * len(road) for road in board.villas),
        offices=(None,) * 6,
        safe=None,
        media=None,
        masters=(None,) * len(board.masters),
        campus=(None,) * board.campus,
        bag=board.vocation_counts,
        bag_disasters=0,
        disaster_sites=tuple(sites),
        disasters_drawn=(),
        favor_supply=board.favors,
        time=0,
        rounds=(),
        legacies=(None,) * n,
        open_legacy=None,
        media_vocation=None,
        active=status[-1],
        turn=0,
        phase="setup-draw",
        dice=(None,) * 6,
        locked=(False,) * 6,
        to_roll=(),
        rolls=0,
        spent=(False,) * 6,
        masters_set=(),
        no_green=False,
        extra_turn=False,
        pending=(),
        disaster_queue=(),
        bot_tasks=(),
    )
    return state


# ---------------------------------------------------------------------------------------------
# Reseed Vocations (and set-up step L): draws are entered one tile at a time.
# ---------------------------------------------------------------------------------------------
def bag_empty(s) -> bool:
    return sum(s.bag) + s.bag_disasters == 0


def campus_full(s) -> bool:
    return all(v is not None for v in s.campus)


def apply_draw(w: Work, action: Draw) -> None:
    if w.phase not in ("setup-draw", "reseed"):
        raise OutOfTurn("No tile is drawn now: the campus is reseeded at the start of a turn (rule: Reseed Vocations).")
    if (action.vocation is None) == (action.disaster is None):
        raise IllegalAction("A draw is either a vocation (1-9) or a Disaster (rule: Reseed Vocations).")
    if action.vocation is not None:
        v = action.vocation
        if not 1 <= v <= w.board.vocation_types:
            raise IllegalAction(f"Vocations are numbered 1 to {w.board.vocation_types}, not {v} (rule: Vocation Tiles).")
        if w.bag[v - 1] == 0:
            raise IllegalAction(f"No vocation {v} is left in the bag (rule: Vocation Tiles).")
        w.bag[v - 1] -= 1
        w.campus[w.campus.index(None)] = v
        _arrange_campus(w)  # drawn tiles take their place in order (bottom = lowest)
    else:
        kind = action.disaster
        if w.bag_disasters == 0:
            raise IllegalAction("No Disaster is in the bag: one goes in only when a marker reaches its space (rule: The Calm).")
        if kind not in w.board.disasters or kind in w.disasters_drawn:
            left = [k for k in w.board.disasters if k not in w.disasters_drawn]
            raise IllegalAction(f'"{kind}" is not a Disaster still hidden (left: {", ".join(left)}; rule: Disasters).')
        w.bag_disasters -= 1
        w.disasters_drawn.append(kind)
        w.disaster_queue += [(kind, p) for p in _turn_order(w)]


def _turn_order(w) -> list[int]:
    return [(w.active + i) % w.players for i in range(w.players)]


def _arrange_campus(w: Work) -> None:
    # Lowest number at the bottom; with too few tiles, fill from the bottom up.
    tiles = sorted(v for v in w.campus if v is not None)
    w.campus = tiles + [None] * (w.board.campus - len(tiles))


def apply_open_legacy(w: Work, action: OpenLegacy) -> None:
    if w.phase != "setup-legacy":
        raise OutOfTurn("The open Legacy is laid face up during the 2-player set-up only (rule: The Open Legacy).")
    if action.legacy not in w.board.legacies:
        raise IllegalAction(f'"{action.legacy}" is not a Legacy tile ({", ".join(w.board.legacies)}; rule: The Open Legacy).')
    w.open_legacy = action.legacy
    start_turn(w)


def start_turn(w: Work) -> None:
    w.turn += 1
    w.dice = [None] * 6
    w.locked = [False] * 6
    w.spent = [False] * 6
    w.rolls = 0
    w.to_roll = []
    w.masters_set = []
    w.bot_tasks = []
    w.phase = "reseed"


# ---------------------------------------------------------------------------------------------
# Rolling the Dice
# ---------------------------------------------------------------------------------------------
def in_play(w) -> list[int]:
    """Dice rolled this turn (Urban Planning's extra turn leaves the green die out)."""
    return [i for i in range(6) if not (w.no_green and i == GREEN)]


def max_rolls(w) -> int:
    return 4 if w.media == w.active and w.active != w.bot else 3


def _begin_rolling(w: Work) -> None:
    w.to_roll = [i for i in in_play(w) if not w.locked[i]]
    owns_master = any(o == w.active for o in w.masters)
    w.phase = "masters" if owns_master and w.active != w.bot else "roll"


def apply_set_master(w: Work, action: SetMaster) -> None:
    if w.phase != "masters":
        raise OutOfTurn("Masters are set at the start of the turn, before rolling (rule: The Master Tiles).")
    try:
        colour, icon = split_face(action.face)
    except ValueError as exc:
        raise IllegalAction(f"{exc} (rule: The Master Tiles)") from None
    if colour not in w.board.masters or w.masters[w.board.masters.index(colour)] != w.active:
        raise IllegalAction(f"You do not own the {colour} Master (rule: The Master Tiles).")
    die = DIE_ORDER.index(colour)
    if die in w.masters_set:
        raise IllegalAction(f"The {colour} die is already set this turn (rule: The Master Tiles).")
    if action.face not in DICE.labels(die):
        raise IllegalAction(f"The {colour} die has no face {icon} (rule: Player Aid, Die Faces).")
    w.dice[die] = action.face
    w.locked[die] = True
    w.masters_set.append(die)
    w.to_roll = [i for i in in_play(w) if not w.locked[i]]
    owned = [m for m, o in zip(w.board.masters, w.masters) if o == w.active]
    if len(w.masters_set) == len(owned):
        w.phase = "roll"


def apply_roll(w: Work, action: Roll) -> None:
    if w.phase not in ("roll", "masters"):
        raise OutOfTurn("No dice are to be rolled now (rule: Rolling the Dice).")
    wanted = sorted(w.to_roll)
    got = {}
    for face in action.dice:
        try:
            colour, icon = split_face(face)
        except ValueError as exc:
            raise IllegalAction(f"{exc} (rule: Player Aid, Die Faces)") from None
        die = DIE_ORDER.index(colour)
        if die in got:
            raise IllegalAction(f"The {colour} die is entered twice in one roll (rule: Rolling the Dice).")
        if face not in DICE.labels(die):
            raise IllegalAction(f"The {colour} die has no {icon} face (rule: Player Aid, Die Faces).")
        got[die] = face
    if sorted(got) != wanted:
        names = ", ".join(DIE_ORDER[i] for i in wanted)
        raise IllegalAction(f"This roll is of the dice {names}: enter one face for each (rule: Rolling the Dice).")
    for die, face in got.items():
        w.dice[die] = face
        if face.endswith("-hourglass"):
            w.locked[die] = True  # hourglasses must always be kept
    w.rolls += 1
    w.to_roll = []
    if w.active == w.bot:
        fates = [i for i in in_play(w) if w.dice[i].endswith("-fate")]
        if fates and w.rolls < 3:  # the bot rerolls every fate and keeps the rest
            w.to_roll = fates
            return
        bot.begin(w)
        return
    if w.rolls >= max_rolls(w) or not rerollable(w):
        w.phase = "spend"
    else:
        w.phase = "keep"


def rerollable(w) -> list[int]:
    return [i for i in in_play(w) if not w.locked[i]]


def apply_reroll(w: Work, action: Reroll) -> None:
    if w.phase != "keep":
        raise OutOfTurn("Rerolling comes after a roll and before spending (rule: Rolling the Dice).")
    dice = []
    for colour in action.dice:
        if colour not in DIE_ORDER or DIE_ORDER.index(colour) not in in_play(w):
            raise IllegalAction(f'"{colour}" is not a die in play this turn (rule: Rolling the Dice).')
        die = DIE_ORDER.index(colour)
        if w.locked[die]:
            why = "a Master set it" if die in w.masters_set else "hourglasses must always be kept"
            raise IllegalAction(f"The {colour} die cannot be rerolled: {why} (rule: Rolling the Dice).")
        if die in dice:
            raise IllegalAction(f"The {colour} die is named twice (rule: Rolling the Dice).")
        dice.append(die)
    if not dice:
        raise IllegalAction("Name the dice to reroll, or keep them all (rule: Rolling the Dice).")
    for die in dice:
        w.dice[die] = None
    w.to_roll = sorted(dice)
    w.phase = "roll"


def apply_keep(w: Work, action: Keep) -> None:
    if w.phase != "keep":
        raise OutOfTurn("There is no roll to keep now (rule: Rolling the Dice).")
    w.phase = "spend"


# ---------------------------------------------------------------------------------------------
# Passing the dice and scoring rounds
# ---------------------------------------------------------------------------------------------
def end_turn(w: Work) -> None:
    """Passing the Dice: a scoring round if the time marker is on a clock tower, then pass."""
    w.dice = [None] * 6
    w.spent = [False] * 6
    w.locked = [False] * 6
    if w.time >= time_start(w):
        number = len(w.rounds) + 1
        if number == 3:
            scoring.begin_final(w)
            return
        scoring.score_round(w, number)
        # Reset: "the active player passes the dice to the next player" (an Urban Planning
        # extra turn does not survive the scoring round).
        w.extra_turn = False
    if w.extra_turn:
        w.extra_turn = False
        w.no_green = True
    else:
        w.no_green = False
        w.active = (w.active + 1) % w.players
    start_turn(w)


def settle(w: Work) -> None:
    """Do everything automatic until an entry or a decision is awaited."""
    for _ in settle_steps(w):
        pass


def settle_steps(w: Work):
    """`settle` one automatic step at a time: yields what each step did, ("bot-task", task) for a bot
    task, else (phase,), with `w` changed by that step (so the table can word a bot's turn)."""
    for _ in range(10_000):
        if w.pending or w.phase == "over":
            return
        phase = w.phase
        if phase in ("setup-draw", "reseed"):
            if not campus_full(w) and not bag_empty(w):
                return
            _arrange_campus(w)
            if phase == "setup-draw":
                if w.bot is not None:
                    w.phase = "setup-legacy"
                    yield (phase,)
                    return
                start_turn(w)
                yield (phase,)
                continue
            w.phase = "disasters"
            yield (phase,)
        elif phase == "disasters":
            if w.disaster_queue:
                kind, victim = w.disaster_queue.pop(0)
                disasters.strike(w, kind, victim)
                yield (phase,)
                continue
            _begin_rolling(w)
            yield (phase,)
        elif phase == "bot":
            if w.bot_tasks:
                task = w.bot_tasks[0]
                bot.step(w)
                yield ("bot-task", task)
                continue
            end_turn(w)
            yield (phase,)
        elif phase == "spend":
            if all(w.spent[i] for i in in_play(w) if w.dice[i] is not None):
                end_turn(w)
                yield (phase,)
                continue
            return
        elif phase == "final":
            scoring.finish_final(w)
            yield (phase,)
        else:
            return
    raise RuntimeError("settle did not come to rest")  # a rules bug, never a player's input
