"""The model as the judge of boxes: wrong boxes dropped, dice the boxes left out found again
(the real interpreter on the shipped model, which has the NOT_A_DIE label)."""
import numpy as np
import pytest

from vision.classify import NOT_A_DIE
from vision.detect import Detection
from vision.reader import DiceReader
from vision.recover import look_again

from .helpers import scene


def _holds(box, truth) -> bool:
    cx, cy = (truth.box[0] + truth.box[2]) / 2, (truth.box[1] + truth.box[3]) / 2
    return box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


def test_the_shipped_model_judges_boxes(reader):
    assert NOT_A_DIE in reader.classifier.labels


def _look(reader, image, kept, doubtful=None):
    detector = reader.detector
    side = float(np.median([np.sqrt((x1 - x0) * (y1 - y0)) for x0, y0, x1, y1 in kept]))
    return look_again(image, kept, doubtful or [False] * len(kept), detector.foreground_mask,
                      detector.marks_mask, detector.work_scale, side, reader.classifier)


@pytest.mark.parametrize("seed", [11, 12, 13])
def test_a_die_left_out_of_the_boxes_is_found_again_and_read(reader, seed):
    s = scene(700 + seed, 5, faces=[2, 6, 3, 5, 1], tilt_max=10.0, touching=0.0, surface="felt")
    reader.read(s.image)  # the detector's foreground of this frame
    boxes = [t.box for t in s.dice]
    for k, lost in enumerate(s.dice):
        found, dropped = _look(reader, s.image, boxes[:k] + boxes[k + 1:])
        assert len(found) == 1 and not dropped, (k, [b for b, _, _ in found])
        box, probs, _ = found[0]
        assert _holds(box, lost)
        assert reader.classifier.labels[int(np.argmax(probs))] == lost.label
    # Every die already boxed: nothing more is found (no second box on a die).
    assert _look(reader, s.image, boxes) == ([], set())


def test_a_box_over_two_dice_is_replaced_by_both(reader):
    s = scene(722, 4, faces=[4, 2, 6, 1], tilt_max=10.0, touching=0.0, surface="card")
    reader.read(s.image)
    a, b = s.dice[0].box, s.dice[1].box
    both = (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))
    kept = [both] + [t.box for t in s.dice[2:]]
    found, dropped = _look(reader, s.image, kept, [True, False, False])
    assert dropped == {0}
    assert sorted(reader.classifier.labels[int(np.argmax(p))] for _, p, _ in found) == ["pip2", "pip4"]
    assert all(any(_holds(box, t) for box, _, _ in found) for t in s.dice[:2])


def test_a_box_on_bare_tray_is_dropped_and_the_dice_kept(reader, monkeypatch):
    s = scene(731, 3, faces=[4, 1, 6], tilt_max=10.0, touching=0.0, surface="wood")
    plain = reader.read(s.image)
    assert sorted(plain.faces) == [1, 4, 6]
    # A box where no die lies: the corner of the tray farthest from every die.
    corners = [(0, 0), (590, 0), (0, 430), (590, 430)]
    x, y = max(corners, key=lambda c: min(abs(c[0] - t.box[0]) + abs(c[1] - t.box[1]) for t in s.dice))
    detector = reader.detector
    detect = detector.detect
    bogus = Detection((x, y, x + 50, y + 50), (x + 25, y + 25), 50.0)
    monkeypatch.setattr(detector, "detect", lambda frame: detect(frame) + [bogus])
    reading = DiceReader(classifier=reader.classifier, detector=detector).read(s.image)
    assert sorted(reading.faces) == [1, 4, 6]
    assert all(d.box != bogus.box for d in reading.dice)


def test_without_a_second_look_a_left_out_die_stays_lost(reader, monkeypatch):
    s = scene(741, 4, faces=[3, 3, 5, 2], tilt_max=10.0, touching=0.0, surface="felt")
    detector = reader.detector
    detect = detector.detect
    monkeypatch.setattr(detector, "detect", lambda frame: detect(frame)[1:])
    looking = DiceReader(classifier=reader.classifier, detector=detector).read(s.image)
    blind = DiceReader(classifier=reader.classifier, detector=detector, second_look=False).read(s.image)
    assert len(blind.dice) == 3
    assert len(looking.dice) == 4 and sorted(looking.faces) == [2, 3, 3, 5]


def test_a_picture_given_as_a_die_is_read_as_one_even_when_the_model_doubts_it(reader):
    bare = scene(751, 0, surface="wood").image[100:200, 100:200]
    die = reader.read_crop(bare)
    assert die.label != NOT_A_DIE and 1 <= die.face <= 6
    assert die.uncertain
