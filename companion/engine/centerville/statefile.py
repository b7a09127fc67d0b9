"""The board-state file of `companion score centerville STATE.json --round N` (docs/centerville-state.md).

Players who did not track the game from the start describe the board as it stands, by player
colour; `load_state` checks every field and builds a State that the scoring rounds run on. A bad
field raises StateFileError with its path, e.g. `players[1].wealth`.
"""
from __future__ import annotations

from typing import Any, Mapping

from .. import schema as S
from ..core import DataFileError
from ..keys import check_keys, join_path, unknown_key
from .game import board_for
from .scoring import ranking, run_round
from .state import State, cubes_on_board
from .turn import new_state


LEVELS = ("1", "2", "3", "4")


# The format's fields and their types (docs/centerville-state.md), checked before anything else:
# what depends on this file's board (its colours, zones, ranges) is checked by load_state after.
_COLOUR = S.Str()
SEAT = S.Obj({
    "colour": _COLOUR, "name": S.Str(nonempty=True, says="must be a name in quotes."),
    "bot": S.Bool(says="must be true or false."),
    "wealth": S.Int(), "prestige": S.Int(), "greenbelt": S.Int(), "stars": S.Int(), "park": S.Int(),
    "favors": S.Int(), "vocations": S.Map(S.Int(), keys=tuple(str(n) for n in range(1, 10))),
    "legacy": S.Null(S.Str()),
}, required=("wealth", "prestige"), says="must be an object.")
STATE_FILE = S.Obj({
    "game": S.Str(choices=("centerville",), says='must be "centerville".'),
    "board": S.Anything(),  # the board corrections: game.board_for checks them against board.toml's shape
    "players": S.List(SEAT, min=3, max=4,
                      says="must list the 3 or 4 seats (the bot is a seat in the 2-player game)."),
    "status": S.List(_COLOUR, says="must list every seat's colour once, 1st (top) first."),
    "town": S.Map(S.Map(S.List(_COLOUR, says="must be a list of player colours, one per building."), keys=LEVELS,
                        says='must be an object like {"1": ["gray"], "2": []}.')),
    "river": S.Map(S.Null(_COLOUR)),
    "villas": S.Map(S.List(S.Null(_COLOUR))),
    "offices": S.Map(S.Null(S.Obj({"colour": _COLOUR, "cubes": S.Int()}, required=("colour", "cubes"),
                                  says='must be {"colour": ..., "cubes": N} or null.'))),
    "safe": S.Null(_COLOUR), "media": S.Null(_COLOUR), "media_vocation": S.Int(),
    "open_legacy": S.Str(), "active": _COLOUR,
}, required=("players", "status"))
# The keys of the format; any other key is refused by the schema, never skipped.
FILE_KEYS, SEAT_KEYS, OFFICE_KEYS = tuple(STATE_FILE.fields), tuple(SEAT.fields), ("colour", "cubes")


class StateFileError(ValueError):
    def __init__(self, path: str, message: str):
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def _int(data: Mapping, key: str, path: str, low: int, high: int | None = None, default=None) -> int:
    where = join_path(path, key)
    if key not in data:
        if default is not None:
            return default
        raise StateFileError(where, "is missing.")
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateFileError(where, f"must be a whole number, not {value!r}.")
    if value < low or (high is not None and value > high):
        raise StateFileError(where, f"must be {low} to {high}, not {value}." if high is not None else f"must be at least {low}.")
    return value


def _colour(value, path: str, colours: list[str], allow_none: bool = False):
    if value is None and allow_none:
        return None
    if not isinstance(value, str) or value not in colours:
        raise StateFileError(path, f"must be a player colour of this file ({', '.join(colours)}), not {value!r}.")
    return colours.index(value)


def _table(data: Mapping, key: str, path: str, default=None) -> Mapping:
    value = data.get(key, default)
    if not isinstance(value, Mapping):
        raise StateFileError(join_path(path, key), "must be an object.")
    return value


def load_state(data: Any, scoring_round: int) -> State:
    """A State in which a scoring round can be run, from the parsed JSON of a state file."""
    if not isinstance(data, Mapping):
        raise StateFileError("(top)", "the file must hold one JSON object.")
    try:
        S.check(STATE_FILE, data)
    except S.SchemaError as exc:
        raise StateFileError(exc.path, exc.problem) from None
    # From here on every field has its schema's type: what is left is what this file's board decides.
    try:
        board = board_for({"board": data["board"]} if "board" in data else {})
    except DataFileError as exc:
        raise StateFileError(join_path("board", exc.key), exc.problem) from None
    except Exception as exc:  # SetupError for a board that is not a table
        raise StateFileError("board", str(exc)) from None
    raw_players = data["players"]
    colours: list[str] = []
    for i, p in enumerate(raw_players):
        c = p.get("colour")
        if not isinstance(c, str) or c not in board.player_colours or c in colours:
            raise StateFileError(
                f"players[{i}].colour", f"must be a different player colour ({', '.join(board.player_colours)})."
            )
        colours.append(c)
    bots = [i for i, p in enumerate(raw_players) if p.get("bot", False) is True]
    for i, p in enumerate(raw_players):
        if not isinstance(p.get("bot", False), bool):
            raise StateFileError(f"players[{i}].bot", "must be true or false.")
    if len(bots) > 1 or (bots and len(raw_players) != 3) or (bots and bots[0] != 2):
        raise StateFileError("players", "only the third seat of a 3-seat file can be the bot (2-Player Rules).")
    names = []
    for i, p in enumerate(raw_players):
        name = p.get("name", colours[i])
        if not isinstance(name, str) or not name.strip():
            raise StateFileError(f"players[{i}].name", "must be a name in quotes.")
        names.append(name)
    if len(set(n.casefold() for n in names)) != len(names):
        raise StateFileError("players", "two seats have the same name.")
    seat_names = tuple(names[:2]) if bots else tuple(names)
    options = {"colours": colours[:2] if bots else colours}
    if bots:
        board = _with_bot_name(board, names[2])
    w = new_state(board, seat_names, options).thaw()
    w.colours = tuple(colours)
    n = len(names)
    top = board.victory_lap * 10
    for i, p in enumerate(raw_players):
        path = f"players[{i}]"
        w.wealth[i] = _int(p, "wealth", path, 1, top)
        w.prestige[i] = _int(p, "prestige", path, 1, top)
        w.greenbelt[i] = _int(p, "greenbelt", path, 0, board.greenbelt_top, default=0)
        w.stars[i] = _int(p, "stars", path, 1, 2, default=1)
        w.park[i] = _int(p, "park", path, 0, board.cubes, default=0)
        w.favors[i] = _int(p, "favors", path, 0, board.favors, default=0)
        voc = _table(p, "vocations", path, default={})
        tiles = [0] * board.vocation_types
        check_keys(voc, [str(n) for n in range(1, board.vocation_types + 1)], f"{path}.vocations", StateFileError)
        for key in voc:
            tiles[int(key) - 1] = _int(voc, key, f"{path}.vocations", 0, board.vocation_counts[int(key) - 1])
        w.vocations[i] = tiles
        legacy = p.get("legacy")
        if legacy is not None and (not isinstance(legacy, str) or legacy not in board.legacies):
            raise StateFileError(f"{path}.legacy", f'must be one of {", ".join(board.legacies)}.')
        needs_legacy = not (i in bots and not board.bot_legacy)
        if scoring_round == 3 and legacy is None and needs_legacy:
            raise StateFileError(f"{path}.legacy", "the final scoring reveals every Legacy: name this seat's tile.")
        w.legacies[i] = legacy
    _load_status(w, data, colours)
    w.active = w.status[-1]  # unless the file names the active player
    _load_town(w, data, colours)
    _load_river(w, data, colours)
    _load_offices(w, data, colours)
    if "media" in data:
        w.media = _colour(data["media"], "media", colours, allow_none=True)
        if w.media is not None and w.media == w.bot:
            raise StateFileError("media", "the bot can't acquire the Media (2-Player Rules).")
    # Checked in every round, though only the third scores it: a bad value is a bad file.
    media_vocation = _int(data, "media_vocation", "", 1, board.vocation_types) if "media_vocation" in data else None
    if w.media is not None and scoring_round == 3:
        w.media_vocation = media_vocation
        if w.media_vocation is None:
            raise StateFileError("media_vocation", "the Media's owner names the vocation it counts as (Score the Vocations).")
    if "open_legacy" in data:
        if not bots:
            raise StateFileError("open_legacy", "only the 2-player game has an open Legacy.")
        if not isinstance(data["open_legacy"], str) or data["open_legacy"] not in board.legacies:
            raise StateFileError("open_legacy", f'must be one of {", ".join(board.legacies)}.')
        w.open_legacy = data["open_legacy"]
    revealed = [x for x in list(w.legacies) + [w.open_legacy] if x is not None]
    if len(set(revealed)) != len(revealed):
        raise StateFileError("players", "two seats name the same Legacy tile: each is dealt once.")
    w.active = _colour(data["active"], "active", colours) if "active" in data else w.active
    for i in range(n):
        used = cubes_on_board(w, i)
        if used > board.cubes:
            raise StateFileError(f"players[{i}]", f"{colours[i]} has {used} cubes on the board, more than {board.cubes}.")
    w.phase = "scoring"
    return w.freeze()


def _with_bot_name(board, name):
    import dataclasses

    return dataclasses.replace(board, bot_name=name)


def _load_status(w, data, colours) -> None:
    status = data.get("status")
    if not isinstance(status, list):
        raise StateFileError("status", "must list every seat's colour once, 1st (top) first.")
    seats = [_colour(c, f"status[{k}]", colours) for k, c in enumerate(status)]
    if sorted(seats) != list(range(len(colours))):
        raise StateFileError("status", "must list every seat's colour once, 1st (top) first.")
    w.status = seats


def _load_town(w, data, colours) -> None:
    town = _table(data, "town", "", default={})
    b = w.board
    check_keys(town, b.zones, "town", StateFileError)
    for zone, levels in town.items():
        if not isinstance(levels, Mapping):
            raise StateFileError(f"town.{zone}", 'must be an object like {"1": ["gray"], "2": []}.')
        z = b.zones.index(zone)
        check_keys(levels, LEVELS, f"town.{zone}", StateFileError)
        for level, owners in levels.items():
            path = f"town.{zone}.{level}"
            if not isinstance(owners, list):
                raise StateFileError(path, "must be a list of player colours, one per building.")
            if len(owners) > b.spaces[int(level) - 1]:
                raise StateFileError(path, f"level {level} of a zone has {b.spaces[int(level) - 1]} spaces.")
            w.town[z * 4 + int(level) - 1] = sorted(_colour(o, f"{path}[{k}]", colours) for k, o in enumerate(owners))


def _load_river(w, data, colours) -> None:
    b = w.board
    river = _table(data, "river", "", default={})
    check_keys(river, b.river_spaces, "river", StateFileError)
    for space, owner in river.items():
        w.river[b.river_spaces.index(space)] = _colour(owner, f"river.{space}", colours, allow_none=True)
    villas = _table(data, "villas", "", default={})
    check_keys(villas, b.river_spaces, "villas", StateFileError)  # a road is named after its river space
    for road, owners in villas.items():
        i = b.river_spaces.index(road)
        if not isinstance(owners, list) or len(owners) != len(b.villas[i]):
            raise StateFileError(f"villas.{road}", f"must list the road's {len(b.villas[i])} villas from the river out (null: empty).")
        w.villas[i] = [_colour(o, f"villas.{road}[{k}]", colours, allow_none=True) for k, o in enumerate(owners)]


def _load_offices(w, data, colours) -> None:
    b = w.board
    offices = _table(data, "offices", "", default={})
    for name, held in offices.items():
        try:
            i = b.office_index(name)
        except KeyError:
            bad = unknown_key(name, (o.name for o in b.offices), "offices")
            raise StateFileError(bad.path, bad.problem) from None
        path = f"offices.{name}"
        if held is None:
            continue
        if not isinstance(held, Mapping):
            raise StateFileError(path, 'must be {"colour": ..., "cubes": N} or null.')
        w.offices[i] = (_colour(held.get("colour"), f"{path}.colour", colours), _int(held, "cubes", path, 1, w.board.cubes))
    if "safe" in data:
        w.safe = _colour(data["safe"], "safe", colours, allow_none=True)


def scored_state(data: Any, scoring_round: int) -> State:
    """The board of a state file after its scoring round: the round is `rounds[-1]` (with the
    markers it began from); after round 3 the game is over and `winner` is set."""
    if scoring_round not in (1, 2, 3):
        raise StateFileError("--round", "scoring rounds are 1, 2 and 3.")
    w = load_state(data, scoring_round).thaw()
    run_round(w, scoring_round)
    if scoring_round == 3:
        w.phase = "over"
        w.winner = [ranking(w)[0]]
    return w.freeze()


def score_file(data: Any, scoring_round: int) -> dict:
    """JSON-ready result: every step's change per player colour, the totals, and the winner."""
    w = scored_state(data, scoring_round)
    result = w.rounds[-1]
    before = list(zip(result.wealth_before, result.prestige_before))
    players = range(len(w.names))
    out = {
        "game": "centerville",
        "round": scoring_round,
        "players": {w.colours[p]: w.names[p] for p in players},
        "steps": [
            {
                "step": st.step,
                "name": st.name,
                "detail": st.detail,
                "changes": {w.colours[p]: {"wealth": st.wealth[p], "prestige": st.prestige[p]} for p in players},
            }
            for st in result.steps
        ],
        "totals": {
            w.colours[p]: {
                "wealth": w.wealth[p] - before[p][0],
                "prestige": w.prestige[p] - before[p][1],
                "final_wealth": w.wealth[p],
                "final_prestige": w.prestige[p],
            }
            for p in players
        },
    }
    if scoring_round == 3:
        order = ranking(w)
        out["ranking"] = [w.colours[p] for p in order]
        out["winner"] = w.colours[order[0]]
    return out
