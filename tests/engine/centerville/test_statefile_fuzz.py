"""Property: any bytes given to `companion score centerville` (its real entry, in-process) end in
a scored result (exit 0, JSON) or one refusal line naming the file and the field or line (exit 2);
never an exception. Two interfaces: the state file itself, damaged as bytes and as values, and
its board corrections (the "board" option), built from every key of the shipped board file."""
import contextlib
import copy
import io
import json
import tempfile
from pathlib import Path

from fuzz import FUZZ, tally
from hypothesis import given
from hypothesis import strategies as st

from companion.engine.centerville.game import default_board_data
from companion.score_cli import score_main

from .test_statefile import example

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=10)
    | st.sampled_from(["²", "\ud800", "3", "-1", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=10)
RAW_VALUES = st.sampled_from(["[" * 40 + "]" * 40, "[" * 3000 + "]" * 3000, "9" * 5000, "1e999", "NaN",
                              '"\\ud800"', '"\\udfff x"', "-" + "1" * 31, "{", "[1,]", "²"])


def _paths(value, path=()):
    yield path
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _paths(v, path + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _paths(v, path + (i,))


EXAMPLE = example()
STATE_PATHS = [p for p in _paths(EXAMPLE) if p]
BOARD = default_board_data()
BOARD_PATHS = [p for p in _paths(BOARD) if p and all(isinstance(k, str) for k in p)]
MARK = "__raw_value__"


def _set(data, path, value):
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


def _render(data, raw=None) -> bytes:
    text = json.dumps(data, ensure_ascii=False)
    if raw is not None:
        text = text.replace(json.dumps(MARK), raw, 1)
    return text.encode("utf-8", "surrogatepass")


@st.composite
def damaged_state_files(draw):
    data = copy.deepcopy(EXAMPLE)
    how = draw(st.sampled_from(["value", "raw", "key", "bytes", "cut"]))
    path = draw(st.sampled_from(STATE_PATHS))
    raw = None
    if how == "value":
        _set(data, path, draw(json_values))
    elif how == "raw":
        _set(data, path, MARK)
        raw = draw(RAW_VALUES)
    elif how == "key" and isinstance(path[-1], str):
        parent = data
        for key in path[:-1]:
            parent = parent[key]
        parent[draw(st.text(max_size=8) | st.just("²"))] = parent.pop(path[-1])
    out = _render(data, raw)
    if how == "bytes":
        at = draw(st.integers(0, len(out)))
        out = out[:at] + draw(st.binary(min_size=1, max_size=6)) + out[at:]
    elif how == "cut":
        out = out[:draw(st.integers(0, len(out)))]
    return out


@st.composite
def board_corrections(draw):
    """A state file whose "board" corrects one to three keys of board.toml with odd values."""
    data = copy.deepcopy(EXAMPLE)
    board, raw = {}, None
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(BOARD_PATHS))
        target = board
        for key in path[:-1]:
            target = target.setdefault(key, {}) if isinstance(target, dict) else {}
        value = draw(st.one_of(json_values, st.just(MARK), st.builds(lambda v: v + 1, st.integers(-3, 3))))
        if isinstance(target, dict):
            target[path[-1]] = value
    if draw(st.booleans()):
        board[draw(st.text(max_size=8))] = draw(json_values)
    data["board"] = board
    if MARK in json.dumps(board):
        raw = draw(RAW_VALUES)
    return _render(data, raw)


def _score(data: bytes) -> tuple[int, str, str]:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "state.json"
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = score_main(["centerville", str(path), "--round", "1"])
        return code, out.getvalue(), err.getvalue().replace(str(path), "FILE")


def _check(interface: str, data: bytes) -> None:
    code, out, err = _score(data)
    if code == 0:
        assert err == "" and json.loads(out)["game"] == "centerville"
        tally(interface, "scored")
        return
    assert code == 2 and out == "", (code, out, err)
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("FILE: ") and len(lines[0]) > len("FILE: "), err
    tally(interface, "refused")


@FUZZ
@given(damaged_state_files())
def test_a_damaged_state_file_is_scored_or_refused_in_one_line(data):
    _check("state file", data)


@FUZZ
@given(board_corrections())
def test_odd_board_corrections_are_scored_or_refused_in_one_line(data):
    _check("board corrections", data)
