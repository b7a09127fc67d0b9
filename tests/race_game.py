"""A tiny dice race used to test the shared machinery (session, store, log) apart from any real game.

Each turn a player rolls one die (a chance entry) and then moves that many steps, or rests (moves 0).
First to reach the goal wins. It is a real Game: the session and store treat it like any other.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from companion.engine.core import Action, Game, GameOver, IllegalAction, OutOfTurn, Prompt, register


@dataclass(frozen=True)
class Roll(Action):
    type = "roll"
    die: int


@dataclass(frozen=True)
class Move(Action):
    type = "move"
    player: str
    steps: int


@dataclass(frozen=True)
class RaceState:
    players: tuple[str, ...]
    positions: tuple[int, ...]
    turn: int = 0
    rolled: int | None = None
    goal: int = 10


@register
class Race(Game):
    name = "test-race"
    title = "Test Race"
    min_players, max_players = 1, 4
    actions = (Roll, Move)

    def new(self, players, options=None):
        players = self.check_players(players)
        return RaceState(players, (0,) * len(players), goal=int((options or {}).get("goal", 10)))

    def current(self, state):
        return state.players[state.turn % len(state.players)]

    def apply(self, state, action):
        if self.finished(state):
            raise GameOver("The race is over.", rule="Goal")
        if isinstance(action, Roll):
            if state.rolled is not None:
                raise IllegalAction("The die was already rolled this turn.", rule="One roll")
            if not 1 <= action.die <= 6:
                raise IllegalAction(f"A die shows 1 to 6, not {action.die}.", rule="Dice")
            return replace(state, rolled=action.die)
        if state.rolled is None:
            raise OutOfTurn("Roll the die first.", rule="One roll")
        if action.player != self.current(state):
            raise OutOfTurn(f"It is {self.current(state)}'s turn.", rule="Turn order")
        if action.steps not in (0, state.rolled):
            raise IllegalAction(f"Move {state.rolled} steps or rest.", rule="Movement")
        i = state.players.index(action.player)
        positions = list(state.positions)
        positions[i] = min(state.goal, positions[i] + action.steps)
        return replace(state, positions=tuple(positions), turn=state.turn + 1, rolled=None)

    def legal_actions(self, state):
        if self.finished(state):
            return []
        if state.rolled is None:
            return [Roll(d) for d in range(1, 7)]
        return [Move(self.current(state), s) for s in {0, state.rolled}]

    def prompt(self, state):
        if state.rolled is None:
            return Prompt("roll", "Roll the die.")
        return Prompt("move", f"{self.current(state)} moves.", self.current(state))

    def finished(self, state):
        return state.goal in state.positions

    def is_chance(self, action):
        return isinstance(action, Roll)

    def summary(self, state):
        order = sorted(state.players, key=lambda p: -state.positions[state.players.index(p)])
        return {"game": self.name, "finished": self.finished(state), "turn": state.turn,
                "players": [{"name": p, "score": s} for p, s in zip(state.players, state.positions)],
                "ranking": order}
