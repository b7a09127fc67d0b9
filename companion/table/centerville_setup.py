"""The rulebook's set-up (Setting Up the Game, A-N) as a checklist for this table's seats.

Every count and place comes from the board data (board.toml), so a corrected file corrects the
checklist too. Pure."""
from __future__ import annotations

from companion.engine.centerville.state import State, time_start

from .centerville_names import disaster_site, legacy_name, ordinal, plural, series, vocation


def setup_checklist(s: State) -> list[str]:
    """What to put where before the first turn, for the player count of `s`."""
    b = s.board
    players = [p for p in range(s.players) if p != s.bot]
    seats = series(f"{s.names[p]} {s.colours[p]}" for p in players)
    out = [
        "A. Board & Player Aids: lay the board in the middle of the table; everyone takes a player aid.",
        f"B. Player Colors: {seats}; each takes {b.cubes} cubes, two discs, a wealth and a prestige tile.",
    ]
    if s.bot is not None:
        left_of = s.names[(s.bot - 1) % s.players]
        out.append(f"2-player: the bot plays {s.colours[s.bot]}, as a third seat to {left_of}'s left; "
                   f"set out its {b.cubes} cubes, two discs, wealth and prestige tiles.")
    order = ", ".join(f"{ordinal(i)} {s.names[p]}" for i, p in enumerate(s.status, start=1))
    out += [
        "C. Greenbelt: every greenbelt disc (tree side) on space 0.",
        f"D. Victory track: every wealth and prestige marker on space {b.victory_start}.",
        f"E. Status track, single star up, top to bottom: {order}.",
        f"F. Starting player: hand the six dice to {s.names[s.status[-1]]} (last on the status track).",
        f"G. Favors: stack the {b.favors} Favor tiles in the Favors space.",
        f"H. Time marker: on the start space for {_seats(s)}, {plural(time_start(s), 'space')} before the first "
        f"of the {b.clock_towers} clock towers.",
        "I. Media: the Media tile on the News space.",
        f"J. Masters: the {plural(len(b.masters), 'Master tile')} ({series(b.masters)}) in the Airport.",
        "K. Safe: the Safe tile in the Police & Fire office.",
        f"L. Vocations: put the {sum(b.vocation_counts)} vocation tiles in the bag and draw {b.campus}; "
        "lowest number in the bottom campus space, highest at the top.",
    ]
    drawn = [f"{i} {vocation(b, v)}" for i, v in enumerate(s.campus, start=1) if v is not None]
    if drawn:
        out.append("   Campus now (space: tile): " + ", ".join(drawn) + ".")
    dealt = "each player and the bot" if s.bot is not None and b.bot_legacy else "each player"
    out.append(f"M. Legacy: shuffle the {len(b.legacies)} Legacy tiles face down; {dealt} takes one in secret; "
               + ("one more lies face up on the board (the open Legacy); " if s.bot is not None else "")
               + "the rest go back in the box, unrevealed.")
    if s.open_legacy:
        out.append(f"   Open Legacy: {legacy_name(s.open_legacy)}.")
    sites = ["clock-tower", "greenbelt"] + [f"victory-{v}" for v in b.disaster_victory_spaces]
    out.append(f"N. Disasters: shuffle the {len(b.disasters)} Disaster tiles face down; put one on each of "
               f"{series(disaster_site(b, x) for x in sites)}.")
    return out


def _seats(s: State) -> str:
    if s.bot is not None:
        return "2 players with the bot"
    return f"{s.players} players"
