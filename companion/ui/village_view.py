"""What the Rolling Village screen shows, computed from the state and the draft (no widgets here):
the sentences, the sheet's highlights, each player's progress."""
from __future__ import annotations

from companion.engine.rolling_village import avenue_scores, views
from companion.engine.rolling_village.state import BONUS_TURNS, TURNS
from companion.table import Draft
from companion.table.rolling_village import RollingVillageInput as RV

from .widgets.sheet import SheetView


def headline(state) -> str:
    """The top bar: where the game stands."""
    phase = state.phase
    if phase == "over":
        return "Game over"
    if state.turn == 0:
        return "Start Phase: two Projects each" if phase == "build" else "Start Phase: roll for two Streets"
    # The rulebook's phases: Building Phase (roll, then build), Bonus Build Phase, Scoring Phase.
    bonus = state.turn in BONUS_TURNS and phase == "build" and any(
        o.kind == "bonus" for v in state.villages for o in v.owed)
    what = {"roll": "Building Phase, roll", "build": "Bonus Build Phase" if bonus else "Building Phase",
            "activate": "Scoring Phase"}[phase]
    return f"Turn {state.turn} of {TURNS}: {what}"


def roll_meaning(state, dice: tuple[int, ...]) -> str:
    """What the dice entered (or rolled) mean, in the sheet's words."""
    if len(dice) < 2:
        return "Tap the two dice as they lie, first die then second: the second enters the roll."
    a, b = dice
    legend = state.legend
    if state.phase == "activate":
        row = state.sheet.avenue_for_sum(a + b)
        if row is None:
            return f"{a} + {b} = {a + b}: each player chooses an Avenue. Tap an Avenue label on each sheet."
        return f"{a} + {b} = {a + b}: Avenue {state.sheet.label(row)} is Activated for everybody."
    if state.turn == 0:
        streets = f"Street {a}" if a == b else f"Streets {a} and {b}"
        return f"{streets}: each player builds two different Projects there."
    return (f"{legend.title(legend.project_for_die(a))} in Street {b}, "
            f"{legend.title(legend.project_for_die(b))} in Street {a}.")


def owed_phrase(village, legend) -> str:
    """What one player still builds this turn, short: "a House in Street 2 and the Bonus Project"."""
    from companion.engine.rolling_village.state import describe_owed, join_phrases

    parts = []
    starts = [o for o in village.owed if o.kind == "start"]
    if len(starts) == 2:
        streets = sorted({o.street for o in starts})
        where = f"Street {streets[0]}" if len(streets) == 1 else f"Streets {streets[0]} and {streets[1]}"
        parts.append(f"two different Projects in {where}")
    elif starts:
        o = starts[0]
        parts.append(f"a Project in Street {o.street}" + (f" (not a {legend.title(o.not_project)})"
                                                            if o.not_project else ""))
    parts += ["the Bonus Project" if o.kind == "bonus" else describe_owed(o, legend)
              for o in village.owed if o.kind != "start"]
    return join_phrases(parts)


def progress(state) -> list[tuple[str, str]]:
    """(who, what they still build) for the build phase's checklist: players owing the same
    thing share a line; those done come last as "done"."""
    groups: dict[str, list[str]] = {}
    done = []
    for village in state.villages:
        if village.owed:
            groups.setdefault(owed_phrase(village, state.legend), []).append(village.name)
        else:
            done.append(village.name)
    lines = [(", ".join(names), what) for what, names in groups.items()]
    if done:
        lines.append((", ".join(done), "done"))
    return lines


def scored_line(state) -> str:
    """After a scoring roll: the Avenue and each player's points for that turn."""
    if not state.last_activation or state.last_dice is None:
        return ""
    a, b = state.last_dice
    parts = []
    for name, result in zip(state.players, state.last_activation):
        chosen = f" ({state.sheet.label(result.row)})" if result.chosen else ""
        parts.append(f"{name} +{result.score}{chosen}")
    row = state.sheet.avenue_for_sum(a + b)
    where = f"Avenue {state.sheet.label(row)}" if row else "each player's own Avenue"
    turn = len(state.villages[0].turn_scores)
    return f"Turn {turn} scored on {a} + {b} = {a + b}, {where}: " + ", ".join(parts) + "."


def sheet_view(state, draft: Draft, player: str, advice=None) -> SheetView:
    """The sheet of `player`: highlights for the Project picked, the last Activation, choices."""
    village = state.village(player)
    phase = state.phase
    legal = frozenset(RV.legal_squares(state, player, draft.project)) if phase == "build" else frozenset()
    lit, activated = frozenset(), None
    last = views.last_activation(state, player)
    if last is not None and phase in ("roll", "over"):
        lit, activated = last.squares, last.row
    choosing = RV.choosing(state, draft)
    scores = avenue_scores(village.grid, state.sheet) if choosing else ()
    chosen = draft.choice(player)
    if choosing and chosen is None:
        chosen = scores.index(max(scores)) + 1  # the engine's default: the Avenue scoring most
    mine = advice is not None and getattr(advice, "player", None) == player
    return SheetView(
        labels=state.sheet.labels, points=state.sheet.points, grid=village.grid, names=state.legend.names,
        legal=legal, lit=frozenset(lit), activated=activated, choosing=choosing, chosen=chosen,
        avenue_scores=tuple(scores), advice=tuple(advice.squares) if mine else (),
        advice_avenue=advice.avenue if mine else None,
    )


def choice_lines(state, draft: Draft) -> str:
    """On a 2 or 12: each player's Avenue so far (the best one unless they tapped another)."""
    lines = []
    for village in state.villages:
        scores = avenue_scores(village.grid, state.sheet)
        chosen = draft.choice(village.name)
        row = chosen or scores.index(max(scores)) + 1
        how = "chosen" if chosen else "best, unless changed"
        lines.append(f"{village.name}: Avenue {state.sheet.label(row)} = {scores[row - 1]} pts ({how})")
    return "\n".join(lines)
