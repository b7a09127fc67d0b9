"""vision.image_size: the size an image file's header declares, read before anything is decoded, and
vision.sources.read_image refusing a picture over MAX_PIXELS by it (a forged JPEG frame header of
20,000 x 20,000 pixels decoded into 1.2 GB here, and `make fuzz` was killed at 24 GB on such a file)."""
import struct

import cv2
import numpy as np
import pytest
from fuzz import FUZZ
from hypothesis import given
from hypothesis import strategies as st

from vision.cli import read_one
from vision.crops import die_crop
from vision.hand import hand_in_tray
from vision.image_size import declared_size, too_big
from vision.model import fit_aspect, network_input
from vision.reader import DiceReader
from vision.sources import ImageTooBig, SourceUnavailable, read_image
from vision.taught_examples import ExampleError, TaughtExamples

PICTURE = np.random.default_rng(3).integers(0, 256, (23, 37, 3), np.uint8)   # 37 wide, 23 high
ENCODINGS = {".png": (), ".jpg": (), ".bmp": (), ".tiff": (), ".webp": (cv2.IMWRITE_WEBP_QUALITY, 80),
             ".webp-lossless": (cv2.IMWRITE_WEBP_QUALITY, 101)}


def encoded(ext: str, picture=PICTURE) -> bytes:
    ok, data = cv2.imencode(ext.split("-")[0], picture, ENCODINGS[ext])
    assert ok
    return data.tobytes()


def forged_jpeg(width: int, height: int) -> bytes:
    """A real JPEG of PICTURE whose frame header says width x height: its decoder fills the rest."""
    data = bytearray(encoded(".jpg"))
    at = data.find(b"\xff\xc0")
    data[at + 5:at + 9] = struct.pack(">HH", height, width)
    return bytes(data)


@pytest.mark.parametrize("ext", sorted(ENCODINGS))
def test_every_format_the_sources_read_tells_its_size(ext):
    assert declared_size(encoded(ext)) == (37, 23)


def test_a_jpeg_after_fill_bytes_and_a_large_exif_still_tells_its_size():
    data = encoded(".jpg")
    app1 = b"\xff\xe1" + struct.pack(">H", 2 + 60_000) + b"Exif\0\0" + bytes(59_994)
    assert declared_size(data[:2] + app1 + b"\xff\xff" + data[2:]) == (37, 23)


def test_forged_headers_tell_the_size_they_claim():
    assert declared_size(forged_jpeg(20_000, 20_000)) == (20_000, 20_000)
    assert too_big((20_000, 20_000)) and too_big((8193, 8192)) and not too_big((8192, 8192))
    assert not too_big(None)


@FUZZ
@given(st.sampled_from(sorted(ENCODINGS)), st.data())
def test_a_damaged_or_cut_header_tells_a_size_or_none_never_raises(ext, data):
    raw = encoded(ext)
    raw = raw[:data.draw(st.integers(0, 64))] + data.draw(st.binary(max_size=16)) \
        if data.draw(st.booleans()) else raw[:data.draw(st.integers(0, len(raw)))]
    size = declared_size(raw)
    assert size is None or (len(size) == 2 and all(isinstance(v, int) and v >= 0 for v in size))


@given(st.binary(max_size=64))
def test_any_bytes_tell_a_size_or_none(raw):
    declared_size(raw)


def test_a_forged_jpeg_is_refused_by_its_header_before_it_is_decoded(tmp_path, monkeypatch):
    bomb = tmp_path / "bomb.jpg"
    bomb.write_bytes(forged_jpeg(20_000, 20_000))

    def never(*_args):   # decoding it takes about 8 s and 1.2 GB here
        raise AssertionError("decoded")
    monkeypatch.setattr(cv2, "imdecode", never)
    with pytest.raises(ImageTooBig, match=r"bomb\.jpg is 20000 x 20000 pixels: photos of up to 67 megapixels"):
        read_image(bomb)


def test_a_png_header_over_the_limit_is_refused_by_name_and_a_batch_goes_on(tmp_path):
    huge = tmp_path / "huge.png"
    ihdr = struct.pack(">IIBBBBB", 9000, 9000, 8, 2, 0, 0, 0)
    huge.write_bytes(b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + b"\0\0\0\0")
    line, error = read_one(DiceReader(keep_crops=False), str(huge))
    assert line is None and error == f"The image {huge} is 9000 x 9000 pixels: photos of up to 67 megapixels " \
                                      f"are read. Scale it down."


def test_pictures_under_the_limit_are_read_as_before(tmp_path):
    for ext in (".png", ".jpg"):
        path = tmp_path / f"die{ext}"
        path.write_bytes(encoded(ext))
        assert read_image(path).shape == (23, 37, 3)
    small = tmp_path / "forged-small.jpg"
    small.write_bytes(forged_jpeg(640, 480))   # under the limit: decoded (the decoder fills the rest)
    assert read_image(small).shape == (480, 640, 3)
    with pytest.raises(SourceUnavailable):
        read_image(tmp_path / "none.jpg")


def test_a_taught_example_too_big_is_left_out_with_its_reason(tmp_path):
    examples = TaughtExamples(tmp_path)
    examples.add("vote", np.full((40, 40, 3), 90, np.uint8))
    (tmp_path / "vote" / "9999.jpg").write_bytes(forged_jpeg(30_000, 30_000))
    assert len(examples.images("vote", skip_bad=True)) == 1
    assert any("9999.jpg is 30000 x 30000 pixels" in p for p in examples.problems)
    with pytest.raises(ExampleError, match="30000 x 30000 pixels"):
        examples.images("vote")


def test_a_strip_is_shrunk_before_it_is_padded_and_every_other_frame_as_before():
    rng = np.random.default_rng(5)
    for h, w in ((480, 640), (1080, 1920), (720, 1280), (640, 480), (300, 1500)):   # up to 5:1: as before
        frame = rng.integers(0, 256, (h, w, 3), np.uint8)
        before = cv2.resize(fit_aspect(frame, 320 / 240), (320, 240), interpolation=cv2.INTER_AREA)
        assert np.array_equal(network_input(frame, 320, 240), before)
    strip = np.zeros((600, 40_000, 3), np.uint8)          # padded at full size: 40,000 x 30,000 x 3 bytes
    strip[:, :200] = 255
    x = network_input(strip, 320, 240)
    assert x.shape == (240, 320, 3) and x[:4, :1].min() > 200 and x[:, 5:].max() == 0


def test_a_strip_frame_is_read_within_a_few_hundred_megabytes():
    """8 x 8,000 pixels: the hand check worked it 160 x 160,000 and its blur asked for 24 GB; a box as big
    as the strip's padded frame would have been cut as a 75,000-pixel square."""
    assert hand_in_tray(np.full((8000, 8, 3), 90, np.uint8)) is False
    strip = np.full((1000, 65_000, 3), 90, np.uint8)
    strip[:, :500] = 250
    crop = die_crop(strip, (0, 0, 65_000, 48_750))    # cut at 4,096 a side, not 74,750
    assert crop.shape == (48, 48, 3) and crop[0, 0].min() == 250 and crop[-1, -1].max() == 90
