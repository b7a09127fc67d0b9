"""The photos of rolls the camera boxed wrongly, kept for a person to box (companion.photos_to_box):
real files in a temporary data folder, read back by vision.realdata once boxed."""
from __future__ import annotations

import pytest

from companion.checked_photos import CheckedPhotos, PhotosError
from companion.photos_to_box import PhotosToBox, faces_left, read_to_box
from vision.realdata import photos

PHOTO = b"\xff\xd8 a tray \xff\xd9"
CAMERA = [(6, (10, 10, 50, 50))]          # the camera boxed one die of the two entered


@pytest.fixture
def folders(tmp_path):
    return PhotosToBox(tmp_path / "checked-photos" / "to-box"), CheckedPhotos(tmp_path / "checked-photos")


def test_a_photo_boxed_joins_the_checked_photos_and_leaves_the_folder(folders, tmp_path):
    to_box, checked = folders
    assert to_box.add(PHOTO, (6, 1), CAMERA, when=1_900_000_000)
    assert to_box.add(PHOTO + b"2", (3,), [], when=1_900_000_001)
    first, second = to_box.waiting()
    assert to_box.entries()[first] == {"entered": [6, 1], "camera": [{"face": 6, "box": [10.0, 10.0, 50.0, 50.0]}]}
    boxes = [(6, (10, 10, 50, 50)), (1, (60.5, 12, 98, 49))]
    assert to_box.boxed(first, boxes, checked)
    assert to_box.waiting() == [second] and not (to_box.folder / "images" / first).exists()
    assert list(checked.entries()) == [first]          # the name it was taken by
    assert checked.add(PHOTO + b"3", [(4, (1, 1, 9, 9))], when=1_900_000_002)     # a roll kept since
    assert to_box.boxed(second, [(3, (5, 5, 40, 40))], checked)
    names = sorted(checked.entries())
    assert len(names) == 3 and names[:2] == [first, second]       # in the order taken, not boxed
    shot = photos("checked-photos", "all", root=tmp_path)[0]
    assert shot.dice == ((6, (10.0, 10.0, 50.0, 50.0)), (1, (60.5, 12.0, 98.0, 49.0)))
    assert shot.path.read_bytes() == PHOTO


@pytest.mark.parametrize("boxes, said", [
    ([(6, (10, 10, 50, 50))], "the boxes' faces are not the roll's (6, 1)"),
    ([(6, (10, 10, 50, 50)), (2, (60, 10, 98, 49))], "the boxes' faces are not the roll's (6, 1)"),
])
def test_boxes_that_are_not_the_roll_are_refused_and_nothing_moves(folders, boxes, said):
    to_box, checked = folders
    to_box.add(PHOTO, (6, 1), CAMERA)
    (name,) = to_box.waiting()
    assert not to_box.boxed(name, boxes, checked)
    assert said in to_box.problem
    assert to_box.waiting() == [name] and checked.count() == 0


def test_what_is_left_to_box():
    assert faces_left([6, 1, 1], [(1, None)]) == ([1, 6], [])
    assert faces_left([6], [(6, None), (2, None)]) == ([], [2])
    assert faces_left([4, 4], [(4, None), (4, None)]) == ([], [])


def test_a_photo_that_cannot_join_the_checked_photos_stays_to_box(folders, tmp_path):
    to_box, checked = folders
    to_box.add(PHOTO, (6,), [])
    (name,) = to_box.waiting()
    checked.labels_path.parent.mkdir(parents=True, exist_ok=True)
    checked.labels_path.write_text("{not json")
    assert not to_box.boxed(name, [(6, (1, 1, 9, 9))], checked)
    assert "line 1" in to_box.problem and to_box.waiting() == [name]
    assert checked.labels_path.read_text() == "{not json"       # left as it was


@pytest.mark.parametrize("text, said", [
    ('{"a.jpg": [1]}', 'a.jpg: {"entered", "camera"} is expected'),
    ('{"a.jpg": {"entered": [], "camera": []}}', "a.jpg: entered must be a list of faces 1 to 6, not []"),
    ('{"a.jpg": {"entered": [7], "camera": []}}', "entered must be a list of faces 1 to 6, not [7]"),
    ('{"a.jpg": {"entered": [1], "camera": [{"face": 1, "box": [1, 2]}]}}', "a.jpg camera die 0: box must be four"),
    ('{"a.jpg": {"entered": [1], "camera": {}}}', "a.jpg camera: a list of dice is expected"),
    ('{"a.jpg": {"entered": [1], "camera": [], "more": 1}}', '{"entered", "camera"} is expected'),
])
def test_a_damaged_file_is_refused_by_name_and_no_photo_added(folders, text, said):
    to_box, _checked = folders
    to_box.folder.mkdir(parents=True)
    to_box.file_path.write_text(text)
    with pytest.raises(PhotosError) as refused:
        read_to_box(to_box.file_path)
    assert said in str(refused.value) and str(to_box.file_path) in str(refused.value)
    assert not to_box.add(PHOTO, (1,), [])
    assert to_box.problem.startswith("the photos to box are not kept:") and to_box.file_path.read_text() == text
    assert not (to_box.folder / "images").exists()


def test_a_done_cut_short_by_a_power_cut_keeps_the_photo_once(folders, tmp_path):
    to_box, checked = folders
    to_box.add(PHOTO, (6,), [], when=1_900_000_000)
    (name,) = to_box.waiting()
    assert checked.add(PHOTO, [(6, (1, 1, 9, 9))], name=name)    # the first step of Done, then the power went
    assert to_box.waiting() == [name]                           # shown again to box
    assert to_box.boxed(name, [(6, (2, 2, 8, 8))], checked)
    assert to_box.waiting() == [] and list(checked.entries()) == [name]
    assert checked.entries()[name] == [{"face": 6, "box": [1.0, 1.0, 9.0, 9.0]}]   # as first boxed
