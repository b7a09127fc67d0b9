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


def test_a_big_die_keeps_one_box_whichever_of_its_two_peaks_is_stronger():
    # A big die raises a peak on its top face (a small box) and one on its whole body (a big box
    # around it). Whichever is stronger, the other goes: the weaker's centre lies in the stronger's
    # middle, or the weaker's box holds the stronger's centre in its own middle.
    for top_first in (True, False):
        heat, box = _maps()
        heat[20, 30, 0] = 0.9 if top_first else 0.6      # the top face, near the body's upper edge
        box[20, 30] = (np.log(3), np.log(3), 0.5, 0.5)
        heat[23, 30, 0] = 0.6 if top_first else 0.9      # the whole body, 3 cells lower, twice the size
        box[23, 30] = (np.log(8), np.log(8), 0.5, 0.5)
        (det,) = decode(heat, box, 8.0, 8.0, 0.3, 640, 480)
        assert det.peak == pytest.approx(0.9)


def test_touching_dice_of_different_sizes_keep_a_box_each():
    heat, box = _maps()
    heat[20, 30, 0] = 0.9                                # a die 6 cells across
    box[20, 30] = (np.log(6), np.log(6), 0.5, 0.5)
    heat[20, 35, 0] = 0.6                                # a smaller one touching it, 5 cells to the right
    box[20, 35] = (np.log(4), np.log(4), 0.5, 0.5)
    assert len(decode(heat, box, 8.0, 8.0, 0.3, 640, 480)) == 2


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


def test_fitted_size_pads_wide_frames_at_the_bottom_and_tall_ones_at_the_right():
    from vision.model import fitted_size
    assert fitted_size(640, 480, 4 / 3) == (640, 480)
    assert fitted_size(641, 480, 4 / 3) == (641, 480)      # within the tolerance: resized as it is
    assert fitted_size(1280, 720, 4 / 3) == (1280, 960)
    assert fitted_size(384, 512, 4 / 3) == (683, 512)


def test_fit_aspect_keeps_a_4_3_frame_and_pads_others_by_repeating_their_edge():
    from vision.model import fit_aspect
    frame = np.random.default_rng(3).integers(0, 255, (480, 640, 3), dtype=np.uint8)
    assert fit_aspect(frame, 4 / 3) is frame
    wide = frame[:360]
    padded = fit_aspect(wide, 4 / 3)
    assert padded.shape == (480, 640, 3)
    assert np.array_equal(padded[:360], wide) and np.array_equal(padded[479], wide[359])
    tall = frame[:, :300]
    assert fit_aspect(tall, 4 / 3).shape == (480, 640, 3)


@pytest.mark.parametrize("cut, seed, faces", [("wide", 702, [1, 3, 5, 6]), ("tall", 719, [1, 3, 5])])
def test_the_detector_finds_the_dice_of_a_frame_of_another_shape_where_they_are(cut, seed, faces):
    """A 16:9 or portrait frame is padded, not squashed: the boxes come back in its own pixels."""
    from vision.model import DiceModel
    s = scene(seed, len(faces), faces=faces, tilt_max=10.0, touching=0.0, surface="felt")
    boxes = [d.box for d in s.dice]
    if cut == "wide":   # the band of rows holding every die, 16:9
        top = max(0, min(b[1] for b in boxes) - 20)
        frame, shift = s.image[top:top + 360], (0, top)
    else:               # the columns holding every die: a portrait frame
        left = max(0, min(b[0] for b in boxes) - 20)
        frame, shift = s.image[:, left:max(b[2] for b in boxes) + 20], (left, 0)
        assert frame.shape[1] < 0.5 * frame.shape[0]
    assert all(b[1] - shift[1] >= 0 and b[3] - shift[1] <= frame.shape[0] and
               b[0] - shift[0] >= 0 and b[2] - shift[0] <= frame.shape[1] for b in boxes)
    found = DiceModel().detect(np.ascontiguousarray(frame))
    assert len(found) == len(boxes)
    h, w = frame.shape[:2]
    for b in boxes:
        truth = (b[0] - shift[0], b[1] - shift[1], b[2] - shift[0], b[3] - shift[1])
        best = max(found, key=lambda d: _iou(d.box, truth))
        assert _iou(best.box, truth) > 0.5
        assert 0 <= best.box[0] < best.box[2] <= w and 0 <= best.box[1] < best.box[3] <= h


def _iou(a, b) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    return inter / ((a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter)


def _decode_a_peak_at_a_time(heat, box, sx, sy, find_from, width, height, face_map=None):
    """decode() as it was written before it worked on every peak at once (session 51): the reference."""
    import cv2

    from vision.model import Detection, _one_per_die
    best = heat.max(axis=2)
    pooled = cv2.dilate(best, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero((best >= pooled) & (best >= find_from))
    out = []
    for y, x in zip(ys, xs):
        probs = None
        if face_map is None:
            face, sure = int(heat[y, x].argmax()) + 1, float(best[y, x])
        else:
            face = int(face_map[y, x, :6].argmax()) + 1
            sure = float(face_map[y, x, face - 1])
            probs = tuple(float(v) for v in face_map[y, x])
        lw, lh, dx, dy = (float(v) for v in box[y, x])
        cx, cy = (x + dx) * sx, (y + dy) * sy
        w, h = np.exp(np.clip(lw, -3, 5)) * sx, np.exp(np.clip(lh, -3, 5)) * sy
        b = (max(0, round(cx - w / 2)), max(0, round(cy - h / 2)), min(width, round(cx + w / 2)),
             min(height, round(cy + h / 2)))
        out.append(Detection(face, sure, b, float(best[y, x]), probs))
    return _one_per_die(out)


def test_decode_gives_exactly_what_a_peak_at_a_time_gave_on_the_shipped_files_maps():
    from vision.model import load_detector
    from vision.realdata import SETS, photos
    import cv2
    pair = load_detector()
    frames = [scene(70 + i, n).image for i, n in enumerate((1, 6, 12, 30))]
    frames += [cv2.imread(str(shot.path)) for name in SETS for shot in photos(name, "calib")[:3]]
    checked = 0
    for frame in frames:
        for model in (pair.first, pair.second):
            heat, box, face = model.raw(frame)
            sx, sy = frame.shape[1] / heat.shape[1], frame.shape[0] / heat.shape[0]
            for floor in (0.05, 0.2):
                for face_map in (face, None):
                    new = decode(heat, box, sx, sy, floor, frame.shape[1], frame.shape[0], face_map)
                    assert new == _decode_a_peak_at_a_time(heat, box, sx, sy, floor, frame.shape[1], frame.shape[0],
                                                           face_map)
                    assert all(type(v) is int for d in new for v in d.box) and all(type(d.face) is int for d in new)
                    checked += len(new)
    assert checked > 500


def test_decode_of_maps_without_a_peak_is_no_die():
    heat, box = _maps()
    assert decode(heat, box, 8.0, 8.0, 0.3, 640, 480) == []
    assert decode(heat, box, 8.0, 8.0, 0.3, 640, 480, np.zeros((60, 80, 7), np.float32)) == []
