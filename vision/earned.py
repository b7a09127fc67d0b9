"""A table earns a looser asking pair from its own checked reads (issue 15: asking, not guessing).

The embedding's pair (far_below, close_below in its .json) is chosen so that real pip photos of
other tables stay under 0.2 % silent misreads, so it asks about most dice: about four in five on
rendered Centerville trays, however many faces the table has taught (bench/icon_dice_play.py).
But every roll the players enter checks the camera's reads of this table's own dice, under its own
camera and light: a die asked is answered, a die read surely stands or is corrected. This module
keeps those checked reads beside the taught examples and lets the reader ask by a looser pair once
the table's own reads show, with 95 % confidence, that the looser pair would have let fewer than
0.5 % of them through wrong (issue 15's silent-misread target).

The looser pairs are a fixed ladder below the model's pair (LADDER_STEP), tested in order (a
fixed-sequence test, so trying several steps does not spend the confidence): a step is earned
when the Clopper-Pearson upper bound on (its silent misreads) / (reads) is under SILENT_BOUND, and
every step before it was earned. With no misread among them, 598 reads earn a step (about 100
rolls of six dice); one confident misread needs 947. Only the last WINDOW (1,000) checked reads
count, so a camera that starts to misread (a new lamp) loses its looser pair after two corrections.

    CheckedReads(path)           the table's checked reads on disk, one line each
        .add(reads) / .records() / .earned(far, close) / .earned_below(ask_below) / .clear()
    earned_pair(records, base)   -> Earned(thresholds, step, reads, misreads)
    earned_below(records, base)  -> EarnedBelow(ask_below, step, reads, misreads): pip dice
    upper_bound(errors, n)       the one-sided Clopper-Pearson bound on a rate

Pip dice (issue 14) earn the same way, by one threshold: the pip reader asks about a die whose
classifier confidence is under its `ask_below`, chosen so that photos of new tables stay under
0.5 % silent misreads, which asks about one die in three at a new table. Their ladder is PIP_RUNGS
(models/DETECTOR_ROUNDS.md, round 53); a pip read has no margin (its field is left empty).

Only reads whose asking the pair alone decided are kept: a die asked for an untaught face or an
unsure colour is asked under any pair. A die read surely and let stand counts as read right; a
die the players corrected counts as misread, whether it was asked or not.
"""
from __future__ import annotations

import math
import os
from dataclasses import dataclass
from pathlib import Path

__all__ = ["CheckedRead", "CheckedReads", "Earned", "EarnedBelow", "EvidenceError", "LADDER_STEP", "PIP_RUNGS",
           "SILENT_BOUND", "STEPS", "WINDOW", "earned_below", "earned_pair", "upper_bound"]

# Fixed before any measurement (session 32), not tuned on photos: five steps, each 0.025 lower
# on the best face's score and 0.06 on the runner-up's margin. The last, (0.8, 0.13) under the
# shipped (0.925, 0.43) (session 35's model), still asks about a die whose two faces come within 0.13.
LADDER_STEP = (0.025, 0.06)
STEPS = 5
SILENT_BOUND = 0.005  # issue 15: silent misreads under 0.5 %
# Pip dice: fixed before any measurement (session 55, models/DETECTOR_ROUNDS.md round 53), below
# the shipped ask_below 0.9997488; rungs at or above a reader's own threshold are skipped.
PIP_RUNGS = (0.9995, 0.999, 0.998, 0.995, 0.99)
# The bound is taken over the most recent reads only: a table's lamp or camera can change, and
# over all its history a long-played table would need many corrections before its looser pair
# went back; over the last 1,000, two corrections take it back (one keeps the bound at 0.47 %).
WINDOW = 1000
CONFIDENCE = 0.95
# Checked reads with none wrong that earn a first step: 1 - 0.05 ** (1 / 598) < 0.005 (upper_bound).
CLEAN_READS = 598
HEADER = "score,margin,right,read,face"


class EvidenceError(ValueError):
    """The checked-reads file holds a line that is not a checked read (line and field named)."""


@dataclass(frozen=True)
class CheckedRead:
    """One die the camera read and the players checked: the best face's score, its margin over
    the runner-up face (None for a pip die: its reader gives none), whether the read face was the
    face entered, and both faces."""
    score: float
    margin: float | None
    right: bool
    read: str = ""
    face: str = ""

    def line(self) -> str:
        # Pip confidences sit within 0.0003 of 1 (a float softmax): four decimals would round
        # every one of them onto the rungs.
        score = f"{self.score:.4f}" if self.margin is not None else f"{self.score:.7f}"
        margin = "" if self.margin is None else f"{self.margin:.4f}"
        return f"{score},{margin},{int(self.right)},{self.read},{self.face}"


def _parse(text: str, where: str) -> CheckedRead:
    fields = text.split(",")
    if len(fields) != 5:
        raise EvidenceError(f"{where}: expected 5 fields ({HEADER}), found {len(fields)}.")
    values = []
    for name, value in zip(("score", "margin"), fields[:2]):
        if name == "margin" and value == "":
            values.append(None)  # a pip die's read: no margin
            continue
        try:
            number = float(value)
        except ValueError:
            raise EvidenceError(f"{where}: field {name} is {value!r}, not a number.") from None
        if not math.isfinite(number):
            raise EvidenceError(f"{where}: field {name} is {value!r}, not a finite number.")
        values.append(number)
    if fields[2] not in ("0", "1"):
        raise EvidenceError(f"{where}: field right is {fields[2]!r}, not 0 or 1.")
    return CheckedRead(values[0], values[1], fields[2] == "1", fields[3], fields[4])


class CheckedReads:
    """The checked reads of one table, a text file of one line per read (appended, never
    rewritten). A line cut short by a power cut (the last one, with no line end) is skipped; any
    other line that is not a checked read raises EvidenceError naming its line and field."""

    def __init__(self, path: Path | str):
        self.path = Path(path)
        self.version = 0  # bumped on every change (readers earn their pair again)
        self._records: list[CheckedRead] | None = None
        self._earned: tuple[tuple, object] | None = None  # (version, how, base) -> what they earn

    def records(self) -> list[CheckedRead]:
        """The last WINDOW checked reads, oldest first (the file keeps them all; only these count,
        so a table's years of play are not all held in memory)."""
        if self._records is None:
            self._records = self._load()[-WINDOW:]
        return list(self._records)

    def _load(self) -> list[CheckedRead]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return []
        except UnicodeDecodeError as exc:
            raise EvidenceError(f"{self.path}: not a text file of checked reads ({exc.reason}).") from None
        lines = text.split("\n")
        torn = lines.pop()  # "" when the file ends with a line end, else a line cut short
        out = []
        for number, line in enumerate(lines, 1):
            if number == 1 and line == HEADER or not line.strip():
                continue
            out.append(_parse(line.strip(), f"{self.path}, line {number}"))
        if torn.strip():
            try:
                out.append(_parse(torn.strip(), ""))
            except EvidenceError:
                pass  # a power cut in the middle of the last line: that read is lost, no other
        return out

    def add(self, reads) -> None:
        """Append checked reads, flushed to disk before returning."""
        reads = list(reads)
        if not reads:
            return
        current = self.records()  # a malformed file raises here, before anything is appended
        self.path.parent.mkdir(parents=True, exist_ok=True)
        new = not self.path.exists() or self.path.stat().st_size == 0
        with open(self.path, "rb+" if not new else "wb") as f:
            lead = ""
            if not new:
                lead = self._mend_tail(f)
            text = lead + (HEADER + "\n" if new else "") + "".join(r.line() + "\n" for r in reads)
            f.write(text.encode("utf-8"))
            f.flush()
            os.fsync(f.fileno())
        self._records = (current + reads)[-WINDOW:]
        self.version += 1

    @staticmethod
    def _mend_tail(f) -> str:
        """Make the file end with a whole line before appending: a last line cut short is ended
        if it is a whole read (what to write first: a line end), else cut off (a fragment no read
        can be made of). Reads only the file's end, never the whole history; leaves f at its end."""
        size = f.seek(0, os.SEEK_END)
        f.seek(size - 1)
        if f.read(1) == b"\n":
            return ""
        start, tail = size, b""
        while start > 0 and b"\n" not in tail:  # back to the start of the last line
            step = min(start, 4096)
            start -= step
            f.seek(start)
            tail = f.read(step) + tail
        cut = start + tail.rfind(b"\n") + 1  # 0 when the file is one unfinished line
        fragment = tail[cut - start:].decode("utf-8", "replace").strip()
        try:
            _parse(fragment, "")
            return "\n"
        except EvidenceError:
            f.truncate(cut)
            f.seek(0, os.SEEK_END)
            return ""

    def earned(self, far_below: float, close_below: float) -> "Earned":
        """The pair these reads earn below (far_below, close_below) (earned_pair), worked out
        again only after the reads change; raises EvidenceError when the file cannot be read."""
        return self._cached(earned_pair, far_below, close_below)

    def earned_below(self, ask_below: float) -> "EarnedBelow":
        """The pip threshold these reads earn under `ask_below` (earned_below), cached as earned."""
        return self._cached(earned_below, ask_below)

    def _cached(self, earn, *base):
        """earn(records, *base), worked out again only when the reads or the base change."""
        key = (self.version, earn, *base)  # taken before reading: reads added meanwhile are earned next time
        if self._earned is None or self._earned[0] != key:
            self._earned = (key, earn(self.records(), *base))
        return self._earned[1]

    def clear(self) -> None:
        """Forget the checked reads (the table cleared its taught dice: a new reader)."""
        self.path.unlink(missing_ok=True)
        self._records = []
        self.version += 1


def _binomial_cdf(errors: int, n: int, p: float) -> float:
    if p <= 0.0:
        return 1.0
    if p >= 1.0:
        return 0.0 if errors < n else 1.0
    lp, lq = math.log(p), math.log1p(-p)
    total = 0.0
    for k in range(errors + 1):
        total += math.exp(math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) + k * lp + (n - k) * lq)
    return total


def upper_bound(errors: int, n: int, confidence: float = CONFIDENCE) -> float:
    """One-sided Clopper-Pearson upper bound on a rate seen as errors of n (1.0 for n = 0)."""
    if n <= 0:
        return 1.0
    if errors >= n:
        return 1.0
    lo, hi = 0.0, 1.0
    for _ in range(60):
        mid = (lo + hi) / 2
        if _binomial_cdf(errors, n, mid) > 1 - confidence:
            lo = mid
        else:
            hi = mid
    return hi


@dataclass(frozen=True)
class Earned:
    """The pair a table asks by: step 0 is the model's own; reads and misreads are what the
    last step tried was judged on (its silent misreads among the table's checked reads)."""
    far_below: float
    close_below: float
    step: int
    reads: int
    misreads: int

    def describe(self) -> str:
        if self.step == 0:
            return f"asks by the model's pair ({self.reads} checked reads{_still_needed(self.reads, 'a looser pair')})"
        return (f"asks by a looser pair, step {self.step} of {STEPS} (far {self.far_below:.3f}, close "
                f"{self.close_below:.2f}), earned by {self.reads} checked reads")


def _still_needed(reads: int, what: str) -> str:
    """What a table still needs to earn `what` ("" once it has enough reads)."""
    return "" if reads >= CLEAN_READS else f"; {what} needs about {CLEAN_READS - reads} more with none wrong"


def silent_at(records, far_below: float, close_below: float) -> int:
    """How many of records a pair would have let through wrong (not asked, face wrong)."""
    return sum(1 for r in records if not r.right and r.score >= far_below
               and (r.margin is None or r.margin >= close_below))


def earned_pair(records, far_below: float, close_below: float, steps: int = STEPS,
                bound: float = SILENT_BOUND) -> Earned:
    """The loosest ladder step under (far_below, close_below) that the last WINDOW records earn,
    each step before it earned too (see the module doc)."""
    records = list(records)[-WINDOW:]
    n = len(records)
    got = Earned(far_below, close_below, 0, n, silent_at(records, far_below, close_below))
    for step in range(1, steps + 1):
        far, close = far_below - step * LADDER_STEP[0], close_below - step * LADDER_STEP[1]
        wrong = silent_at(records, far, close)
        if upper_bound(wrong, n) >= bound:
            break
        got = Earned(round(far, 4), round(close, 4), step, n, wrong)
    return got


@dataclass(frozen=True)
class EarnedBelow:
    """The threshold a table's pip reader asks below: step 0 is the reader's own; reads and
    misreads are what the last step tried was judged on (as Earned)."""
    ask_below: float
    step: int
    reads: int
    misreads: int

    def describe(self) -> str:
        if self.step == 0:
            return (f"asks about pip dice read below {self.ask_below:.5f} ({self.reads} checked reads"
                    f"{_still_needed(self.reads, 'asking about fewer dice')})")
        return (f"asks about pip dice read below {self.ask_below:g}, step {self.step} of its ladder, earned by "
                f"{self.reads} checked reads")


def earned_below(records, ask_below: float, rungs: tuple[float, ...] = PIP_RUNGS,
                 bound: float = SILENT_BOUND) -> EarnedBelow:
    """The lowest of `rungs` under `ask_below` that the last WINDOW records earn, each rung before
    it earned too (the pip dice's ladder; see the module doc)."""
    records = list(records)[-WINDOW:]
    n = len(records)

    def silent(below: float) -> int:
        return sum(1 for r in records if not r.right and r.score >= below)

    got = EarnedBelow(ask_below, 0, n, silent(ask_below))
    for step, rung in enumerate((r for r in rungs if r < ask_below), 1):
        wrong = silent(rung)
        if upper_bound(wrong, n) >= bound:
            break
        got = EarnedBelow(rung, step, n, wrong)
    return got
