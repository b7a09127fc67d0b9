"""Helpers for the Rolling Village tests: build a game by entering actions, as at the table."""
from dataclasses import replace

from companion.engine import find_game, pairs
from companion.engine.rolling_village import Activate, Bonus, Build, Roll


class Table:
    """A game at a table: `do` enters actions (real rules), `state` is where it stands."""

    def __init__(self, players=("Ann",), options=None):
        self.game = find_game("rolling-village")
        self.state = self.game.new(tuple(players), options)

    def do(self, *actions):
        for action in actions:
            self.state = self.game.apply(self.state, action)
        return self.state

    def roll(self, a, b):
        return self.do(Roll((a, b)))

    def build(self, player, project, row, street):
        return self.do(Build(player, project, row, street))

    def bonus(self, player, project, row, street):
        return self.do(Bonus(player, project, row, street))

    def activate(self, a, b, choices=None):
        return self.do(Activate((a, b), pairs(choices) if choices else None))

    def start(self, player="Ann", first=("house", 1, 1), second=("forest", 1, 2), dice=(1, 2)):
        """The Start roll and one player's two start Projects (others' are left owed)."""
        self.roll(*dice)
        self.build(player, *first)
        self.build(player, *second)

    def with_grid(self, player, rows):
        """Put a hand-drawn grid on `player`'s sheet ('H', 'F', 'L', '.' per square)."""
        names = {"H": "house", "F": "forest", "L": "lake", ".": None}
        grid = tuple(tuple(names[c] for c in line.split()) for line in rows)
        village = replace(self.state.village(player), grid=grid)
        self.state = self.state.with_village(village)
        return self.state
