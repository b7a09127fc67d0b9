"""Property: any file given to `python -m vision read` gets its JSON line or one error line naming
it, and the batch goes on (vision.cli.read_one, the CLI's own per-file step, with the real
reader and the shipped model). Inputs: a rendered tray as PNG and JPEG, damaged as bytes; images
of odd shapes; PNG headers declaring sizes up to 100,000 x 100,000 pixels, and real JPEGs whose frame header
declares any size up to 65,535 x 65,535 (their decoder fills the rows the data lacks: before vision.image_size
and the strip case of vision.model.network_input, `make fuzz` was killed at 24 GB on them)."""
import json
import struct
import zlib

import cv2
import numpy as np
import pytest
from fuzz import FUZZ_IMAGES, tally
from hypothesis import given
from hypothesis import strategies as st

from vision.cli import read_one
from vision.reader import DiceReader

from .helpers import scene

TRAY = scene(701, 2, faces=[1, 5], tilt_max=10.0, touching=0.0, surface="felt").image
ENCODED = {ext: cv2.imencode(ext, TRAY)[1].tobytes() for ext in (".png", ".jpg")}


@pytest.fixture(scope="module")
def reader():
    return DiceReader(keep_crops=False)


def _png_header(width, height, body=b"\0" * 64):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr) + chunk(b"IDAT", zlib.compress(body)) + chunk(b"IEND", b"")


@st.composite
def odd_images(draw):
    how = draw(st.sampled_from(["bytes", "cut", "shape", "header", "jpeg-header", "empty"]))
    ext = draw(st.sampled_from(sorted(ENCODED)))
    data = ENCODED[ext]
    if how == "bytes":
        for _ in range(draw(st.integers(1, 4))):
            at = draw(st.integers(0, len(data) - 1))
            data = data[:at] + draw(st.binary(min_size=1, max_size=32)) + data[at + draw(st.integers(0, 32)):]
    elif how == "cut":
        data = data[:draw(st.integers(0, len(data)))]
    elif how == "shape":
        h, w = draw(st.integers(1, 12)), draw(st.sampled_from([1, 2, 7, 640, 8000]))
        h, w = (w, h) if draw(st.booleans()) else (h, w)
        data = cv2.imencode(ext, np.full((h, w, 3), draw(st.integers(0, 255)), np.uint8))[1].tobytes()
    elif how == "header":
        ext = ".png"
        data = _png_header(draw(st.integers(1, 100_000)), draw(st.integers(1, 100_000)))
    elif how == "jpeg-header":
        ext, data = ".jpg", bytearray(ENCODED[".jpg"])
        at = data.find(b"\xff\xc0")
        data[at + 5:at + 9] = struct.pack(">HH", draw(st.integers(1, 65_535)), draw(st.integers(1, 65_535)))
        data = bytes(data)
    else:
        data = b""
    return how, ext, data


@FUZZ_IMAGES
@given(odd_images())
def test_an_odd_image_gets_its_line_or_one_error_naming_it(tmp_path_factory, reader, case):
    how, ext, data = case
    path = tmp_path_factory.mktemp("img") / f"photo{ext}"
    path.write_bytes(data)
    line, error = read_one(reader, str(path))
    assert (line is None) != (error is None)
    if line is not None:
        reading = json.loads(line)
        assert reading["path"] == str(path)
        assert all(1 <= d["face"] <= 6 for d in reading["dice"])
        tally("image (vision read)", "read")
        return
    assert str(path) in error and "\n" not in error
    # read_one also turns an exception of the reader itself into an error line: counted apart
    tally("image (vision read)", "reader raised" if "could not be read (" in error else "refused")


def test_after_odd_files_a_good_one_is_still_read(tmp_path, reader):
    good = tmp_path / "tray.png"
    good.write_bytes(ENCODED[".png"])
    for name, data in (("one.png", cv2.imencode(".png", np.zeros((1, 1, 3), np.uint8))[1].tobytes()),
                       ("huge.png", _png_header(100_000, 100_000)), ("junk.jpg", b"\xff\xd8 not a jpeg")):
        (tmp_path / name).write_bytes(data)
        line, error = read_one(reader, str(tmp_path / name))
        assert line is None or json.loads(line)["dice"] == [], (name, line)
    line, error = read_one(reader, str(good))
    assert error is None and sorted(d["face"] for d in json.loads(line)["dice"]) == [1, 5]
