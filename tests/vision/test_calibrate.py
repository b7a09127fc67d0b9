"""Choosing the reader's ask_below (vision.train.calibrate.choose_ask_below) on the ASK_GRID."""
import numpy as np

from vision.train.calibrate import ASK_GRID, SILENT_COST, choose_ask_below


def figures_of(dice):
    """figures_at for dice given as (confidence, read right): a die under t is asked, a wrong one
    at or above it is a silent misread."""
    def at(t):
        return {"flagged": sum(c < t for c, _ in dice),
                "silent_misreads": sum(c >= t and not right for c, right in dice)}
    return at


def test_grid_keeps_every_hundredth_and_reaches_float32_confidences():
    assert set(np.round(np.arange(0.0, 1.0, 0.01), 3)) <= set(ASK_GRID)
    assert list(ASK_GRID) == sorted(ASK_GRID) and ASK_GRID.max() < 1.0
    # Steps between the int8 ceiling (255/256) and 1, down to a float32 softmax's last digits.
    fine = ASK_GRID[ASK_GRID > 255 / 256]
    assert len(fine) >= 15 and fine.max() >= 1 - 1e-6


def test_int8_confidences_choose_as_the_hundredths_did():
    """An int8 output reads k/256: the fine steps must not move the choice the old grid made."""
    rng = np.random.default_rng(3)
    dice = [(int(k) / 256, bool(r)) for k, r in zip(rng.integers(200, 256, 300), rng.random(300) < 0.9)]
    at = figures_of(dice)
    hundredths = np.round(np.arange(0.0, 1.0, 0.01), 3)
    old = float(min(hundredths, key=lambda t: SILENT_COST * at(t)["silent_misreads"] + at(t)["flagged"]))
    assert choose_ask_below(at) == old


def test_a_misread_just_under_the_right_reads_is_asked_about():
    """A float output that reads the misread at 0.9995 and the right dice at 0.99999 and more:
    only a threshold between them keeps the misread from passing in silence."""
    dice = [(0.9995, False)] + [(0.99999 + 1e-6 * k, True) for k in range(5)] + [(0.5, True)] * 3
    t = choose_ask_below(figures_of(dice))
    assert 0.9995 < t <= 0.99999
    assert figures_of(dice)(t) == {"flagged": 4, "silent_misreads": 0}


def test_reader_settings_keep_the_constants_among_equals():
    """A classifier that gains nothing from other settings keeps today's reading."""
    from vision.reader import DROP_FROM, RECHECK_BELOW
    from vision.train.calibrate import FIND_GRID, choose_reader_settings
    flat = choose_reader_settings(lambda f, d, c: {"correct": 200, "no_die": 9, "doubled": 2})
    assert flat == (FIND_GRID[0], DROP_FROM, RECHECK_BELOW)


def test_reader_settings_maximise_right_minus_the_dice_too_many():
    from vision.train.calibrate import DROP_GRID, RECHECK_GRID, choose_reader_settings

    def figures(find_from, drop_from, recheck_below):
        # More right reads for a lower drop_from, more boxes on no die for a higher one and a low find_from.
        return {"correct": 200 + (drop_from < 0.6) + (recheck_below > 0.96),
                "no_die": 10 + 2 * (drop_from > 0.9) + (find_from < 0.2), "doubled": 1}
    assert choose_reader_settings(figures) == (0.2, 0.55, 0.97)

    def doubling(find_from, drop_from, recheck_below):
        # The same, but a lower find_from reads one more die right and boxes two dice twice: a loss.
        return {**figures(find_from, drop_from, recheck_below), "correct": 201 + (find_from < 0.2),
                "doubled": 1 + 2 * (find_from < 0.2)}
    assert choose_reader_settings(doubling)[0] == 0.2
    assert min(DROP_GRID) == 0.5 and max(DROP_GRID) == 0.95 and 0.7 in DROP_GRID and 0.9 in RECHECK_GRID
    # With every die looked at again, recheck_below has nothing to choose.
    assert choose_reader_settings(figures, "always")[2] == 0.9


def test_a_detector_held_to_one_pass_is_calibrated_without_the_mirrored_frame():
    from pathlib import Path
    from vision.train.calibrate import FLIPS, calibrate
    shipped = Path(__file__).resolve().parents[2] / "models" / "dice_detector.tflite"
    lines = []
    result = calibrate(shipped, log=lines.append, sources=("reader",), flips=FLIPS["no"])
    assert result["flip"] is False
    assert len(lines) == 1 and "mirrored frame too: False" in lines[0]
    assert result["figures"]["correct"] > 150  # it still reads: one pass of 233 calib dice


def test_a_held_find_from_is_kept_and_the_rest_chosen():
    from pathlib import Path
    from vision.train.calibrate import FLIPS, calibrate
    shipped = Path(__file__).resolve().parents[2] / "models" / "dice_detector.tflite"
    free = calibrate(shipped, log=lambda *_: None, sources=("reader",), flips=FLIPS["yes"])
    held = calibrate(shipped, log=lambda *_: None, sources=("reader",), flips=FLIPS["yes"], find_from=0.3)
    assert free["find_from"] != 0.3 and held["find_from"] == 0.3
    assert held["figures"]["found"] < free["figures"]["found"]  # a higher floor finds fewer dice
