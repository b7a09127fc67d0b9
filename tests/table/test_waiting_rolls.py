"""The camera rolls still waiting, written down against a power cut (companion.waiting_rolls).

A real Table, Session, SQLite store, checked pip reads and kept photos; the power cut is a process
killed with SIGKILL, or a table dropped without being closed."""
from __future__ import annotations

import json
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from companion.checked_photos import read_labels
from companion.events import Command, InputEvent
from companion.pip_checks import PipRead
from companion.session import Session
from companion.store import Store
from companion.waiting_rolls import FILE, WaitingError, WaitingRolls, decode, encode, parse

from .waiting_table import PHOTO, roll_once, table_on

def kept(data: Path, store) -> dict:
    """What the table holds of its rolls: the statistics, the checked reads, the photos."""
    checks = data / "checked-reads"
    photos = read_labels(data / "checked-photos" / "labels.json")
    return {"rolls": sorted(store.rows("SELECT die, face FROM rolls")),
            "checked": sum(len(p.read_text().splitlines()) for p in checks.glob("*.csv")) if checks.exists() else 0,
            "photos": [[d["face"] for d in dice] for dice in photos.values()]}


def test_a_roll_waiting_at_a_power_cut_is_kept_at_the_next_start_as_a_clean_close_keeps_it(tmp_path):
    clean, cut = tmp_path / "clean", tmp_path / "cut"
    for data in (clean, cut):
        data.mkdir()
        with Store.open(data / "games.db") as store:
            table = table_on(data, store)
            table.open(Session.new("rolling-village", ["Ann", "Bo"], store=store))
            roll_once(table)
            assert kept(data, store)["rolls"] == []     # not final yet: it waits
            if data == clean:
                table.close()
    assert not (clean / FILE).exists()
    assert (cut / FILE).exists()                        # the table was dropped, never closed
    with Store.open(cut / "games.db") as store:
        after = table_on(cut, store)
        assert after.waiting.settle(after, store) == 2  # for the statistics; checked, with its photo
        assert not (cut / FILE).exists()
        restored = kept(cut, store)
    with Store.open(clean / "games.db") as store:
        assert restored == kept(clean, store)
    assert restored["rolls"] == [("red", "2"), ("white", "4")]
    assert restored["checked"] > 0 and restored["photos"] == [[4, 2]]


KILLED = textwrap.dedent("""
    import sys
    from pathlib import Path
    sys.path.insert(0, {tests!r})
    from table.waiting_table import roll_once, table_on
    from companion.session import Session
    from companion.store import Store
    data = Path(sys.argv[1])
    store = Store.open(data / "games.db")
    table = table_on(data, store)
    table.open(Session.new("rolling-village", ["Ann", "Bo"], store=store))
    roll_once(table)
    print("ENTERED", flush=True)
    sys.stdin.read()        # until killed
""")


def test_a_process_killed_after_a_roll_loses_none_of_it(tmp_path):
    script = KILLED.format(tests=str(Path(__file__).resolve().parents[1]))
    player = subprocess.Popen([sys.executable, "-c", script, str(tmp_path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert player.stdout.readline().strip() == "ENTERED"
    finally:
        player.send_signal(signal.SIGKILL)   # no clean-up of any kind: as a power cut
        player.wait(timeout=30)
    reports = []
    with Store.open(tmp_path / "games.db") as store:
        table = table_on(tmp_path, store)
        assert table.waiting.settle(table, store, reports.append) == 2
        # checked: the file's header and the two dice
        assert kept(tmp_path, store) == {"rolls": [("red", "2"), ("white", "4")], "checked": 1 + 2,
                                         "photos": [[4, 2]]}
    assert reports == []


def test_an_undone_roll_is_not_kept_after_the_power_cut_either(tmp_path):
    with Store.open(tmp_path / "games.db") as store:
        table = table_on(tmp_path, store)
        table.open(Session.new("rolling-village", ["Ann", "Bo"], store=store))
        roll_once(table)
        table.handle(InputEvent.command(Command.UNDO, "gpio"))
        assert json.loads((tmp_path / FILE).read_text())["rolls"]   # still waits: may be entered again
    with Store.open(tmp_path / "games.db") as store:
        table = table_on(tmp_path, store)
        table.waiting.settle(table, store)
        assert kept(tmp_path, store)["rolls"] == [] and kept(tmp_path, store)["photos"] == []


def test_a_damaged_list_is_moved_aside_and_said_and_the_table_goes_on(tmp_path):
    (tmp_path / FILE).write_text('{"rolls": [{"game": 1, "at": -2, "kind": "fair", "value": []}]}')
    reports = []
    with Store.open(tmp_path / "games.db") as store:
        table = table_on(tmp_path, store)
        assert table.waiting.settle(table, store, reports.append) == 0
        aside = list(tmp_path.glob(FILE + ".damaged-*"))
        assert len(aside) == 1 and '"at": -2' in aside[0].read_text()      # kept, not deleted
        assert reports == [f"The rolls still waiting, rolls[0].at: must be at least 0, not -2; the file is kept "
                           f"as {aside[0]}, and those rolls are not in the statistics."]
        table.open(Session.new("rolling-village", ["Ann", "Bo"], store=store))
        roll_once(table)
        assert (tmp_path / FILE).exists()


def test_a_list_that_cannot_be_opened_now_is_left_as_it_is(tmp_path):
    (tmp_path / FILE).mkdir()     # a folder in its place: unreadable now, not damaged (no permissions as root)
    reports = []
    with Store.open(tmp_path / "games.db") as store:
        table = table_on(tmp_path, store)
        assert table.waiting.settle(table, store, reports.append) == 0
        table.open(Session.new("rolling-village", ["Ann", "Bo"], store=store))
        roll_once(table)
        table.close()
    assert (tmp_path / FILE).is_dir() and not list(tmp_path.glob(FILE + ".damaged-*"))
    assert reports and "cannot be read now" in reports[0] and "cannot be read now" in table.waiting.problem


def test_a_list_from_before_not_read_yet_is_never_replaced(tmp_path):
    before = json.dumps({"rolls": [{"game": 1, "at": 2, "kind": "fair", "value": [["red", "2"]]}]})
    (tmp_path / FILE).write_text(before)
    with Store.open(tmp_path / "games.db") as store:
        table = table_on(tmp_path, store)    # its list never settled (a table made without the app's start)
        table.open(Session.new("rolling-village", ["Ann", "Bo"], store=store))
        roll_once(table)
        table.close()
    assert (tmp_path / FILE).read_text() == before


def test_a_list_that_cannot_be_written_costs_only_those_rolls(tmp_path):
    with Store.open(tmp_path / "games.db") as store:
        table = table_on(tmp_path, store)
        table.waiting = WaitingRolls(tmp_path / "gone")     # its folder is not there: every write fails
        table.open(Session.new("rolling-village", ["Ann", "Bo"], store=store))
        roll_once(table)
        assert "could not be written" in table.waiting.problem
        table.close()                                       # the game went on; a clean close keeps the roll
        assert kept(tmp_path, store)["rolls"] == [("red", "2"), ("white", "4")]


def test_a_game_gone_since_is_said_and_its_rolls_left_out(tmp_path):
    (tmp_path / FILE).write_text(json.dumps({"rolls": [{"game": 7, "at": 2, "kind": "fair",
                                                        "value": [{"die": "red", "face": "2"}]}]}))
    reports = []
    with Store.open(tmp_path / "games.db") as store:
        table = table_on(tmp_path, store)
        assert table.waiting.settle(table, store, reports.append) == 0
    assert len(reports) == 1 and reports[0].startswith("The rolls still waiting for saved game 7 were left out")
    assert not (tmp_path / FILE).exists()


def test_every_kind_of_roll_reads_back_as_written():
    pip = PipRead(((4, 0.5), (2, 0.99), (3, 0.4)), (4, 3), ((1, 2, 3, 4), (5.5, 6, 7, 8), (9, 9, 9, 9)), PHOTO, (0, 1))
    held = (PHOTO, [("red-vote", (1, 2, 3, 4))], ("red-vote", "black-bench"), None)
    to_box = (PHOTO, [(None, (1, 2, 3, 4))], ("red-vote",), ("red-vote", "black-bench"))
    fair = [("red", "2"), ("Centerville black", "bench")]
    for kind, value in (("pip", pip), ("photo", held), ("photo", to_box), ("fair", fair)):
        assert decode(kind, json.loads(json.dumps(encode(kind, value)))) == value
    assert decode("pip", encode("pip", PipRead(((6, 1.0),)))) == PipRead(((6, 1.0),))


@pytest.mark.parametrize("text, names", [
    (b"\xff\xfe", "not a list the app wrote"),
    (b'{"rolls": {}}', "rolls: must be a list"),
    (b'{"rolls": [], "more": 1}', "more: unknown key"),
    (b'{"rolls": [{"game": 1, "at": 0, "kind": "fair"}]}', "rolls[0].value: is missing"),
    (b'{"rolls": [{"game": true, "at": 0, "kind": "fair", "value": []}]}',
     "rolls[0].game: must be a whole number"),
    (b'{"rolls": [{"game": 1, "at": 0, "kind": "dice", "value": []}]}',
     "rolls[0].kind: must be one of fair, pip, photo"),
    (b'{"rolls": [{"game": 1, "at": 0, "kind": "fair", "value": [{"die": "red"}]}]}',
     "rolls[0].value[0].face: is missing"),
    (b'{"rolls": [{"game": 1, "at": 0, "kind": "photo", "value": {"photo": "", "labels": [{"face": null, '
     b'"box": [1, 2, 3, 4]}], "faces": [], "entered": null}}]}', "rolls[0].value.labels: a labelled photo names every"),
    (b'{"rolls": [{"game": 1, "at": 0, "kind": "pip", "value": {"reads": [{"face": 7, "confidence": 0.5}], '
     b'"checked": null, "boxes": [], "photo": null, "kept": null}}]}', "rolls[0].value.reads[0].face: must be 1 to 6"),
    (b'{"rolls": [{"game": 1, "at": 0, "kind": "pip", "value": {"reads": [{"face": 1, "confidence": NaN}], '
     b'"checked": null, "boxes": [], "photo": null, "kept": null}}]}',
     "rolls[0].value.reads[0].confidence: must be a number"),
    (b'{"rolls": [{"game": 1, "at": 0, "kind": "pip", "value": {"reads": [], "checked": null, '
     b'"boxes": [[0, 0, 9, Infinity]], "photo": null, "kept": null}}]}',
     "rolls[0].value.boxes[0][3]: must be a finite"),
    (b'{"rolls": [{"game": 1, "at": 0, "kind": "pip", "value": {"reads": [{"face": 1, "confidence": 0.5}], '
     b'"checked": null, "boxes": [], "photo": null, "kept": [1]}}]}', "rolls[0].value.kept: must name the 1 dice read"),
    (b'{"rolls": [{"game": 1, "at": 0, "kind": "photo", "value": {"photo": "###", "labels": [], "faces": [], '
     b'"entered": null}}]}', "rolls[0].value.photo: must be a photo in base64"),
    (b'{"rolls": [{"game": 1, "at": 0, "kind": "photo", "value": {"photo": null, "labels": [], "faces": [], '
     b'"entered": null}}]}', "rolls[0].value.photo: must be text"),
    (b"[" * 100000, "not a list the app wrote"),
])
def test_anything_but_a_list_the_app_wrote_is_refused_by_name(text, names):
    with pytest.raises(WaitingError) as refused:
        parse(text)
    assert names in str(refused.value)
