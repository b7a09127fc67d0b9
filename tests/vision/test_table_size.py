"""vision.table_size: a table learns its dice size from its own reads, and only a reader of one camera's frames
learns (issue 14 round 46). The shipped pair inside, real calib photos (as taken and enlarged) and renders."""
import json
import shutil

import cv2
import pytest

from vision.classify import ModelError
from vision.model import DEFAULT_DETECTOR, Detection, load_detector
from vision.reader import DiceReader
from vision.realdata import closer
from vision.table_size import DiceAtTableSize, TableDiceSize

SIZE = {"typical": 0.12, "peaks_from": 0.4, "most": 2.5, "boxes": 60, "least": 8}


def _copy(tmp_path, table_size, **more):
    """The shipped pair in tmp_path, its .json naming table_size (None: none) and more."""
    first = tmp_path / DEFAULT_DETECTOR.name
    shutil.copy(DEFAULT_DETECTOR, first)
    meta = json.loads(DEFAULT_DETECTOR.with_suffix(".json").read_text())
    shutil.copy(DEFAULT_DETECTOR.parent / meta["second_finder"]["file"], tmp_path)
    meta.pop("table_size", None)
    if table_size is not None:
        meta["table_size"] = table_size
    first.with_suffix(".json").write_text(json.dumps({**meta, **more}))
    return first


@pytest.fixture(scope="module")
def calib():
    from vision.realdata import SETS, photos
    shots = [(cv2.imread(str(shot.path)), shot.dice) for name in SETS for shot in photos(name, "calib")[:6]]
    if not shots:
        pytest.skip("the shared real dice photos are not on this machine")
    return shots


def _die(side, peak=0.9):
    return Detection(3, 0.9, (10, 10, 10 + side, 10 + side), peak=peak)


def test_the_size_is_the_median_sure_box_once_enough_are_in():
    table = TableDiceSize(typical=0.1, peaks_from=0.4, most=2.5, boxes=5, least=3)
    shape, aspect = (240, 320, 3), 4 / 3
    table.observe([_die(64), _die(64)], shape, aspect)
    assert table.ratio == 1.0                                  # two boxes: not enough to tell
    table.observe([_die(64), _die(300, peak=0.3)], shape, aspect)
    assert table.ratio == pytest.approx(2.0)                   # 64 / 320 = 0.2 of the width, typical 0.1
    table.observe([_die(16)] * 5, shape, aspect)               # the window keeps the last 5 boxes
    assert table.ratio == 1.0
    table.observe([_die(320)] * 5, shape, aspect)
    assert table.ratio == 2.5                                  # at most `most`
    table.forget()
    assert table.ratio == 1.0 and not table.sides


def test_only_a_reader_of_one_table_learns(tmp_path):
    path = _copy(tmp_path, SIZE)
    assert isinstance(load_detector(path, one_table=True), DiceAtTableSize)
    assert not isinstance(load_detector(path), DiceAtTableSize)
    assert not isinstance(DiceReader(detector_path=path, keep_crops=False).detector, DiceAtTableSize)
    learning = DiceReader(detector_path=path, keep_crops=False, one_table=True)
    assert isinstance(learning.detector, DiceAtTableSize)
    assert learning.detector.find_from == load_detector().find_from
    # The shipped .json names no table_size: the camera's reader is the pair itself.
    assert not isinstance(load_detector(one_table=True), DiceAtTableSize)


def test_the_dice_camera_reads_as_one_table(tmp_path, monkeypatch):
    import vision.model
    from companion.dice_camera import DiceCamera
    monkeypatch.setattr(vision.model, "DEFAULT_DETECTOR", _copy(tmp_path, SIZE))   # the camera reads the default
    camera = DiceCamera("sim:", lambda event: None)
    assert isinstance(camera._reader().reader.detector, DiceAtTableSize)


def test_a_table_of_ordinary_dice_reads_exactly_as_the_pair(tmp_path, calib):
    learning = load_detector(_copy(tmp_path, {**SIZE, "typical": 0.15, "least": 3}), one_table=True)
    pair = load_detector()
    for image, _ in calib[:6]:                                 # tilted-webcam: sure boxes about 0.12 of the width
        assert learning.detect(image) == pair.detect(image)
    assert len(learning.table.sides) >= 3 and learning.table.ratio == 1.0


def test_a_table_of_big_dice_learns_to_shrink_and_its_boxes_land_on_its_dice(tmp_path, calib):
    from vision.realdata import score_frame
    learning = DiceReader(detector_path=_copy(tmp_path, {**SIZE, "least": 3}), keep_crops=False, one_table=True)
    enlarged = [closer(2.0)(image, dice) for image, dice in calib[:6]]   # tilted-webcam, dice twice as big
    for image, dice, partial in enlarged:
        learning.read(image)
    assert learning.detector.table.ratio > 1.3
    counts = [score_frame(learning.read(image), dice, partial) for image, dice, partial in enlarged]
    assert sum(c["found"] for c in counts) >= 0.9 * sum(c["dice"] for c in counts)   # boxes scaled back onto dice


@pytest.mark.parametrize("change, words", [
    ({"boxes": 60.0}, "boxes must be a whole number"),
    ({"least": True}, "least must be a whole number"),
    ({"typical": "0.1"}, "typical must be a number"),
    ({"typical": 0.0}, "typical must lie above 0"),
    ({"most": 0.5}, "most must be at least 1"),
    ({"least": 61}, "least must lie between 1 and boxes (60)"),
    ({"largest": 0.1}, "has no setting 'largest'"),
])
def test_a_bad_table_size_is_refused_by_name(tmp_path, change, words):
    with pytest.raises(ModelError, match="table_size") as caught:
        load_detector(_copy(tmp_path, {**SIZE, **change}), one_table=True)
    assert words in str(caught.value)


def test_a_table_size_missing_a_setting_or_beside_a_die_size_is_refused(tmp_path):
    with pytest.raises(ModelError, match="needs 'least'"):
        load_detector(_copy(tmp_path, {k: v for k, v in SIZE.items() if k != "least"}))
    with pytest.raises(ModelError, match="names both die_size and table_size"):
        load_detector(_copy(tmp_path, SIZE, die_size={"typical": 0.1, "peaks_from": 0.4, "most": 2.5}))
