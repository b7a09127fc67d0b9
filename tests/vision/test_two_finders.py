"""vision.model.TwoFinders: a second detector file's boxes added where the first file boxed no die,
loaded from the first file's .json (second_finder), with the shipped detector as both files."""
import json
import shutil

import pytest

from vision.classify import ModelError
from vision.model import DEFAULT_DETECTOR, DiceModel, TwoFinders, load_detector
from vision.reader import DiceReader

from .helpers import scene


def _pair(tmp_path, first_find_from=None, **second):
    """The shipped file in tmp_path, its .json naming a copy of itself as the second finder."""
    first = tmp_path / DEFAULT_DETECTOR.name
    shutil.copy(DEFAULT_DETECTOR, first)
    shutil.copy(DEFAULT_DETECTOR, tmp_path / "second.tflite")
    meta = json.loads(DEFAULT_DETECTOR.with_suffix(".json").read_text())
    if first_find_from is not None:
        meta["find_from"] = first_find_from
    meta["second_finder"] = {"file": "second.tflite", "find_from": 0.2, "flip": True, **second}
    first.with_suffix(".json").write_text(json.dumps(meta))
    return first


def _boxes(dets):
    return sorted(d.box for d in dets)


@pytest.fixture(scope="module")
def tray():
    return scene(4242, 9).image


def test_without_second_finder_the_detector_is_the_file_alone():
    assert isinstance(load_detector(), DiceModel)


def test_a_second_finder_that_sees_what_the_first_sees_adds_no_box(tmp_path, tray):
    two = load_detector(_pair(tmp_path))
    assert isinstance(two, TwoFinders)
    alone = DiceModel(DEFAULT_DETECTOR).detect(tray)
    assert len(alone) >= 5
    assert _boxes(two.detect(tray)) == _boxes(alone)


def test_the_second_finder_boxes_the_dice_the_first_missed_once_each(tmp_path, tray):
    # The first file held to strong peaks keeps some dice; the second (the same file at 0.2)
    # adds the others, never a second box on a die the first kept.
    two = load_detector(_pair(tmp_path, first_find_from=0.55))
    first = two.first.detect(tray)
    everything = DiceModel(DEFAULT_DETECTOR, find_from=0.2, flip=True).detect(tray)
    assert 0 < len(first) < len(everything)
    assert _boxes(two.detect(tray)) == _boxes(everything)


def test_the_first_files_dice_are_judged_at_its_json_find_from_whatever_is_asked(tmp_path, tray):
    # calibrate reads at a low find_from and filters by strength later: the boxes added are those
    # read() adds at the .json's find_from.
    two = load_detector(_pair(tmp_path))
    low = two.detect(tray, 0.05)
    kept = [d for d in low if d.strength >= 0.2]
    assert _boxes(kept) == _boxes(two.detect(tray))


def test_find_from_and_flip_set_on_the_pair_are_the_first_files(tmp_path):
    two = load_detector(_pair(tmp_path), find_from=0.1, flip=False)
    assert (two.first.find_from, two.first.flip, two.second.flip) == (0.1, False, True)
    two.find_from = 0.3
    assert (two.find_from, two.first.find_from, two.second_find_from) == (0.3, 0.3, 0.2)


def test_the_reader_loads_the_pair_from_the_json(tmp_path, tray):
    reader = DiceReader(detector_path=_pair(tmp_path, first_find_from=0.55), keep_crops=False)
    assert isinstance(reader.detector, TwoFinders)
    assert len(reader.read(tray).dice) > len(reader.detector.first.detect(tray))


@pytest.mark.parametrize("change, words", [
    ({"colour": 1}, "no setting 'colour'"),
    ({"flip": "yes"}, "flip must be a bool"),
    ({"find_from": True}, "find_from must be a number"),
    ({"find_from": 0}, "find_from must lie above 0"),
    ({"largest_share": 1.5}, "largest_share must lie above 0"),
    ({"largest_share": "big"}, "largest_share must be a number"),
    ({"file": 3}, "file must be a str"),
])
def test_a_bad_second_finder_setting_is_refused_by_name(tmp_path, change, words):
    with pytest.raises(ModelError, match=words):
        load_detector(_pair(tmp_path, **change))


def test_a_missing_second_finder_file_is_named(tmp_path):
    path = _pair(tmp_path, file="gone.tflite")
    with pytest.raises(ModelError, match="gone.tflite"):
        load_detector(path)


def test_a_second_finder_without_a_file_is_refused(tmp_path):
    path = _pair(tmp_path)
    meta = json.loads(path.with_suffix(".json").read_text())
    del meta["second_finder"]["file"]
    path.with_suffix(".json").write_text(json.dumps(meta))
    with pytest.raises(ModelError, match="needs 'file'"):
        load_detector(path)


def test_largest_share_keeps_the_second_finders_big_boxes_out(tmp_path, tray):
    everything = DiceModel(DEFAULT_DETECTOR, find_from=0.2, flip=True).detect(tray)
    sizes = sorted(max(d.box[2] - d.box[0], d.box[3] - d.box[1]) for d in everything)
    share = (sizes[len(sizes) // 2] + 0.5) / tray.shape[1]
    two = load_detector(_pair(tmp_path, first_find_from=0.55, largest_share=share))
    added = [d for d in two.detect(tray) if d.box not in {k.box for k in two.first.detect(tray)}]
    assert added and all(max(d.box[2] - d.box[0], d.box[3] - d.box[1]) <= share * tray.shape[1] for d in added)
    assert len(two.detect(tray)) < len(everything)
