"""The classifier's drop_from and recheck_below (vision.reader) as detector .json settings, and
the calibration's view of a photo (DiceReader.looks / dice_from_looks) matching read(), on the
real interpreter, the shipped files and the shared real photos."""
import json
import shutil

import cv2
import pytest

from vision.model import DEFAULT_DETECTOR, DiceModel, load_detector
from vision.reader import DROP_FROM, RECHECK_BELOW, DiceReader
from vision.realdata import photos

from .helpers import REAL_DICE, scene


def _detector_with(tmp_path, **settings):
    """A copy of the shipped detector (and its second finder) whose .json carries these keys too."""
    path = tmp_path / DEFAULT_DETECTOR.name
    shutil.copyfile(DEFAULT_DETECTOR, path)
    meta = json.loads(DEFAULT_DETECTOR.with_suffix(".json").read_text())
    if "second_finder" in meta:
        second = meta["second_finder"]["file"]
        shutil.copyfile(DEFAULT_DETECTOR.parent / second, tmp_path / second)
    path.with_suffix(".json").write_text(json.dumps({**meta, **settings}))
    return path


def _read(reader, image):
    return [(d.face, round(d.confidence, 5), d.box) for d in reader.read(image).dice]


@pytest.fixture(scope="module")
def calib_photos():
    shots = photos("aws-workshop-dice", "calib")[:6] if (REAL_DICE / "aws-workshop-dice").is_dir() else []
    if not shots:
        pytest.skip(f"the shared real dice photos are not on this machine ({REAL_DICE})")
    return [cv2.imread(str(s.path), cv2.IMREAD_COLOR) for s in shots]


def test_absent_keys_keep_the_constants(reader, tmp_path):
    path = _detector_with(tmp_path)
    meta = json.loads(path.with_suffix(".json").read_text())
    for key in ("face_drop_from", "face_recheck_below"):
        meta.pop(key, None)
    path.with_suffix(".json").write_text(json.dumps(meta))
    plain = DiceReader(detector=DiceModel(path), classifier=reader.classifier)
    assert (plain.drop_from, plain.recheck_below) == (DROP_FROM, RECHECK_BELOW)


def test_json_drop_from_drops_boxes(reader, tmp_path):
    image = scene(610, 4, faces=[2, 3, 5, 6], tilt_max=8.0, touching=0.0, surface="felt").image
    assert len(reader.read(image).dice) == 4
    # Every box is NOT_A_DIE at least 0 likely: drop_from 0 drops them all.
    strict = DiceReader(detector=DiceModel(_detector_with(tmp_path, face_drop_from=0.0)), classifier=reader.classifier)
    assert strict.drop_from == 0.0 and strict.read(image).dice == ()
    # The caller's value wins over the .json's, as with ask_below's threshold.
    assert len(DiceReader(detector=strict.detector, classifier=reader.classifier, drop_from=0.7).read(image).dice) == 4
    with pytest.raises(ValueError, match="drop_from must lie between 0 and 1"):
        DiceReader(detector=strict.detector, classifier=reader.classifier, drop_from=1.5)


def test_json_recheck_below_chooses_which_dice_get_the_second_look(reader, tmp_path, calib_photos):
    # The detector as the reader loads it (with its second finder), as the three readers below do.
    every = DiceReader(detector=load_detector(_detector_with(tmp_path, face_recheck_below=1.0)),
                       classifier=reader.classifier)
    always = DiceReader(classifier=reader.classifier, second_look="always")
    none = DiceReader(classifier=reader.classifier, recheck_below=0.0)
    one_scale = DiceReader(classifier=reader.classifier, scales=(1.0,))
    differ = 0
    for image in calib_photos:
        # 1.0 is above every confidence: every die looked at again, as "always" does.
        assert _read(every, image) == _read(always, image)
        # 0 is under every confidence: no second look, as one crop scale.
        assert _read(none, image) == _read(one_scale, image)
        differ += _read(every, image) != _read(none, image)
    assert differ, "the second look changed no die on these photos: the test shows nothing"


@pytest.mark.parametrize("find_from,drop_from,recheck_below", [(0.2, DROP_FROM, RECHECK_BELOW), (0.3, 0.5, 0.99),
                                                               (0.125, 0.95, 0.8)])
def test_calibration_looks_read_as_the_reader(reader, calib_photos, find_from, drop_from, recheck_below):
    """vision.train.calibrate scores the grids from one look at each photo: the dice it scores
    must be the reader's at those settings, in the reader's order."""
    looker = DiceReader(detector=load_detector(find_from=0.1), classifier=reader.classifier, keep_crops=False)
    live = DiceReader(detector=load_detector(find_from=find_from), classifier=reader.classifier, keep_crops=False,
                      drop_from=drop_from, recheck_below=recheck_below)
    seen = 0
    for image in calib_photos:
        looked = [(d.face, round(d.confidence, 5), d.box)
                  for d in looker.dice_from_looks(looker.looks(image), find_from, drop_from, recheck_below)]
        assert looked == _read(live, image)
        seen += len(looked)
    assert seen, "no die read on these photos: the test compares nothing"


def test_calibrate_holds_the_finder_given_and_chooses_ask_below_alone():
    """calibrate(finder=...) (round 11b): a new classifier behind the shipped finder keeps the
    finder's thresholds and mirrored-frame choice; only ask_below is chosen, and the figures it
    reports are the reader's own at those settings."""
    from vision.realdata import SETS, score_photo
    from vision.train.calibrate import ASK_GRID, calibrate
    if not (REAL_DICE / "aws-workshop-dice").is_dir():
        pytest.skip(f"the shared real dice photos are not on this machine ({REAL_DICE})")
    held = {"find_from": 0.35, "drop_from": 0.55, "recheck_below": 0.95, "flip": False}
    chosen = calibrate(DEFAULT_DETECTOR, log=lambda *_: None, sources=("reader",), finder=held)
    assert {k: chosen[k] for k in held} == held and chosen["faces"] == "reader"
    assert chosen["ask_below"] in ASK_GRID
    reader = DiceReader(detector=load_detector(DEFAULT_DETECTOR, find_from=0.35, flip=False),
                        threshold=chosen["ask_below"],
                        drop_from=0.55, recheck_below=0.95, keep_crops=False, faces="reader")
    total = {}
    for name in SETS:
        for shot in photos(name, "calib"):
            for k, v in score_photo(reader.read(cv2.imread(str(shot.path), cv2.IMREAD_COLOR)), shot.dice).items():
                total[k] = total.get(k, 0) + v
    assert {k: chosen["figures"][k] for k in total} == total
    with pytest.raises(ValueError, match="reader's faces only"):
        calibrate(DEFAULT_DETECTOR, log=lambda *_: None, sources=("model", "reader"), finder=held)
