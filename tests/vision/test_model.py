"""vision.model: decoding the detector's maps, and the shipped detector on a rendered tray."""
import numpy as np
import pytest

from vision.classify import ModelError
from vision.model import DEFAULT_DETECTOR, decode

from .helpers import scene


def _maps():
    heat = np.zeros((60, 80, 6), np.float32)
    box = np.zeros((60, 80, 4), np.float32)
    return heat, box


def test_decode_gives_one_die_per_peak_with_the_face_of_its_channel():
    heat, box = _maps()
    heat[10, 20, 2] = 0.9          # a 3 at cell (20, 10)
    heat[10, 21, 2] = 0.6          # its shoulder: not a second die
    heat[10, 20, 4] = 0.2          # a weaker face at the same place: not a second die either
    heat[40, 60, 5] = 0.7          # a 6
    box[10, 20] = (np.log(5), np.log(4), 0.5, 0.25)
    dets = decode(heat, box, 8.0, 8.0, 0.3, 640, 480)
    assert sorted((d.face, round(d.confidence, 2)) for d in dets) == [(3, 0.9), (6, 0.7)]
    three = next(d for d in dets if d.face == 3)
    # centre (20.5, 10.25) cells * 8 px = (164, 82); 5 x 4 cells = 40 x 32 px
    assert three.box == (144, 66, 184, 98)


def test_with_a_face_head_the_face_and_its_confidence_are_the_heads_and_an_icon_die_is_found_but_unsure():
    heat, box = _maps()
    face = np.full((60, 80, 7), 0.01, np.float32)
    heat[10, 20, 0] = 0.9                  # a peak on channel 1 ...
    face[10, 20, 4] = 0.8                  # ... that the face head reads as a 5
    heat[40, 60, 3] = 0.7                  # a die the face head calls OTHER (an icon face)
    face[40, 60, 6], face[40, 60, 1] = 0.9, 0.05
    dets = {d.box[0] // 100: d for d in decode(heat, box, 8.0, 8.0, 0.3, 640, 480, face)}
    assert (dets[1].face, round(dets[1].confidence, 2), round(dets[1].peak, 2)) == (5, 0.8, 0.9)
    assert (dets[4].face, round(dets[4].confidence, 2), round(dets[4].strength, 2)) == (2, 0.05, 0.7)


def test_decode_keeps_boxes_inside_the_frame_and_drops_low_peaks():
    heat, box = _maps()
    heat[0, 0, 0] = 0.8
    heat[30, 30, 1] = 0.29
    box[0, 0] = (np.log(6), np.log(6), 0.0, 0.0)
    (det,) = decode(heat, box, 8.0, 8.0, 0.3, 640, 480)
    assert det.box[:2] == (0, 0) and det.face == 1


def test_a_missing_detector_file_is_a_model_error(tmp_path):
    from vision.model import DiceModel
    with pytest.raises(ModelError, match="does not exist"):
        DiceModel(tmp_path / "none.tflite")


@pytest.mark.skipif(not DEFAULT_DETECTOR.is_file(), reason="no shipped detector")
def test_the_shipped_detector_reads_a_plain_rendered_tray():
    from vision.reader import DiceReader
    s = scene(702, 4, faces=[1, 3, 5, 6], tilt_max=10.0, touching=0.0, surface="felt")
    reading = DiceReader(keep_crops=False).read(s.image)
    # A floor far under the bench's figures: the network reads this tray, boxes where the dice are.
    assert sorted(reading.faces) == [1, 3, 5, 6]
    for die in reading.dice:
        assert die.label == f"pip{die.face}" and 0.0 <= die.confidence <= 1.0
