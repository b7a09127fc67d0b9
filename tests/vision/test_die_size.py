"""vision.die_size.DiceAtSize: a frame whose typical die is big is read shrunk, its boxes scaled back (issue 14
rounds 44-44c; no shipped .json names a die_size yet). The shipped pair inside, real calib photos and renders."""
import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision.classify import ModelError
from vision.die_size import DiceAtSize, shrunk
from vision.model import DEFAULT_DETECTOR, load_detector
from vision.reader import DiceReader
from vision.realdata import closer

from .helpers import scene

SIZE = {"typical": 0.1, "peaks_from": 0.4, "most": 2.5}


def _copy(tmp_path, die_size):
    """The shipped pair in tmp_path, its .json naming die_size (None: none)."""
    first = tmp_path / DEFAULT_DETECTOR.name
    shutil.copy(DEFAULT_DETECTOR, first)
    meta = json.loads(DEFAULT_DETECTOR.with_suffix(".json").read_text())
    shutil.copy(DEFAULT_DETECTOR.parent / meta["second_finder"]["file"], tmp_path)
    meta.pop("die_size", None)
    if die_size is not None:
        meta["die_size"] = die_size
    first.with_suffix(".json").write_text(json.dumps(meta))
    return first


# The middle of a frame enlarged twice, its labels carried along: dice twice as big, as a lower camera sees them.
_closer = closer(2.0)


@pytest.fixture(scope="module")
def frames():
    from vision.realdata import SETS, photos
    real = [cv2.imread(str(shot.path)) for name in SETS for shot in photos(name, "calib")[:4]]
    if not real:
        pytest.skip("the shared real dice photos are not on this machine")
    return real + [_closer(f, ())[0] for f in real]


def test_the_json_names_it_and_a_frame_of_ordinary_dice_reads_as_the_pair_inside(tmp_path, frames):
    sized = load_detector(_copy(tmp_path, {**SIZE, "typical": 1.0}))
    pair = load_detector()
    assert isinstance(sized, DiceAtSize) and (sized.typical, sized.peaks_from, sized.most) == (1.0, 0.4, 2.5)
    assert sized.find_from == pair.find_from and sized.agree_from == pair.agree_from
    for frame in frames:
        assert sized.shrink(frame)[0] == 1.0
        assert sized.detect(frame) == pair.detect(frame)


def test_a_frame_of_big_dice_is_read_shrunk_and_its_boxes_land_on_its_dice(tmp_path):
    made = scene(31, 4)
    big, inside, _ = _closer(made.image, [(d.face, d.box) for d in made.dice])
    sized = load_detector(_copy(tmp_path, SIZE))
    ratio, _ = sized.shrink(big)
    assert 1.0 < ratio <= SIZE["most"]
    boxes = [d.box for d in sized.detect(big)]
    h, w = big.shape[:2]
    assert boxes and all(0 <= b[0] < b[2] <= w and 0 <= b[1] < b[3] <= h for b in boxes)
    assert inside
    for _, t in inside:   # every die (nearly) wholly in view has a box centred on it
        assert any(t[0] <= (b[0] + b[2]) / 2 <= t[2] and t[1] <= (b[1] + b[3]) / 2 <= t[3] for b in boxes)


def test_the_shrunk_frame_fills_the_top_left_and_repeats_its_edges():
    frame = np.random.default_rng(0).integers(0, 255, (480, 640, 3), dtype=np.uint8)
    canvas, (sw, sh) = shrunk(frame, 2.0)
    assert canvas.shape == frame.shape and (sw, sh) == (320, 240)
    assert np.array_equal(canvas[:240, :320], cv2.resize(frame, (320, 240), interpolation=cv2.INTER_AREA))
    assert np.array_equal(canvas[300, :320], canvas[239, :320]) and np.array_equal(canvas[:240, 600], canvas[:240, 319])


@pytest.mark.parametrize("find_from", [0.2, 0.3])
def test_its_looks_read_as_the_reader(tmp_path, frames, find_from):
    """calibrate reads each photo once at a low floor: the shrink does not depend on find_from, so the looks
    give what read() gives, shrunk frames included."""
    looker = DiceReader(detector=load_detector(_copy(tmp_path, SIZE), find_from=0.1), keep_crops=False)
    live = DiceReader(detector=load_detector(_copy(tmp_path, SIZE), find_from=find_from),
                      classifier=looker.classifier, keep_crops=False)
    assert any(live.detector.shrink(f)[0] > 1.0 for f in frames)
    for frame in frames:
        looked = [(d.face, round(d.confidence, 5), d.box) for d in
                  looker.dice_from_looks(looker.looks(frame), find_from, live.drop_from, live.recheck_below)]
        assert looked == [(d.face, round(d.confidence, 5), d.box) for d in live.read(frame).dice]


def test_a_frame_read_as_it_came_costs_no_pass_more(tmp_path, frames):
    """The first file's own pass that sizes the dice is the pass the read makes anyway."""
    sized = load_detector(_copy(tmp_path, {**SIZE, "typical": 1.0}))
    first = sized.inner.first
    runs = []
    run = first._run
    first._run = lambda x: runs.append(1) or run(x)
    sized.detect(frames[0])
    assert len(runs) == (2 if first.flip else 1)


@pytest.mark.parametrize("change, words", [
    ({"size": 1}, "no setting 'size'"),
    ({"typical": "big"}, "typical must be a number"),
    ({"typical": True}, "typical must be a number"),
    ({"typical": 0}, "typical must lie above 0"),
    ({"peaks_from": 1.5}, "peaks_from must lie above 0"),
    ({"most": 0.5}, "most must be at least 1"),
])
def test_a_bad_die_size_is_refused_by_name(tmp_path, change, words):
    with pytest.raises(ModelError, match=words):
        load_detector(_copy(tmp_path, {**SIZE, **change}))


def test_a_die_size_missing_a_setting_or_not_an_object_is_refused(tmp_path):
    with pytest.raises(ModelError, match="die_size needs 'most'"):
        load_detector(_copy(tmp_path, {"typical": 0.1, "peaks_from": 0.4}))
    with pytest.raises(ModelError, match="must be an object"):
        load_detector(_copy(tmp_path, [0.1]))


def test_calibrate_chooses_typical_only_for_a_detector_that_names_a_die_size(tmp_path):
    from vision.train.calibrate import calibrate
    with pytest.raises(ValueError, match="names no die_size"):
        calibrate(DEFAULT_DETECTOR, log=lambda *_: None, sources=("reader",), typicals=(0.1,))
    with pytest.raises(ValueError, match="reader's faces only"):
        calibrate(_copy(tmp_path, SIZE), log=lambda *_: None, sources=("model",), typicals=(0.1,))


def test_calibrate_chooses_typical_and_the_reader_then_reads_as_it_counted(tmp_path):
    """--choose-typical on the real calib photos: typical 1 is the pair inside, and the chosen value's figures are
    what the reader it writes reads."""
    from vision.realdata import SETS, photos, score_photo
    from vision.train.calibrate import calibrate
    if not photos(SETS[0], "calib"):
        pytest.skip("the shared real dice photos are not on this machine")
    path = _copy(tmp_path, SIZE)
    result = calibrate(path, log=lambda *_: None, sources=("reader",), flips=(True,), find_from=0.175,
                       typicals=(0.1, 1.0))
    assert result["typical"] in (0.1, 1.0)
    meta = json.loads(path.with_suffix(".json").read_text())
    meta.update(find_from=result["find_from"], ask_below=result["ask_below"], face_drop_from=result["drop_from"],
                face_recheck_below=result["recheck_below"], die_size={**SIZE, "typical": result["typical"]})
    path.with_suffix(".json").write_text(json.dumps(meta))
    reader = DiceReader(detector_path=path, keep_crops=False)
    total: dict = {}
    for name in SETS:
        for shot in photos(name, "calib"):
            for k, v in score_photo(reader.read(cv2.imread(str(shot.path))), shot.dice).items():
                total[k] = total.get(k, 0) + v
    assert {k: total[k] for k in ("correct", "found", "no_die", "doubled", "silent_misreads", "flagged")} == \
        {k: result["figures"][k] for k in ("correct", "found", "no_die", "doubled", "silent_misreads", "flagged")}
