"""Taught examples on disk (vision.taught.TaughtExamples): real files in a temporary folder."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.taught import ExampleError, TaughtExamples


def _die(value: int) -> np.ndarray:
    img = np.full((40, 44, 3), value, np.uint8)
    cv2.circle(img, (22, 20), 8, (255 - value,) * 3, -1)
    return img


def test_examples_persist_per_label_and_reload_in_a_new_object(tmp_path):
    ex = TaughtExamples(tmp_path / "taught")
    assert ex.counts() == {} and ex.labels() == []
    first = ex.add("red-vote", _die(30))
    ex.add("red-vote", _die(40))
    ex.add("black-tree", _die(50))
    assert first == tmp_path / "taught" / "red-vote" / "0001.png"
    again = TaughtExamples(tmp_path / "taught")
    assert again.counts() == {"black-tree": 1, "red-vote": 2}
    assert again.labels() == ["black-tree", "red-vote"]
    (path, img), _ = again.images("red-vote")
    assert path.name == "0001.png" and np.array_equal(img, _die(30))
    # No temporary file is left beside the examples.
    assert not [p for p in (tmp_path / "taught").rglob(".new-*")]


def test_clear_forgets_one_label_or_all(tmp_path):
    ex = TaughtExamples(tmp_path)
    for label in ("a", "b"):
        ex.add(label, _die(10))
    ex.clear("a")
    assert ex.counts() == {"b": 1}
    ex.clear()
    assert ex.counts() == {}
    ex.add("b", _die(10))
    assert ex.files("b")[0].name == "0001.png"


def test_a_folder_of_photos_in_any_common_format_counts(tmp_path):
    (tmp_path / "six").mkdir()
    cv2.imwrite(str(tmp_path / "six" / "first roll.jpg"), _die(90))
    (tmp_path / "six" / "notes.txt").write_text("not a picture")
    (tmp_path / "empty").mkdir()
    ex = TaughtExamples(tmp_path)
    assert ex.counts() == {"six": 1}
    (tmp_path / "six" / "broken.png").write_bytes(b"not a png")
    with pytest.raises(ExampleError, match="broken.png: not a readable picture"):
        ex.images("six")


@pytest.mark.parametrize("label", ["", "a/b", "..", ".hidden", "x" * 65, "tree.", 7])
def test_a_label_that_is_no_folder_name_is_refused_and_nothing_is_written(tmp_path, label):
    ex = TaughtExamples(tmp_path / "t")
    with pytest.raises(ExampleError, match="not a usable face label"):
        ex.add(label, _die(10))
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize("picture", [np.zeros((4, 40, 3), np.uint8), np.zeros((40, 40), np.uint8),
                                     np.zeros((40, 40, 3), np.float32), "die.png"])
def test_a_picture_that_is_no_bgr_image_is_refused_naming_the_label(tmp_path, picture):
    ex = TaughtExamples(tmp_path)
    with pytest.raises(ExampleError, match="An example of 'red-vote' is an 8-bit BGR picture"):
        ex.add("red-vote", picture)
    assert ex.counts() == {}


def test_a_file_in_place_of_the_folder_is_refused(tmp_path):
    (tmp_path / "f").write_text("x")
    with pytest.raises(ExampleError, match="is a file, not a folder"):
        TaughtExamples(tmp_path / "f")
