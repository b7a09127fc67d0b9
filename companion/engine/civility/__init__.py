"""Civility: city dials, the Action Ring, armies and bridges, battles, status and World Events.

Importing this package registers the game as "civility" (see companion.engine.core). The cards
stay on the table: hands are counts, and chance (dice, Status cards, World Events) is entered.
"""
from . import actions  # noqa: F401
from .cities import CITIES, seat_cities  # noqa: F401
from .rules import Civility, ranking  # noqa: F401
from .state import HOME, Battle, CivState, City, Event, StatusCard  # noqa: F401
from .tables import BOOK, DEPARTMENTS  # noqa: F401
