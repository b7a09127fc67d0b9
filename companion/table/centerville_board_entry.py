"""Score our board, without Kivy: a table that played on paper (or lost track) enters the
Welcome to Centerville board as it stands, area by area, and has one scoring round walked
through as in play.

What is entered is held by seat and written out as the board-state file's mapping
(docs/centerville-state.md, `data()`); scoring goes through `statefile.scored_state`, the same
path as `companion score`, so there is one way to score a board. Each board area offers rows
(`rows(area)`): a number per seat with - and +, a choice per space, or the status order; a
change the game does not allow (a full level, a 33rd cube) is refused with a sentence.
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.engine.centerville.board import Board, default_board
from companion.engine.centerville.state import State
from companion.engine.centerville.statefile import StateFileError, load_state, scored_state

from .centerville import Page, scoring_pages
from .centerville_names import legacy_name, plural, river_space, vocation

MODES = {"2+bot": 3, "3": 3, "4": 4}  # how the table played -> seats on the board
ROUNDS = (1, 2, 3)
NOT_NEEDED = {
    "time": "The time track is not needed to score a round.",
    "masters": "Master tiles are not needed to score a round.",
    "favors": "Favor tiles are not needed to score a round.",
    "disasters": "Disasters are not needed to score a round.",
}


@dataclass(frozen=True)
class Row:
    """One line of an area's editor. kind "count": a number per seat, changed by +/- `step`;
    "number": one number; "choice": one of `options` ((value, label) pairs, None: nobody);
    "order": the seats in status order, a tap moves one up."""

    kind: str
    key: tuple
    label: str
    options: tuple = ()
    step: int = 1


class BoardEntry:
    """The board being entered, by seat (0, 1, ... clockwise); a fresh one is 3 seats, each at
    the victory track's start, nothing on the board."""

    def __init__(self, board: Board | None = None):
        self.board = board or default_board()
        self.round = 1
        self.mode = "3"
        self.names: list[str] = []
        self.colours: list[str] = []
        self.set_mode("3")

    # -- the players -----------------------------------------------------------------------------
    @property
    def seats(self) -> int:
        return len(self.names)

    @property
    def bot(self) -> int | None:
        """The bot's seat in the 2-player game (the third seat, as the state file wants it)."""
        return 2 if self.mode == "2+bot" else None

    def set_mode(self, mode: str) -> None:
        """2 players and the bot, 3 or 4 players: the names typed stay, the board is cleared
        (it held other seats)."""
        if mode not in MODES:
            raise ValueError(f"unknown mode {mode!r}")
        b, n = self.board, MODES[mode]
        typed = [name for seat, name in enumerate(self.names) if seat != self.bot]
        self.mode = mode
        self.names = [f"Player {i + 1}" for i in range(n)]
        self.names[:len(typed)] = typed[:n]
        if mode == "2+bot":
            self.names[2] = b.bot_name
        self.colours = list(b.player_colours[:n])
        start = b.victory_start
        self.counts = {k: [v] * n for k, v in (("wealth", start), ("prestige", start), ("greenbelt", 0),
                                                ("park", 0), ("stars", 1))}
        self.vocations = [[0] * b.vocation_types for _ in range(n)]
        self.town = {(z, lv): [0] * n for z in b.zones for lv in range(1, 5)}
        self.river: list[int | None] = [None] * len(b.river_spaces)
        self.villas: list[list[int | None]] = [[None] * len(road) for road in b.villas]
        self.offices: list[tuple[int, int] | None] = [None] * len(b.offices)
        self.owners: dict[str, int | None] = {"media": None, "safe": None}
        self.status = list(range(n))
        self.legacies: list[str | None] = [None] * n
        self.open_legacy: str | None = None
        self.media_vocation: int | None = None

    def rename(self, seat: int, name: str) -> None:
        self.names[seat] = name

    def next_colour(self, seat: int) -> None:
        """The seat's next colour; whoever had it takes this seat's old one."""
        order = self.board.player_colours
        new = order[(order.index(self.colours[seat]) + 1) % len(order)]
        if new in self.colours:
            self.colours[self.colours.index(new)] = self.colours[seat]
        self.colours[seat] = new

    def set_round(self, number: int) -> None:
        if number not in ROUNDS:
            raise ValueError("scoring rounds are 1, 2 and 3")
        self.round = number

    # -- cubes -----------------------------------------------------------------------------------
    def cubes_on_board(self, seat: int) -> int:
        n = self.counts["park"][seat] + sum(c[seat] for c in self.town.values())
        n += self.river.count(seat) + sum(road.count(seat) for road in self.villas)
        return n + sum(o[1] for o in self.offices if o is not None and o[0] == seat)

    def cubes_left(self, seat: int) -> int:
        return self.board.cubes - self.cubes_on_board(seat)

    def _cube_for(self, seat: int | None) -> str | None:
        if seat is not None and self.cubes_left(seat) <= 0:
            return f"{self.names[seat]} has no cubes left: all {self.board.cubes} are on the board."
        return None

    # -- the rows of each area -------------------------------------------------------------------
    def _seat_options(self, nobody: str = "empty", bot: bool = True) -> tuple:
        return ((None, nobody),) + tuple((p, self.names[p]) for p in range(self.seats) if bot or p != self.bot)

    def rows(self, area: str) -> list[Row]:
        """The editor of a board area (the board picture's area names); [] for an area that
        scoring does not need (see NOT_NEEDED)."""
        b = self.board
        if area.startswith("zone-"):
            zone = area[len("zone-"):]
            return [Row("count", ("town", zone, lv), f"Level {lv}: {plural(b.spaces[lv - 1], 'space')}")
                    for lv in range(1, 5)]
        if area.startswith("office-"):
            i = next(k for k, o in enumerate(b.offices) if o.bonus == area[len("office-"):])
            rows = [Row("choice", ("office", i), f"{b.offices[i].name}: held by", self._seat_options("nobody"))]
            if self.offices[i] is not None:
                rows.append(Row("number", ("office-cubes", i), "Vote cubes on it"))
            return rows
        simple = {
            "park": [Row("count", ("park",), "Cubes in the central park")],
            "greenbelt": [Row("count", ("greenbelt",), f"Greenbelt space (0-{b.greenbelt_top})")],
            "campus": [Row("count", ("vocation", v), f"{_capital(vocation(b, v))}: {plural(b.vocation_counts[v - 1], 'tile')}")
                       for v in range(1, b.vocation_types + 1)],
            "river": [Row("choice", ("river", i), f"River, {river_space(s)}", self._seat_options())
                      for i, s in enumerate(b.river_spaces)],
            "villas": [Row("choice", ("villa", i, j), f"{river_space(s).capitalize()} road: the {value} villa",
                           self._seat_options())
                       for i, s in enumerate(b.river_spaces) for j, value in enumerate(b.villas[i])],
            "media": [Row("choice", ("media",), "The Media tile: held by", self._seat_options("nobody", bot=False))],
            "safe": [Row("choice", ("safe",), "The Safe tile: held by", self._seat_options("nobody"))],
            "status": [Row("order", ("status",), "Status track, 1st first: tap a player to move them up"),
                       Row("count", ("stars",), "Stars (2: Landmark)")],
            "victory": [Row("count", ("wealth",), "Wealth, in tens", step=10), Row("count", ("wealth",), "Wealth"),
                        Row("count", ("prestige",), "Prestige, in tens", step=10),
                        Row("count", ("prestige",), "Prestige")],
            "final": self._final_rows(),
        }
        if area in simple:
            return simple[area]
        if area in NOT_NEEDED:
            return []
        raise KeyError(f"no such area: {area}")

    def _final_rows(self) -> list[Row]:
        """What the final scoring (round 3) needs: every Legacy, the open one of the 2-player
        game, the vocation the Media counts as."""
        b = self.board
        tiles = ((None, "not entered"),) + tuple((t, legacy_name(t).capitalize()) for t in b.legacies)
        rows = [Row("choice", ("legacy", p), f"{self.names[p]}'s Legacy", tiles)
                for p in range(self.seats) if p != self.bot or b.bot_legacy]
        if self.bot is not None:
            rows.append(Row("choice", ("open-legacy",), "The open Legacy", (None, "none") + tiles[1:]))
        if self.owners["media"] is not None:
            named = ((None, "not named"),) + tuple((v, b.vocation_names[v - 1]) for v in range(1, b.vocation_types + 1))
            rows.append(Row("choice", ("media-vocation",), f"The Media ({self.names[self.owners['media']]}) counts as", named))
        return rows

    # -- values and changes ----------------------------------------------------------------------
    def value(self, key: tuple):
        """A count row: the number per seat; number: the number; choice: the chosen value; order: seats."""
        kind = key[0]
        if kind in self.counts:
            return list(self.counts[kind])
        if kind == "town":
            return list(self.town[key[1], key[2]])
        if kind == "vocation":
            return [self.vocations[p][key[1] - 1] for p in range(self.seats)]
        if kind == "office":
            held = self.offices[key[1]]
            return held[0] if held else None
        if kind == "office-cubes":
            held = self.offices[key[1]]
            return held[1] if held else 0
        if kind == "river":
            return self.river[key[1]]
        if kind == "villa":
            return self.villas[key[1]][key[2]]
        if kind in self.owners:
            return self.owners[kind]
        if kind == "status":
            return list(self.status)
        if kind == "legacy":
            return self.legacies[key[1]]
        if kind == "open-legacy":
            return self.open_legacy
        if kind == "media-vocation":
            return self.media_vocation
        raise KeyError(key)

    def change(self, key: tuple, delta: int, seat: int | None = None) -> str | None:
        """+/- on a count (for `seat`) or a number; None when done, else why not (a sentence)."""
        b, kind = self.board, key[0]
        if kind == "office-cubes":
            seat, cubes = self.offices[key[1]]
            if cubes + delta < 1:
                return "An office held has at least 1 vote cube (choose nobody to empty it)."
            if delta > 0 and (why := self._cube_for(seat)):
                return why
            self.offices[key[1]] = (seat, cubes + delta)
            return None
        old = self.value(key)[seat]
        new = old + delta
        name = self.names[seat]
        if kind in ("wealth", "prestige"):
            top = b.victory_lap * 10
            new = min(max(new, b.victory_lowest), top)
            if new == old:
                return f"{kind.capitalize()} is {b.victory_lowest} to {top} (count +{b.victory_lap} for a flipped marker)."
        elif kind == "stars" and not 1 <= new <= 2:
            return "A status disc shows one star, or two once flipped by a Landmark Building."
        elif kind == "greenbelt" and not 0 <= new <= b.greenbelt_top:
            return f"The greenbelt runs 0 to {b.greenbelt_top}."
        elif new < 0:
            return f"{name} has none there."
        elif kind == "town" and delta > 0 and sum(self.town[key[1], key[2]]) >= b.spaces[key[2] - 1]:
            return f"Level {key[2]} of the {key[1]} zone has {plural(b.spaces[key[2] - 1], 'space')}: all are built."
        elif kind == "vocation" and delta > 0:
            v = key[1]
            if sum(self.vocations[p][v - 1] for p in range(self.seats)) >= b.vocation_counts[v - 1]:
                return f"{vocation(b, v).capitalize()} has {plural(b.vocation_counts[v - 1], 'tile')} in the game."
        if kind in ("town", "park") and delta > 0 and (why := self._cube_for(seat)):
            return why
        if kind in self.counts:
            self.counts[kind][seat] = new
        elif kind == "town":
            self.town[key[1], key[2]][seat] = new
        elif kind == "vocation":
            self.vocations[seat][key[1] - 1] = new
        return None

    def choose(self, key: tuple, value) -> str | None:
        """A choice row's option; None when done, else why not."""
        kind = key[0]
        if kind in ("river", "villa", "office") and value != self.value(key) and (why := self._cube_for(value)):
            return why
        if kind == "river":
            self.river[key[1]] = value
        elif kind == "villa":
            self.villas[key[1]][key[2]] = value
        elif kind == "office":
            self.offices[key[1]] = None if value is None else (value, 1)
        elif kind in self.owners:
            if kind == "media" and value is not None and value == self.bot:
                return "The bot can't acquire the Media (2-Player Rules)."
            self.owners[kind] = value
            if kind == "media" and value is None:
                self.media_vocation = None
        elif kind in ("legacy", "open-legacy"):
            # Each tile is dealt once: whoever had it entered a mistake and enters again.
            if value is not None:
                self.legacies = [None if t == value else t for t in self.legacies]
                self.open_legacy = None if self.open_legacy == value else self.open_legacy
            if kind == "legacy":
                self.legacies[key[1]] = value
            else:
                self.open_legacy = value
        elif kind == "media-vocation":
            self.media_vocation = value
        else:
            raise KeyError(key)
        return None

    def move_up(self, seat: int) -> None:
        """The seat one place higher on the status track."""
        at = self.status.index(seat)
        if at > 0:
            self.status[at - 1], self.status[at] = self.status[at], self.status[at - 1]

    # -- the state file --------------------------------------------------------------------------
    def data(self) -> dict:
        """The board-state file's mapping (docs/centerville-state.md) of what is entered."""
        b, c = self.board, self.colours
        players = []
        for p in range(self.seats):
            seat = {"colour": c[p], "name": self.names[p], **{k: v[p] for k, v in self.counts.items()}}
            seat["vocations"] = {str(v): n for v, n in enumerate(self.vocations[p], start=1) if n}
            if p == self.bot:
                seat["bot"] = True
            if self.legacies[p] is not None:
                seat["legacy"] = self.legacies[p]
            players.append(seat)
        out = {
            "game": "centerville",
            "players": players,
            "status": [c[p] for p in self.status],
            "town": {z: {str(lv): [c[p] for p in range(self.seats) for _ in range(self.town[z, lv][p])]
                         for lv in range(1, 5)} for z in b.zones},
            "river": {s: _colour(c, self.river[i]) for i, s in enumerate(b.river_spaces)},
            "villas": {s: [_colour(c, o) for o in self.villas[i]] for i, s in enumerate(b.river_spaces)},
            "offices": {o.name: ({"colour": c[held[0]], "cubes": held[1]} if held else None)
                        for o, held in zip(b.offices, self.offices)},
            "media": _colour(c, self.owners["media"]),
            "safe": _colour(c, self.owners["safe"]),
        }
        if self.media_vocation is not None:
            out["media_vocation"] = self.media_vocation
        if self.open_legacy is not None:
            out["open_legacy"] = self.open_legacy
        return out

    def picture(self) -> State:
        """The board as entered, for the board picture (loaded as for round 1: it needs no Legacy;
        while a name is empty or taken twice, the seats show their colours)."""
        data = self.data()
        try:
            return load_state(data, 1)
        except StateFileError:
            for seat in data["players"]:
                seat["name"] = seat["colour"]
            return load_state(data, 1)

    def missing(self) -> str | None:
        """What stops the chosen round from being scored, in a sentence; None when it can be."""
        if self.round == 3:
            for row in self._final_rows():
                if row.key[0] == "legacy" and self.legacies[row.key[1]] is None:
                    return f"The final scoring reveals every Legacy: enter {self.names[row.key[1]]}'s (Final scoring)."
            if self.owners["media"] is not None and self.media_vocation is None:
                return "The final scoring counts the Media as a vocation: name it (Final scoring)."
        try:
            load_state(self.data(), self.round)
        except StateFileError as exc:
            return str(exc)
        return None

    def score(self) -> Scored:
        """The chosen round scored through the state file, as `companion score` scores it."""
        return scored(self.data(), self.round)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _colour(colours, seat):
    return None if seat is None else colours[seat]


# -- the round walked through ------------------------------------------------------------------------
@dataclass(frozen=True)
class Scored:
    state: State              # the board after the round; the round is state.rounds[-1]
    pages: tuple[Page, ...]   # every step, as in play, then the new wealth and prestige
    areas: tuple[tuple[str, ...], ...]  # each page's board areas, to highlight


def scored(data: dict, scoring_round: int) -> Scored:
    state = scored_state(data, scoring_round)
    index = len(state.rounds) - 1
    pages = scoring_pages(state, index) + [summary(state)]
    return Scored(state, tuple(pages), tuple(page.areas for page in pages))


def summary(s: State) -> Page:
    """The last page: each seat's new wealth and prestige (after round 3 the final score too;
    the winner is the page before, "Winning the Game")."""
    r = s.rounds[-1]
    lines = []
    for p in range(len(s.names)):
        w, pr = s.wealth[p], s.prestige[p]
        dw, dp = w - r.wealth_before[p], pr - r.prestige_before[p]
        line = f"{s.names[p]} ({s.colours[p]}): wealth {w} ({dw:+d}), prestige {pr} ({dp:+d})"
        if r.number == 3:
            line += f", final score {min(w, pr)}"
        lines.append(line)
    return Page("scoring", f"After scoring round {r.number}", tuple(lines))
