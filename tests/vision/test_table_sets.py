"""A table's own labelled photos (companion.checked_photos) as a real set: read by vision.realdata with
the shared sets' splits, and shown to the trainers with --table-photos (train split only)."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.checked_photos import CheckedPhotos
from vision.crops import INPUT_SIZE
from vision.realdata import photos, split_of
from vision.train import learn_detector
from vision.train.__main__ import parse as parse_classifier
from vision.train.realcrops import real_crops
from vision.train.trays import real_train


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """Twelve photos kept by a table, one die each (face n % 6 + 1 at a box that moves)."""
    folder = tmp_path_factory.mktemp("data") / "checked-photos"
    kept = CheckedPhotos(folder)
    for n in range(12):
        image = np.full((240, 320, 3), 40 + n, np.uint8)
        cv2.rectangle(image, (20 + n, 30), (60 + n, 70), (230, 230, 230), -1)
        photo = cv2.imencode(".jpg", image)[1].tobytes()
        assert kept.add(photo, [(n % 6 + 1, (20 + n, 30, 60 + n, 70))], when=1_900_000_000 + n)
    return folder


def test_a_table_set_is_split_as_the_shared_sets_are(table):
    every = photos(table, "all")
    assert len(every) == 12
    for split in ("train", "calib", "test"):
        assert [p.path for p in photos(table, split)] == [p.path for i, p in enumerate(every) if split_of(i) == split]
    assert [p.dice for p in photos(str(table), "calib")] == [((n % 6 + 1, (20.0 + n, 30.0, 60.0 + n, 70.0)),)
                                                            for n in range(4, 8)]


def test_the_trainers_see_only_its_train_split(table):
    images, dice = real_train((160, 120), sets=(table,))
    assert images.shape == (8, 120, 160, 3)          # blocks 0 and 2 of four photos each
    assert dice[0].tolist() == [[10.0, 15.0, 30.0, 35.0, 1.0]]     # the box halved with the photo
    from vision.classify import NOT_A_DIE
    labels = [f"pip{f}" for f in range(1, 7)] + [NOT_A_DIE]
    crops, faces = real_crops(labels, "train", copies=2, no_die_per_photo=1, sets=(table,), log=lambda _m: None)
    assert crops.shape[1:] == (INPUT_SIZE, INPUT_SIZE, 3)
    assert sorted(labels[k] for k in faces[::3]) == sorted(f"pip{n % 6 + 1}" for n in (0, 1, 2, 3, 8, 9, 10, 11))


@pytest.mark.parametrize("parse", [learn_detector.parse, parse_classifier])
def test_table_photos_on_the_command_line(table, tmp_path, parse, capsys):
    args = parse(["--table-photos", str(table), "--table-photos", str(table)])
    assert args.table_photos == [table, table]
    assert parse([]).table_photos == []
    with pytest.raises(SystemExit):
        parse(["--table-photos", str(tmp_path)])
    assert f"{tmp_path}: no labels.json there" in capsys.readouterr().err
