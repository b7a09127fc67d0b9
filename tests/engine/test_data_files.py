"""The shipped data files (board.toml, dice.toml, Civility's tables, the board's tap areas, the
dice colours) are read like a player's file: a damaged copy is a DataFileError naming its file,
its key and, where the damage is in the text, its line, never a RecursionError or a ValueError
from tomllib. Each reader is fed the shipped file's own text with one value damaged."""
from importlib import resources
from pathlib import Path

import pytest

from companion.engine.centerville.board import DEFAULT_PATH, parse_board
from companion.engine.centerville.dice import dice_from_toml
from companion.engine.civility.tables import read_toml
from companion.engine.core import DataFileError
from companion.ui.widgets.centerville_areas import PATH as AREAS_PATH
from companion.ui.widgets.centerville_areas import parse_areas
from vision.colours import references_from_toml

ROOT = Path(__file__).resolve().parents[2]
BOARD = (ROOT / DEFAULT_PATH).read_text(encoding="utf-8")
DICE = (ROOT / "companion/engine/centerville/data/dice.toml").read_text(encoding="utf-8")
COLOURS = (ROOT / "vision/data/centerville_colours.toml").read_text(encoding="utf-8")
AREAS = (ROOT / AREAS_PATH).read_text(encoding="utf-8")


def line_of(text, start):
    return next(n for n, line in enumerate(text.split("\n"), 1) if line.startswith(start))


@pytest.mark.parametrize("value,problem", [
    ("[" * 5000 + "]" * 5000, "river.north: nested deeper than 32 levels."),
    ("9" * 5000, "river.north: a number of more than 30 digits."),
])
def test_a_deep_or_huge_value_in_board_toml_names_file_key_and_line(value, problem):
    text = BOARD.replace("\nnorth = 3\n", f"\nnorth = {value}\n", 1)
    with pytest.raises(DataFileError) as refused:
        parse_board(text, DEFAULT_PATH)
    line = line_of(text, "north = " + value[:3])
    assert str(refused.value) == f"{DEFAULT_PATH}: line {line}: {problem}"
    assert refused.value.path == DEFAULT_PATH and refused.value.key == "river.north"


def test_a_byte_that_is_not_utf8_in_board_toml_names_its_line():
    data = BOARD.encode("utf-8").replace(b"\nnorth = 3\n", b"\nnorth = \xff3\n", 1)
    with pytest.raises(DataFileError, match=rf"^{DEFAULT_PATH}: line {line_of(BOARD, 'north = 3')}: not UTF-8"):
        parse_board(data, DEFAULT_PATH)


def test_dice_toml_that_is_not_toml_names_file_and_line():
    with pytest.raises(DataFileError, match=r"dice\.toml: not valid TOML \(.*line 7"):
        dice_from_toml(DICE.replace('red = ["vote"', 'red = ["vote" 3', 1))


def test_dice_toml_with_a_wrong_icon_names_its_key():
    with pytest.raises(DataFileError, match=r'dice\.toml: faces\.red: "cake" is not an icon'):
        dice_from_toml(DICE.replace('red = ["vote"', 'red = ["cake"', 1))


@pytest.mark.parametrize("damage,key,words", [
    (("[colours]\nred = [45, 40, 195]", "colours = [1, 2]\n[shades]\nred = [45, 40, 195]"), "colours",
     "must be an object"),
    (("red = [45, 40, 195]", 'red = [45, "40", 195]'), "colours.red[1]", "must be a number, not '40'."),
    (("red = [45, 40, 195]", "red = [45, 40]"), "colours.red", "must be [B, G, R], 0..255."),
    (("red = [45, 40, 195]", "red = [45, 40, 295]"), "colours.red", "must be [B, G, R], 0..255."),
    (("red = [45, 40, 195]", "red = [45, 40, " + "1" * 5000 + "]"), "colours.red", "more than 30 digits"),
])
def test_a_damaged_colours_file_names_file_and_key(damage, key, words):
    text = COLOURS.replace(*damage, 1)
    assert text != COLOURS
    with pytest.raises(DataFileError) as refused:
        references_from_toml(text)
    assert refused.value.path == "vision/data/centerville_colours.toml" and refused.value.key == key
    assert words in str(refused.value), str(refused.value)


def test_a_deep_value_in_the_areas_file_names_file_key_and_line():
    text = AREAS.replace("[[area]]\n", "[[area]]\nrule_extra = " + "[" * 3000 + "]" * 3000 + "\n", 1)
    with pytest.raises(DataFileError) as refused:
        parse_areas(text)
    assert str(refused.value).startswith(f"{AREAS_PATH}: line ") and "area.rule_extra: nested deeper" in str(refused.value)


@pytest.mark.parametrize("name", ["cities.toml", "events.toml", "ring.toml", "status.toml"])
def test_every_civility_table_is_read_through_the_same_checks(name):
    data = read_toml(name)
    assert isinstance(data, dict) and data
    assert resources.files("companion.engine.civility").joinpath("data", name).is_file()
