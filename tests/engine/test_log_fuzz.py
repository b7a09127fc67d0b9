"""Property: any bytes given to the log reader end in a correct replay or a LogError naming the
line; never another exception. Inputs are valid logs of every game, then damaged."""
import json
import random

import pytest
from fuzz import FUZZ, tally
from hypothesis import given
from hypothesis import strategies as st

from companion.engine.core import all_games
from companion.engine.log import Header, LogError, decode_lines, encode, replay



def _valid_log(game, seed=7, steps=40):
    rng = random.Random(seed)
    players = tuple(f"P{i + 1}" for i in range(min(max(game.min_players, 3), game.max_players)))
    header = Header(game.name, players, {})
    state = game.new(players, {})
    actions = []
    for _ in range(steps):
        if game.finished(state):
            break
        action = rng.choice(list(game.legal_actions(state)))
        state, _ = game.apply(state, action), actions.append(action)
    return [json.loads(line) for line in encode(header, actions).splitlines()], state


LOGS = {g.name: _valid_log(g) for g in all_games()}

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True, allow_infinity=True) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12)


@st.composite
def damaged_logs(draw):
    name = draw(st.sampled_from(sorted(LOGS)))
    rows = [dict(r) for r in LOGS[name][0]]
    n = draw(st.integers(0, len(rows) - 1))
    how = draw(st.sampled_from(["value", "drop", "add", "line", "bytes", "deep", "digits", "cut"]))
    lines = [json.dumps(r, ensure_ascii=False) for r in rows]
    if how == "value" and rows[n]:
        key = draw(st.sampled_from(sorted(rows[n])))
        rows[n][key] = draw(json_values)
        lines[n] = json.dumps(rows[n], ensure_ascii=False)
    elif how == "drop" and rows[n]:
        rows[n].pop(draw(st.sampled_from(sorted(rows[n]))))
        lines[n] = json.dumps(rows[n])
    elif how == "add":
        rows[n][draw(st.text(max_size=8))] = draw(json_values)
        lines[n] = json.dumps(rows[n])
    elif how == "line":
        lines[n] = draw(st.text(max_size=40))
    elif how == "deep":
        lines[n] = "[" * draw(st.integers(30, 5000)) + "]" * draw(st.integers(0, 5000))
    elif how == "digits":
        lines[n] = json.dumps(rows[n])[:-1] + ', "x": ' + "9" * draw(st.integers(25, 6000)) + "}"
    elif how == "cut":
        lines = lines[:n]
    data = "\n".join(lines).encode("utf-8", "surrogatepass")
    if how == "bytes":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
    return name, data


@FUZZ
@given(damaged_logs())
def test_a_damaged_log_replays_or_is_refused_naming_the_line(case):
    name, data = case
    try:
        result = replay(decode_lines(data), keep_states=False)
    except LogError as exc:
        assert exc.line >= 1 and str(exc).startswith(f"line {exc.line}: ")
        tally("game log", "refused")
        return
    result.game.summary(result.state)  # a replayed state must be usable, too
    tally("game log", "replayed")


@pytest.mark.parametrize("name", sorted(LOGS))
def test_every_valid_log_replays_to_its_state(name):
    rows, state = LOGS[name]
    data = "\n".join(json.dumps(r, ensure_ascii=False) for r in rows).encode()
    assert replay(decode_lines(data), keep_states=False).state == state
