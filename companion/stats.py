"""Statistics of finished plays (companion/history.py): per game and per player, and each game's
records. Pure: plays in, numbers out; the screens and the CLI only show them."""
from __future__ import annotations

from dataclasses import dataclass, field

from companion.history import Play


@dataclass
class Tally:
    """One player's (or one game's) plays: wins, scores, seats, minutes."""

    plays: int = 0
    wins: int = 0
    scores: list[int] = field(default_factory=list)
    by_seat: dict[int, list[int]] = field(default_factory=dict)
    minutes: list[int] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.plays if self.plays else 0.0

    @property
    def average(self) -> float | None:
        return sum(self.scores) / len(self.scores) if self.scores else None

    @property
    def best(self) -> int | None:
        return max(self.scores) if self.scores else None

    @property
    def worst(self) -> int | None:
        return min(self.scores) if self.scores else None

    @property
    def average_minutes(self) -> float | None:
        return sum(self.minutes) / len(self.minutes) if self.minutes else None

    def seat_averages(self) -> dict[int, float]:
        """Average score from each seat (seat 0 plays first)."""
        return {seat: sum(s) / len(s) for seat, s in sorted(self.by_seat.items()) if s}


@dataclass(frozen=True)
class Record:
    what: str       # "Highest score", "Closest finish"
    value: str      # "84 points", "by 1 point"
    who: str        # "Ana", "Ana over Ben"
    play_id: int


@dataclass
class GameStats:
    game: str
    overall: Tally = field(default_factory=Tally)
    players: dict[str, Tally] = field(default_factory=dict)
    records: list[Record] = field(default_factory=list)
    # (play's start time, {player: score}) oldest first: the score-over-time chart.
    timeline: list[tuple[float, dict[str, int]]] = field(default_factory=list)


def game_stats(plays: list[Play], game: str, unit: str = "points") -> GameStats:
    """Statistics of `game`'s finished plays."""
    stats = GameStats(game)
    highest: tuple[int, str, int] | None = None
    closest: tuple[int, str, int] | None = None
    for play in sorted((p for p in plays if p.game == game and p.finished), key=lambda p: p.started):
        stats.overall.plays += 1
        stats.overall.minutes.append(play.minutes)
        stats.overall.wins += bool(play.winners)
        scored = {}
        for seat in play.seats:
            tally = stats.players.setdefault(seat.name, Tally())
            tally.plays += 1
            tally.wins += seat.winner
            tally.minutes.append(play.minutes)
            if seat.score is not None:
                tally.scores.append(seat.score)
                tally.by_seat.setdefault(seat.seat, []).append(seat.score)
                stats.overall.scores.append(seat.score)
                stats.overall.by_seat.setdefault(seat.seat, []).append(seat.score)
                scored[seat.name] = seat.score
                if highest is None or seat.score > highest[0]:
                    highest = (seat.score, seat.name, play.id)
        stats.timeline.append((play.started, scored))
        if len(scored) >= 2:
            top = sorted(scored.items(), key=lambda kv: -kv[1])
            margin = top[0][1] - top[1][1]
            if closest is None or margin < closest[0]:
                closest = (margin, f"{top[0][0]} and {top[1][0]}" if margin == 0 else
                           f"{top[0][0]} over {top[1][0]}", play.id)
    if highest is not None:
        stats.records.append(Record("Highest score", f"{highest[0]} {unit}", highest[1], highest[2]))
    if closest is not None:
        value = "a tie" if closest[0] == 0 else f"by {closest[0]} {unit if closest[0] != 1 else unit.rstrip('s')}"
        stats.records.append(Record("Closest finish", value, closest[1], closest[2]))
    return stats


def win_shares(stats: GameStats, most: int = 5) -> list[tuple[str, int]]:
    """(player, wins), most wins first, the `most` winningest and then "others": the win-share bar."""
    ranked = sorted(((name, t.wins) for name, t in stats.players.items() if t.wins), key=lambda kv: (-kv[1], kv[0]))
    if len(ranked) <= most + 1:
        return ranked
    return ranked[:most] + [(f"{len(ranked) - most} others", sum(n for _, n in ranked[most:]))]


def distribution(scores: list[int], bins: int = 8) -> list[tuple[int, int, int]]:
    """(low, high, how many) of `scores` in `bins` equal ranges: a score histogram."""
    if not scores:
        return []
    low, high = min(scores), max(scores)
    width = max(1, -(-(high - low + 1) // bins))
    out = []
    for start in range(low, high + 1, width):
        out.append((start, start + width - 1, sum(1 for s in scores if start <= s < start + width)))
    return out
