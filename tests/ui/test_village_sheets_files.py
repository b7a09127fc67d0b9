"""companion/ui/village_sheets.py without a window: which files are offered, what a good file puts
in the header (and that a stored game keeps it), and that every bad file is a SheetError naming
the file, the key and the line. Also: docs/village-sheets.md's examples are valid files."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from companion.engine.rolling_village import (SheetError, default_legend, default_sheet, legend_from_toml,
                                              sheet_from_toml)
from companion.session import Session
from companion.store import Store
from companion.ui import village_sheets as vs

DOC = Path(__file__).resolve().parents[2] / "docs" / "village-sheets.md"
PRINTED = (Path(__file__).resolve().parents[2] / "companion" / "engine" / "rolling_village" / "data"
           / "sheet.toml").read_text("utf-8")


def doc_examples() -> list[str]:
    return re.findall(r"```toml\n(.*?)```", DOC.read_text("utf-8"), re.S)


def put(folder: Path, name: str, text: str | bytes) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def test_the_default_comes_first_then_the_toml_files_by_name(tmp_path):
    assert vs.choices(tmp_path, vs.SHEETS) == [vs.Choice(vs.DEFAULT_SHEET)]  # no folder yet
    put(tmp_path / "sheets", "zoo.toml", PRINTED)
    put(tmp_path / "sheets", "attic.toml", PRINTED)
    put(tmp_path / "sheets", "notes.txt", "not a sheet")
    (tmp_path / "sheets" / "folder.toml").mkdir()
    offered = vs.choices(tmp_path, vs.SHEETS)
    assert [c.title for c in offered] == [vs.DEFAULT_SHEET, "attic", "zoo"]
    assert offered[1].path == tmp_path / "sheets" / "attic.toml"
    assert [c.title for c in vs.choices(tmp_path, vs.LEGENDS)] == [vs.DEFAULT_LEGEND]


def test_the_defaults_add_nothing_to_the_header():
    assert vs.village_options(vs.Choice(vs.DEFAULT_SHEET), vs.Choice(vs.DEFAULT_LEGEND)) == {}


def test_the_documented_examples_are_valid_and_differ_from_the_printed_ones():
    sheet_text, legend_text = doc_examples()
    sheet, legend = sheet_from_toml(sheet_text, "doc"), legend_from_toml(legend_text, "doc")
    assert sheet.points != default_sheet().points and sheet.labels != default_sheet().labels
    assert legend.faces != default_legend().faces


def test_a_good_file_goes_into_the_header_and_a_stored_game_keeps_it(tmp_path):
    sheet_text, legend_text = doc_examples()
    sheet = vs.Choice("market-day", put(tmp_path / "sheets", "market-day.toml", sheet_text))
    legend = vs.Choice("cottages", put(tmp_path / "legends", "cottages.toml", legend_text))
    options = vs.village_options(sheet, legend)
    assert options == {"sheet": sheet_from_toml(sheet_text).to_dict(),
                       "projects": legend_from_toml(legend_text).to_dict()}
    with Store.open(tmp_path / "games.db") as store:
        session = Session.new("rolling-village", ["Ann", "Bo"], options, store=store)
        sheet.path.unlink()  # the log carries the sheet itself, not the file's name
        resumed = Session.resume(store, session.game_id)
    assert resumed.state.sheet == sheet_from_toml(sheet_text)
    assert resumed.state.legend.title("house") == "Cottage"


@pytest.mark.parametrize("change, key, line, words", [
    (('points = [0, 2, 0, 0, 2, 0]', 'points = [0, 2, 0, 0, 2]'), "avenue[2].points", 11,
     "Avenue 2 needs points for 6 Streets, not 5"),
    (('choice_sums = [2, 12]', 'choice_sums = [2, 12, 7]'), "avenue[3].sums", 15,
     "the sum 7 is given to Avenue 3 and to choice_sums"),
    (('label = "8"', 'lable = "8"'), "avenue[4].lable", 19, "avenue[4].lable: unknown key; did you mean label?"),
    (('points = [4, 0, 1, 1, 0, 4]', 'points = [4, 0, "one", 1, 0, 4]'), "avenue[1].points", 6,
     "must be a list of whole numbers"),
    (('choice_sums = [2, 12]', 'choice_sums = [2]'), "avenue", 3, "sum(s) [12]"),
])
def test_a_bad_sheet_names_the_file_the_key_and_the_line(tmp_path, change, key, line, words):
    text = doc_examples()[0]
    assert change[0] in text
    path = put(tmp_path / "sheets", "mine.toml", text.replace(change[0], change[1], 1))
    with pytest.raises(SheetError) as caught:
        vs.village_options(vs.Choice("mine", path), vs.Choice(vs.DEFAULT_LEGEND))
    error = caught.value
    assert (error.path, error.key, error.line) == ("sheets/mine.toml", key, line)
    assert str(error).startswith("sheets/mine.toml: ") and words in str(error)
    assert str(error).endswith(f"(key: {key}, line {line})")


def test_a_toml_syntax_error_names_its_line(tmp_path):
    path = put(tmp_path / "sheets", "typo.toml", 'choice_sums = [2, 12]\n\n[[avenue]]\nlabel = "3-4\n')
    with pytest.raises(SheetError) as caught:
        vs.load_sheet(path)
    assert caught.value.line == 4 and "sheets/typo.toml: not valid TOML" in str(caught.value)


def test_a_bad_legend_names_the_file_the_key_and_the_line(tmp_path):
    text = doc_examples()[1].replace("dice = [5, 6]", "dice = [4, 5, 6]")
    path = put(tmp_path / "legends", "dup.toml", text)
    with pytest.raises(SheetError) as caught:
        vs.village_options(vs.Choice(vs.DEFAULT_SHEET), vs.Choice("dup", path))
    assert str(caught.value) == ("legends/dup.toml: die face 4 stands for both forest and lake. "
                                 "(key: project[3].dice, line 14)")


def test_an_unreadable_file_is_an_error_not_a_crash(tmp_path):
    binary = put(tmp_path / "sheets", "photo.toml", b"\xff\xd8\xff\xe0 a JPEG")
    with pytest.raises(SheetError, match="sheets/photo.toml: is not a text file"):
        vs.load_sheet(binary)
    with pytest.raises(SheetError, match="sheets/gone.toml: cannot be read"):
        vs.load_sheet(tmp_path / "sheets" / "gone.toml")


def test_key_line_finds_keys_in_the_plain_shape_only():
    text = doc_examples()[0]
    assert vs.key_line(text, "choice_sums") == 1
    assert vs.key_line(text, "avenue[5].label") == 24
    assert vs.key_line(text, "avenue[5]") == 23
    assert vs.key_line(text, "avenue[6].label") is None  # no sixth Avenue
    assert vs.key_line('avenue = [{label = "3-4"}]\n', "avenue[1].label") is None  # inline: unknown
