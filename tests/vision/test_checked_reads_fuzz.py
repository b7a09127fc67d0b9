"""Property: any bytes in a table's checked-reads file (vision.earned.CheckedReads: the icon dice's
pairs and the pip dice's confidences, companion.pip_checks) either read as checked reads or raise
EvidenceError naming the file (and, for a bad line, its number and field); never another
exception. Appending to it either refuses before writing anything (the file's bytes unchanged) or
keeps every read that was there and adds the new ones at the end. Inputs: a whole file damaged by
a line, by bytes, or cut short (a power cut in the middle of a write)."""
import re

from fuzz import FUZZ, damaged, tally
from hypothesis import given
from hypothesis import strategies as st

from vision.earned import HEADER, CheckedRead, CheckedReads, EvidenceError

GOOD = [CheckedRead(0.9999871, None, True, "pip3", "pip3"), CheckedRead(0.9995012, None, False, "pip2", "pip5"),
        CheckedRead(0.93, 0.51, True, "red-vote", "red-vote"), CheckedRead(0.81, 0.2, False, "black-tree",
                                                                           "black-bench")]
WHOLE = (HEADER + "\n" + "".join(r.line() + "\n" for r in GOOD * 3)).encode("utf-8")
NEW = [CheckedRead(0.99999, None, True, "pip6", "pip6")]


def _field(draw, line: bytes) -> bytes:
    fields = line.split(b",")
    fields[draw(st.integers(0, len(fields) - 1))] = draw(st.sampled_from(
        [b"", b"nan", b"inf", b"-1e999", b"1,0", b"2", b"yes", b"0.5.5", "\u00e9".encode(), b"\xff"]))
    return b",".join(fields)


@st.composite
def damaged_files(draw):
    return damaged(draw, WHOLE, _field)


@FUZZ
@given(damaged_files())
def test_any_bytes_read_as_checked_reads_or_are_refused_by_line_and_field(tmp_path_factory, case):
    how, data = case
    path = tmp_path_factory.mktemp("checked") / "checked-reads.csv"
    path.write_bytes(data)
    try:
        records = CheckedReads(path).records()
    except EvidenceError as exc:
        message = str(exc)
        assert message.startswith(str(path)), message
        by_line = re.search(r"line \d+: (expected 5 fields|field \w+ is)", message)
        assert "not a text file" in message or by_line, message
        before = path.read_bytes()
        try:
            CheckedReads(path).add(NEW)
        except EvidenceError:
            pass
        else:
            raise AssertionError("a file that cannot be read was appended to")
        assert path.read_bytes() == before        # refused before anything was written
        tally("checked reads", "refused")
        return
    assert all(isinstance(r, CheckedRead) and isinstance(r.right, bool) for r in records)
    checked = CheckedReads(path)
    checked.add(NEW)
    again = CheckedReads(path).records()
    assert again == records + NEW                 # a torn last line is kept whole or cut off, as it read
    tally("checked reads", "read" if how != "cut" else "read (cut short)")
