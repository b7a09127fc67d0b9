"""Frame sources: files, folders, videos, the simulator; clear errors when a source goes away."""
import shutil

import cv2
import numpy as np
import pytest

from vision.sim import SimulatedTray, parse_sim_options
from vision.sources import (EndOfSource, FolderSource, ImageFileSource, Picamera2Source, SimulatedSource,
                            SourceLost, SourceUnavailable, V4L2Source, VideoSource, open_source)


def _image(value: int) -> np.ndarray:
    img = np.full((48, 64, 3), value, np.uint8)
    img[10:20, 10:20] = 255 - value
    return img


def test_image_file_source_gives_the_picture_again_and_again(tmp_path):
    path = tmp_path / "tray.png"
    cv2.imwrite(str(path), _image(40))
    with open_source(f"file:{path}") as source:
        frames = [source.read() for _ in range(3)]
    assert [f.index for f in frames] == [0, 1, 2]
    assert frames[0].timestamp < frames[1].timestamp < frames[2].timestamp
    assert np.array_equal(frames[2].image, _image(40))


def test_missing_or_corrupt_image_names_the_file(tmp_path):
    with pytest.raises(SourceUnavailable, match="does not exist"):
        ImageFileSource(tmp_path / "none.jpg").open()
    bad = tmp_path / "bad.jpg"
    bad.write_bytes(b"not a jpeg at all")
    with pytest.raises(SourceUnavailable, match=r"bad\.jpg is not a readable picture"):
        open_source(str(bad)).open()


def test_folder_source_reads_in_name_order_and_ends(tmp_path):
    for i, value in enumerate((10, 20, 30)):
        cv2.imwrite(str(tmp_path / f"{i}.png"), _image(value))
    (tmp_path / "notes.txt").write_text("not an image")
    source = open_source(f"folder:{tmp_path}")
    frames = list(source)
    assert [int(f.image[0, 0, 0]) for f in frames] == [10, 20, 30]
    with pytest.raises(EndOfSource, match="no more images"):
        source.read()


def test_folder_that_disappears_is_a_lost_source(tmp_path):
    folder = tmp_path / "camera"
    folder.mkdir()
    cv2.imwrite(str(folder / "a.png"), _image(10))
    cv2.imwrite(str(folder / "b.png"), _image(20))
    source = FolderSource(folder)
    source.read()
    shutil.rmtree(folder)
    with pytest.raises(SourceLost, match="has disappeared"):
        source.read()


def test_video_source_reads_frames_then_ends(tmp_path):
    path = tmp_path / "roll.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 10.0, (64, 48))
    assert writer.isOpened()
    for value in (30, 90, 150, 210):
        writer.write(_image(value))
    writer.release()
    source = open_source(f"video:{path}")
    frames = list(source)
    assert len(frames) == 4
    assert frames[1].timestamp == pytest.approx(0.1)
    assert abs(int(frames[2].image[40, 40, 1]) - 150) < 12
    with pytest.raises(EndOfSource, match="has ended"):
        source.read()
    source.close()
    source.close()  # closing twice is harmless


def test_missing_video_and_camera_are_unavailable(tmp_path):
    with pytest.raises(SourceUnavailable, match="does not exist"):
        VideoSource(tmp_path / "none.mp4").open()
    with pytest.raises(SourceUnavailable, match="no camera at /dev/video97"):
        open_source("/dev/video97").open()
    with pytest.raises(SourceUnavailable, match="no camera at /dev/video98"):
        V4L2Source(98).open()


def test_picamera2_missing_on_a_laptop_is_a_sentence():
    try:
        import picamera2  # noqa: F401
    except ImportError:
        with pytest.raises(SourceUnavailable, match="picamera2 is not installed"):
            Picamera2Source().open()
    else:
        pytest.skip("picamera2 is installed here: the laptop case cannot be shown")


def test_unknown_source_names_the_choices():
    with pytest.raises(SourceUnavailable, match="Unknown camera source 'ftp:x'.*sim:"):
        open_source("ftp:x")
    with pytest.raises(ValueError, match="no option 'colour'"):
        open_source("sim:?colour=red")


def test_sim_options_parse():
    assert parse_sim_options("?dice=3&seed=5&every=2.5&realtime=1") == \
        {"dice": 3, "seed": 5, "every": 2.5, "realtime": True}
    with pytest.raises(ValueError, match="dice must be a int"):
        parse_sim_options("dice=two")


def test_simulator_behaves_like_a_camera_over_a_tray():
    source = open_source("sim:?dice=2&seed=4&moving=5")
    assert isinstance(source, SimulatedSource)
    empty = [source.read() for _ in range(2)]
    assert source.tray.truth == []
    source.roll()
    frames = [source.read() for _ in range(9)]
    assert len(source.tray.truth) == 2
    still = [f.image.astype(int) for f in frames[5:]]
    moving = [f.image.astype(int) for f in frames[:5]]
    # Still frames differ by sensor noise only; tumbling frames differ a lot.
    assert max(np.abs(a - b).mean() for a, b in zip(still, still[1:])) < 4
    assert min(np.abs(a - b).mean() for a, b in zip(moving, moving[1:])) > np.abs(still[0] - still[1]).mean()
    assert frames[-1].timestamp > empty[-1].timestamp
    source.clear()
    assert source.tray.truth == []


def test_simulator_rolls_by_itself_every_few_seconds():
    tray = SimulatedTray(dice=1, seed=2, fps=10, moving=2, every=1.0)
    rolls = 0
    last = None
    for _ in range(35):
        tray.next_frame()
        if tray.truth and tray.truth is not last:
            rolls += 1
            last = tray.truth
    assert rolls == 4  # at 0 s, 1 s, 2 s and 3 s of simulated time


def test_simulator_empties_the_tray_between_rolls():
    tray = SimulatedTray(dice=2, seed=6, fps=10, moving=2, every=2.0, clear_after=1.0)
    shown = []
    for _ in range(40):
        tray.next_frame()
        shown.append(len(tray.truth))
    # Each 2 s: a roll (dice for 1 s, tumbling included), then the empty tray for 1 s.
    assert shown[:10] == [2] * 10 and shown[10:20] == [0] * 10 and shown[20:30] == [2] * 10


def test_auto_is_the_simulator_on_a_laptop_and_the_pi_camera_or_a_webcam_on_a_pi(tmp_path):
    from vision.sources import AutoSource, SourceUnavailable, on_raspberry_pi, open_source

    laptop = open_source("auto:?dice=3&seed=2")
    with laptop:
        frame = laptop.read()
        assert laptop.name == "auto: sim:" and frame.image.shape == (480, 640, 3)
        laptop.roll([1, 2, 3])          # the simulator's own controls come through
    # On a Pi with no camera at all: a clear sentence, never the simulator (the app retries).
    pi = AutoSource(on_pi=lambda: True, webcams=lambda: [str(tmp_path / "video-index0")])
    with pytest.raises(SourceUnavailable, match="No camera found") as err:
        pi.open()
    assert "picamera2" in str(err.value) and "video-index0" in str(err.value)
    assert getattr(pi, "roll", None) is None
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 5 Model B Rev 1.0\x00")
    assert on_raspberry_pi(model) and not on_raspberry_pi(tmp_path / "absent")
