"""Short names of Centerville's pieces and places, in the rulebook's words (no Kivy, no I/O)."""
from __future__ import annotations

from companion.engine.centerville.board import Board
from companion.engine.centerville.state import town_cubes

_BONUS = {
    "mayor": "move to the top of the status track",
    "urban-planning": "another turn after this one, without the green die",
    "police-fire": "take the Safe tile",
    "public-works": "move one of your buildings up one level",
}
_DISASTER = {
    "office": "lose {n} political office",
    "vocations": "lose {n} vocations",
    "town": "lose {n} cubes from town",
    "greenbelt": "go back {n} spaces on the greenbelt",
}


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def series(items) -> str:
    """"a", "a and b", "a, b and c"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def vocation(board: Board, v: int | None) -> str:
    """"Finance (5)"; a type known only by its number is "vocation 3"."""
    if v is None:
        return "no vocation"
    name = board.vocation_names[v - 1]
    return f"vocation {v}" if name == f"Vocation {v}" else f"{name} ({v})"


def river_space(space: str) -> str:
    """"north-2" -> "north 2", "bridge" -> "the bridge"."""
    return "the bridge" if space == "bridge" else space.replace("-", " ")


def legacy_name(legacy: str) -> str:
    """The Legacy tile's title: "red zone", "greenbelt", "vocations", "political offices"."""
    return {"offices": "political offices"}.get(legacy, legacy.replace("-", " "))


def disaster_text(board: Board, kind: str) -> str:
    return _DISASTER[kind].format(n=board.disaster_amounts[kind])


def disaster_site(board: Board, site: str) -> str:
    """Where a face-down Disaster lies: "the first clock tower", "greenbelt 12", "victory track 13"."""
    if site == "clock-tower":
        return "the first clock tower"
    if site == "greenbelt":
        return f"greenbelt {board.greenbelt_top}"
    return "victory track " + site.split("-", 1)[1]


def office_bonus(s, bonus: str, player: int) -> str:
    """The Election Bonus the player would get, in words (rule: Election Bonus)."""
    if bonus in _BONUS:
        return _BONUS[bonus]
    best = max((level for _, level in town_cubes(s, player)), default=0)
    kind = "wealth" if bonus == "finance" else "prestige"
    return f"+{best} {kind} (best building)" if best else f"no {kind} (no building in town)"
