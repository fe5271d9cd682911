"""A streaming PNG encoder for big pictures, which reports the rows it has encoded.

PIL encodes a picture in one call that cannot report progress: a 6000 x 6000 maze spends
tens of seconds there. This writer converts and compresses the picture in bands of rows
with :mod:`zlib` and counts them on a :func:`mazekit.kernels.draw.meter`, so a
:class:`mazekit.progress.Bar` shows rows done, percent and time left; only one band is
held as an array at a time. Each row is stored as it is or with PNG's "Up" filter (each
byte minus the one above), whichever libpng's heuristic (the smaller sum of absolute
signed bytes) prefers: rows of big cells repeat, and Up turns them into zeros. A palette
picture of at most 16 colours is stored at 1, 2 or 4 bits a pixel (:func:`palette_of` makes
one from an RGB array): a 6001x6001 answer to a picture maze, 5 colours, is compressed in
0.2 s instead of 0.8 as 8-bit RGB.

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
from numba import njit

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


@njit(cache=True, nogil=True)
def _palette(rgb, most):  # pragma: no cover - compiled
    """``(index, colours, count)``: each pixel's index into ``colours``, in order of first
    appearance; ``count`` -1 as soon as a colour past the ``most``-th is met. Each colour,
    as one 24-bit number, is looked up in a small open-addressed table: a branch the CPU
    predicts (a branch on "same colour as the last pixel" is missed at every wall edge)."""
    index = np.empty(rgb.shape[:2], dtype=np.uint8)
    colours = np.zeros((most, 3), dtype=np.uint8)
    size = 1 << 12
    slots = np.full(size, -1, dtype=np.int64)  # the key in a slot (-1: empty) ...
    found = np.zeros(size, dtype=np.uint8)  # ... and its colour's index
    k = 0
    for y in range(rgb.shape[0]):
        for x in range(rgb.shape[1]):
            r, g, b = rgb[y, x, 0], rgb[y, x, 1], rgb[y, x, 2]
            key = np.int64(r) | np.int64(g) << 8 | np.int64(b) << 16
            h = ((key * 2654435761) >> 12) & (size - 1)
            while slots[h] != key:
                if slots[h] < 0:  # a new colour
                    if k == most:
                        return index, colours, -1
                    slots[h] = key
                    found[h] = k
                    colours[k, 0], colours[k, 1], colours[k, 2] = r, g, b
                    k += 1
                    break
                h = (h + 1) & (size - 1)
            index[y, x] = found[h]
    return index, colours, k


def palette_of(rgb: np.ndarray, most: int = 16) -> Any:
    """The RGB picture ``rgb`` (``(height, width, 3)`` uint8) as a palette ``PIL.Image`` of
    the very same colours, if it has at most ``most`` (at most 256) of them; else ``None``.
    One pass over the pixels, which stops at the first colour too many.

    >>> rgb = np.zeros((2, 3, 3), dtype=np.uint8)
    >>> rgb[1, 2] = (200, 10, 10)
    >>> image = palette_of(rgb)
    >>> image.mode, image.getpalette(), np.asarray(image).tolist()
    ('P', [0, 0, 0, 200, 10, 10], [[0, 0, 0], [0, 0, 1]])
    >>> palette_of(np.arange(54, dtype=np.uint8).reshape(3, 6, 3), most=4) is None
    True
    """
    from PIL import Image

    index, colours, count = _palette(rgb, min(most, 256))
    if count < 0:
        return None
    image = Image.fromarray(index, "P")
    image.putpalette(colours[:count].ravel().tolist())
    return image


def _bits(image: Any) -> int:
    """Bits a pixel: 8, or 1, 2 or 4 for a palette that small."""
    if image.mode != "P":
        return 8
    colours = len(image.getpalette() or []) // 3
    return next(b for b in (1, 2, 4, 8) if colours <= 1 << b)


def _packed(band: np.ndarray, bits: int) -> np.ndarray:
    """Rows of palette indices packed ``8 // bits`` to a byte, the first in the high bits."""
    if bits == 8:
        return band
    per = 8 // bits
    n, width = band.shape
    wide = np.zeros((n, -(-width // per) * per), dtype=np.uint8)
    wide[:, :width] = band
    wide = wide.reshape(n, -1, per)
    out = np.zeros(wide.shape[:2], dtype=np.uint8)
    for j in range(per):
        out |= wide[:, :, j] << (8 - bits * (j + 1))
    return out


def write_png(image: Any, fh: IO[bytes], *, level: int = 6) -> None:
    """Write ``image`` (a ``PIL.Image`` that :func:`can_write` takes) to ``fh`` as PNG.

    The rows encoded are counted on a progress meter, watched when a bar is open.
    """
    from ..kernels.draw import meter, report

    if not can_write(image):
        raise ValueError(f"write_png takes modes {', '.join(_TYPES)} without transparency, not {image.mode}")
    color, samples = _TYPES[image.mode]
    width, height = image.size
    bits = _bits(image)
    stride = -(-width * samples * bits // 8)
    fh.write(b"\x89PNG\r\n\x1a\n")
    _chunk(fh, b"IHDR", struct.pack(">IIBBBBB", width, height, bits, color, 0, 0, 0))
    if image.mode == "P":
        palette = image.getpalette() or []
        _chunk(fh, b"PLTE", bytes(palette[: 3 << bits]))
    squeeze = zlib.compressobj(level)
    above = np.zeros(stride, dtype=np.uint8)  # the row before the band (none: zeros)
    out = np.empty((BAND, stride + 1), dtype=np.uint8)  # filter byte, then the row
    rows = meter(height, "rows")
    for top in range(0, height, BAND):
        n = min(BAND, height - top)
        band = np.asarray(image.crop((0, top, width, top + n)), dtype=np.uint8).reshape(n, -1)
        band = _packed(band, bits)
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
