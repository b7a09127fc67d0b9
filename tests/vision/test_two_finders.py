"""vision.two_finders.TwoFinders: a second detector file's boxes added where the first file boxed no die,
loaded from the first file's .json (second_finder): the shipped pair (models/dice_detector.tflite
with models/dice_detector_384.tflite) on a rendered tray shrunk to small dice, and the shipped file
as its own second finder."""
import json
import shutil
from dataclasses import replace

import cv2
import numpy as np
import pytest

from vision.classify import ModelError
from vision.model import DEFAULT_DETECTOR, Detection, DiceModel, _in_middle, detector_files, load_detector
from vision.two_finders import SUPPORT_FLOOR, TwoFinders
from vision.reader import DiceReader

from .helpers import scene


def _copy(tmp_path, **second):
    """The shipped pair in tmp_path, its second_finder changed by second (file: any name beside it)."""
    first = tmp_path / DEFAULT_DETECTOR.name
    shutil.copy(DEFAULT_DETECTOR, first)
    meta = json.loads(DEFAULT_DETECTOR.with_suffix(".json").read_text())
    shutil.copy(DEFAULT_DETECTOR.parent / meta["second_finder"]["file"], tmp_path)
    shutil.copy(DEFAULT_DETECTOR, tmp_path / "same.tflite")
    meta["second_finder"] = {**meta["second_finder"], **second}
    first.with_suffix(".json").write_text(json.dumps(meta))
    return first


def _boxes(dets):
    return sorted(d.box for d in dets)


def _side(d):
    return max(d.box[2] - d.box[0], d.box[3] - d.box[1])


@pytest.fixture(scope="module")
def small_dice():
    """Nine rendered trays of 4 dice shrunk into one 640x480 frame: dice a third of their size, as a
    camera three times higher sees them."""
    tiles = [cv2.resize(scene(900 + i, 4).image, (213, 160), interpolation=cv2.INTER_AREA) for i in range(9)]
    frame = np.zeros((480, 640, 3), np.uint8)
    for i, tile in enumerate(tiles):
        frame[(i // 3) * 160:(i // 3) * 160 + 160, (i % 3) * 213:(i % 3) * 213 + 213] = tile
    return frame


# The tests of what the second file adds read the shipped pair at the first file's floor of rounds 36d-40
# (since round 42 it is 0.175, where the first file finds more of small_dice itself) and keep every
# first-file box (agree_from 0): agreement, which may drop first-file boxes, has tests of its own.
ADDING = {"find_from": 0.2}


@pytest.fixture(scope="module")
def pair():
    two = load_detector(**ADDING)
    two.agree_from = 0.0
    return two


def test_the_shipped_reader_reads_with_the_pair_and_a_json_without_one_is_the_file_alone(tmp_path):
    assert isinstance(DiceReader(keep_crops=False).detector, TwoFinders)
    path = _copy(tmp_path)
    meta = json.loads(path.with_suffix(".json").read_text())
    del meta["second_finder"]
    path.with_suffix(".json").write_text(json.dumps(meta))
    assert type(load_detector(path)) is DiceModel


def test_the_second_finder_adds_small_dice_and_never_doubles_a_first_box(pair, small_dice):
    first = pair.first.detect(small_dice)
    both = pair.detect(small_dice)
    added = both[len(first):]
    assert both[:len(first)] == first and len(added) >= 2
    assert all(_side(d) <= pair.largest_share * small_dice.shape[1] for d in added)
    assert not any(_in_middle(d.box, k.box, 0.8) or _in_middle(k.box, d.box, 0.8) for d in added for k in first)


def test_a_second_finder_that_sees_what_the_first_sees_adds_no_box(tmp_path, small_dice):
    same = load_detector(_copy(tmp_path, file="same.tflite", largest_share=1.0, agree_from=0.0), **ADDING)
    assert same.detect(small_dice) == same.first.detect(small_dice)


def test_largest_share_keeps_the_second_finders_bigger_boxes_out(tmp_path, pair, small_dice):
    added = pair.detect(small_dice)[len(pair.first.detect(small_dice)):]
    share = (sorted(_side(d) for d in added)[len(added) // 2] - 0.5) / small_dice.shape[1]
    tight = load_detector(_copy(tmp_path, largest_share=share, only_near_small=False, agree_from=0.0), **ADDING)
    fewer = tight.detect(small_dice)[len(tight.first.detect(small_dice)):]
    assert 0 < len(fewer) < len(added) and all(_side(d) <= share * small_dice.shape[1] for d in fewer)


@pytest.mark.parametrize("find_from", [0.2, 0.3, 0.45])
def test_calibration_looks_at_a_low_floor_read_as_the_reader_at_any_find_from(pair, small_dice, find_from):
    """vision.train.calibrate reads a photo once at its lowest find_from and keeps boxes by strength:
    the second finder's boxes it keeps must be those read() adds at that find_from."""
    looker = DiceReader(detector=load_detector(find_from=0.1), keep_crops=False)
    live = DiceReader(detector=load_detector(find_from=find_from), classifier=looker.classifier, keep_crops=False)
    looked = [(d.face, round(d.confidence, 5), d.box)
              for d in looker.dice_from_looks(looker.looks(small_dice), find_from, live.drop_from, live.recheck_below)]
    read = [(d.face, round(d.confidence, 5), d.box) for d in live.read(small_dice).dice]
    assert looked == read
    # The looks hold second boxes a first box at find_from doubles: the test shows the bookkeeping.
    assert any(d.blocked >= find_from for d in looker.detector.candidates(small_dice))


def test_find_from_and_flip_set_on_the_pair_are_the_first_files(tmp_path):
    two = load_detector(_copy(tmp_path), find_from=0.1, flip=False)
    assert (two.first.find_from, two.first.flip, two.second.flip) == (0.1, False, True)
    own = json.loads(DEFAULT_DETECTOR.with_suffix(".json").read_text())["second_finder"]["find_from"]
    two.find_from = 0.3
    assert own != 0.3 and (two.find_from, two.first.find_from, two.second_find_from) == (0.3, 0.3, own)


@pytest.mark.parametrize("change, words", [
    ({"colour": 1}, "no setting 'colour'"),
    ({"flip": "yes"}, "flip must be a bool"),
    ({"find_from": True}, "find_from must be a number"),
    ({"find_from": 0}, "find_from must lie above 0"),
    ({"largest_share": 1.5}, "largest_share must lie above 0"),
    ({"largest_share": "big"}, "largest_share must be a number"),
    ({"file": 3}, "file must be a str"),
    ({"only_near_small": "yes"}, "only_near_small must be a bool"),
    ({"agree_from": "high"}, "agree_from must be a number"),
    ({"agree_from": 1.5}, "agree_from must lie between 0 and 1"),
    ({"file": "gone.tflite"}, "gone.tflite does not exist"),
])
def test_a_bad_second_finder_setting_is_refused_by_name(tmp_path, change, words):
    with pytest.raises(ModelError, match=words):
        load_detector(_copy(tmp_path, **change))


def test_a_second_finder_without_a_file_is_refused(tmp_path):
    path = _copy(tmp_path)
    meta = json.loads(path.with_suffix(".json").read_text())
    del meta["second_finder"]["file"]
    path.with_suffix(".json").write_text(json.dumps(meta))
    with pytest.raises(ModelError, match="needs 'file'"):
        load_detector(path)


@pytest.fixture(scope="module")
def big_dice():
    return scene(4242, 9).image


def _near_small(tmp_path):
    # Every first-file box kept (agree_from 0), so the second file is read only for the dice it may add.
    return load_detector(_copy(tmp_path, only_near_small=True, agree_from=0.0), **ADDING)


def test_only_near_small_reads_the_second_file_where_the_first_found_small_dice(tmp_path, pair, small_dice,
                                                                                big_dice):
    near = _near_small(tmp_path)
    reads = []
    detect = near.second.detect
    near.second.detect = lambda *a, **k: reads.append(1) or detect(*a, **k)   # counts the real file's reads
    assert not any(near._small(d, big_dice) for d in near.first.detect(big_dice))
    assert _boxes(near.detect(big_dice)) == _boxes(near.first.detect(big_dice)) and reads == []
    assert _boxes(near.detect(small_dice)) == _boxes(pair.detect(small_dice)) and reads == [1]
    blank = np.full((480, 640, 3), 128, np.uint8)   # no die found: the second file looks
    near.detect(blank)
    assert reads == [1, 1]


@pytest.mark.parametrize("find_from", [0.2, 0.3, 0.45])
def test_only_near_small_looks_read_as_the_reader(tmp_path, small_dice, big_dice, find_from):
    looker = DiceReader(detector=load_detector(_copy(tmp_path, only_near_small=True), find_from=0.1),
                        keep_crops=False)
    live = DiceReader(detector=load_detector(_copy(tmp_path, only_near_small=True), find_from=find_from),
                      classifier=looker.classifier, keep_crops=False)
    for frame in (small_dice, big_dice):
        looked = [(d.face, round(d.confidence, 5), d.box) for d in
                  looker.dice_from_looks(looker.looks(frame), find_from, live.drop_from, live.recheck_below)]
        assert looked == [(d.face, round(d.confidence, 5), d.box) for d in live.read(frame).dice]


def test_a_second_box_is_read_where_it_is_strong_enough_doubles_nothing_as_strong_and_the_gate_is_open():
    box = Detection(1, 0.5, (0, 0, 10, 10), peak=0.4)
    assert box.read_at(0.3) and not box.read_at(0.45)                       # its own strength
    assert not replace(box, blocked=0.35).read_at(0.3)                      # a first die at 0.35 holds it
    assert replace(box, blocked=0.25).read_at(0.3)                          # one under the find_from does not
    near = replace(box, opens=(0.2, 0.6))     # the strongest small first die 0.2, the strongest die 0.6
    assert near.read_at(0.2) and not near.read_at(0.3)                      # small dice found at 0.2 only
    assert replace(box, opens=(0.0, 0.25)).read_at(0.3)                     # no die at all at 0.3: it looks


def test_detector_files_names_what_load_detector_reads(tmp_path):
    two = load_detector()
    assert detector_files() == [DEFAULT_DETECTOR, two.second.model_path]
    with pytest.raises(ModelError, match="no setting 'colour'"):
        detector_files(_copy(tmp_path, colour=1))


def test_calibrate_chooses_the_second_finders_settings_and_the_reader_then_reads_as_it_counted(tmp_path):
    """calibrate(second_finds=..., agrees=...) (issue 14 rounds 37b and 40): each pair of values' reader
    calibrated in full; the one kept, written to the .json as --write writes it, reads the calib split
    exactly as calibrate counted."""
    from vision.realdata import SETS, photos, score_photo
    from vision.train.calibrate import FLIPS, calibrate, reader_settings
    path = _copy(tmp_path)
    lines = []
    chosen = calibrate(path, log=lines.append, sources=("reader",), flips=FLIPS["yes"], find_from=0.2,
                       second_finds=(0.2, 0.95), agrees=(0.0, 0.2))
    assert chosen["second_find_from"] in (0.2, 0.95) and chosen["agree_from"] in (0.0, 0.2)
    assert chosen["find_from"] == 0.2
    assert sum("'second_find_from'" in line and "'agree_from'" in line for line in lines) == 4
    meta = json.loads(path.with_suffix(".json").read_text())
    meta.update(find_from=chosen["find_from"], ask_below=chosen["ask_below"], flip=True, **reader_settings(chosen))
    meta["second_finder"] = {**meta["second_finder"], "find_from": chosen["second_find_from"],
                             "agree_from": chosen["agree_from"]}
    path.with_suffix(".json").write_text(json.dumps(meta))
    reader = DiceReader(detector_path=path, keep_crops=False)
    total = {}
    for name in SETS:
        for shot in photos(name, "calib"):
            for k, v in score_photo(reader.read(cv2.imread(str(shot.path))), shot.dice).items():
                total[k] = total.get(k, 0) + v
    assert total == {k: v for k, v in chosen["figures"].items() if k != "photos"}


def test_calibrate_refuses_a_second_finders_setting_without_a_second_finder_or_for_other_faces(tmp_path):
    from vision.train.calibrate import calibrate
    alone = tmp_path / "alone.tflite"
    shutil.copy(DEFAULT_DETECTOR, alone)
    meta = json.loads(DEFAULT_DETECTOR.with_suffix(".json").read_text())
    del meta["second_finder"]
    alone.with_suffix(".json").write_text(json.dumps(meta))
    with pytest.raises(ValueError, match="names no second_finder"):
        calibrate(alone, log=lambda *_: None, sources=("reader",), second_finds=(0.2,))
    with pytest.raises(ValueError, match="names no second_finder"):
        calibrate(alone, log=lambda *_: None, sources=("reader",), agrees=(0.2,))
    with pytest.raises(ValueError, match="reader's faces only"):
        calibrate(DEFAULT_DETECTOR, log=lambda *_: None, sources=("model",), second_finds=(0.2,))
    with pytest.raises(ValueError, match="reader's faces only"):
        calibrate(DEFAULT_DETECTOR, log=lambda *_: None, sources=("reader",), agrees=(0.2,),
                  finder={"find_from": 0.2, "drop_from": 0.8, "recheck_below": 0.9, "flip": True})


def _calib_photos(count=12):
    from vision.realdata import SETS, photos
    return [cv2.imread(str(shot.path)) for name in SETS for shot in photos(name, "calib")[:count // len(SETS)]]


@pytest.fixture(scope="module")
def calib_frames():
    frames = _calib_photos()
    if not frames:
        pytest.skip("the shared real dice photos are not on this machine")
    return frames


def test_agree_from_keeps_the_first_files_boxes_the_second_file_backs_and_adds_the_same(tmp_path, calib_frames,
                                                                                      small_dice):
    """agree_from (issue 14 round 40): a first-file box stays where the mean of its peak and the second file's
    strongest peak on it reaches agree_from, any box at least twice as strong stays, and the second file
    adds what it added before. Checked against the second file's own peaks on real calib photos."""
    agree = 0.2
    pair = load_detector(_copy(tmp_path, agree_from=0.0))
    strict = load_detector(_copy(tmp_path, agree_from=agree))
    assert strict.agree_from == agree and pair.agree_from == 0.0
    dropped = 0
    for frame in calib_frames + [small_dice]:
        first, before, after = pair.first.detect(frame), pair.detect(frame), strict.detect(frame)
        kept = after[:len(after) - (len(before) - len(first))]
        assert after[len(kept):] == before[len(first):]                    # the same boxes added
        assert all(d in kept for d in first if d.strength >= 2 * agree)    # strong boxes stay whatever
        assert [d for d in first if d in kept] == kept                     # nothing but first boxes, in order
        peaks = strict.second.detect(frame, SUPPORT_FLOOR)
        for d in first:
            backing = [s.strength for s in peaks if _holds_centre(d.box, s.box) or _holds_centre(s.box, d.box)]
            assert (d in kept) == ((d.strength + max(backing, default=0.0)) / 2 >= agree)
            dropped += d not in kept
    assert dropped >= 1


def _holds_centre(box, other):
    cx, cy = (other[0] + other[2]) / 2, (other[1] + other[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


@pytest.mark.parametrize("find_from", [0.2, 0.3])
def test_agree_from_looks_read_as_the_reader(tmp_path, small_dice, calib_frames, find_from):
    """calibrate reads each photo once (the first boxes carry the second file's support) and chooses
    agree_from from the looks: they must give what read() gives."""
    looker = DiceReader(detector=load_detector(_copy(tmp_path, agree_from=0.2), find_from=0.1), keep_crops=False)
    live = DiceReader(detector=load_detector(_copy(tmp_path, agree_from=0.2), find_from=find_from),
                      classifier=looker.classifier, keep_crops=False)
    for frame in calib_frames + [small_dice]:
        looked = [(d.face, round(d.confidence, 5), d.box) for d in
                  looker.dice_from_looks(looker.looks(frame), find_from, live.drop_from, live.recheck_below)]
        assert looked == [(d.face, round(d.confidence, 5), d.box) for d in live.read(frame).dice]


def test_a_first_box_is_read_where_its_peak_and_the_second_files_reach_agree_from():
    weak = Detection(1, 0.9, (0, 0, 10, 10), peak=0.22)
    assert weak.read_at(0.2) and weak.read_at(0.2, 0.2)                     # no support looked at: kept
    assert not replace(weak, support=0.0).read_at(0.2, 0.2)                 # nothing of the second's there
    assert replace(weak, support=0.18).read_at(0.2, 0.2)                    # (0.22 + 0.18) / 2 = 0.2
    assert replace(weak, support=0.0).read_at(0.2, 0.0)                     # agree_from 0: every box
    assert replace(weak, support=0.0, peak=0.4).read_at(0.2, 0.2)           # twice agree_from: alone


def test_passes_are_the_frames_own_maps_and_raws_average_with_the_mirrored_frame(calib_frames):
    model = DiceModel(flip=True)
    (heat, box, face), mirrored = model.passes(calib_frames[0])
    raw = model.raw(calib_frames[0])
    assert all(np.array_equal(a, b) for a, b in zip(raw, mirrored)) and np.array_equal(mirrored[1], box)
    assert not np.array_equal(raw[0], heat)
    alone, none = model.passes(calib_frames[0], mirror=False)
    assert none is None and all(np.array_equal(a, b) for a, b in zip(alone, (heat, box, face)))
    model.flip = False
    assert all(np.array_equal(a, b) for a, b in zip(model.raw(calib_frames[0]), (heat, box, face)))
