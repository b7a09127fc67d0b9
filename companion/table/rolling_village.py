"""Rolling Village at the table: dice for the building and the scoring rolls, squares on each
player's sheet, Avenue choices on a 2 or 12, the advisor's suggestion."""
from __future__ import annotations

from dataclasses import dataclass, replace

from companion.events import Command, TableLight

from . import Draft, GameInput, Outcome, Table, whole, wiring
from . import rolling_village_changes as words


@wiring("rolling-village")
class RollingVillageInput(GameInput):
    """Taps and keys -> roll / build / bonus / activate, in the phase the state is in."""

    # -- what the screen asks the wiring ---------------------------------------------------
    @staticmethod
    def projects_allowed(state, player: str) -> tuple[str, ...]:
        """The Projects `player` may draw next (in the legend's order)."""
        village = state.village(player)
        builds = [o for o in village.owed if o.kind in ("start", "build")]
        if builds:
            if builds[0].kind == "start":
                banned = {o.not_project for o in builds} if all(o.not_project for o in builds) else set()
                return tuple(n for n in state.legend.names if n not in banned)
            wanted = {o.project for o in builds}
            return tuple(n for n in state.legend.names if n in wanted)
        if village.owed:
            return tuple(n for n in state.legend.names if n not in village.bonus_used)
        return ()

    @staticmethod
    def legal_squares(state, player: str, project: str | None) -> list[tuple[int, int]]:
        """Where `project` may go for `player` now: the squares to highlight."""
        from companion.engine.rolling_village import views

        village = state.village(player)
        if project is None or not village.owed:
            return []
        if any(o.kind != "bonus" for o in village.owed):
            return views.legal_squares(state, player, project)
        return views.bonus_squares(state, player) if project not in village.bonus_used else []

    @staticmethod
    def choosing(state, draft: Draft) -> bool:
        """True while the scoring dice entered make each player choose an Avenue (2 or 12)."""
        return (state.phase == "activate" and len(draft.dice) == 2
                and state.sheet.avenue_for_sum(sum(draft.dice)) is None)

    # -- GameInput ---------------------------------------------------------------------------
    def settle(self, table: Table, draft: Draft) -> Draft:
        state = table.state
        players = state.players
        player = draft.player if draft.player in players else players[0]
        project = None
        if state.phase == "build":
            if not state.village(player).owed:
                start = players.index(player)
                ring = players[start:] + players[:start]
                player = next(p for p in ring if state.village(p).owed)
            allowed = self.projects_allowed(state, player)
            project = draft.project if draft.project in allowed else None
            if project is None:
                project = next((p for p in allowed if self.legal_squares(state, player, p)),
                               allowed[0] if allowed else None)
        return Draft(dice=draft.dice, player=player, project=project, choices=draft.choices,
                     correcting=draft.correcting and state.phase == "build")

    def said(self, before, after, action) -> str:
        return words.said(before, after, action)

    def short(self, before, action) -> str:
        return words.short(before, action)

    def undone(self, table: Table, action) -> None:
        player = getattr(action, "player", None)
        if player in table.state.players:  # the sheet the undone build was on comes to the front
            table.draft = self.settle(table, replace(table.draft, player=player, project=None))

    def key(self, table: Table, key: str) -> tuple | None:
        legend = table.state.legend
        for name, title in zip(legend.names, legend.titles):
            if title[:1].lower() == key:
                return ("project", name)
        return None

    def wants_dice(self, table: Table) -> bool:
        return table.state.phase in ("roll", "activate") or table.draft.correcting

    def dice_count(self, table: Table) -> int | None:
        return 2 if self.wants_dice(table) else None

    def dice_entry(self, table: Table) -> int | None:
        from companion.engine.rolling_village import Roll

        actions = table.session.actions
        if table.draft.correcting:   # the building roll being corrected (Table.correct)
            return next((i for i in range(len(actions) - 1, -1, -1) if isinstance(actions[i], Roll)), None)
        return len(actions) if self.wants_dice(table) else None

    def light(self, table: Table) -> TableLight:
        phase = table.state.phase
        if phase in ("roll", "activate") or table.draft.correcting:
            if len(table.draft.dice) == 2:
                return TableLight.NEEDS_CONFIRMATION
            return TableLight.SCORING if phase == "activate" else TableLight.WAITING_FOR_DICE
        return TableLight.IDLE

    def _redraft(self, table: Table, **changes) -> Outcome:
        table.draft = self.settle(table, replace(table.draft, **changes))
        return Outcome()

    def on_die(self, table: Table, value: int) -> Outcome:
        state = table.state
        if not (whole(value) and 1 <= value <= 6):
            return Outcome(info=f"A die shows 1 to 6, not {value!r}.")
        if state.phase not in ("roll", "activate") and not table.draft.correcting:
            return Outcome(info=f"The dice {list(state.dice)} are in: build first, then roll again "
                                "(or tap the rolled dice to correct a misread one).")
        dice = table.draft.dice + (value,) if len(table.draft.dice) < 2 else (value,)
        return self._redraft(table, dice=dice, choices=())

    def on_pad_die(self, table: Table, value: int) -> Outcome:
        """A die tapped on the screen's pad: the second one enters the roll at once (2 taps a roll
        by hand, not 3: the players chose both faces). A correction, a camera reading and a 2 or
        12 to choose Avenues on still wait for the confirm."""
        outcome = self.on_die(table, value)
        draft = table.draft
        if len(draft.dice) == 2 and not draft.correcting and not self.choosing(table.state, draft):
            return self.on_confirm(table)
        return outcome

    def on_dice(self, table: Table, values: tuple[int, ...]) -> Outcome:
        if len(values) != 2:
            return Outcome(info=f"The camera saw {len(values)} dice; Rolling Village rolls 2.")
        if table.state.phase not in ("roll", "activate") and not table.draft.correcting:
            return Outcome(info="Dice were read, but nobody is rolling now: build first.")
        return self._redraft(table, dice=tuple(values), choices=())

    def on_clear(self, table: Table) -> Outcome:
        if table.draft.correcting and not table.draft.dice:
            return self._redraft(table, correcting=False)  # a second clear leaves the correction
        return self._redraft(table, dice=(), choices=())

    def on_correct(self, table: Table) -> Outcome:
        """Enter the building roll again, to correct a misread die (builds made since are kept
        if they still fit the corrected roll)."""
        state = table.state
        if state.phase != "build":
            return Outcome(info="Only the building roll can be corrected this way; undo a scoring roll.")
        table.draft = self.settle(table, replace(table.draft, correcting=True, dice=()))
        return Outcome(info=f"Correcting the roll {list(state.dice)}: tap the two dice as they lie, "
                            "then confirm.")

    def on_player(self, table: Table, name: str) -> Outcome:
        if name not in table.state.players:
            return Outcome(info=f'"{name}" is not playing.')
        return self._redraft(table, player=name, project=None)

    def on_player_step(self, table: Table, step: int) -> Outcome:
        players = table.state.players
        step = step if whole(step) else 1
        index = players.index(table.draft.player) if table.draft.player in players else 0
        return self.on_player(table, players[(index + step) % len(players)])

    def on_project(self, table: Table, name: str) -> Outcome:
        table.draft = replace(table.draft, project=name)
        return Outcome()

    def on_avenue(self, table: Table, player: str, row: int) -> Outcome:
        state = table.state
        if not self.choosing(state, table.draft):
            sums = " or ".join(str(s) for s in state.sheet.choice_sums)
            return Outcome(info=f"Players choose their Avenue only when the scoring roll adds up to "
                                f"{sums} (rule: Scoring Phase).")
        if player not in state.players or not (whole(row) and 1 <= row <= state.sheet.avenues):
            return Outcome(info=f"An Avenue is chosen by a player, 1 to {state.sheet.avenues} from the top.")
        choices = dict(table.draft.choices)
        choices[player] = row
        return self._redraft(table, choices=tuple(sorted(choices.items())), player=player)

    def on_square(self, table: Table, player: str, row: int, street: int) -> Outcome:
        from companion.engine.rolling_village import Bonus, Build

        state = table.state
        if player not in state.players or not (whole(row) and whole(street)):
            return Outcome(info="A square is a player's Avenue and Street, as numbers.")
        if self.choosing(state, table.draft):
            return self.on_avenue(table, player, row)
        if player != table.draft.player and player in state.players:
            self.on_player(table, player)  # a tap on a sheet puts that player's sheet in front
        project = table.draft.project
        village = state.village(player)
        if any(o.kind != "bonus" for o in village.owed):
            # A tap on a square legal only for the other rolled Project builds that one.
            if (row, street) not in self.legal_squares(state, player, project):
                fits = [p for p in self.projects_allowed(state, player)
                        if (row, street) in self.legal_squares(state, player, p)]
                if len(fits) == 1:
                    project = fits[0]
        elif village.owed:
            return table.submit(Bonus(player, project or "", row, street))
        return table.submit(Build(player, project or state.legend.names[0], row, street))

    def on_command(self, table: Table, command: Command) -> Outcome:
        if command is Command.NEXT:
            return self.on_player_step(table, 1)
        return self.on_confirm(table)

    def on_confirm(self, table: Table) -> Outcome:
        from companion.engine.core import pairs
        from companion.engine.rolling_village import Activate, Roll

        state, draft = table.state, table.draft
        if draft.correcting:
            if len(draft.dice) != 2:
                return Outcome(info="Tap the two dice of the corrected roll first.")
            return table.correct(Roll(draft.dice))
        if state.phase == "build":
            return self._build_advised(table)
        if len(draft.dice) != 2:
            return Outcome(info="Tap the two dice first (or press 1-6 twice).")
        if state.phase == "roll":
            outcome = table.submit(Roll(draft.dice))
            if outcome.action is not None:
                # A new building roll: the turn moves, and the sheets start again at the first
                # player (each then stays in front until that player has built).
                table.draft = self.settle(table, replace(table.draft, player=state.players[0], project=None))
            return outcome
        if state.phase == "activate":
            choices = pairs(dict(draft.choices)) if draft.choices and self.choosing(state, draft) else None
            return table.submit(Activate(draft.dice, choices))
        return Outcome(info="The game is over.")

    def _build_advised(self, table: Table) -> Outcome:
        """Confirm while building, for buttons without a touch screen: the first press shows the
        advisor's squares for the player in front, the next builds the first of them."""
        player, advice = table.draft.player, table.advice
        if advice is None or advice.player != player or not advice.squares:
            outcome = self.on_advise(table)
            if table.advice is not None and table.advice.squares:
                outcome.info += " Tap a highlighted square, or confirm to build the first advised one."
            return outcome
        row, street, project = advice.squares[0]
        table.draft = replace(table.draft, project=project)
        return self.on_square(table, player, row, street)

    # -- the advisor, off the main thread (rolling_village_advice) ------------------------------
    def changed(self, table: Table) -> None:
        state, player = table.state, table.draft.player
        if table.background and state.phase == "build" and player and state.village(player).owed:
            self._advisor(table).think(table, player)

    def on_advise(self, table: Table) -> Outcome:
        return self._advisor(table).ask(table, table.draft.player or table.state.players[0])

    def _advisor(self, table: Table):
        from .rolling_village_advice import AdvisorAtTable

        if getattr(self, "_at_table", None) is None:
            self._at_table = AdvisorAtTable(table.advisor or advise_rolling_village, self.choosing)
        self._at_table.advise = table.advisor or advise_rolling_village
        return self._at_table


@dataclass(frozen=True)
class Suggestion:
    """The advisor's suggestion as the screen shows it: a sentence, squares to mark, an Avenue."""

    text: str
    player: str = ""
    squares: tuple[tuple[int, int, str], ...] = ()  # (row, street, project), in building order
    avenue: int | None = None


def advise_rolling_village(state, player: str, draft: Draft | None = None) -> Suggestion:
    """Ask the engine's advisor about `player`'s builds now, or their Avenue on a 2 or 12."""
    from companion.engine.rolling_village import advisor

    if draft is not None and RollingVillageInput.choosing(state, draft):
        row = advisor.choose_avenue(state, player)
        return Suggestion(f"{player}: Activate Avenue {state.sheet.label(row)}, it scores most now.",
                          player, avenue=row)
    if not state.village(player).owed:
        return Suggestion(f"{player} has nothing to build now; the advisor helps with building.", player)
    advice = advisor.advise(state, player)
    steps = [f"{'Bonus ' if a.type == 'bonus' else ''}{state.legend.title(a.project)} at Avenue "
             f"{state.sheet.label(a.row)}, Street {a.street}" for a in advice.actions]
    return Suggestion(f"Advice for {player}: {'; '.join(steps)} (expected final score "
                      f"{advice.expected_final:.0f}).", player,
                      tuple((a.row, a.street, a.project) for a in advice.actions))
