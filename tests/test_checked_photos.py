"""A table's checked photos (companion.checked_photos): kept in the shared sets' format so
vision.realdata reads them as a set, capped, and never at the cost of a file the app cannot read."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

import companion.checked_photos as cp
from companion.checked_photos import CheckedPhotos, HeldPhotos, PhotosError, read_labels
from vision.realdata import photos


def jpeg(shade: int = 90) -> bytes:
    return cv2.imencode(".jpg", np.full((48, 64, 3), shade, np.uint8))[1].tobytes()


def test_kept_photos_are_a_set_vision_realdata_reads_in_the_order_they_were_taken(tmp_path):
    kept = CheckedPhotos(tmp_path / "checked-photos")
    assert kept.add(jpeg(), [(4, (1, 2, 11, 12)), (6, (20.25, 5, 30, 15))], when=1_800_000_000)
    assert kept.add(jpeg(120), [(1, (3, 3, 9, 9))], when=1_800_000_000)   # the same second
    assert kept.add(jpeg(), [(2, (0, 0, 5, 5))], when=1_800_000_100)
    assert kept.count() == 3 and kept.problem == ""
    shots = photos("checked-photos", "all", root=tmp_path)
    assert [s.dice for s in shots] == [((4, (1.0, 2.0, 11.0, 12.0)), (6, (20.2, 5.0, 30.0, 15.0))),
                                       ((1, (3.0, 3.0, 9.0, 9.0)),), ((2, (0.0, 0.0, 5.0, 5.0)),)]
    assert all(cv2.imread(str(s.path)).shape == (48, 64, 3) for s in shots)
    assert not list((tmp_path / "checked-photos").rglob("*.part"))     # written through a rename


def test_a_full_folder_takes_no_more_and_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(cp, "MOST", 2)
    kept = CheckedPhotos(tmp_path)
    assert kept.add(jpeg(), [(3, (0, 0, 5, 5))]) and kept.add(jpeg(), [(5, (0, 0, 5, 5))])
    assert not kept.add(jpeg(), [(6, (0, 0, 5, 5))])
    assert kept.count() == 2 and "holds 2 photos, as many as are kept" in kept.problem


@pytest.mark.parametrize("text, said", [
    ('{"a.jpg": [\n{"face": 3, "box": [0, 0, 5]}]}', "a.jpg die 0: box must be four numbers"),
    ('{"a.jpg": [{"face": 7, "box": [0, 0, 5, 5]}]}', "a.jpg die 0: face must be 1 to 6, not 7"),
    ('{"a.jpg": \n\n [{"face": 2,,}]}', "line 3: not JSON"),
    ('[1, 2]', "an object of photo names is expected, not list"),
])
def test_labels_it_cannot_read_are_left_as_they_are_and_named(tmp_path, text, said):
    (tmp_path / "labels.json").write_text(text, encoding="utf-8")
    with pytest.raises(PhotosError, match=said):
        read_labels(tmp_path / "labels.json")
    kept = CheckedPhotos(tmp_path)
    assert not kept.add(jpeg(), [(1, (0, 0, 5, 5))])
    assert said in kept.problem and (tmp_path / "labels.json").read_text(encoding="utf-8") == text
    assert not (tmp_path / "images").exists() or not list((tmp_path / "images").iterdir())


def test_a_folder_that_cannot_be_made_costs_only_the_photo(tmp_path):
    (tmp_path / "checked-photos").write_text("a file where the folder goes", encoding="utf-8")
    kept = CheckedPhotos(tmp_path / "checked-photos")
    assert not kept.add(jpeg(), [(1, (0, 0, 5, 5))])
    assert kept.problem.startswith("the checked photos are not kept:")
    assert read_labels(tmp_path / "nothing.json") == {}   # no file yet: no photos yet


def test_centerville_photos_are_labelled_with_the_dice_s_own_faces(tmp_path):
    kept = CheckedPhotos(tmp_path, icons=True)
    assert kept.add(jpeg(), [("red-vote", (1, 2, 11, 12)), ("black-hourglass", (20, 5, 30, 15))])
    (dice,) = read_labels(kept.labels_path, icons=True).values()
    assert [d["face"] for d in dice] == ["red-vote", "black-hourglass"]
    with pytest.raises(PhotosError, match="face must be 1 to 6, not 'red-vote'"):
        read_labels(kept.labels_path)                       # not a pip folder
    (tmp_path / "labels.json").write_text('{"a.jpg": [{"face": "black-fate", "box": [0, 0, 5, 5]}]}')
    with pytest.raises(PhotosError, match="a.jpg die 0: face must be a Centerville die's face, not 'black-fate'"):
        read_labels(tmp_path / "labels.json", icons=True)    # the black die shows no fate


def test_a_full_disk_leaves_the_photos_as_they_were(tmp_path, monkeypatch):
    kept = CheckedPhotos(tmp_path)
    assert kept.add(jpeg(), [(2, (0, 0, 5, 5))])
    before = kept.labels_path.read_bytes()

    def full(*_args):
        raise OSError(28, "No space left on device")

    # The disk fills while the photo is written: simulated (a full disk cannot be made here without mounting one).
    monkeypatch.setattr(cp.os, "fsync", full)
    assert not kept.add(jpeg(), [(4, (0, 0, 5, 5))])
    assert "No space left on device" in kept.problem
    assert kept.labels_path.read_bytes() == before and kept.count() == 1
    assert not list(tmp_path.rglob("*.part"))


def test_a_held_photo_is_kept_only_when_its_roll_stands_as_labelled(tmp_path):
    from companion.engine.rolling_village import Roll
    from companion.session import Session

    session = Session.new("rolling-village", ["Ann", "Bo"])
    held = HeldPhotos(CheckedPhotos(tmp_path))
    assert session.submit(Roll((3, 4))).ok
    held.hold(jpeg(), [(3, (0, 0, 5, 5)), (4, (9, 0, 14, 5))], (3, 4), session, 0)
    held.settle()
    assert held.photos.count() == 0                 # the game has not moved past it: it can still change
    assert session.undo().ok and session.submit(Roll((3, 5))).ok   # undone, entered with another face
    held.settle(everything=True)
    assert held.photos.count() == 0                 # its labels no longer say what the game holds
    held.hold(jpeg(), [(3, (0, 0, 5, 5)), (5, (9, 0, 14, 5))], (3, 5), session, 0)
    held.settle(everything=True)
    assert list(read_labels(held.photos.labels_path).values()) == [
        [{"face": 3, "box": [0.0, 0.0, 5.0, 5.0]}, {"face": 5, "box": [9.0, 0.0, 14.0, 5.0]}]]


def test_labels_changed_outside_the_app_are_read_again(tmp_path):
    kept = CheckedPhotos(tmp_path)
    assert kept.add(jpeg(), [(2, (0, 0, 5, 5))], when=1_800_000_000)
    kept.labels_path.rename(tmp_path / "moved-aside.json")           # the table starts a new set
    assert kept.add(jpeg(), [(6, (0, 0, 5, 5))], when=1_800_000_100)
    assert [d[0]["face"] for d in read_labels(kept.labels_path).values()] == [6]
    kept.labels_path.write_text('{"x.jpg": [{"face": 9, "box": [0, 0, 1, 1]}]}', encoding="utf-8")   # a hand edit
    assert not kept.add(jpeg(), [(1, (0, 0, 5, 5))]) and "face must be 1 to 6, not 9" in kept.problem
