"""A table earns a looser asking pair from its checked reads (vision.earned), kept in a real file
beside the taught examples and used by the real TaughtReader (the shipped embedding)."""
from __future__ import annotations

import pytest

from vision.earned import (PIP_RUNGS, STEPS, CheckedRead, CheckedReads, EvidenceError, earned_below, earned_pair,
                           upper_bound)
from vision.taught import TaughtExamples, TaughtReader

RIGHT = CheckedRead(0.95, 0.6, True, "red-vote", "red-vote")


def test_the_bound_is_clopper_pearson():
    # Under 0.5 % at 95 %: no misread needs 598 reads (1 - 0.05 ** (1 / n) < 0.005), one needs 947.
    assert upper_bound(0, 598) < 0.005 <= upper_bound(0, 597)
    assert upper_bound(1, 947) < 0.005 <= upper_bound(1, 946)
    assert upper_bound(0, 0) == 1.0 and upper_bound(3, 3) == 1.0
    assert upper_bound(5, 100) == pytest.approx(0.1023, abs=2e-4)  # the textbook one-sided figure


def test_no_step_is_earned_before_enough_reads():
    got = earned_pair([RIGHT] * 597, 0.9, 0.44)
    assert (got.step, got.far_below, got.close_below) == (0, 0.9, 0.44)
    assert "1 more" in got.describe()
    got = earned_pair([RIGHT] * 598, 0.9, 0.44)
    assert (got.step, got.far_below, got.close_below) == (STEPS, 0.775, 0.14)
    assert "step 5 of 5" in got.describe()


def test_a_confident_misread_stops_the_ladder_at_its_step():
    # Wrong with margin 0.3: steps 1-2 (close 0.38, 0.32) would still ask it, step 3 (0.26) not.
    wrong = CheckedRead(0.95, 0.3, False, "red-vote", "red-fate")
    got = earned_pair([RIGHT] * 700 + [wrong], 0.9, 0.44)
    assert got.step == 2 and got.misreads == 0
    # Enough reads earn past it: one misread of about 950 is under the bound.
    assert earned_pair([RIGHT] * 960 + [wrong], 0.9, 0.44).step == STEPS
    # A misread the model's own pair let through counts at every step.
    silent = CheckedRead(0.95, 0.5, False, "red-vote", "red-fate")
    assert earned_pair([RIGHT] * 700 + [silent], 0.9, 0.44).step == 0


def test_checked_reads_persist_and_a_torn_last_line_is_mended(tmp_path):
    path = tmp_path / "checked-reads.csv"
    reads = CheckedReads(path)
    reads.add([RIGHT, CheckedRead(0.81, 0.12, False, "black-tree", "black-bench")])
    again = CheckedReads(path).records()
    assert [r.right for r in again] == [True, False] and again[1].face == "black-bench"
    with open(path, "a", encoding="utf-8") as f:
        f.write("0.93,0.4")  # a power cut in the middle of a line
    assert len(CheckedReads(path).records()) == 2
    CheckedReads(path).add([RIGHT])
    assert len(CheckedReads(path).records()) == 3
    assert "0.93,0.4\n" not in path.read_text(encoding="utf-8")
    with open(path, "a", encoding="utf-8") as f:
        f.write("0.9300,0.4000,1,red-vote,red-vote")  # a whole read missing only its line end
    CheckedReads(path).add([RIGHT])
    assert len(CheckedReads(path).records()) == 5


def test_a_malformed_line_is_named_and_nothing_is_appended(tmp_path):
    path = tmp_path / "checked-reads.csv"
    CheckedReads(path).add([RIGHT, RIGHT])
    text = path.read_text(encoding="utf-8").replace("1,red-vote", "yes,red-vote", 1)
    path.write_text(text, encoding="utf-8")
    with pytest.raises(EvidenceError, match=r"line 2: field right is 'yes'"):
        CheckedReads(path).records()
    with pytest.raises(EvidenceError):
        CheckedReads(path).add([RIGHT])
    assert path.read_text(encoding="utf-8") == text  # the file is left as it was
    path.write_text("score,margin,right,read,face\nhigh,0.5,1,a,a\n", encoding="utf-8")
    with pytest.raises(EvidenceError, match="line 2: field score is 'high'"):
        CheckedReads(path).records()


def test_the_reader_asks_by_the_pair_its_table_earned(tmp_path):
    examples = TaughtExamples(tmp_path / "taught")
    reader = TaughtReader(examples, "centerville", detector=object(), find_in_pictures=False)
    model = (reader.model_thresholds.far_below, reader.model_thresholds.close_below)
    assert (reader.thresholds.far_below, reader.thresholds.close_below) == model
    examples.checked.add([RIGHT] * 600)
    assert reader.earned.step == STEPS
    assert reader.thresholds.close_below == pytest.approx(model[1] - STEPS * 0.06)
    examples.clear()  # new dice: a new reader, which earns its own pair
    assert reader.earned.step == 0 and not (tmp_path / "taught" / "checked-reads.csv").exists()


def test_unreadable_checked_reads_fall_back_to_the_model_pair(tmp_path):
    examples = TaughtExamples(tmp_path / "taught")
    (tmp_path / "taught").mkdir()
    (tmp_path / "taught" / "checked-reads.csv").write_text("score,margin,right,read,face\n1,2\n", encoding="utf-8")
    reader = TaughtReader(examples, "centerville", detector=object(), find_in_pictures=False)
    assert reader.earned.step == 0
    assert reader.thresholds.far_below == reader.model_thresholds.far_below
    assert any("checked reads are not used" in p and "line 2" in p for p in examples.problems)
    assert (tmp_path / "taught" / "checked-reads.csv").read_text(encoding="utf-8").endswith("1,2\n")  # kept


def test_only_the_recent_reads_count_so_two_corrections_take_the_looser_pair_back():
    from vision.earned import WINDOW

    corrected = CheckedRead(0.95, 0.6, False, "red-vote", "red-fate")  # read surely, corrected
    history = [RIGHT] * 5000
    assert earned_pair(history + [corrected], 0.9, 0.44).step == STEPS       # one: 0.47 % bound
    assert earned_pair(history + [corrected] * 2, 0.9, 0.44).step == 0       # two: back to the model's pair
    # ... and once they are older than the window, the table earns its looser pair again.
    assert earned_pair(history + [corrected] * 2 + [RIGHT] * WINDOW, 0.9, 0.44).step == STEPS


def test_the_file_keeps_every_read_and_memory_only_the_window(tmp_path):
    from vision.earned import WINDOW

    path = tmp_path / "checked-reads.csv"
    reads = CheckedReads(path)
    wrong = CheckedRead(0.95, 0.6, False, "red-vote", "red-fate")
    reads.add([wrong] + [RIGHT] * (WINDOW + 199))
    assert len(reads.records()) == WINDOW and all(r.right for r in reads.records())
    assert len(CheckedReads(path).records()) == WINDOW
    assert len(path.read_text(encoding="utf-8").splitlines()) == WINDOW + 200 + 1  # and the header


def test_a_torn_line_after_a_long_history_is_mended_from_the_file_s_end(tmp_path):
    path = tmp_path / "checked-reads.csv"
    CheckedReads(path).add([RIGHT] * 300)  # about 9 KB: the end is read back in 4 KB steps
    with open(path, "a", encoding="utf-8") as f:
        f.write("0.93,0.")
    CheckedReads(path).add([RIGHT])
    text = path.read_text(encoding="utf-8")
    assert "0.93,0.\n" not in text and len(text.splitlines()) == 302
    assert len(CheckedReads(path).records()) == 301


PIP = 0.9997488114   # the shipped pip reader's ask_below


def pip(score: float, right: bool = True) -> CheckedRead:
    return CheckedRead(score, None, right, "pip3", "pip3" if right else "pip5")


def test_pip_dice_earn_their_rungs_in_order():
    assert earned_below([pip(0.99999)] * 597, PIP).step == 0
    got = earned_below([pip(0.99999)] * 598, PIP)
    assert (got.step, got.ask_below) == (len(PIP_RUNGS), PIP_RUNGS[-1])
    # One misread read at 0.9992 (under the first rung, at or above the second) among 700: the first
    # rung stands, the second would let it through and 1 in 700 is not shown to be under 0.5 %.
    got = earned_below([pip(0.99999)] * 699 + [pip(0.9992, right=False)], PIP)
    assert (got.step, got.ask_below, got.reads, got.misreads) == (1, 0.9995, 700, 0)
    assert "0.9995, step 1" in got.describe()
    # A misread under every rung is asked by all of them: it costs nothing.
    assert earned_below([pip(0.99999)] * 699 + [pip(0.5, right=False)], PIP).step == len(PIP_RUNGS)
    # Rungs at or above the reader's own threshold are not rungs of its ladder.
    assert earned_below([pip(0.99999)] * 700, 0.998).ask_below == 0.99
    assert earned_below([pip(0.99999)] * 700, 0.998).step == 2


def test_a_pip_read_keeps_its_confidence_to_seven_places_and_no_margin(tmp_path):
    checked = CheckedReads(tmp_path / "pips.csv")
    checked.add([pip(0.99974881), pip(0.9995001, right=False)])
    assert (tmp_path / "pips.csv").read_text().splitlines()[1:] == ["0.9997488,,1,pip3,pip3",
                                                                    "0.9995001,,0,pip3,pip5"]
    again = CheckedReads(tmp_path / "pips.csv").records()
    assert [(r.score, r.margin, r.right) for r in again] == [(0.9997488, None, True), (0.9995001, None, False)]
    assert again[1].score >= PIP_RUNGS[0]                        # not rounded onto the rung
    assert earned_pair(again, 0.9, 0.4).misreads == 1            # no margin: counted as let through
