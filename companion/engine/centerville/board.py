"""The Centerville board and components as data: `data/board.toml`, validated on load.

A player may correct the unknown facts (FACTS.md) with their own copy of the file: `parse_board`
takes TOML text (the caller reads the file; the engine does no I/O) and `board_from_data` a
mapping (e.g. the "board" option of a game). A bad file raises DataFileError naming the key.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

from ..core import DataFileError, data_file_error, load_data_toml
from ..keys import check_keys

DEFAULT_PATH = "companion/engine/centerville/data/board.toml"
BONUSES = ("mayor", "urban-planning", "police-fire", "public-works", "finance", "city-council")
DIE_COLOURS = ("red", "yellow", "blue", "purple", "green", "black")
# The keys of board.toml, table by table ("" is the top); [[offices]] entries take OFFICE_KEYS.
BOARD_KEYS = {
    "": ("town", "river", "villas", "greenbelt", "victory", "time", "status", "offices", "vocations",
         "offices_table", "status_table", "legacy", "masters", "disasters", "players", "two_player"),
    "town": ("zones", "wealth_zones", "prestige_zones", "spaces", "contract_levels", "tree_level", "scoring"),
    "town.scoring": ("most", "fewest"),
    "river": ("north", "south"),
    "villas": ("north", "bridge", "south", "bridge_wealth", "bridge_prestige"),
    "greenbelt": ("top",),
    "victory": ("start", "lowest", "lap"),
    "time": ("start", "clock_towers"),
    "status": ("favors",),
    "vocations": ("names", "counts", "campus", "sections", "media_education", "prestige", "wealth"),
    "vocations.prestige": ("table",),
    "vocations.wealth": ("table",),
    "offices_table": ("table",),
    "status_table": ("one_star", "two_stars"),
    "legacy": ("tiles", "most", "fewest"),
    "masters": ("colours",),
    "disasters": ("kinds", "victory_spaces", "office", "vocations", "town", "greenbelt"),
    "players": ("cubes", "colours"),
    "two_player": ("bot_name", "bot_legacy", "contract_order"),
}
OFFICE_KEYS = ("name", "colour", "bonus")


@dataclass(frozen=True)
class Office:
    name: str
    colour: str
    bonus: str


@dataclass(frozen=True)
class Board:
    zones: tuple[str, ...]
    wealth_zones: tuple[str, ...]
    prestige_zones: tuple[str, ...]
    spaces: tuple[int, int, int, int]  # spaces per zone at levels 1..4
    contract_levels: tuple[int, ...]
    tree_level: int
    town_most: int
    town_fewest: int
    river_north: int
    river_south: int
    villas: tuple[tuple[int, ...], ...]  # one road per river space: north..., bridge, south...
    bridge_wealth: int
    bridge_prestige: int
    greenbelt_top: int
    victory_start: int
    victory_lowest: int
    victory_lap: int
    time_start: Mapping[int, int]
    clock_towers: int
    favors: int
    offices: tuple[Office, ...]
    vocation_names: tuple[str, ...]  # index n-1 -> name of type n
    vocation_counts: tuple[int, ...]  # index n-1 -> tiles of type n
    campus: int
    sections: tuple[int, ...]  # education cost of each campus space, bottom to top
    media_education: int
    vocation_prestige: tuple[int, ...]
    vocation_wealth: tuple[int, ...]
    offices_table: tuple[int, ...]
    status_one_star: tuple[int, ...]
    status_two_stars: tuple[int, ...]
    legacies: tuple[str, ...]
    legacy_most: int
    legacy_fewest: int
    masters: tuple[str, ...]
    disasters: tuple[str, ...]
    disaster_victory_spaces: tuple[int, ...]
    disaster_amounts: Mapping[str, int]
    cubes: int
    player_colours: tuple[str, ...]
    bot_name: str
    bot_legacy: bool
    bot_contract_order: tuple[str, ...]

    # -- derived geometry ------------------------------------------------------------------
    @property
    def vocation_types(self) -> int:
        return len(self.vocation_names)

    @property
    def river_spaces(self) -> tuple[str, ...]:
        """River space names, nearest the bridge first: north-1.., bridge, south-1.."""
        north = tuple(f"north-{i}" for i in range(1, self.river_north + 1))
        south = tuple(f"south-{i}" for i in range(1, self.river_south + 1))
        return north + ("bridge",) + south

    def river_side(self, index: int) -> str:
        if index < self.river_north:
            return "north"
        return "bridge" if index == self.river_north else "south"

    def town_index(self, zone: str, level: int) -> int:
        return self.zones.index(zone) * 4 + (level - 1)

    def office_index(self, name: str) -> int:
        for i, office in enumerate(self.offices):
            if office.name.casefold() == name.casefold():
                return i
        raise KeyError(name)


class _Reader:
    """Typed look-ups that raise DataFileError with the dotted key of the bad value."""

    def __init__(self, data: Mapping[str, Any], path: str):
        self.data = data
        self.path = path
        self.error = data_file_error(path)

    def fail(self, key: str, message: str):
        raise self.error(key, message)

    def known_keys(self, tables: Mapping[str, tuple[str, ...]]) -> None:
        """Refuse a key the format does not know (a typo would silently keep the default)."""
        for where, known in tables.items():
            node = self.get(where) if where else self.data
            if not isinstance(node, Mapping):
                self.fail(where, "must be a table.")
            check_keys(node, known, where, self.error)

    def get(self, key: str):
        node: Any = self.data
        for part in key.split("."):
            if not isinstance(node, Mapping) or part not in node:
                self.fail(key, "is missing.")
            node = node[part]
        return node

    def int(self, key: str, low: int | None = None, high: int | None = None, value=None) -> int:
        value = self.get(key) if value is None else value
        if isinstance(value, bool) or not isinstance(value, int):
            self.fail(key, f"must be a whole number, not {value!r}.")
        if low is not None and value < low:
            self.fail(key, f"must be at least {low}, not {value}.")
        if high is not None and value > high:
            self.fail(key, f"must be at most {high}, not {value}.")
        return value

    def bool(self, key: str) -> bool:
        value = self.get(key)
        if not isinstance(value, bool):
            self.fail(key, f"must be true or false, not {value!r}.")
        return value

    def str(self, key: str, choices=None) -> str:
        value = self.get(key)
        if not isinstance(value, str) or not value:
            self.fail(key, f"must be a name in quotes, not {value!r}.")
        if choices is not None and value not in choices:
            self.fail(key, f'must be one of {", ".join(choices)}, not "{value}".')
        return value

    def ints(self, key: str, length: int | None = None, low=None, value=None) -> tuple[int, ...]:
        value = self.get(key) if value is None else value
        if not isinstance(value, list):
            self.fail(key, "must be a list of whole numbers.")
        if length is not None and len(value) != length:
            self.fail(key, f"must list {length} numbers, not {len(value)}.")
        return tuple(self.int(f"{key}[{i}]", low, value=v) for i, v in enumerate(value))

    def strs(self, key: str, length: int | None = None, choices=None) -> tuple[str, ...]:
        value = self.get(key)
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            self.fail(key, "must be a list of names in quotes.")
        if length is not None and len(value) != length:
            self.fail(key, f"must list {length} names, not {len(value)}.")
        if len(set(value)) != len(value):
            self.fail(key, "names a thing twice.")
        for v in value:
            if choices is not None and v not in choices:
                self.fail(key, f'"{v}" is not one of {", ".join(choices)}.')
        return tuple(value)

    def numbered(self, key: str, numbers) -> dict[int, Any]:
        table = self.get(key)
        if not isinstance(table, Mapping):
            self.fail(key, "must be a table like { 1 = ..., 2 = ... }.")
        wanted = {str(n) for n in numbers}
        check_keys(table, sorted(wanted), key, self.error)
        if set(table) != wanted:
            self.fail(key, f"must have exactly the keys {', '.join(sorted(wanted))}.")
        return {int(k): v for k, v in table.items()}


def board_from_data(data: Mapping[str, Any], path: str = "board.toml") -> Board:
    """Validate a parsed board file; DataFileError(path, key) on the first bad key."""
    r = _Reader(data, path)
    if not isinstance(data, Mapping):
        r.fail("(top)", "a board file is a table of tables ([town], [river], ...).")
    r.known_keys(BOARD_KEYS)
    zones = r.strs("town.zones", 4, choices=DIE_COLOURS[:4])
    wealth_zones = r.strs("town.wealth_zones", 2, choices=zones)
    prestige_zones = r.strs("town.prestige_zones", 2, choices=zones)
    if set(wealth_zones) & set(prestige_zones):
        r.fail("town.prestige_zones", "a zone cannot pay both wealth and prestige.")
    spaces_table = r.numbered("town.spaces", (1, 2, 3, 4))
    spaces = tuple(r.int(f"town.spaces.{n}", 1, 40, value=spaces_table[n]) for n in (1, 2, 3, 4))
    contract_levels = r.ints("town.contract_levels", low=1)
    if contract_levels != (1, 2, 3):
        r.fail("town.contract_levels", "contracts build levels 1, 2 and 3 (rule: Contracts).")
    tree_level = r.int("town.tree_level", 4, 4)
    north = r.int("river.north", 1, 9)
    south = r.int("river.south", 1, 9)
    roads = []
    for side, count in (("north", north), ("south", south)):
        value = r.get(f"villas.{side}")
        if not isinstance(value, list) or len(value) != count:
            r.fail(f"villas.{side}", f"must list one road per river space ({count}).")
        roads.append(tuple(r.ints(f"villas.{side}[{i}]", low=1, value=v) for i, v in enumerate(value)))
    for side_roads, side in zip(roads, ("north", "south")):
        for i, road in enumerate(side_roads):
            if not road:
                r.fail(f"villas.{side}[{i}]", "a road has at least one villa.")
    bridge = r.ints("villas.bridge", low=1)
    if not bridge:
        r.fail("villas.bridge", "a road has at least one villa.")
    time_table = r.numbered("time.start", (2, 3, 4))
    time_start = {n: r.int(f"time.start.{n}", 1, 40, value=v) for n, v in time_table.items()}
    offices_raw = r.get("offices")
    if not isinstance(offices_raw, list) or len(offices_raw) != 6:
        r.fail("offices", "must list the six political offices, top to bottom.")
    offices = []
    for i, o in enumerate(offices_raw):
        if not isinstance(o, Mapping):
            r.fail(f"offices[{i}]", "must be a table with name, colour and bonus.")
        sub = _Reader(o, path)
        check_keys(o, OFFICE_KEYS, f"offices[{i}]", r.error)
        try:
            offices.append(Office(sub.str("name"), sub.str("colour", DIE_COLOURS), sub.str("bonus", BONUSES)))
        except DataFileError as exc:
            r.fail(f"offices[{i}].{exc.key}", exc.problem)
    if len({o.colour for o in offices}) != 6:
        r.fail("offices", "each office has its own die colour.")
    if {o.bonus for o in offices} != set(BONUSES):
        r.fail("offices", "each election bonus belongs to exactly one office.")
    names_table = r.numbered("vocations.names", range(1, 10))
    names = []
    for n in range(1, 10):
        if not isinstance(names_table[n], str) or not names_table[n]:
            r.fail(f"vocations.names.{n}", "must be a name in quotes.")
        names.append(names_table[n])
    campus = r.int("vocations.campus", 6, 6)
    sections = r.ints("vocations.sections", campus, low=1)
    if list(sections) != sorted(sections, reverse=True) or max(sections) > 3:
        r.fail("vocations.sections", "costs run 3, 2, 1 from the bottom of the campus up.")
    board = Board(
        zones=zones,
        wealth_zones=wealth_zones,
        prestige_zones=prestige_zones,
        spaces=spaces,  # type: ignore[arg-type]
        contract_levels=contract_levels,
        tree_level=tree_level,
        town_most=r.int("town.scoring.most"),
        town_fewest=r.int("town.scoring.fewest"),
        river_north=north,
        river_south=south,
        villas=roads[0] + (bridge,) + roads[1],
        bridge_wealth=r.int("villas.bridge_wealth", 0),
        bridge_prestige=r.int("villas.bridge_prestige", 0),
        greenbelt_top=r.int("greenbelt.top", 1, 40),
        victory_start=r.int("victory.start", 1, 49),
        victory_lowest=r.int("victory.lowest", 1, 1),
        victory_lap=r.int("victory.lap", 10),
        time_start=time_start,
        clock_towers=r.int("time.clock_towers", 1, 4),
        favors=r.int("status.favors", 0, 40),
        offices=tuple(offices),
        vocation_names=tuple(names),
        vocation_counts=r.ints("vocations.counts", 9, low=1),
        campus=campus,
        sections=sections,
        media_education=r.int("vocations.media_education", 4, 4),
        vocation_prestige=r.ints("vocations.prestige.table", 10),
        vocation_wealth=r.ints("vocations.wealth.table", 10),
        offices_table=r.ints("offices_table.table", 7),
        status_one_star=r.ints("status_table.one_star", 4),
        status_two_stars=r.ints("status_table.two_stars", 4),
        legacies=r.strs(
            "legacy.tiles",
            choices=[f"{z}-zone" for z in zones] + ["greenbelt", "vocations", "offices"],
        ),
        legacy_most=r.int("legacy.most"),
        legacy_fewest=r.int("legacy.fewest"),
        masters=r.strs("masters.colours", choices=zones),
        disasters=r.strs("disasters.kinds", 4, choices=("office", "vocations", "town", "greenbelt")),
        disaster_victory_spaces=r.ints("disasters.victory_spaces", 2, low=2),
        disaster_amounts={k: r.int(f"disasters.{k}", 1, 12) for k in ("office", "vocations", "town", "greenbelt")},
        cubes=r.int("players.cubes", 8, 200),
        player_colours=r.strs("players.colours", 4),
        bot_name=r.str("two_player.bot_name"),
        bot_legacy=r.bool("two_player.bot_legacy"),
        bot_contract_order=r.strs("two_player.contract_order", 4, choices=zones),
    )
    if board.legacies == ():
        r.fail("legacy.tiles", "needs at least one Legacy tile.")
    return board


def parse_board(text: str | bytes, path: str = "board.toml") -> Board:
    """A board from TOML text; DataFileError naming the line or the key on a bad file."""
    return board_from_data(load_data_toml(text, path), path)


@lru_cache(maxsize=1)
def default_board() -> Board:
    return parse_board(resources.files(__package__).joinpath("data/board.toml").read_bytes(), DEFAULT_PATH)


def default_board_data() -> dict:
    """The shipped board file as a mapping (for players who correct a few keys)."""
    return load_data_toml(resources.files(__package__).joinpath("data/board.toml").read_bytes(), DEFAULT_PATH)
