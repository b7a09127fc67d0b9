"""How hard the property tests push: a few seconds in `make test`, much longer in `make fuzz`
(COMPANION_FUZZ_EXAMPLES=...). Each test tallies how every input ended (`tally`); the table of
bad inputs per interface is printed at the end of the run (conftest's terminal summary)."""
import collections
import os

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("COMPANION_FUZZ_EXAMPLES", "100"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 100,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
# Decoding and reading a photo takes ~0.1-0.5 s: a third as many of those.
FUZZ_IMAGES = settings(FUZZ, max_examples=max(40, EXAMPLES // 3))

# interface -> how an input ended -> count ("refused" = the clean error the docs promise)
TALLY: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)


def damaged(draw, whole: bytes, field) -> tuple[str, bytes]:
    """`whole` (a good file) as a power cut or a hand edit can leave it, and how: one line replaced by
    any text, one line's field changed (`field(draw, line) -> line`), bytes put in anywhere, or the
    file cut short. For a hypothesis composite strategy (`draw`)."""
    how = draw(st.sampled_from(["line", "bytes", "cut", "field"]))
    data = whole
    lines = data.split(b"\n")
    n = draw(st.integers(0, len(lines) - 2))
    if how == "line":
        lines[n] = draw(st.text(max_size=40)).encode("utf-8", "surrogatepass")
        data = b"\n".join(lines)
    elif how == "field":
        lines[n] = field(draw, lines[n])
        data = b"\n".join(lines)
    elif how == "bytes":
        at = draw(st.integers(0, len(data)))
        data = data[:at] + draw(st.binary(min_size=1, max_size=8)) + data[at:]
    else:
        data = data[:draw(st.integers(0, len(data)))]
    return how, data


def tally(interface: str, outcome: str) -> None:
    TALLY[interface][outcome] += 1


def report() -> list[str]:
    """The closing note's table: per interface, inputs tried and how they ended."""
    if not TALLY:
        return []
    lines = [f"{'interface':<22} {'inputs':>7}  outcomes"]
    for interface, outcomes in sorted(TALLY.items()):
        ends = ", ".join(f"{name} {n}" for name, n in outcomes.most_common())
        lines.append(f"{interface:<22} {sum(outcomes.values()):>7}  {ends}")
    return lines
