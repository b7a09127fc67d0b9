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


def test_with_closer_the_photos_are_read_as_taken_and_enlarged_with_their_labels():
    from vision.train.calibrate import _frames
    taken = _frames("calib", None)
    both = _frames("calib", None, (2.0,))
    assert len(both) == 2 * len(taken) and {look for *_, look in taken} == {"as taken"}
    assert [look for *_, look in both] == ["as taken"] * len(taken) + ["2x"] * len(taken)
    enlarged = both[len(taken):]
    assert all(img.shape == t[0].shape for (img, *_), t in zip(enlarged, taken))
    # The enlarged middle holds fewer whole dice, each twice as wide; the dice it cuts are set apart.
    assert sum(len(d) for _, d, _, _ in enlarged) < sum(len(d) for _, d, _, _ in taken)
    assert any(partial for _, _, partial, _ in enlarged)
    widths = lambda frames: np.median([b[2] - b[0] for _, d, _, _ in frames for _, b in d])  # noqa: E731
    assert 1.8 < widths(enlarged) / widths(taken) < 2.2


def test_with_closer_one_cost_over_every_look_and_each_look_reported():
    from pathlib import Path
    from vision.model import load_detector
    from vision.train.calibrate import FLOOR, _calibrate_reader, _frames
    shipped = Path(__file__).resolve().parents[2] / "models" / "dice_detector.tflite"
    frames = _frames("calib", None, (1.5,))
    n = len(frames) // 2
    few = frames[:4] + frames[n:n + 4]          # four photos, as taken and enlarged
    result = _calibrate_reader(load_detector(shipped, find_from=FLOOR, flip=True), few, True, "calib", None)
    by_look = result["figures_by_look"]
    assert list(by_look) == ["as taken", "1.5x"]
    for key, value in result["figures"].items():
        if key != "photos":
            assert by_look["as taken"][key] + by_look["1.5x"][key] == value
    assert "(4 photos, each as taken and 1.5x," in result["calibrated_on"]
    alone = _calibrate_reader(load_detector(shipped, find_from=FLOOR, flip=True), frames[:4], True, "calib", None)
    assert "figures_by_look" not in alone and "(4 photos," in alone["calibrated_on"]


def test_with_closer_refuses_a_zoom_that_does_not_enlarge(capsys):
    import pytest
    from vision.train.calibrate import main
    with pytest.raises(SystemExit):
        main(["--with-closer", "0.5"])
    assert "--with-closer zooms must be above 1" in capsys.readouterr().err


def test_asking_for_new_tables_takes_the_lowest_ask_below_under_the_silent_line():
    from vision.train.calibrate import SILENT_LINE, choose_ask_under
    # 1,000 dice: misreads at 0.99 .. 0.9999, right reads above; the line lets 4 silent misreads through.
    misread = [0.99, 0.995, 0.998, 0.999, 0.9995, 0.9998, 0.9999, 0.99995]
    dice = [(c, False) for c in misread] + [(0.999999, True)] * 992

    def at(t):
        return {**figures_of(dice)(t), "dice": len(dice)}
    t = choose_ask_under(at)
    assert at(t)["silent_misreads"] < SILENT_LINE * 1000 <= at(ASK_GRID[ASK_GRID < t].max())["silent_misreads"]
    assert 0.999 < t <= 0.9995


def test_asking_for_new_tables_says_so_when_no_threshold_meets_the_line():
    import pytest
    from vision.train.calibrate import choose_ask_under
    sure_and_wrong = [(1.0, False)] * 10 + [(1.0, True)] * 90     # read at 1.0: no threshold under 1 asks them
    with pytest.raises(ValueError, match=r"keeps silent misreads under 0.5% of the dice \(10 of 100\)"):
        choose_ask_under(lambda t: {**figures_of(sure_and_wrong)(t), "dice": 100})


def test_new_tables_are_the_photos_as_taken_and_every_change_but_the_camera_turned():
    from vision.shifts import MOSAICS, SHIFTS, TURNED
    from vision.train.calibrate import _new_table_frames
    frames = _new_table_frames("calib")
    looks = list(dict.fromkeys(look for *_, look in frames))
    assert looks[0] == "as taken" and set(looks) == (set(SHIFTS) | set(MOSAICS)) - set(TURNED)
    assert len(TURNED) == 2 and all(t in SHIFTS for t in TURNED)
    taken = [f for f in frames if f[3] == "as taken"]
    assert sum(len(d) for _, d, _, _ in taken) == 233      # calib's labelled dice, both sets


def test_asking_for_new_tables_holds_every_other_setting(capsys):
    import pytest
    from vision.train.calibrate import main
    for extra in (["--with-closer", "2"], ["--flip", "no"], ["--find-from", "0.3"], ["--faces", "model"],
                  ["--faces", "reader", "--choose-agree-from"]):
        with pytest.raises(SystemExit):
            main(["--ask-for-new-tables", *extra])
        assert "--ask-for-new-tables holds every other setting" in capsys.readouterr().err


def test_asking_for_new_tables_keeps_the_held_settings_and_meets_the_line_over_every_look():
    from pathlib import Path
    from vision.model import load_detector
    from vision.train.calibrate import FLOOR, SILENT_LINE, _calibrate_reader, _new_table_frames, choose_ask_under
    shipped = Path(__file__).resolve().parents[2] / "models" / "dice_detector.tflite"
    frames = _new_table_frames("calib")
    few = [f for f in frames if f[3] == "as taken"][:4] + [f for f in frames if f[3] == "blur (sigma 1.5)"][:4]
    held = {"find_from": 0.2, "drop_from": 0.7, "recheck_below": 0.9, "flip": True}
    result = _calibrate_reader(load_detector(shipped, find_from=FLOOR, flip=True), few, True, "calib", None,
                               held=held, choose_ask=choose_ask_under)
    assert {k: result[k] for k in ("find_from", "drop_from", "recheck_below")} == \
        {k: held[k] for k in ("find_from", "drop_from", "recheck_below")}
    f = result["figures"]
    assert f["silent_misreads"] < SILENT_LINE * f["dice"]
    assert list(result["figures_by_look"]) == ["as taken", "blur (sigma 1.5)"]
    assert all(look["photos"] == 4 for look in result["figures_by_look"].values())
