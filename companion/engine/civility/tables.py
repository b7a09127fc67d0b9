"""The game facts of Civility read from data/*.toml and validated on load.

`BOOK` holds the Action Ring, the table limits, the known Status cards, the Perk departments and
the World Events. Code holds rules; numbers a printing could change live in the data files.
"""
from __future__ import annotations

import importlib.resources
from dataclasses import dataclass
from typing import Any, Mapping

from ..core import DataFileError, data_file_error, load_data_toml
from ..keys import check_keys

DEPARTMENTS = ("education", "health", "technology", "army", "government", "economy")
TOKENS = ("attack-anytime", "steal-a-turn")
RING_ACTIONS = ("draw", "army", "bridge", "upgrade", "attack")


def read_toml(name: str) -> dict:
    """A packaged data file as a dict; DataFileError naming the file (and line, key) when it is
    not UTF-8, not TOML, or holds a value too deep or too large to read."""
    return load_data_toml(importlib.resources.files(__package__).joinpath("data", name).read_bytes(), name)


def need(table: Mapping, key: str, kind, path: str, where: str = ""):
    """table[key] checked against `kind`; DataFileError naming file and key otherwise."""
    full = f"{where}.{key}" if where else key
    if key not in table:
        raise DataFileError(f"{path}: {full} is missing.", path=path, key=full)
    value = table[key]
    if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
        raise DataFileError(f"{path}: {full} must be a whole number, not {value!r}.", path=path, key=full)
    if kind is not int and not isinstance(value, kind):
        raise DataFileError(f"{path}: {full} has the wrong type ({value!r}).", path=path, key=full)
    return value


def known(table: Mapping, keys, path: str, where: str = "") -> None:
    """Refuse a key the file's format does not know: a typo would silently keep a default."""
    if not isinstance(table, Mapping):
        raise data_file_error(path)(where or "(top)", "must be a table.")
    check_keys(table, keys, where, data_file_error(path))


def die_faces(value: Any, path: str, key: str) -> tuple[int, ...]:
    if not isinstance(value, list) or not value or not all(
        isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 6 for v in value
    ):
        raise DataFileError(f"{path}: {key} must be a list of die faces 1-6, not {value!r}.", path=path, key=key)
    return tuple(sorted(set(value)))


@dataclass(frozen=True)
class StatusCardFacts:
    name: str
    kind: str  # "battle" or "city"
    wins: int = 0
    wins_without_cards: int = 0
    losses: int = 0
    cost: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Book:
    ring: Mapping[str, tuple[int, ...]]
    combos: Mapping[str, tuple[int, int]]
    tokens: Mapping[str, int]
    hand_limit: int
    action_card_limit: int
    upgrade_discard: int
    starting_hand: int
    defenders_max: int
    level_max: int
    status_max: int
    bridges: int
    card_effects: int
    card_totals: tuple[int, int]  # what battle cards may add to one side, low and high
    status_cards: Mapping[str, StatusCardFacts]
    perk_departments: tuple[str, ...]
    pacifist_status: int
    renewal_uses: int
    pacifist_options: tuple[str, ...]
    events: Mapping[str, str]  # event name -> city needed ("" for the base deck)
    event_rules: Mapping[str, Any]


_LIMITS = ("hand_limit", "action_card_limit", "upgrade_discard", "starting_hand", "defenders_max",
           "level_max", "status_max", "bridges", "card_effects")


def _ring(data: dict, path: str = "ring.toml") -> dict:
    known(data, ("actions", "combos", "tokens", "table", "battle"), path)
    actions = need(data, "actions", dict, path)
    known(actions, RING_ACTIONS, path, "actions")
    ring = {}
    for name in RING_ACTIONS:
        ring[name] = die_faces(need(actions, name, list, path, "actions"), path, f"actions.{name}")
    known(need(data, "combos", dict, path), TOKENS, path, "combos")
    known(need(data, "tokens", dict, path), TOKENS, path, "tokens")
    combos = {}
    tokens = {}
    for name in TOKENS:
        faces = need(need(data, "combos", dict, path), name, list, path, "combos")
        if len(faces) != 2 or len(die_faces(faces, path, f"combos.{name}")) != 2:
            raise DataFileError(f"{path}: combos.{name} must be two different die faces.", path=path, key=f"combos.{name}")
        combos[name] = tuple(faces)
        tokens[name] = need(need(data, "tokens", dict, path), name, int, path, "tokens")
    table = need(data, "table", dict, path)
    known(table, _LIMITS, path, "table")
    limits = {k: need(table, k, int, path, "table") for k in _LIMITS}
    for key, value in limits.items():
        if value < 1:
            raise DataFileError(f"{path}: table.{key} must be at least 1.", path=path, key=f"table.{key}")
    battle = need(data, "battle", dict, path)
    known(battle, ("card_total_min", "card_total_max"), path, "battle")
    low = need(battle, "card_total_min", int, path, "battle")
    high = need(battle, "card_total_max", int, path, "battle")
    if not low <= 0 <= high:
        raise DataFileError(f"{path}: battle.card_total_min must be <= 0 <= battle.card_total_max.",
                            path=path, key="battle")
    return dict(ring=ring, combos=combos, tokens=tokens, card_totals=(low, high), **limits)


def _status(data: dict, path: str = "status.toml") -> dict:
    known(data, ("card", "renewal", "perks"), path)
    cards = {}
    for i, card in enumerate(need(data, "card", list, path)):
        where = f"card[{i}]"
        known(card, ("name", "kind", "wins", "wins_without_cards", "losses", "cost"), path, where)
        name = need(card, "name", str, path, where)
        kind = need(card, "kind", str, path, where)
        if kind not in ("battle", "city"):
            raise DataFileError(f'{path}: {where}.kind must be "battle" or "city".', path=path, key=f"{where}.kind")
        counts = {k: card.get(k, 0) for k in ("wins", "wins_without_cards", "losses")}
        for k, v in counts.items():
            if isinstance(v, bool) or not isinstance(v, int) or v < 0:
                raise DataFileError(f"{path}: {where}.{k} must be a whole number 0 or more.", path=path, key=f"{where}.{k}")
        cost = card.get("cost", {})
        if not isinstance(cost, dict) or any(
            d not in DEPARTMENTS or isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= 5
            for d, v in cost.items()
        ):
            raise DataFileError(f"{path}: {where}.cost must map departments to levels 1-5.", path=path, key=f"{where}.cost")
        cards[name] = StatusCardFacts(name, kind, cost=tuple(sorted(cost.items())), **counts)
    perks = need(data, "perks", dict, path)
    known(perks, ("departments", "pacifist", "pacifist_status"), path, "perks")
    departments = tuple(need(perks, "departments", list, path, "perks"))
    if any(d not in DEPARTMENTS for d in departments):
        raise DataFileError(f"{path}: perks.departments lists an unknown department.", path=path, key="perks.departments")
    options = tuple(need(perks, "pacifist", list, path, "perks"))
    if set(options) != {"army-health-doubled", "double-gains"}:
        raise DataFileError(f'{path}: perks.pacifist must be the two options "army-health-doubled" and "double-gains".',
                            path=path, key="perks.pacifist")
    known(need(data, "renewal", dict, path), ("uses",), path, "renewal")
    renewal = need(need(data, "renewal", dict, path), "uses", int, path, "renewal")
    return dict(status_cards=cards, perk_departments=departments, renewal_uses=renewal,
                pacifist_status=need(perks, "pacifist_status", int, path, "perks"), pacifist_options=options)


_EVENT_NUMBERS = ("black_market_max_status", "pandemic_loss", "sabotage_uses")
_EVENT_FACES = ("pandemic_cure", "world_war_stay_home", "blind_faith_draw")


def _events(data: dict, path: str = "events.toml") -> dict:
    known(data, ("event", "rules"), path)
    events = {}
    for i, event in enumerate(need(data, "event", list, path)):
        known(event, ("name", "city"), path, f"event[{i}]")
        events[need(event, "name", str, path, f"event[{i}]")] = event.get("city", "")
    rules = need(data, "rules", dict, path)
    known(rules, (*_EVENT_NUMBERS, *_EVENT_FACES), path, "rules")
    for key in _EVENT_NUMBERS:
        need(rules, key, int, path, "rules")
    for key in _EVENT_FACES:
        die_faces(need(rules, key, list, path, "rules"), path, f"rules.{key}")
    return dict(events=events, event_rules=dict(rules))


def load_book() -> Book:
    return Book(**_ring(read_toml("ring.toml")), **_status(read_toml("status.toml")),
                **_events(read_toml("events.toml")))


BOOK = load_book()
