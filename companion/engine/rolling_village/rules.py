"""The Rolling Village rules: Start Phase, building with the die swap, Bonus Projects, scoring.

Players build at the same time at a real table, so builds arrive in any order; the scoring roll
waits until everybody has built what they owe this turn.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Any, Mapping

from ..core import (
    Game, GameOver, IllegalAction, MalformedAction, OutOfTurn, Prompt, pairs, register,
)
from ..dice import check_pips
from .scoring import activate, best_avenue
from .sheet import default_legend, default_sheet, legend_from_dict, sheet_from_dict
from .state import (
    BONUS_TURNS, TURNS, Activate, Bonus, Build, Owed, Roll, Village, VillageState, describe_owed,
    empty_grid, empty_squares, join_phrases, place, street_full,
)


def _dice(dice: tuple[int, ...], what: str) -> tuple[int, int]:
    try:
        return check_pips(dice, 2, what)
    except ValueError as exc:
        raise IllegalAction(f"{exc} (rule: Components)", rule="Components") from None


@register
class RollingVillage(Game):
    name = "rolling-village"
    title = "Rolling Village"
    min_players = 1
    max_players = 12
    actions = (Roll, Build, Bonus, Activate)
    options = ("sheet", "projects")

    # -- set-up ---------------------------------------------------------------------------
    def new(self, players: tuple[str, ...], options: Mapping[str, Any] | None = None) -> VillageState:
        names = self.check_players(players)
        options = self.check_options(options)
        sheet = default_sheet()
        legend = default_legend()
        if options.get("sheet") is not None:
            sheet = sheet_from_dict(options["sheet"], 'the log header\'s "sheet"')
        if options.get("projects") is not None:
            legend = legend_from_dict(options["projects"], 'the log header\'s "projects"')
        grid = empty_grid(sheet)
        return VillageState(sheet, legend, tuple(Village(n, grid) for n in names))

    def is_chance(self, action) -> bool:
        return isinstance(action, (Roll, Activate))

    def finished(self, state: VillageState) -> bool:
        return state.over

    # -- play -----------------------------------------------------------------------------
    def apply(self, state: VillageState, action) -> VillageState:
        if state.over:
            raise GameOver(f"The game ended after turn {TURNS}; nothing more can be entered "
                           "(rule: End of the Game).", rule="End of the Game")
        if isinstance(action, Roll):
            return self._roll(state, action)
        if isinstance(action, Build):
            return self._build(state, action)
        if isinstance(action, Bonus):
            return self._bonus(state, action)
        if isinstance(action, Activate):
            return self._activate(state, action)
        raise MalformedAction(f"{action!r} is not an action of Rolling Village.", field="type")

    def _pending(self, state: VillageState) -> str:
        return "; ".join(
            f"{v.name} still has to build {join_phrases([describe_owed(o, state.legend) for o in v.owed])}"
            for v in state.villages if v.owed)

    def _roll(self, state: VillageState, action: Roll) -> VillageState:
        if state.phase == "build":
            raise OutOfTurn(f"Everybody builds before the next roll: {self._pending(state)} "
                            "(rule: Building Phase).", rule="Building Phase")
        if state.phase == "activate":
            raise OutOfTurn(f"Turn {state.turn} is built: now roll to Activate an Avenue, not for "
                            "new Streets (rule: Scoring Phase).", rule="Scoring Phase")
        a, b = _dice(action.dice, "building roll")
        if state.turn == 0:
            owed = (Owed("start", a), Owed("start", b))
        else:
            # Die swap: each die's Project goes in the Street the other die shows.
            owed = (Owed("build", b, state.legend.project_for_die(a)),
                    Owed("build", a, state.legend.project_for_die(b)))
            if state.turn in BONUS_TURNS:
                owed += (Owed("bonus"),)
        return replace(state, dice=(a, b),
                       villages=tuple(replace(v, owed=owed) for v in state.villages))

    def _check_square(self, state: VillageState, action, village: Village) -> None:
        legend, sheet = state.legend, state.sheet
        if action.project not in legend.names:
            known = ", ".join(f'"{n}"' for n in legend.names)
            raise IllegalAction(f'"{action.project}" is not a Project; the Projects are {known} '
                                "(rule: Projects! Legend).", rule="Projects! Legend")
        if not (1 <= action.row <= sheet.avenues and 1 <= action.street <= sheet.streets):
            raise IllegalAction(f"There is no square at Avenue {action.row}, Street {action.street}: "
                                f"Avenues are 1-{sheet.avenues} from the top and Streets 1-"
                                f"{sheet.streets} (rule: Village Grid).", rule="Village Grid")
        here = village.grid[action.row - 1][action.street - 1]
        if here is not None:
            raise IllegalAction(f"{village.name} already has a {legend.title(here)} at Avenue "
                                f"{action.row}, Street {action.street}; build only on empty squares "
                                "(rule: Village Grid).", rule="Village Grid")

    def _village_owing(self, state: VillageState, player: str) -> Village:
        try:
            village = state.village(player)
        except KeyError:
            raise IllegalAction(f'"{player}" is not playing; the players are '
                                f"{join_phrases(list(state.players))} (rule: Players).",
                                rule="Players") from None
        if state.phase == "roll":
            raise OutOfTurn("Roll the dice first: they say which Streets to build in "
                            "(rule: Building Phase).", rule="Building Phase")
        if not village.owed:
            raise OutOfTurn(f"{player} has built everything this turn; next comes "
                            f"{'the scoring roll' if state.phase == 'activate' else 'the others'} "
                            "(rule: Building Phase).", rule="Building Phase")
        return village

    def _build(self, state: VillageState, action: Build) -> VillageState:
        village = self._village_owing(state, action.player)
        self._check_square(state, action, village)
        builds = [o for o in village.owed if o.kind in ("start", "build")]
        if not builds:
            raise OutOfTurn(f"{action.player} has built the rolled Projects; what is left is the "
                            "Bonus Project (rule: Bonus Project).", rule="Bonus Project")
        owed = self._match_build(state, village, action, builds)
        rest = list(village.owed)
        rest.remove(owed)
        if owed.kind == "start":
            # The two start Projects must differ: the other one may no longer be this type.
            rest = [replace(o, not_project=action.project) if o.kind == "start" else o for o in rest]
        village = replace(village, grid=place(village.grid, action.row, action.street, action.project),
                          owed=tuple(rest))
        state = state.with_village(village)
        if state.turn == 0 and state.phase == "activate":
            # The Start Phase has no scoring: once all have built, turn 1 begins with a roll.
            state = replace(state, turn=1, dice=None, last_dice=state.dice)
        return state

    def _match_build(self, state, village, action, builds) -> Owed:
        legend, grid = state.legend, village.grid
        fits = lambda o: o.street == action.street or street_full(grid, o.street)  # noqa: E731
        if builds[0].kind == "start":
            streets = join_phrases(sorted({f"Street {o.street}" for o in builds}))
            candidates = [o for o in builds if fits(o)]
            if not candidates:
                raise IllegalAction(f"The Start roll {list(state.dice)} calls for {streets}; Street "
                                    f"{action.street} was not rolled (rule: Start Phase).",
                                    rule="Start Phase")
            allowed = [o for o in candidates if o.not_project != action.project]
            if not allowed:
                raise IllegalAction(f"{village.name} already built a {legend.title(action.project)} "
                                    "at the start: the two start Projects must be different "
                                    "(rule: Start Phase).", rule="Start Phase")
            return next((o for o in allowed if o.street == action.street), allowed[0])
        same = [o for o in builds if o.project == action.project]
        exact = [o for o in same if o.street == action.street]
        if exact:
            return exact[0]
        freed = [o for o in same if street_full(grid, o.street)]
        if freed:
            return freed[0]
        wanted = join_phrases([describe_owed(o, legend) for o in builds])
        title = legend.title(action.project)
        if same and action.street not in state.dice:
            street = same[0].street
            raise IllegalAction(f"Street {street} still has empty squares: a {title} goes elsewhere "
                                "only when its Street is full (rule: Full Street).", rule="Full Street")
        raise IllegalAction(f"The roll {list(state.dice)} means {village.name} builds {wanted}: each "
                            "die's Project goes in the Street of the other die (rule: Die swap).",
                            rule="Die swap")

    def _bonus(self, state: VillageState, action: Bonus) -> VillageState:
        village = self._village_owing(state, action.player)
        self._check_square(state, action, village)
        if not any(o.kind == "bonus" for o in village.owed):
            raise OutOfTurn(f"Bonus Projects are built on turns {join_phrases([str(t) for t in BONUS_TURNS])} "
                            "only, once each, not now (rule: Bonus Project).", rule="Bonus Project")
        if any(o.kind != "bonus" for o in village.owed):
            raise OutOfTurn(f"{action.player} builds the rolled Projects first; the Bonus Project comes "
                            "just before scoring (rule: Bonus Project).", rule="Bonus Project")
        if action.project in village.bonus_used:
            left = [t for n, t in zip(state.legend.names, state.legend.titles) if n not in village.bonus_used]
            raise IllegalAction(f"{action.player} has already used the {state.legend.title(action.project)} "
                                "Bonus; each Project type is a Bonus only once (left: "
                                f"{join_phrases(left)}) (rule: Bonus Project).", rule="Bonus Project")
        village = replace(village, grid=place(village.grid, action.row, action.street, action.project),
                          owed=(), bonus_used=village.bonus_used + (action.project,))
        return state.with_village(village)

    def _activate(self, state: VillageState, action: Activate) -> VillageState:
        if state.phase == "roll":
            raise OutOfTurn(f"Turn {state.turn} starts with the building roll; Activation comes after "
                            "building (rule: Scoring Phase).", rule="Scoring Phase")
        if state.phase == "build":
            only_bonus = all(o.kind == "bonus" for v in state.villages for o in v.owed)
            rule = "Bonus Project" if only_bonus else "Building Phase"
            raise OutOfTurn(f"No scoring yet: {self._pending(state)} (rule: {rule}).", rule=rule)
        a, b = _dice(action.dice, "scoring roll")
        row = state.sheet.avenue_for_sum(a + b)
        choices = dict(action.choices or ())
        if choices and row is not None:
            raise IllegalAction(f"A sum of {a + b} Activates Avenue {state.sheet.label(row)} for "
                                "everybody; players choose an Avenue only on "
                                f"{join_phrases([str(s) for s in state.sheet.choice_sums])} "
                                "(rule: Scoring Phase).", rule="Scoring Phase")
        for name, chosen in choices.items():
            if name not in state.players:
                raise MalformedAction(f'The choice for "{name}": no such player (players: '
                                      f"{join_phrases(list(state.players))}).", field="choices")
            if isinstance(chosen, bool) or not isinstance(chosen, int) or not 1 <= chosen <= state.sheet.avenues:
                raise MalformedAction(f"{name}'s choice must be an Avenue from 1 to "
                                      f"{state.sheet.avenues}, not {chosen!r}.", field="choices")
        villages, lit = [], []
        for v in state.villages:
            if row is None:
                result = activate(v.grid, state.sheet, choices.get(v.name) or best_avenue(v.grid, state.sheet),
                                  chosen=True)
            else:
                result = activate(v.grid, state.sheet, row)
            lit.append(result)
            villages.append(replace(v, turn_scores=v.turn_scores + (result.score,)))
        return replace(state, villages=tuple(villages), turn=min(state.turn + 1, TURNS), dice=None,
                       last_dice=(a, b), last_activation=tuple(lit))

    # -- enumeration ----------------------------------------------------------------------
    def legal_actions(self, state: VillageState) -> list:
        """Every legal action. On a choice sum (2 or 12) the activations listed are: no choices
        (everyone takes their best Avenue) plus, per player, each Avenue chosen by that player
        alone, instead of every combination (Avenues ** players can be 5 ** 12)."""
        phase = state.phase
        dice = [(a, b) for a in range(1, 7) for b in range(1, 7)]
        if phase == "roll":
            return [Roll((a, b)) for a, b in dice]
        if phase == "activate":
            out = []
            for a, b in dice:
                out.append(Activate((a, b)))
                if state.sheet.avenue_for_sum(a + b) is None:
                    out += [Activate((a, b), pairs({p: r})) for p in state.players
                            for r in range(1, state.sheet.avenues + 1)]
            return out
        if phase == "build":
            return [act for v in state.villages for act in self.player_actions(state, v.name)]
        return []

    def player_actions(self, state: VillageState, player: str) -> list:
        """The builds (or the Bonus) `player` may make now."""
        village = state.village(player)
        out = []
        if any(o.kind != "bonus" for o in village.owed):
            for project in state.legend.names:
                for row, street in legal_squares(state, player, project):
                    out.append(Build(player, project, row, street))
        elif village.owed:
            for project in state.legend.names:
                if project not in village.bonus_used:
                    out += [Bonus(player, project, r, s) for r, s in empty_squares(village.grid)]
        return out

    # -- screens --------------------------------------------------------------------------
    def prompt(self, state: VillageState) -> Prompt:
        phase = state.phase
        if phase == "over":
            summary = self.summary(state)
            top = [n for n, p in zip(summary["ranking"], summary["places"]) if p == 1]
            best = max(v.score for v in state.villages)
            verb = "wins" if len(top) == 1 else "tie for first place"
            return Prompt("over", f"The game is over: {join_phrases(top)} {verb} with {best} points.")
        if phase == "roll":
            what = "the Start roll: two Streets" if state.turn == 0 else f"turn {state.turn}: Streets and Projects"
            return Prompt("roll", f"Roll the dice for {what}.")
        if phase == "activate":
            return Prompt("activate", f"Turn {state.turn}: roll to Activate an Avenue.")
        waiting = [v for v in state.villages if v.owed]
        first = waiting[0]
        owed = tuple(describe_owed(o, state.legend) for o in first.owed)
        return Prompt("build", f"{first.name}: build {join_phrases(list(owed))}.", first.name, owed)

    def summary(self, state: VillageState) -> dict:
        ranked = sorted(state.villages, key=lambda v: -v.score)
        place_of: dict[str, int] = {}
        for index, v in enumerate(ranked):
            if index and v.score == ranked[index - 1].score:
                place_of[v.name] = place_of[ranked[index - 1].name]
            else:
                place_of[v.name] = index + 1
        return {
            "game": self.name,
            "finished": state.over,
            "turn": state.turn,
            "players": [{"name": v.name, "score": v.score, "turn_scores": list(v.turn_scores),
                         "place": place_of[v.name], "bonus_used": list(v.bonus_used)}
                        for v in state.villages],
            "ranking": [v.name for v in ranked],
            "places": [place_of[v.name] for v in ranked],  # aligned with "ranking"
        }


def legal_squares(state: VillageState, player: str, project: str) -> list[tuple[int, int]]:
    """The squares where `player` may build `project` now (for a rolled or start Project)."""
    village = state.village(player)
    grid = village.grid
    builds = [o for o in village.owed if o.kind in ("start", "build")]
    streets: set[int] = set()
    anywhere = False
    for o in builds:
        if o.kind == "start" and o.not_project == project:
            continue
        if o.kind == "build" and o.project != project:
            continue
        if street_full(grid, o.street):
            anywhere = True
        streets.add(o.street)
    return [(r, s) for r, s in empty_squares(grid) if anywhere or s in streets]


__all__ = ["RollingVillage", "legal_squares"]
