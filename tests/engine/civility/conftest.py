"""Helpers for Civility tests: a table set up past the first Status card, and a play-through driver."""
import pytest

from companion.engine import find_game
from companion.engine.civility import actions as A
from companion.engine.civility.state import with_city


@pytest.fixture
def game():
    return find_game("civility")


class Table:
    """Applies actions in order and keeps the state; `refused` checks the rule named."""

    def __init__(self, game, players=("Ann", "Bo", "Cy", "Di"), reveal=True, **options):
        self.game = game
        self.state = game.new(players, options)
        if reveal:
            self.do(A.RevealStatus("Trade in 5 Economy and 1 Government", "city"))

    def do(self, *actions):
        for a in actions:
            self.state = self.game.apply(self.state, a)
        return self.state

    def set(self, player, **changes):
        """Put a city in a position the test needs (as the dials would stand at the table)."""
        self.state = with_city(self.state, player, **changes)

    def city(self, player):
        return self.state.city(player)

    def finish_turn(self, player, draw=False):
        """End `player`'s turn, discarding down so that the hand limit holds."""
        extra = self.city(player).hand + (1 if draw else 0) - 4
        if extra > 0:
            self.do(A.Discard(player, extra))
        self.do(A.EndTurn(player, draw))


@pytest.fixture
def table(game):
    return lambda *players, **options: Table(game, players or ("Ann", "Bo", "Cy", "Di"), **options)


@pytest.fixture
def bare(game):
    """Three players, no Status card turned over yet."""
    return lambda **options: Table(game, ("Ann", "Bo", "Cy"), reveal=False, **options)
