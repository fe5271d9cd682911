"""A streaming PNG encoder for big pictures, which reports the rows it has encoded.

PIL encodes a picture in one call that cannot report progress: a 6000 x 6000 maze spends
tens of seconds there. This writer converts and compresses the picture in bands of rows
with :mod:`zlib` and counts them on a :func:`mazekit.kernels.draw.meter`, so a
:class:`mazekit.progress.Bar` shows rows done, percent and time left; only one band is
held as an array at a time. Each row is stored as it is or with PNG's "Up" filter (each
byte minus the one above), whichever libpng's heuristic (the smaller sum of absolute
signed bytes) prefers: rows of big cells repeat, and Up turns them into zeros.

Examples
--------
>>> import io
>>> from PIL import Image
>>> im = Image.new("RGB", (3, 2), (255, 0, 0))
>>> buf = io.BytesIO()
>>> write_png(im, buf)
>>> _ = buf.seek(0)
>>> Image.open(buf).convert("RGB").getpixel((2, 1))
(255, 0, 0)
"""

from __future__ import annotations

import struct
import zlib
from typing import IO, Any

import numpy as np

#: PNG colour type and samples per pixel of the PIL modes this writer takes.
_TYPES = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4), "P": (3, 1)}

#: Rows converted and compressed per step (and per progress report).
BAND = 64

#: PNG row filter "Up": each byte minus the byte above it.
_UP = 2


def can_write(image: Any) -> bool:
    """Whether :func:`write_png` keeps everything of this picture: 8-bit L, RGB, RGBA or P,
    with no transparency key or colour profile to carry (PIL writes those)."""
    return image.mode in _TYPES and not {"transparency", "icc_profile"} & set(image.info)


def _chunk(fh: IO[bytes], kind: bytes, data: bytes) -> None:
    fh.write(struct.pack(">I", len(data)) + kind + data)
    fh.write(struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def write_png(image: Any, fh: IO[bytes], *, level: int = 6) -> None:
    """Write ``image`` (a ``PIL.Image`` that :func:`can_write` takes) to ``fh`` as PNG.

    The rows encoded are counted on a progress meter, watched when a bar is open.
    """
    from ..kernels.draw import meter, report

    if not can_write(image):
        raise ValueError(f"write_png takes modes {', '.join(_TYPES)} without transparency, not {image.mode}")
    color, samples = _TYPES[image.mode]
    width, height = image.size
    stride = width * samples
    fh.write(b"\x89PNG\r\n\x1a\n")
    _chunk(fh, b"IHDR", struct.pack(">IIBBBBB", width, height, 8, color, 0, 0, 0))
    if image.mode == "P":
        palette = image.getpalette() or []
        _chunk(fh, b"PLTE", bytes(palette[:768]))
    squeeze = zlib.compressobj(level)
    above = np.zeros(stride, dtype=np.uint8)  # the row before the band (none: zeros)
    out = np.empty((BAND, stride + 1), dtype=np.uint8)  # filter byte, then the row
    rows = meter(height, "rows")
    for top in range(0, height, BAND):
        n = min(BAND, height - top)
        band = np.asarray(image.crop((0, top, width, top + n)), dtype=np.uint8).reshape(n, stride)
        np.subtract(band[0], above, out=out[0, 1:])
        np.subtract(band[1:], band[:-1], out=out[1:n, 1:])
        # Per row, Up or none, whichever has the smaller sum of absolute (signed) bytes:
        # libpng's heuristic. Big cells repeat their rows (Up: zeros); one-pixel walls do not.
        up_cost = np.abs(out[:n, 1:].view(np.int8), dtype=np.int64).sum(axis=1)
        none_cost = np.abs(band.view(np.int8), dtype=np.int64).sum(axis=1)
        plain = none_cost <= up_cost
        out[:n, 0] = np.where(plain, 0, _UP)
        out[:n, 1:][plain] = band[plain]
        above = band[-1].copy()
        data = squeeze.compress(out[:n].tobytes())
        if data:
            _chunk(fh, b"IDAT", data)
        report(rows, top + n)
    _chunk(fh, b"IDAT", squeeze.flush())
    _chunk(fh, b"IEND", b"")
