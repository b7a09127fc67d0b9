"""Pure game rules. No I/O, no clock, no global random, no Kivy, cv2, gpiozero, serial or sqlite3."""
from .core import (  # noqa: F401
    Action, DataFileError, Game, GameOver, IllegalAction, MalformedAction, OutOfTurn, Pairs,
    Prompt, RulesError, SetupError, all_games, find_game, pairs, register,
)
