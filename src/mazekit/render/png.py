"""A streaming PNG encoder for big pictures, which reports the rows it has encoded.

PIL encodes a picture in one call that cannot report progress: a 6000 x 6000 maze spends
tens of seconds there. This writer compresses the rows in bands with :mod:`zlib` and
counts them on a :func:`mazekit.kernels.draw.meter`, so a :class:`mazekit.progress.Bar`
shows rows done, percent and time left. Rows are stored unfiltered (filter type 0): maze
pictures are long runs of a few colours, which deflate compresses well as they are.

Examples
--------
>>> import io
>>> from PIL import Image
>>> im = Image.new("RGB", (3, 2), (255, 0, 0))
>>> buf = io.BytesIO()
>>> write_png(im, buf)
>>> buf.seek(0); Image.open(buf).convert("RGB").getpixel((2, 1))
0
(255, 0, 0)
"""

from __future__ import annotations

import struct
import zlib
from typing import IO, Any

import numpy as np

#: PNG colour type and samples per pixel of the PIL modes this writer takes.
_TYPES = {"L": (0, 1), "RGB": (2, 3), "RGBA": (6, 4), "P": (3, 1)}

#: Rows compressed per step (and per progress report).
BAND = 64


def can_write(image: Any) -> bool:
    """Whether :func:`write_png` takes this picture's mode (8-bit L, RGB, RGBA or P)."""
    return image.mode in _TYPES


def _chunk(fh: IO[bytes], kind: bytes, data: bytes) -> None:
    fh.write(struct.pack(">I", len(data)) + kind + data)
    fh.write(struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def write_png(image: Any, fh: IO[bytes], level: int = 6) -> None:
    """Write ``image`` (a ``PIL.Image`` in a mode :func:`can_write` takes) to ``fh`` as PNG.

    The rows encoded are counted on a progress meter, watched when a bar is open.
    """
    from ..kernels.draw import DONE, meter

    if not can_write(image):
        raise ValueError(f"write_png takes modes {', '.join(_TYPES)}, not {image.mode}")
    color, samples = _TYPES[image.mode]
    width, height = image.size
    pixels = np.asarray(image, dtype=np.uint8).reshape(height, width * samples)
    fh.write(b"\x89PNG\r\n\x1a\n")
    _chunk(fh, b"IHDR", struct.pack(">IIBBBBB", width, height, 8, color, 0, 0, 0))
    if image.mode == "P":
        palette = image.getpalette() or []
        _chunk(fh, b"PLTE", bytes(palette[: 3 * (max(int(pixels.max()), 0) + 1)]))
    squeeze = zlib.compressobj(level)
    band = np.zeros((BAND, width * samples + 1), dtype=np.uint8)  # column 0: filter type 0
    with meter(height, "rows") as rows:
        for top in range(0, height, BAND):
            n = min(BAND, height - top)
            band[:n, 1:] = pixels[top : top + n]
            data = squeeze.compress(band[:n].tobytes())
            if data:
                _chunk(fh, b"IDAT", data)
            if rows.shape[0] > DONE:
                rows[DONE] = top + n
    _chunk(fh, b"IDAT", squeeze.flush())
    _chunk(fh, b"IEND", b"")
