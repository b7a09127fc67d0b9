"""Box the camera's misses (companion.ui.screens.box_photos): the photos of rolls the camera boxed
wrongly, boxed by a finger on the real window with real touches, then kept as checked photos that
vision.realdata reads. The photos are rendered trays with their dice's true boxes."""
from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion.checked_photos import FOLDER, ICON_FOLDER, read_labels
from companion.photos_to_box import FOLDER as TO_BOX
from companion.photos_to_box import PhotosToBox
from vision.realdata import photos
from vision.synth.centerville import render_centerville_tray
from vision.synth.scene import render_tray

pytestmark = pytest.mark.ui


def tray(seed: int, faces: list[int]):
    scene = render_tray(np.random.default_rng(seed), len(faces), faces=faces)
    return cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes(), scene.dice


def on_window(photo, px: float, py: float) -> tuple[float, float]:
    return photo.to_window(*photo.to_screen(px, py))


def test_a_missed_die_boxed_and_a_box_on_no_die_removed_by_finger(drv):
    data = drv.store.path.parent / FOLDER
    to_box = PhotosToBox(data / TO_BOX)
    missed_photo, missed = tray(3, [6, 1])
    assert to_box.add(missed_photo, (6, 1), [(6, missed[0].box)], when=1_900_000_000)    # the 1 was missed
    extra_photo, extra = tray(4, [5])
    stray = (20, 20, 70, 70)       # a box on the tray's corner, no die there
    assert to_box.add(extra_photo, (5,), [(5, extra[0].box), (2, stray)], when=1_900_000_001)

    drv.app.go_dice()
    drv.frames(3)
    assert drv.screen.ids.to_box.text == "Photos to box: 2"
    drv.tap(drv.screen.ids.to_box)
    screen = drv.screen
    assert drv.app.screens.current == "box-photos" and screen.ids.count.text == "Photo 1 of 2"
    assert "Still to box: 1." in screen.ids.said.text and screen.ids.done.disabled

    photo = screen.ids.photo
    x0, y0, x1, y1 = missed[1].box
    drv.drag(on_window(photo, x0, y0), on_window(photo, x1, y1))     # around the missed die
    assert photo.boxes[-1][0] is None and photo.chosen == len(photo.boxes) - 1
    assert "1 box without a face" in screen.ids.said.text
    drv.tap(screen.ids.face1)
    assert "Every die is boxed" in screen.ids.said.text and not screen.ids.done.disabled
    drv.tap(screen.ids.done)
    assert "Boxed: the photo joins this table's checked photos (1 kept)." in drv.app.table.message

    assert screen.ids.count.text == "Photo 1 of 1" and "Boxed but not entered: 2" in screen.ids.said.text
    drv.touch(*on_window(photo, 45, 45))                              # the box on no die
    assert photo.chosen == 1
    drv.tap(screen.ids.not_a_die)
    assert len(photo.boxes) == 1 and not screen.ids.done.disabled
    drv.tap(screen.ids.done)
    assert "No photos to box" in screen.ids.said.text and screen.ids.done.disabled and to_box.waiting() == []

    shots = photos(FOLDER, "all", root=data.parent)
    assert [[face for face, _box in shot.dice] for shot in shots] == [[6, 1], [5]]
    drawn = shots[0].dice[1][1]
    assert max(abs(a - b) for a, b in zip(drawn, missed[1].box)) <= 2      # the drag's box, in the photo's pixels
    assert shots[1].dice == ((5, tuple(float(v) for v in extra[0].box)),)
    assert shots[0].path.read_bytes() == missed_photo

    drv.tap(screen.ids.back)
    assert drv.app.screens.current == "dice-fairness" and drv.screen.ids.to_box.text == ""


def test_centerville_dice_are_boxed_with_the_faces_of_the_roll(drv):
    data = drv.store.path.parent / ICON_FOLDER
    to_box = PhotosToBox(data / TO_BOX, icons=True)
    scene = render_centerville_tray(np.random.default_rng(8))
    photo = cv2.imencode(".jpg", scene.image)[1].tobytes()
    labels = [d.label for d in scene.dice]
    # The camera boxed five dice and could not name the second one's colour; it missed the last.
    camera = [(None if k == 1 else d.label, d.box) for k, d in enumerate(scene.dice[:5])]
    assert to_box.add(photo, labels, camera)

    drv.app.go_box_photos()
    drv.frames(3)
    screen = drv.screen
    assert [screen.ids[f"face{n}"].text for n in range(1, 7)] == [label.split("-")[1] for label in labels]
    assert "1 box without a face" in screen.ids.said.text and f"Still to box: {labels[5].replace('-', ' ')}" in \
        screen.ids.said.text
    photo_view = screen.ids.photo
    x0, y0, x1, y1 = scene.dice[1].box
    drv.touch(*on_window(photo_view, (x0 + x1) / 2, (y0 + y1) / 2))   # the die the camera could not name
    assert photo_view.chosen == 1
    drv.tap(screen.ids.face2)
    x0, y0, x1, y1 = scene.dice[5].box
    drv.drag(on_window(photo_view, x0, y0), on_window(photo_view, x1, y1))
    drv.tap(screen.ids.face6)
    assert not screen.ids.done.disabled, screen.ids.said.text
    drv.screenshot("box-photos-icons")
    drv.tap(screen.ids.done)
    (dice,) = read_labels(data / "labels.json", icons=True).values()
    assert [d["face"] for d in dice] == labels
    assert max(abs(a - b) for a, b in zip(dice[5]["box"], scene.dice[5].box)) <= 2
