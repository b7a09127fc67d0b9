"""Are our dice fair? Each die's camera-read faces against what a fair die gives, by a
chi-square goodness-of-fit test, said in plain words.

A die is named by its colour ("red"); a Centerville die by "Centerville" and its colour, and its
expected counts follow its printed faces (dice.toml: the red die shows "contract" twice).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from companion.engine.dice import PIP_FACES, pip_value

# Below this p-value a die is called biased. Stricter than the usual 0.05: a table checks a
# dozen dice again and again, and at 0.05 one fair die in twenty would be called loaded.
BIASED_BELOW = 0.01
# The chi-square test holds when every face expects at least five rolls.
EXPECTED_PER_FACE = 5
CENTERVILLE = "Centerville "


# -- the chi-square distribution -----------------------------------------------------------------
def chi2_sf(x: float, dof: int) -> float:
    """P(X >= x) for X chi-square with `dof` degrees of freedom: Q(dof/2, x/2), the regularized
    upper incomplete gamma function (series below a + 1, continued fraction above)."""
    if dof < 1:
        raise ValueError(f"degrees of freedom must be at least 1, not {dof}")
    if x <= 0:
        return 1.0
    a, z = dof / 2, x / 2
    log_front = a * math.log(z) - z - math.lgamma(a)
    if z < a + 1:
        term = total = 1 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= z / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1 - total * math.exp(log_front))
    # Lentz's continued fraction for Q(a, z).
    tiny = 1e-300
    b = z + 1 - a
    c, d = 1 / tiny, 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


# -- a die's faces --------------------------------------------------------------------------------
def die_of(label: str, colour: str) -> tuple[str, str]:
    """(die, face) of one read die: a pip face by its number, a Centerville face by its icon."""
    value = pip_value(label)
    if value is not None:
        return colour or "unknown colour", str(value)
    die_colour, _, icon = label.partition("-")
    return CENTERVILLE + die_colour, icon


def dice_of(reading) -> list[tuple[str, str]]:
    """The (die, face) entries of a camera reading (vision.reader.DiceReading) to store."""
    return [die_of(d.label, getattr(d, "color", "")) for d in getattr(reading, "dice", ()) if d.label]


def expected_shares(die: str) -> dict[str, float]:
    """Each face's share of a fair die's rolls."""
    if die.startswith(CENTERVILLE):
        from companion.engine.centerville.dice import default_dice

        dice = default_dice()
        icons = dice.faces[dice.index(die[len(CENTERVILLE):])]
        return {icon: icons.count(icon) / len(icons) for icon in dict.fromkeys(icons)}
    return {str(pip_value(face)): 1 / len(PIP_FACES) for face in PIP_FACES}


@dataclass(frozen=True)
class Verdict:
    die: str
    rolls: int
    counts: dict[str, int]
    expected: dict[str, float]
    chi2: float | None
    p: float | None
    needed: int            # rolls before a verdict can be given
    words: str

    @property
    def biased(self) -> bool:
        return self.p is not None and self.p < BIASED_BELOW


def verdict(die: str, counts: dict[str, int]) -> Verdict:
    shares = expected_shares(die)
    counts = {face: counts.get(face, 0) for face in shares} | {
        f: n for f, n in counts.items() if f not in shares}
    rolls = sum(counts.values())
    expected = {face: rolls * shares.get(face, 0.0) for face in counts}
    needed = math.ceil(EXPECTED_PER_FACE / min(shares.values()))
    strange = [f for f in counts if f not in shares and counts[f]]
    if strange:
        words = (f"{', '.join(strange)} is not a face of this die: the readings are wrong, "
                 f"not the die (correct them when the camera asks).")
        return Verdict(die, rolls, counts, expected, None, None, needed, words)
    if rolls < needed:
        words = (f"Not enough rolls yet: {rolls} of the {needed} a verdict needs "
                 f"(at least {EXPECTED_PER_FACE} expected on every face).")
        return Verdict(die, rolls, counts, expected, None, None, needed, words)
    chi2 = sum((counts[f] - expected[f]) ** 2 / expected[f] for f in shares)
    p = chi2_sf(chi2, len(shares) - 1)
    if p >= BIASED_BELOW:
        words = f"No sign of bias after {rolls} rolls (p = {p:.2f})."
    else:
        face = max(shares, key=lambda f: abs(counts[f] - expected[f]) / math.sqrt(expected[f]))
        more = "more" if counts[face] > expected[face] else "less"
        words = (f"{face} comes up {more} than chance explains after {rolls} rolls "
                 f"({counts[face]} times, {expected[face]:.0f} expected), p {_p(p)}.")
    return Verdict(die, rolls, counts, expected, chi2, p, needed, words)


def _p(p: float) -> str:
    return f"= {p:.3f}" if p >= 0.001 else "< 0.001"


def verdicts(store) -> list[Verdict]:
    """One verdict per die the camera has read, the most-rolled first."""
    counts: dict[str, dict[str, int]] = {}
    for die, face, n in store.rows("SELECT die, face, COUNT(*) FROM rolls GROUP BY die, face"):
        counts.setdefault(die, {})[face] = n
    return sorted((verdict(die, faces) for die, faces in counts.items()), key=lambda v: (-v.rolls, v.die))
