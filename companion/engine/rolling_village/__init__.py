"""Rolling Village: a roll-and-write of Houses, Forests and Lakes on a 5 x 6 Village Grid.

Importing this package registers the game as "rolling-village" (see companion.engine.core).
"""
from .rules import RollingVillage, legal_squares  # noqa: F401
from .scoring import Activation, activate, avenue_scores, best_avenue, expected_score, networks  # noqa: F401
from .sheet import (  # noqa: F401
    Legend, Sheet, SheetError, default_legend, default_sheet, legend_from_dict, legend_from_toml,
    sheet_from_dict, sheet_from_toml,
)
from .state import Activate, Bonus, Build, Owed, Roll, Village, VillageState  # noqa: F401
from .views import grid, last_activation, subtotals  # noqa: F401
