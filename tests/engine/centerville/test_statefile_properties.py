"""Any bad state file gets exit 2 and one line naming the field, through the real `companion` entry.

Valid files (the town example in rounds 1 and 3, the 2-player file with the bot, a file with a
board correction) are mutated the two ways a hand-written file goes wrong: a key renamed (a typo)
and a value of the wrong type. Either the file is refused with `FILE: PATH: ...` on one line and
exit 2, or (only where null is allowed) it is scored.
"""
import contextlib
import copy
import io
import json
import tempfile
from pathlib import Path

from fuzz import EXAMPLES
from hypothesis import given, settings
from hypothesis import strategies as st

from companion.cli import main
from companion.engine.centerville.board import BOARD_KEYS, OFFICE_KEYS as BOARD_OFFICE_KEYS, default_board
from companion.engine.centerville.statefile import FILE_KEYS, LEVELS, OFFICE_KEYS, SEAT_KEYS

from .test_statefile import example

_B = default_board()
KNOWN = {k.casefold() for k in (
    *FILE_KEYS, *SEAT_KEYS, *OFFICE_KEYS, *LEVELS, *_B.zones, *_B.river_spaces, *BOARD_OFFICE_KEYS,
    *(o.name for o in _B.offices), *(str(n) for n in range(1, 10)), *(k for ks in BOARD_KEYS.values() for k in ks),
)}


def _round_three():
    data = example()
    for p, legacy in zip(data["players"], ["greenbelt", "offices", "vocations", "red-zone"]):
        p["legacy"] = legacy
    return data


def _two_player():
    data = example()
    data["players"] = data["players"][:3]
    data["players"][2]["bot"] = True
    data["players"][2].pop("vocations")
    for key in ("media", "media_vocation"):
        data.pop(key)
    data["status"] = ["white", "gray", "brown"]
    data["town"]["yellow"]["1"] = ["brown"]
    data["river"].pop("south-2")
    data["open_legacy"] = "yellow-zone"
    return data


def _corrected():
    data = example()
    data["board"] = {"town": {"spaces": {"3": 6}}, "villas": {"bridge": [1, 2]}, "greenbelt": {"top": 12}}
    return data


VALID = [(example(), 1), (_round_three(), 3), (_two_player(), 2), (_corrected(), 1)]


def _places(node, path=""):
    """Every (path, parent, key) in a parsed file, paths spelt as the refusals spell them."""
    items = node.items() if isinstance(node, dict) else enumerate(node)
    for key, value in items:
        here = (f"{path}.{key}" if path else str(key)) if isinstance(node, dict) else f"{path}[{key}]"
        yield here, node, key
        if isinstance(value, (dict, list)):
            yield from _places(value, here)


def _score(data, scoring_round):
    """(exit status, standard error lines, the file's name) of `companion score` on `data`."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "state.json"
        path.write_text(json.dumps(data))
        err, out = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
            status = main(["score", "centerville", str(path), "--round", str(scoring_round)])
        return status, err.getvalue().splitlines(), str(path)


def test_the_valid_files_score():
    for data, scoring_round in VALID:
        status, err, _ = _score(data, scoring_round)
        assert status == 0 and err == []


# 300 typos and wrong types in `make test` (1,000 took 24 s of the suite), `make fuzz`'s count beyond it.
PROPERTIES = settings(max_examples=max(300, EXAMPLES), deadline=None)


def _typo(old: str) -> st.SearchStrategy[str]:
    dropped = [old[:i] + old[i + 1:] for i in range(len(old))] if len(old) > 1 else []
    added = st.builds(lambda s: old + s, st.text("qzjk", min_size=1, max_size=3))
    return (st.sampled_from(dropped) | added) if dropped else added


@PROPERTIES
@given(st.data())
def test_a_renamed_key_is_refused_by_its_new_path(draw):
    data, scoring_round = copy.deepcopy(draw.draw(st.sampled_from(VALID)))
    places = [(path, parent, key) for path, parent, key in _places(data) if isinstance(parent, dict)]
    path, parent, key = draw.draw(st.sampled_from(places))
    new = draw.draw(_typo(key).filter(lambda k: k.casefold() not in KNOWN))
    parent[new] = parent.pop(key)
    new_path = path[: len(path) - len(key)] + new
    status, err, name = _score(data, scoring_round)
    assert status == 2 and len(err) == 1, err
    assert err[0].startswith(f"{name}: {new_path}: unknown key"), err[0]


def _kind(value) -> str:
    if value is None or isinstance(value, bool):
        return repr(value) if value is None else "bool"
    return type(value).__name__


WRONG = st.one_of(
    st.none(), st.booleans(), st.integers(-5, 60), st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8), st.lists(st.integers(0, 3), max_size=3), st.dictionaries(st.text(max_size=3), st.integers(), max_size=2),
)


@PROPERTIES
@given(st.data())
def test_a_value_of_the_wrong_type_is_refused_by_the_name_of_its_field(draw):
    data, scoring_round = copy.deepcopy(draw.draw(st.sampled_from(VALID)))
    path, parent, key = draw.draw(st.sampled_from(list(_places(data))))
    before = parent[key]
    parent[key] = draw.draw(WRONG.filter(lambda v: _kind(v) != _kind(before)))
    status, err, name = _score(data, scoring_round)
    if status == 0 and parent[key] is None:
        return  # null is allowed there: an empty river space or villa, nobody's Media or Safe
    assert status == 2 and len(err) == 1, (path, parent[key], err)
    # The field itself, or (a number past the bounds inside the wrong value) a path within it.
    assert err[0].startswith(f"{name}: {path}") and err[0][len(f"{name}: {path}")] in ":.[", \
        (path, parent[key], err[0])
