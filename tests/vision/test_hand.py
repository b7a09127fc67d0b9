"""vision.hand: a hand resting in the tray, told from the tray and from dice at its edge."""
import cv2
import numpy as np

from vision.hand import hand_in_tray, lab_8bit
from vision.sim import SimulatedTray


def _still_tray():
    tray = SimulatedTray(dice=3, seed=21, moving=2)
    tray.roll(faces=[1, 4, 6])
    for _ in range(3):
        image, _ = tray.next_frame()
    return image, [d.box for d in tray.truth]


def test_a_hand_from_the_edge_is_a_hand_and_the_dice_alone_are_not():
    image, boxes = _still_tray()
    assert not hand_in_tray(image, boxes)
    hand = image.copy()
    cv2.ellipse(hand, (0, 300), (200, 90), 0, 0, 360, (110, 140, 200), -1)   # from the left edge
    assert hand_in_tray(hand, boxes)


def test_a_big_die_cut_by_the_edge_is_no_hand_once_it_is_found():
    image, _ = _still_tray()
    block = image.copy()
    cv2.rectangle(block, (560, 180), (640, 300), (235, 235, 235), -1)       # a big pale die at the edge
    cv2.rectangle(block, (0, 0), (200, 200), (40, 40, 40), -1)             # and a dark one in a corner
    assert not hand_in_tray(block, [(560, 180, 640, 300), (0, 0, 200, 200)])


def test_its_lab_is_opencvs_within_rounding_over_every_colour_step():
    # Every 5th level of each channel: 140,608 colours, dark (the linear part) to saturated.
    levels = np.arange(0, 256, 5, dtype=np.uint8)
    colours = np.stack(np.meshgrid(levels, levels, levels, indexing="ij"), -1).reshape(-1, 1, 3)
    ours = lab_8bit(colours).astype(int)
    theirs = cv2.cvtColor(colours, cv2.COLOR_BGR2LAB).astype(int)
    assert ours.shape == theirs.shape and lab_8bit(colours).dtype == np.uint8
    assert np.abs(ours - theirs).max() <= 3
    assert (np.abs(ours - theirs) > 1).mean() < 0.001


def test_its_blur_is_opencvs_gaussian_blur_on_pictures_narrower_than_the_kernel():
    from vision.hand import _blur
    rng = np.random.default_rng(5)
    for h, w, sigma in ((60, 80, 16.5), (45, 80, 16.5), (90, 80, 11.5), (7, 9, 1.5)):
        grey = (rng.random((h, w)) > 0.4).astype(np.float32)
        colour = rng.random((h, w, 3)).astype(np.float32) * 255
        assert np.abs(_blur(grey, sigma) - cv2.GaussianBlur(grey, (0, 0), sigma)).max() < 1e-4
        assert np.abs(_blur(colour, sigma) - cv2.GaussianBlur(colour, (0, 0), sigma)).max() < 1e-2
        assert _blur(colour, sigma).shape == colour.shape and _blur(colour, sigma).flags.c_contiguous
