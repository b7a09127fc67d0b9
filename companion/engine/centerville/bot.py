"""The bot of the 2-player game (rule: Bot Actions): six spending steps, in order.

The bot's rerolls are automatic (turn.apply_roll). Its spending runs as a list of tasks so that a
decision the rules give to a player ("the player with higher status chooses") can pause it.
"""
from __future__ import annotations

from ..core import IllegalAction, OutOfTurn
from .actions import ChooseVictim
from .elections import election_bonus
from .state import (
    DIE_ORDER, Pending, Work, available_cubes, empty_spaces, gain, move_greenbelt, raise_status,
)


def begin(w: Work) -> None:
    """Rolling is over: queue the six steps for the dice the bot rolled."""
    faces = [(DIE_ORDER[i], w.dice[i].split("-", 1)[1]) for i in range(6) if w.dice[i] is not None]
    count = {icon: sum(1 for _, i in faces if i == icon) for icon in ("fate", "tree", "education", "bench", "hourglass")}
    tasks: list[tuple] = []
    if count["fate"]:
        tasks.append(("fate", count["fate"]))
    if count["tree"]:
        tasks.append(("trees", count["tree"]))
    if count["education"]:
        tasks.append(("education", count["education"]))
    for colour in w.board.bot_contract_order:
        tasks += [("contract", colour) for c, i in faces if i == "contract" and c == colour]
    tasks += [("vote", c) for c, i in faces if i == "vote"]
    if count["bench"] + count["hourglass"]:
        tasks.append(("status", count["bench"] + count["hourglass"]))
    w.spent = [w.dice[i] is not None for i in range(6)]
    w.bot_tasks = tasks
    w.phase = "bot"


def step(w: Work) -> None:
    kind, arg = w.bot_tasks.pop(0)
    {"fate": _fate, "trees": _trees, "education": _education, "contract": _contract,
     "vote": _vote, "status": _status}[kind](w, arg)


def _fate(w: Work, n: int) -> None:
    b = w.bot
    if w.wealth[b] < w.prestige[b]:
        gain(w, b, wealth=n)
    elif w.prestige[b] < w.wealth[b]:
        gain(w, b, prestige=n)
    else:
        gain(w, b, wealth=n, prestige=n)


def _trees(w: Work, n: int) -> None:
    b = w.bot
    board = w.board
    if n == 2 and available_cubes(w, b) > 0:
        target = None
        if w.wealth[b] < w.prestige[b]:
            target = next((i for i in range(board.river_north) if w.river[i] is None), None)
        elif w.prestige[b] < w.wealth[b]:
            south = range(board.river_north + 1, len(board.river_spaces))
            target = next((i for i in south if w.river[i] is None), None)
        else:
            bridge = board.river_north
            if w.river[bridge] != b:
                target = bridge
        if target is not None:
            w.river[target] = b  # an opponent's cube on the bridge goes home
            return
    for _ in range(n):
        if w.greenbelt[b] < board.greenbelt_top:
            move_greenbelt(w, b, 1)
        else:
            players = [p for p in w.status if p != b]
            move_greenbelt(w, players[-1], -1)  # the player with lower status goes back 1


def _take_campus(w: Work, index: int) -> None:
    v = w.campus[index]
    if v is not None:
        w.campus[index] = None
        w.vocations[w.bot][v - 1] += 1


def _education(w: Work, n: int) -> None:
    size = w.board.campus
    if n >= 3:
        _take_campus(w, 0)  # the bottom space
        n -= 3
    if n >= 2:
        _take_campus(w, size - 3)  # the space third from the top
        n -= 2
    if n >= 1:
        _take_campus(w, size - 1)  # the top space


def _contract(w: Work, colour: str) -> None:
    b = w.bot
    z = w.board.zones.index(colour)
    town = w.town
    if empty_spaces(w, z, 1) > 0 and available_cubes(w, b) > 0:
        town[z * 4].append(b)
        town[z * 4].sort()
        return
    for level in (1, 2, 3):
        if b in town[z * 4 + level - 1] and empty_spaces(w, z, level + 1) > 0:
            town[z * 4 + level - 1].remove(b)
            town[z * 4 + level].append(b)
            town[z * 4 + level].sort()
            return
    victims = sorted({p for p in town[z * 4] if p != b})
    if w.favors[b] > 0 and victims and available_cubes(w, b) > 0:
        if len(victims) == 1:
            _replace(w, z, victims[0])
        else:
            chooser = min(victims, key=lambda p: w.status.index(p))
            w.pending.append(Pending("bot-victim", chooser, b, z, tuple(victims)))
        return
    if available_cubes(w, b) > 0:
        w.park[b] += 1


def _replace(w: Work, zone: int, victim: int) -> None:
    owners = w.town[zone * 4]
    w.favors[w.bot] -= 1
    owners.remove(victim)
    owners.append(w.bot)
    owners.sort()


def apply_choose_victim(w: Work, a: ChooseVictim) -> None:
    if not w.pending or w.pending[0].kind != "bot-victim":
        raise OutOfTurn("The bot is not taking a building with a Favor now (rule: Bot Actions, fourth).")
    p = w.pending[0]
    if a.player not in w.names or w.names.index(a.player) not in p.options:
        names = ", ".join(w.names[v] for v in p.options)
        raise IllegalAction(f"The bot takes a level-1 building of {names} (rule: Bot Actions, fourth).")
    w.pending.pop(0)
    _replace(w, p.amount, w.names.index(a.player))


def _vote(w: Work, colour: str) -> None:
    b = w.bot
    index = next(i for i, o in enumerate(w.board.offices) if o.colour == colour)
    held = w.offices[index]
    if held is not None and held[0] != b:
        w.offices[index] = (held[0], held[1] - 1) if held[1] > 1 else None
    elif held is not None:
        if available_cubes(w, b) > 0:
            w.offices[index] = (b, held[1] + 1)
    elif available_cubes(w, b) > 0:
        w.offices[index] = (b, 1)
        election_bonus(w, index, b)


def _status(w: Work, n: int) -> None:
    raise_status(w, w.bot, n)  # benches and hourglasses: status, and time does not advance
