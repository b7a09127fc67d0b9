"""vision/shifts.py (bench/real_shifts.py's rows): each change of a photo carries its labels along (the
bench's figures and the calibration over new tables are only as right as the boxes it moves)."""
import numpy as np

from vision import shifts
from vision.realdata import closer, score_frame


def _photo():
    """A 480x640 picture with two bright squares where its two labelled 'dice' lie."""
    img = np.zeros((480, 640, 3), np.uint8)
    dice = ((3, (100, 50, 140, 90)), (5, (500, 400, 560, 460)))
    for _, (x0, y0, x1, y1) in dice:
        img[y0:y1, x0:x1] = 255
    return img, dice


def test_turning_moves_every_box_onto_its_die():
    img, dice = _photo()
    for turn in (shifts.turned_180, shifts.turned_90):
        out, moved, partial = turn(img, dice)
        assert partial == () and [f for f, _ in moved] == [3, 5]
        for _, box in moved:
            x0, y0, x1, y1 = (int(v) for v in box)
            assert out[y0:y1, x0:x1].size > 0 and out[y0:y1, x0:x1].min() == 255
        assert out.sum() == img.sum()


def test_a_16_9_band_keeps_the_dice_inside_and_sets_the_cut_ones_apart():
    img, dice = _photo()
    out, kept, partial = shifts.wide(0.0)(img, dice)          # rows 0..359: the second die is cut off
    assert out.shape == (360, 640, 3)
    assert kept == ((3, (100, 50, 140, 90)),) and partial == ()
    out, kept, partial = shifts.wide(1.0)(img, dice)          # rows 120..479
    assert kept == ((5, (500, 280, 560, 340)),) and partial == ()
    cut = ((4, (200, 100, 240, 140)),)                        # straddles the top band's edge at row 120
    _, kept, partial = shifts.wide(1.0)(img, cut)
    assert kept == () and partial == ((200, 0, 240, 20),)


def test_a_die_cut_by_the_band_is_neither_missed_nor_a_box_on_no_die():
    from vision.reader import DiceReading, DieRead
    box = (200, 0, 240, 20)
    seen = DiceReading((DieRead(4, "pip4", 0.99, box, "white", False),))
    counts = score_frame(seen, (), (box,))
    assert counts["dice"] == 0 and counts["no_die"] == 0
    assert score_frame(seen, (), ())["no_die"] == 1


def test_a_mosaic_shrinks_each_photo_and_its_boxes_alike(tmp_path):
    import cv2
    from vision.realdata import LabelledPhoto
    img, dice = _photo()
    shots = []
    for i in range(4):
        cv2.imwrite(str(tmp_path / f"{i}.png"), img)
        shots.append(LabelledPhoto(tmp_path / f"{i}.png", dice))
    [(frame, labels, partial)] = list(shifts.mosaics(shots, 2))
    assert frame.shape == (480, 640, 3) and partial == () and len(labels) == 8
    for _, box in labels:
        x0, y0, x1, y1 = (int(round(v)) for v in box)
        assert frame[y0 + 1:y1 - 1, x0 + 1:x1 - 1].min() > 200
    assert labels[2] == (3, (100 / 2 + 320, 50 / 2, 140 / 2 + 320, 90 / 2))


def test_each_measure_changes_the_photos_the_same_way():
    """Two readers measured in one process (bench/detector_rule.py) must read the same noisy
    photos: the noise starts again at its seed in each changes()."""
    img, dice = _photo()
    first = shifts.changes()["noise (sigma 10)"](img, dice)[0]
    again = shifts.changes()["noise (sigma 10)"](img, dice)[0]
    made = shifts.changes()
    made["noise (sigma 10)"](img, dice)
    assert np.array_equal(first, again)
    assert not np.array_equal(first, made["noise (sigma 10)"](img, dice)[0])  # one generator runs on


def test_the_enlarged_middle_moves_each_box_onto_its_die_and_sets_the_cut_ones_apart():
    img, dice = _photo()
    inner = ((2, (260, 200, 300, 240)), (6, (150, 100, 200, 150)))   # the second straddles the middle's edge
    for face, (x0, y0, x1, y1) in inner:
        img[y0:y1, x0:x1] = 255
    out, kept, partial = closer(2.0)(img, dice + inner)         # the middle: x 160..480, y 120..360
    assert out.shape == img.shape
    assert kept == ((2, (200.0, 160.0, 280.0, 240.0)),)                 # twice the size, moved with the crop
    assert partial == ((0.0, 0.0, 80.0, 60.0),)                         # a quarter of it inside
    x0, y0, x1, y1 = (int(v) for v in kept[0][1])
    assert out[y0 + 2:y1 - 2, x0 + 2:x1 - 2].min() == 255
