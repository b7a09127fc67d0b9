"""The last look at all boxes of a frame together (vision.boxes): pieces of a die beside it and a
box holding two dice found apart are dropped; a piece of a die alone is grown to the roll's size."""
import numpy as np

from vision.boxes import Detection, grown, without_fragments, without_merged


def det(x0, y0, x1, y1):
    """A detection with this box (centre and side derived from it)."""
    return Detection((x0, y0, x1, y1), ((x0 + x1) / 2, (y0 + y1) / 2), float(np.sqrt((x1 - x0) * (y1 - y0))))


def test_side_face_pieces_beside_a_die_are_dropped_and_a_small_die_apart_is_kept():
    die = det(318, 149, 399, 217)            # a die's top face, seen steeply (tilted-webcam valid_38)
    side = [det(296, 229, 329, 255), det(336, 243, 362, 270), det(308, 248, 336, 269)]  # its side's pips
    other = det(100, 100, 175, 170)          # another die of the roll
    far_small = det(500, 400, 530, 428)      # a small die lying apart is still a die
    kept = without_fragments([die, *side, other, far_small])
    assert kept == [die, other, far_small]


def test_a_box_holding_two_dice_found_apart_is_dropped():
    left, right = det(100, 100, 160, 160), det(162, 100, 222, 160)
    both = det(98, 98, 224, 162)            # the same two dice boxed as one by another pass
    touching_neighbour = det(224, 100, 284, 160)
    assert without_merged([left, both, right, touching_neighbour]) == [left, right, touching_neighbour]


def test_a_piece_of_a_die_is_grown_to_the_roll_s_die_size_around_it():
    dice = [det(100, 100, 160, 160), det(300, 100, 362, 162), det(100, 300, 158, 358)]
    piece = det(400, 300, 424, 330)          # two pips of a white die on white paper
    boxes = grown([*dice, piece], 640, 480)
    assert boxes[:3] == dice
    x0, y0, x1, y1 = boxes[3].box
    assert 55 <= x1 - x0 <= 62 and 55 <= y1 - y0 <= 62
    assert boxes[3].contains(*piece.center)
    edge_piece = det(0, 460, 20, 480)        # grown, but not past the frame
    assert grown([*dice, edge_piece], 640, 480)[3].box == (0, 440, 40, 480)
    # A roll of two: no roll's size to go by.
    assert grown([dice[0], piece], 640, 480) == [dice[0], piece]
