"""The cities (data/cities.toml) and the set-up options that place them at the table.

Most cities' starting levels are UNKNOWN to us, so the data file ships placeholders and the
game header may set any city's starting dials: {"levels": {"Ann": {"army": 3, "defenders": 1}}}.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..core import DataFileError, SetupError
from ..keys import check_keys
from .tables import BOOK, DEPARTMENTS, known, need, read_toml


@dataclass(frozen=True)
class CityFacts:
    name: str
    expansion: bool
    levels: tuple[int, ...]  # in DEPARTMENTS order
    defenders: int
    known: tuple[str, ...]  # departments whose level the data file gives (the rest are defaults)


def _level(value: Any, path: str, key: str, top: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
        raise DataFileError(f"{path}: {key} must be a whole number 0-{top}, not {value!r}.", path=path, key=key)
    return value


def cities_from_dict(data: dict, path: str = "cities.toml") -> dict[str, CityFacts]:
    known(data, ("default", "city"), path)
    default = need(data, "default", dict, path)
    known(default, ("levels", "defenders"), path, "default")
    base_levels = need(default, "levels", dict, path, "default")
    known(base_levels, DEPARTMENTS, path, "default.levels")
    for d in DEPARTMENTS:
        _level(need(base_levels, d, int, path, "default.levels"), path, f"default.levels.{d}", BOOK.level_max)
    base_defenders = _level(need(default, "defenders", int, path, "default"), path, "default.defenders",
                            BOOK.defenders_max)
    cities = {}
    for i, city in enumerate(need(data, "city", list, path)):
        where = f"city[{i}]"
        known(city, ("name", "expansion", "levels", "defenders"), path, where)
        name = need(city, "name", str, path, where)
        if name in cities:
            raise DataFileError(f"{path}: {where}.name {name!r} appears twice.", path=path, key=f"{where}.name")
        levels = city.get("levels", {})
        if not isinstance(levels, dict):
            raise DataFileError(f"{path}: {where}.levels must be a table.", path=path, key=f"{where}.levels")
        known(levels, DEPARTMENTS, path, f"{where}.levels")
        for d, v in levels.items():
            _level(v, path, f"{where}.levels.{d}", BOOK.level_max)
        defenders = _level(city.get("defenders", base_defenders), path, f"{where}.defenders", BOOK.defenders_max)
        cities[name] = CityFacts(
            name, bool(city.get("expansion", False)),
            tuple(levels.get(d, base_levels[d]) for d in DEPARTMENTS), defenders, tuple(sorted(levels)))
    return cities


CITIES = cities_from_dict(read_toml("cities.toml"))


@dataclass(frozen=True)
class Seat:
    """One player's city at set-up: the city and its starting dials."""
    player: str
    city: str
    levels: tuple[int, ...]
    defenders: int


def _setup_error(path: str, problem: str) -> SetupError:
    return SetupError(f"{path}: {problem}", rule="Set-Up")


def seat_cities(players: tuple[str, ...], options: Mapping[str, Any]) -> tuple[Seat, ...]:
    """Each player's city and starting dials from the header options; SetupError naming the option."""
    chosen = options.get("cities")
    if chosen is None:
        # City cards are dealt at the table; without an entry the seats take the file's order.
        chosen = [c.name for c in CITIES.values()][: len(players)]
    if isinstance(chosen, Mapping):
        missing = [p for p in players if p not in chosen]
        if missing or set(chosen) - set(players):
            raise SetupError(f'Option "cities" must name a city for each player ({", ".join(players)}) '
                             "and nobody else (rule: Set-Up).")
        chosen = [chosen[p] for p in players]
    if not isinstance(chosen, list) or len(chosen) != len(players):
        raise SetupError(f'Option "cities" must list {len(players)} cities, one per player (rule: Set-Up).')
    for name in chosen:
        if name not in CITIES:
            raise SetupError(f'Option "cities": there is no city {name!r} (cities: {", ".join(CITIES)}).')
    if len(set(chosen)) != len(chosen):
        raise SetupError('Option "cities": each player takes a different city (rule: Set-Up).')
    overrides = options.get("levels", {})
    if not isinstance(overrides, Mapping) or not all(isinstance(v, Mapping) for v in overrides.values()):
        raise SetupError('Option "levels" must map player names to their starting dials, '
                         'e.g. {"Ann": {"army": 3, "defenders": 1}}.')
    check_keys(overrides, players, "levels", _setup_error)
    seats = []
    for player, name in zip(players, chosen):
        facts = CITIES[name]
        levels = list(facts.levels)
        defenders = facts.defenders
        dials = dict(overrides.get(player, {}))
        check_keys(dials, (*DEPARTMENTS, "defenders"), f"levels.{player}", _setup_error)
        for dial, value in dials.items():
            top = BOOK.defenders_max if dial == "defenders" else BOOK.level_max
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= top:
                raise SetupError(f'Option "levels": {player}\'s {dial} must be a whole number 0-{top}, '
                                 f"not {value!r} (rule: Departments 0-5, Defenders 0-6).")
            if dial == "defenders":
                defenders = value
            else:
                levels[DEPARTMENTS.index(dial)] = value
        seats.append(Seat(player, name, tuple(levels), defenders))
    return tuple(seats)
