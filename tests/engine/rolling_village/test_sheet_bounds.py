"""A player's sheet file past the bounds every reader keeps (companion/engine/edge.py): a clean
SheetError naming the key and its line, never RecursionError or int()'s ValueError."""
import pytest

from companion.engine.rolling_village.sheet import SheetError, sheet_from_toml


@pytest.mark.parametrize("text,line,words", [
    ("choice_sums = " + "[" * 5000 + "]" * 5000, 1, "choice_sums: nested deeper than 32 levels."),
    ("# a comment\n\nchoice_sums = " + "9" * 5000, 3, "choice_sums: a number of more than 30 digits."),
    ("[[avenue]]\npoints = [\n" + "[\n" * 40 + "]\n" * 40 + "]\n", 2, "avenue.points: nested deeper than 32 levels."),
    ("choice_sums = [[[\n", 1, "choice_sums: an array or inline table that is never closed."),
])
def test_a_sheet_past_the_bounds_is_refused_naming_key_and_line(text, line, words):
    with pytest.raises(SheetError) as caught:
        sheet_from_toml(text, "sheets/big.toml")
    assert caught.value.line == line
    assert str(caught.value) == f"sheets/big.toml: line {line}: {words}"
