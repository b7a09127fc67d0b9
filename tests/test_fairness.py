"""Are our dice fair: the chi-square survival function against printed table values, and a fair
and a loaded simulated die fed through the store (and a camera reading through the table)."""
from __future__ import annotations

import math
import random

import pytest

from companion.fairness import BIASED_BELOW, chi2_sf, dice_of, verdict, verdicts
from companion.store import Store

# Upper-tail critical values of the chi-square distribution, as printed in statistics tables
# (NIST/SEMATECH e-Handbook, 1.3.6.7.4): (x, degrees of freedom, P(X >= x)).
TABLE = [
    (3.841, 1, 0.05), (6.635, 1, 0.01), (10.828, 1, 0.001),
    (11.070, 5, 0.05), (15.086, 5, 0.01), (20.515, 5, 0.001),
    (1.145, 5, 0.95), (0.554, 5, 0.99), (9.236, 5, 0.10),
    (18.307, 10, 0.05), (4.865, 10, 0.90), (29.588, 10, 0.001),
    (0.0039, 1, 0.95), (67.505, 50, 0.05),
]


@pytest.mark.parametrize("x,dof,p", TABLE)
def test_the_survival_function_matches_the_printed_table(x, dof, p):
    assert chi2_sf(x, dof) == pytest.approx(p, rel=2e-3)


def test_two_degrees_of_freedom_is_an_exponential():
    for x in (0.1, 1.0, 4.6, 13.8, 40.0):
        assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-12)
    assert chi2_sf(0, 5) == 1.0
    with pytest.raises(ValueError, match="degrees of freedom"):
        chi2_sf(1.0, 0)


def roll(rng, weights, n):
    return [str(rng.choices(range(1, 7), weights=weights)[0]) for _ in range(n)]


def test_a_fair_and_a_loaded_die_through_the_store_get_the_right_verdicts(tmp_path):
    rng = random.Random(16)
    with Store.open(tmp_path / "games.db") as store:
        from companion.session import Session
        import race_game  # noqa: F401

        game_id = Session.new("test-race", ["Ann", "Bo"], {"goal": 10}, store=store).game_id
        store.add_rolls(game_id, [("white", f) for f in roll(rng, [1] * 6, 600)])
        # Loaded: the six comes up one time in three (a fair die: one in six).
        store.add_rolls(game_id, [("red", f) for f in roll(rng, [1, 1, 1, 1, 1, 2.5], 600)])
        store.add_rolls(game_id, [("blue", f) for f in roll(rng, [1] * 6, 20)])
        found = {v.die: v for v in verdicts(store)}
    white, red, blue = found["white"], found["red"], found["blue"]
    assert white.rolls == red.rolls == 600
    assert not white.biased and white.p > BIASED_BELOW
    assert white.words.startswith("No sign of bias after 600 rolls")
    assert red.biased and red.words.startswith("6 comes up more than chance explains after 600 rolls")
    assert "p < 0.001" in red.words or "p = 0.00" in red.words
    assert blue.p is None and blue.words == ("Not enough rolls yet: 20 of the 30 a verdict needs "
                                             "(at least 5 expected on every face).")


def test_a_centerville_die_is_judged_against_its_printed_faces():
    # The red die shows "contract" twice: a fair red die shows it a third of the time.
    rng = random.Random(3)
    faces = ["vote", "fate", "contract", "contract", "education", "tree"]
    counts = {}
    for _ in range(600):
        face = rng.choice(faces)
        counts[face] = counts.get(face, 0) + 1
    fair = verdict("Centerville red", counts)
    assert fair.expected["contract"] == pytest.approx(200) and not fair.biased
    flat = verdict("Centerville red", {f: 120 for f in ("vote", "fate", "contract", "education", "tree")})
    assert flat.biased and flat.words.startswith("contract comes up less than chance explains")
    odd = verdict("Centerville red", {"hourglass": 3, "vote": 40})
    assert odd.p is None and "hourglass is not a face of this die" in odd.words


def test_a_camera_reading_taken_by_the_table_is_stored_with_its_die(tmp_path):
    from vision.reader import DiceReading, DieRead

    from companion.events import Command, InputEvent
    from companion.session import Session
    from companion.table import Table

    def die(face, colour):
        return DieRead(face=face, label=f"pip{face}", confidence=0.99, box=(0, 0, 10, 10), color=colour,
                       uncertain=False)

    with Store.open(tmp_path / "games.db") as store:
        table = Table()
        table.open(Session.new("rolling-village", ["Ann", "Bo"], store=store))
        table.handle(InputEvent("dice", DiceReading((die(2, "white"), die(5, "red"))), "camera"))
        table.handle(InputEvent.command(Command.CONFIRM, "gpio"))
        assert store.rows("SELECT * FROM rolls") == []    # it can still be corrected while building
        table.close()                                     # the game set aside: its last roll is final
        assert sorted(store.rows("SELECT die, face FROM rolls")) == [("red", "5"), ("white", "2")]
    assert dice_of(DiceReading((die(6, ""),))) == [("unknown colour", "6")]
