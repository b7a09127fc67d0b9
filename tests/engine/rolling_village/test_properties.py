"""Property tests: random legal games, random (mostly illegal) input, log round trips."""
import json
import random
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.engine import RulesError, find_game
from companion.engine.log import Header, encode, replay
from companion.engine.rolling_village import Activate, Bonus, Build, Roll

GAME = find_game("rolling-village")
NAMES = ("Ann", "Bo", "Cy")
DATA = Path(__file__).parent / "data"
FAST = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(seed: int, players: int):
    rng = random.Random(seed)
    header = Header("rolling-village", NAMES[:players], {})
    state = GAME.new(header.players)
    actions = []
    while not GAME.finished(state):
        action = rng.choice(GAME.legal_actions(state))
        state = GAME.apply(state, action)
        actions.append(action)
    return header, actions, state


@FAST
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(1, 3))
def test_random_legal_games_never_raise_and_replay_to_the_live_state(seed, players):
    header, actions, state = random_game(seed, players)
    assert len(actions) == 1 + players * 2 + 9 * (2 + players * 2) + 3 * players
    for action in actions:
        assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action
    replayed = replay(encode(header, actions).splitlines())
    assert replayed.state == state
    summary = GAME.summary(state)
    assert summary["finished"] and summary["turn"] == 9
    for player in summary["players"]:
        assert len(player["turn_scores"]) == 9 and sum(player["turn_scores"]) == player["score"]
        assert sorted(player["bonus_used"]) == ["forest", "house", "lake"]
    scores = [next(p["score"] for p in summary["players"] if p["name"] == n) for n in summary["ranking"]]
    assert scores == sorted(scores, reverse=True)


names = st.sampled_from(NAMES + ("", "Zed"))
projects = st.sampled_from(("house", "forest", "lake", "House", "castle", ""))
small = st.integers(-1, 8)
die = st.integers(0, 7)
anything = st.one_of(
    st.builds(lambda a, b: Roll((a, b)), die, die),
    st.builds(lambda a: Roll(tuple(a)), st.lists(die, max_size=3)),
    st.builds(Build, names, projects, small, small),
    st.builds(Bonus, names, projects, small, small),
    st.builds(lambda a, b, c: Activate((a, b), c), die, die,
              st.one_of(st.none(), st.lists(st.tuples(names, small), max_size=2).map(tuple))),
)


@FAST
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 60), tries=st.lists(anything, min_size=1, max_size=15))
def test_any_input_is_accepted_or_refused_with_a_rule_never_a_crash(seed, steps, tries):
    rng = random.Random(seed)
    state = GAME.new(NAMES[:2])
    for _ in range(steps):
        if GAME.finished(state):
            break
        state = GAME.apply(state, rng.choice(GAME.legal_actions(state)))
    legal = set(GAME.legal_actions(state))
    for action in tries:
        try:
            after = GAME.apply(state, action)
        except RulesError as exc:
            assert "(rule: " in str(exc) or exc.rule == "action format"
            assert action not in legal
        else:
            assert after != state
            if not isinstance(action, Activate) or action.choices is None:
                assert action in legal
            state = after
            legal = set(GAME.legal_actions(state))


@FAST
@given(data=st.dictionaries(st.sampled_from(["type", "dice", "player", "project", "row", "street", "choices"]),
                            st.one_of(st.integers(-2, 8), st.text(max_size=3), st.booleans(), st.none(),
                                      st.lists(st.integers(0, 7), max_size=3),
                                      st.dictionaries(st.text(max_size=3), st.integers(0, 6), max_size=2)),
                            max_size=6),
       kind=st.sampled_from(["roll", "build", "bonus", "activate", "draw"]))
def test_any_json_line_is_read_or_refused_as_malformed(data, kind):
    data = {**data, "type": kind}
    try:
        action = GAME.action_from_json(data)
    except RulesError:
        return
    assert GAME.action_from_json(json.loads(json.dumps(action.to_json()))) == action


def test_golden_replay_matches_its_summary():
    """A two-player game (Ann by the advisor, Bo greedy, a 2 with Bo choosing) replays to the
    recorded result: a change in the rules or scoring shows up here."""
    lines = (DATA / "golden-two-players.jsonl").read_text().splitlines()
    expected = json.loads((DATA / "golden-two-players.summary.json").read_text())
    replayed = replay(lines)
    assert GAME.summary(replayed.state) == expected
    assert any(a.type == "activate" and a.choices for a in replayed.actions)
    assert encode(replayed.header, replayed.actions).splitlines() == lines
