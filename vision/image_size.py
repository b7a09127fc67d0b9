"""The width and height an image file declares, read from its header before anything is decoded.

Why: OpenCV decodes whatever size a header declares, up to 2**30 pixels, and a JPEG decoder fills
the rows its data does not hold. A 20 KB JPEG whose frame header says 20,000 x 20,000 decodes into a
1.2 GB picture in 8 s here, and the reader then works on it: `make fuzz` (tests/vision/test_image_fuzz.py,
2,000 examples) had its process killed by the kernel at 24 GB on such a file. A photo whose header
declares more than MAX_PIXELS is refused by vision.sources.read_image before it is decoded.

Formats: JPEG (any SOF marker), PNG (IHDR), BMP, WebP (VP8, VP8L, VP8X) and TIFF (the first IFD);
None for anything else or a header too damaged to say (the caller then checks the decoded picture).
"""
from __future__ import annotations

import struct

# 64 megapixels (8192 x 8192): more than any phone's or camera's usual photo (48-50 MP phones
# included), and a picture this size takes about 200 MB decoded; the reader needs a few times that.
MAX_PIXELS = 1 << 26

_JPEG_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
_JPEG_STANDALONE = {0x01, *range(0xD0, 0xDA)}   # markers with no length: TEM, RSTn, SOI, EOI


def declared_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) the header of an encoded image declares, or None if it cannot be told."""
    try:
        if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR":
            return struct.unpack(">II", data[16:24])
        if data[:2] == b"\xff\xd8":
            return _jpeg(data)
        if data[:2] == b"BM":
            width, height = struct.unpack("<ii", data[18:26])
            return abs(width), abs(height)     # a negative height is a top-down BMP
        if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
            return _webp(data)
        if data[:4] in (b"II*\0", b"MM\0*"):
            return _tiff(data)
    except struct.error:                        # the header ends before its size
        return None
    return None


def _jpeg(data: bytes) -> tuple[int, int] | None:
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:                      # a fill byte before the marker
            at += 1
            continue
        if marker in _JPEG_STANDALONE:
            at += 2
            continue
        if marker in _JPEG_SOF:
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return width, height
        if marker == 0xDA:                      # the scan began with no frame header
            return None
        at += 2 + struct.unpack(">H", data[at + 2:at + 4])[0]
    return None


def _webp(data: bytes) -> tuple[int, int] | None:
    kind = data[12:16]
    if kind == b"VP8X":                         # the canvas: 24-bit width - 1 and height - 1
        return (int.from_bytes(data[24:27], "little") + 1, int.from_bytes(data[27:30], "little") + 1)
    if kind == b"VP8L" and data[20] == 0x2F:    # lossless: 14-bit width - 1 and height - 1
        bits = int.from_bytes(data[21:25], "little")
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if kind == b"VP8 " and data[23:26] == b"\x9d\x01\x2a":   # lossy: 14-bit sizes after the start code
        width, height = struct.unpack("<HH", data[26:30])
        return width & 0x3FFF, height & 0x3FFF
    return None


def _tiff(data: bytes) -> tuple[int, int] | None:
    order = "<" if data[:2] == b"II" else ">"
    ifd = struct.unpack(order + "I", data[4:8])[0]
    count = struct.unpack(order + "H", data[ifd:ifd + 2])[0]
    size = {}
    for i in range(count):
        tag, kind, _n = struct.unpack(order + "HHI", data[ifd + 2 + 12 * i:ifd + 10 + 12 * i])
        if tag in (256, 257):                   # ImageWidth, ImageLength: SHORT (3) or LONG (4)
            value = data[ifd + 10 + 12 * i:ifd + 14 + 12 * i]
            size[tag] = struct.unpack(order + ("H" if kind == 3 else "I"), value[:2] if kind == 3 else value)[0]
    return (size[256], size[257]) if len(size) == 2 else None


def too_big(size: tuple[int, int] | None) -> bool:
    """Whether a picture of size (width, height) is more than MAX_PIXELS; None (unknown) is not."""
    return size is not None and size[0] * size[1] > MAX_PIXELS
