"""Several face classifier files averaged, and test-time views of a crop (vision.classify.VIEWS),
on the real interpreter with the shipped files; the reader takes both from the detector's .json."""
import json
import random
import shutil

import numpy as np
import pytest

from vision.classify import VIEWS, FaceClassifier, ModelError, labels_path_for
from vision.model import DEFAULT_DETECTOR
from vision.reader import DiceReader
from vision.synth import render_die_crop

from .helpers import MODEL


@pytest.fixture(scope="module")
def crops():
    rng = random.Random(11)
    return np.stack([render_die_crop(rng, 1 + i % 6) for i in range(12)])


@pytest.fixture(scope="module")
def single():
    return FaceClassifier(MODEL)


def test_an_ensemble_averages_its_files(single, crops, tmp_path):
    twin = tmp_path / "twin.tflite"
    shutil.copy(MODEL, twin)
    shutil.copy(labels_path_for(MODEL), labels_path_for(twin))
    pair = FaceClassifier([MODEL, twin])
    assert pair.model_paths == (MODEL, twin) and pair.model_path == MODEL
    assert pair.labels == single.labels and pair.input_size == single.input_size
    # The same file twice is the file alone.
    np.testing.assert_allclose(pair.probabilities(crops), single.probabilities(crops), atol=1e-6)
    assert FaceClassifier([MODEL]).classify(crops) == single.classify(crops)


def test_views_average_the_crop_turned_and_mirrored(single, crops):
    for name, turns, mirror in (("mirror", (0,), True), ("turns", (0, 1, 2, 3), False),
                                ("turns+mirror", (0, 1, 2, 3), True)):
        seen = [np.rot90(c, k, axes=(1, 2)) for c in ((crops, crops[:, :, ::-1]) if mirror else (crops,))
                for k in turns]
        expected = np.mean([single.probabilities(np.ascontiguousarray(v)) for v in seen], axis=0)
        viewed = FaceClassifier(MODEL, views=name)
        assert len(VIEWS[name]) == len(seen)
        np.testing.assert_allclose(viewed.probabilities(crops), expected, atol=1e-5)
        # One crop and a batch agree; the probabilities still sum to one.
        np.testing.assert_allclose(viewed.probabilities(crops[:1]), expected[:1], atol=1e-5)
        np.testing.assert_allclose(viewed.probabilities(crops).sum(axis=1), 1.0, atol=0.01)  # int8 outputs
    np.testing.assert_allclose(FaceClassifier(MODEL, views="one").probabilities(crops),
                               single.probabilities(crops))


def test_bad_ensembles_and_views_are_refused(tmp_path):
    with pytest.raises(ValueError, match="views must be one of"):
        FaceClassifier(MODEL, views="sideways")
    with pytest.raises(ValueError, match="at least one model file"):
        FaceClassifier([])
    odd = tmp_path / "odd.tflite"
    shutil.copy(MODEL, odd)
    labels_path_for(odd).write_text("pip6\npip5\npip4\npip3\npip2\npip1\nnone\n")
    with pytest.raises(ModelError, match=r"odd\.tflite does not match") as info:
        FaceClassifier([MODEL, odd])
    assert info.value.path == str(odd)
    with pytest.raises(ModelError, match=r"nowhere\.tflite does not exist"):
        FaceClassifier([MODEL, tmp_path / "nowhere.tflite"])


def _detector_copy(tmp_path, **meta_changes):
    """The shipped detector in tmp_path with its .json changed, and the face files beside it."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    detector = tmp_path / DEFAULT_DETECTOR.name
    shutil.copy(DEFAULT_DETECTOR, detector)
    meta = json.loads(DEFAULT_DETECTOR.with_suffix(".json").read_text())
    meta.update(meta_changes)
    detector.with_suffix(".json").write_text(json.dumps(meta))
    if meta.get("second_finder"):  # the shipped reader's second detector file, beside it as in models/
        shutil.copy(DEFAULT_DETECTOR.parent / meta["second_finder"]["file"], tmp_path)
    for name in ("a.tflite", "b.tflite"):
        shutil.copy(MODEL, tmp_path / name)
        shutil.copy(labels_path_for(MODEL), labels_path_for(tmp_path / name))
    return detector


def test_the_reader_loads_the_files_and_views_its_json_names(tmp_path):
    detector = _detector_copy(tmp_path, face_models=["a.tflite", "b.tflite"], face_views="mirror",
                              face_second_look="always")
    reader = DiceReader(detector_path=detector, keep_crops=False)
    assert reader.classifier.model_paths == (tmp_path / "a.tflite", tmp_path / "b.tflite")
    assert reader.classifier.views == "mirror"
    assert reader.second_look == "always"
    # Files named by the caller are read as given, with the .json's views and second look (as its
    # threshold) unless the caller names others.
    named = DiceReader(MODEL, detector_path=detector)
    assert named.classifier.model_paths == (MODEL,)
    assert (named.classifier.views, named.second_look) == ("mirror", "always")
    other = DiceReader([MODEL], detector_path=detector, views="turns", second_look="unsure")
    assert (other.classifier.views, other.second_look) == ("turns", "unsure")
    with pytest.raises(ValueError, match="second_look must be one of"):
        DiceReader(MODEL, detector_path=detector, second_look="twice")
    # A .json naming none of these: one file, one view, the second look for unsure dice only.
    plain = _detector_copy(tmp_path / "plain", face_models=None, face_views=None, face_second_look=None)
    reader = DiceReader(detector_path=plain)
    assert reader.classifier.model_paths == (MODEL,) and (reader.classifier.views, reader.second_look) == ("one", "unsure")


def test_a_json_naming_a_missing_face_file_fails_at_load(tmp_path):
    detector = _detector_copy(tmp_path, face_models=["a.tflite", "gone.tflite"], faces="reader")
    with pytest.raises(ModelError, match=r"gone\.tflite does not exist"):
        DiceReader(detector_path=detector)


def test_the_shipped_reader_loads_what_its_json_names():
    meta = json.loads(DEFAULT_DETECTOR.with_suffix(".json").read_text())
    classifier = DiceReader(keep_crops=False).classifier
    names = meta.get("face_models", [MODEL.name])
    assert [p.name for p in classifier.model_paths] == names
    assert all(p.parent == DEFAULT_DETECTOR.parent for p in classifier.model_paths)
    assert classifier.views == meta.get("face_views", "one")
    assert DiceReader(keep_crops=False).second_look == meta.get("face_second_look", "unsure")


def test_shift_views_move_the_crop_a_few_pixels_toward_each_corner(single, crops):
    from vision.classify import SHIFT
    views = VIEWS["shifts"]
    assert len(views) == 5 and len(VIEWS["mirror+shifts"]) == 10
    np.testing.assert_array_equal(views[0](crops), crops)
    padded = np.pad(crops, ((0, 0), (SHIFT, SHIFT), (SHIFT, SHIFT), (0, 0)), mode="reflect")
    s = crops.shape[1]
    np.testing.assert_array_equal(views[4](crops), padded[:, 2 * SHIFT:2 * SHIFT + s, 2 * SHIFT:2 * SHIFT + s])
    np.testing.assert_array_equal(views[1](crops), padded[:, :s, :s])
    expected = np.mean([single.probabilities(np.ascontiguousarray(v(crops))) for v in views], axis=0)
    np.testing.assert_allclose(FaceClassifier(MODEL, views="shifts").probabilities(crops), expected, atol=1e-5)


def test_second_look_always_reads_every_die_at_the_other_scale(single):
    from .helpers import scene
    tray = scene(21, 5)
    batches = {}
    for look in ("unsure", "always"):
        spy = FaceClassifier(MODEL)
        sizes = batches[look] = []
        plain = spy.probabilities
        spy.probabilities = lambda crops, plain=plain, sizes=sizes: (sizes.append(len(crops)), plain(crops))[1]
        reading = DiceReader(classifier=spy, second_look=look, keep_crops=False, faces="reader").read(tray.image)
        assert len(reading.dice) == 5
    # Five clear rendered dice: none is unsure, so only "always" reads them again (at 1.2x).
    assert batches["unsure"] == [5]
    assert batches["always"] == [5, 5]


STEEP = MODEL.parent / "candidates" / "faces-steep" / "dice_faces.tflite"
WIDE = MODEL.parent / "candidates" / "faces-wide" / "dice_faces.tflite"


def test_least_gives_each_face_the_least_any_file_gives_it(single, crops):
    """combine="least" (issue 14 round 18): a face two files read differently is read no surer
    than the doubting file reads it; whether a box holds a die stays the files' mean."""
    steep = FaceClassifier(STEEP)
    a, s = single.probabilities(crops), steep.probabilities(crops)
    mean = FaceClassifier([MODEL, STEEP]).probabilities(crops)
    least = FaceClassifier([MODEL, STEEP], combine="least").probabilities(crops)
    none = single.none_index
    faces = [k for k in range(len(single.labels)) if k != none]
    np.testing.assert_allclose(least[:, faces], np.minimum(a, s)[:, faces], atol=1e-6)
    np.testing.assert_allclose(least[:, none], mean[:, none], atol=1e-6)
    np.testing.assert_allclose(mean, (a + s) / 2, atol=1e-6)
    # The crops the two files read as different faces: no face of them is read surer than the
    # less sure file reads its own choice, so each is under any ask_below the files' agreement needs.
    _, a_conf = single.faces(a)
    _, s_conf = steep.faces(s)
    best, conf = single.faces(least)
    split = single.faces(a)[0] != steep.faces(s)[0]
    assert np.all(conf[split] <= np.minimum(a_conf, s_conf)[split] + 1e-6)
    # One file: "least" is the file alone.
    np.testing.assert_allclose(FaceClassifier(MODEL, combine="least").probabilities(crops), a, atol=1e-6)


def test_least_combines_files_of_different_crops(single):
    """Files of different crop conventions each read their own crops before they are combined."""
    from .helpers import scene
    tray = scene(21, 5)
    finder = DiceReader(classifier=single, keep_crops=False, faces="reader").detector
    boxes = [d.box for d in finder.detect(tray.image)]
    wide = FaceClassifier(WIDE)
    a = single.box_probabilities(tray.image, boxes)
    w = wide.box_probabilities(tray.image, boxes)
    least = FaceClassifier([MODEL, WIDE], combine="least").box_probabilities(tray.image, boxes)
    faces = [k for k in range(len(single.labels)) if k != single.none_index]
    np.testing.assert_allclose(least[:, faces], np.minimum(a, w)[:, faces], atol=1e-6)
    np.testing.assert_allclose(FaceClassifier([MODEL, WIDE]).box_probabilities(tray.image, boxes), (a + w) / 2,
                               atol=1e-6)


def test_first_judges_takes_the_judgement_of_one_file_and_the_face_of_the_other(single):
    """combine="first-judges" (issue 14 round 32b): whether a box holds a die is the first file's
    judgement as it is; the face is the second file's, its face probabilities scaled to the rest."""
    from .helpers import scene
    tray = scene(21, 5)
    finder = DiceReader(classifier=single, keep_crops=False, faces="reader").detector
    boxes = [d.box for d in finder.detect(tray.image)]
    boxes.append((2, 2, 30, 30))  # a corner of bare tray: a box the judge calls no die
    a = single.box_probabilities(tray.image, boxes)
    w = FaceClassifier(WIDE).box_probabilities(tray.image, boxes)
    judged = FaceClassifier([MODEL, WIDE], combine="first-judges").box_probabilities(tray.image, boxes)
    none = single.none_index
    faces = [k for k in range(len(single.labels)) if k != none]
    np.testing.assert_allclose(judged[:, none], a[:, none], atol=1e-6)
    np.testing.assert_allclose(judged.sum(axis=1), 1.0, atol=1e-5)
    read = w[:, faces].sum(axis=1) > 0
    assert read[:-1].all()  # every die found has a face in the second file's eyes
    share = w[read][:, faces] / w[read][:, faces].sum(axis=1, keepdims=True)
    np.testing.assert_allclose(judged[read][:, faces], share * (1 - a[read][:, [none]]), atol=1e-6)
    # Each die's face is the second file's choice among the faces.
    assert list(judged[read][:, faces].argmax(axis=1)) == list(w[read][:, faces].argmax(axis=1))


def test_first_judges_least_asks_about_a_die_the_two_files_read_differently(single):
    """combine="first-judges-least" (issue 14 round 33b): the first file judges die or no die; each
    face is no surer than the less sure file reads it (the second's scaled as "first-judges" scales it),
    so a die the files read as different faces is read less surely than either file's own choice."""
    from .helpers import scene
    finder = DiceReader(classifier=single, keep_crops=False, faces="reader").detector
    wide = FaceClassifier(WIDE)
    both = FaceClassifier([MODEL, WIDE], combine="first-judges-least")
    judged = FaceClassifier([MODEL, WIDE], combine="first-judges")
    none = single.none_index
    faces = [k for k in range(len(single.labels)) if k != none]
    split_seen = 0
    for seed in (21, 25):  # 25: a tray where the two files read two boxes as different faces
        tray = scene(seed, 6)
        boxes = [d.box for d in finder.detect(tray.image)] + [(2, 2, 30, 30)]
        a = single.box_probabilities(tray.image, boxes)
        w = wide.box_probabilities(tray.image, boxes)
        j = judged.box_probabilities(tray.image, boxes)
        least = both.box_probabilities(tray.image, boxes)
        np.testing.assert_allclose(least[:, none], a[:, none], atol=1e-6)
        np.testing.assert_allclose(least[:, faces], np.minimum(a, j)[:, faces], atol=1e-6)
        assert np.all(least.sum(axis=1) <= 1.0 + 1e-5)
        _, conf = single.faces(least)
        a_face, a_conf = single.faces(a)
        w_face, w_conf = wide.faces(w)
        # Where the files choose different faces, no face keeps more than either file left for it.
        split = a_face != w_face
        split_seen += int(split.sum())
        assert np.all(conf[split] <= np.maximum(1 - a_conf, 1 - w_conf)[split] + 1e-6)
    assert split_seen >= 1


def test_first_judges_is_refused_without_two_files_and_a_judgement():
    for combine in ("first-judges", "first-judges-least"):
        with pytest.raises(ModelError, match=f'combine="{combine}" needs two files, a judge and a reader'):
            FaceClassifier(MODEL, combine=combine)
        with pytest.raises(ModelError, match="needs two files, a judge and a reader"):
            FaceClassifier([MODEL, WIDE, MODEL], combine=combine)


def test_combine_is_chosen_by_name_and_from_the_json(tmp_path):
    with pytest.raises(ValueError, match="combine must be one of mean, least, first-judges, first-judges-least, "
                                         "not 'max'"):
        FaceClassifier(MODEL, combine="max")
    detector = _detector_copy(tmp_path, face_models=["a.tflite", "b.tflite"], face_combine="least")
    assert DiceReader(detector_path=detector, keep_crops=False).classifier.combine == "least"
    assert DiceReader(detector_path=detector, keep_crops=False, combine="mean").classifier.combine == "mean"
    plain = _detector_copy(tmp_path / "plain", face_models=None)
    assert DiceReader(detector_path=plain, keep_crops=False).classifier.combine == "mean"
