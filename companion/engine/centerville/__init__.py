"""Welcome to Centerville: the rules engine (board data, turns, spending, scoring, the bot)."""
from .game import Centerville

__all__ = ["Centerville"]
