"""Property: any bytes in a table's waiting-rolls.json (companion.waiting_rolls) either read as the rolls
the app wrote or raise WaitingError naming the roll and field; never another exception. At start the
app either settles what it reads (the file then gone) or moves the file aside, kept byte for byte,
and says so. Inputs: a list of all three kinds of roll, damaged by a line, by bytes, by a field, or
cut short."""
import companion.table.rolling_village  # noqa: F401  (registers the wiring)
from fuzz import FUZZ, damaged, tally
from hypothesis import given
from hypothesis import strategies as st

from companion.checked_photos import CheckedPhotos, HeldPhotos
from companion.pip_checks import PipChecks, PipRead
from companion.session import Session
from companion.store import Store
from companion.table import Table
from companion.waiting_rolls import FILE, WaitingError, WaitingRolls, _text, encode, parse

ROLLS = [("fair", [("white", "4"), ("red", "2")]),
         ("pip", PipRead(((4, 0.99), (2, 0.5)), (4, 2), ((1, 2, 30, 40), (50, 2, 90, 40)), b"\xff\xd8photo", (0, 1))),
         ("photo", (b"\xff\xd8photo", [("red-vote", (1, 2, 30, 40))], ("red-vote",), None)),
         ("photo", (b"\xff\xd8photo", [(None, (1, 2, 30, 40))], ("red-vote",), ("red-vote", "blue-tree")))]
WHOLE = _text([{"game": 1, "at": 2, "kind": kind, "value": encode(kind, value)} for kind, value in ROLLS]).encode()


def _field(draw, line: bytes) -> bytes:
    return line.replace(draw(st.sampled_from([b"1", b"2", b"0.99", b"\"game\"", b"\"fair\"", b"\"/9j", b"null",
                                              b"\"red-vote\"", b"[4, 2]"])),
                        draw(st.sampled_from([b"NaN", b"Infinity", b"true", b"7", b"-1", b"\"3\"", b"[]", b"null",
                                              b"1e999", b"\"\xff\"", b"{}", b"\"pip\"", b"\"###\""])), 1)


@st.composite
def damaged_lists(draw):
    return damaged(draw, WHOLE, _field)


@FUZZ
@given(damaged_lists())
def test_any_waiting_list_is_settled_or_moved_aside_and_said(tmp_path_factory, case):
    _how, data = case
    folder = tmp_path_factory.mktemp("data")
    (folder / FILE).write_bytes(data)
    try:
        rolls = parse(data)
    except WaitingError as exc:
        assert str(exc).startswith("The rolls still waiting"), exc
        rolls = None
    reports = []
    with Store.open(folder / "games.db") as store:
        session = Session.new("rolling-village", ["Ann", "Bo"], store=store)
        table = Table()
        table.pip_checks = PipChecks(folder)
        table.icon_photos = HeldPhotos(CheckedPhotos(folder / "icons", icons=True))
        table.waiting = WaitingRolls(folder)
        settled = table.waiting.settle(table, store, reports.append)
    assert session.game_id == 1
    aside = list(folder.glob(FILE + ".damaged-*"))
    assert not (folder / FILE).exists()
    if rolls is None:
        assert settled == 0 and len(aside) == 1 and aside[0].read_bytes() == data     # kept as it was
        assert len(reports) == 1 and str(aside[0]) in reports[0]
        tally("waiting rolls", "refused")
    else:
        assert not aside and settled == sum(1 for game, *_ in rolls if game == 1)
        tally("waiting rolls", "read")
