"""Bad input is refused with a rules error naming the rule, never a crash, never a changed state."""
import json
import random

from companion.engine.core import MalformedAction, RulesError
from companion.engine.centerville.actions import ALL_ACTIONS
from companion.engine.centerville.simulate import play

from .positions import GAME

VALUES = {
    int: [0, 1, 2, 3, 4, 7, 9, 12, -1, 99],
    str: ["red", "yellow", "green", "black", "pink", "", "Ann", "Bot", "bridge", "north-1", "Mayor",
          "City Council", "red-contract", "black-hourglass", "status", "greenbelt", "park", "red-2"],
    bool: [True, False],
}


def _random_action(rng):
    cls = rng.choice(ALL_ACTIONS)
    data = {"type": cls.type}
    for name, hint in cls.__annotations__.items():
        if name == "type":
            continue
        text = str(hint)
        if "tuple" in text:
            pool = VALUES[int] if "int" in text else VALUES[str]
            data[name] = rng.sample(pool, rng.randrange(0, 5))
        elif text.startswith("Pairs"):
            data[name] = {rng.choice(VALUES[str]): rng.choice(VALUES[str])}
        elif "bool" in text:
            data[name] = rng.choice(VALUES[bool])
        elif "int" in text:
            data[name] = rng.choice(VALUES[int] + [None] if "None" in text else VALUES[int])
        else:
            data[name] = rng.choice(VALUES[str] + ([None] if "None" in text else []))
    return data


def test_random_garbage_is_refused_by_rule_in_every_phase():
    rng = random.Random(3)
    states = []
    play(GAME, ("Ann", "Bo"), random.Random(8), on_state=states.append)
    play(GAME, ("Ann", "Bo", "Cy", "Di"), random.Random(9), on_state=states.append)
    accepted = 0
    for s in rng.sample(states, 300):
        for _ in range(20):
            data = _random_action(rng)
            try:
                action = GAME.action_from_json(data)
                after = GAME.apply(s, action)
            except MalformedAction:
                continue
            except RulesError as exc:
                assert "rule" in str(exc).lower(), str(exc)
                continue
            accepted += 1
            assert after is not s
    assert accepted < 300 * 20  # most garbage is refused; some happens to be legal


def test_summary_is_json_ready_and_complete():
    final, _ = play(GAME, ("Ann", "Bo", "Cy"), random.Random(4))
    summary = json.loads(json.dumps(GAME.summary(final)))
    assert {"game", "finished", "turn", "players", "ranking", "scoring", "winner"} <= set(summary)
    assert {"name", "colour", "wealth", "prestige", "status"} <= set(summary["players"][0])


def test_every_prompt_names_a_kind_and_a_sentence():
    states = []
    play(GAME, ("Ann", "Bo"), random.Random(2), on_state=states.append)
    for s in states:
        p = GAME.prompt(s)
        assert p.kind and p.text.endswith(".")
