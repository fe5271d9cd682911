"""PNG in and out: a streaming encoder for big pictures, which reports the rows it has
encoded, and a decoder of the plain kinds straight to RGB (:func:`read_png`).

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

import os
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

    found = indexed(rgb, most)
    if found is None:
        return None
    image = Image.fromarray(found[0], "P")
    image.putpalette(found[1].ravel().tolist())
    return image


def indexed(rgb: np.ndarray, most: int = 16) -> tuple[np.ndarray, np.ndarray] | None:
    """``(index, colours)``: the RGB picture ``rgb`` as each pixel's index (``uint8``) into its
    ``colours`` (``(n, 3)`` uint8, in order of first appearance), if it has at most ``most``
    (at most 256) of them; else ``None``.

    >>> index, colours = indexed(np.array([[[9, 9, 9], [0, 0, 0], [9, 9, 9]]], dtype=np.uint8))
    >>> index.tolist(), colours.tolist()
    ([[0, 1, 0]], [[9, 9, 9], [0, 0, 0]])
    """
    index, colours, count = _palette(rgb, min(most, 256))
    return None if count < 0 else (index, colours[:count])


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

    The rows encoded are counted on a progress meter, watched when a bar is open. The top
    and bottom half are filtered and compressed at once in two threads (zlib and numpy let
    go of the lock): one zlib stream, the first half's deflate ended on a byte with a sync
    flush and the two checksums joined (:func:`_adler32_joined`), so the file's bytes are
    the same on any number of cores (a 6001x6001 answer: 0.25 -> 0.15 s on two).
    """
    from concurrent.futures import ThreadPoolExecutor

    from ..kernels.draw import meter, report

    if not can_write(image):
        raise ValueError(f"write_png takes modes {', '.join(_TYPES)} without transparency, not {image.mode}")
    color, samples = _TYPES[image.mode]
    width, height = image.size
    bits = _bits(image)
    fh.write(b"\x89PNG\r\n\x1a\n")
    _chunk(fh, b"IHDR", struct.pack(">IIBBBBB", width, height, bits, color, 0, 0, 0))
    if image.mode == "P":
        palette = image.getpalette() or []
        _chunk(fh, b"PLTE", bytes(palette[: 3 << bits]))
    rows = meter(height, "rows")
    done = [0, 0]  # rows done by each half

    def band(top: int, n: int) -> np.ndarray:  # rows of bytes, palette indices packed
        return _packed(np.asarray(image.crop((0, top, width, top + n)), dtype=np.uint8).reshape(n, -1), bits)

    def half(first: int, last: int, final: bool) -> tuple[list[bytes], int, int]:
        squeeze = zlib.compressobj(level, zlib.DEFLATED, -15)  # raw deflate: the header is written once
        pieces, check, size = [], 1, 0
        above = band(first - 1, 1)[0] if first else None  # (none above the first row: zeros)
        for top in range(first, last, BAND):
            lines = band(top, min(BAND, last - top))
            data = _filtered(lines, above).tobytes()
            above = lines[-1]
            check, size = zlib.adler32(data, check), size + len(data)
            pieces.append(squeeze.compress(data))
            done[final] += len(lines)
            report(rows, sum(done))
        pieces.append(squeeze.flush(zlib.Z_FINISH if final else zlib.Z_SYNC_FLUSH))
        return pieces, check, size

    middle = min(height, -(-height // 2 // BAND) * BAND)
    with ThreadPoolExecutor(2) as pool:
        top_half = pool.submit(half, 0, middle, middle == height)
        bottom = half(middle, height, True) if middle < height else ([], 1, 0)
        upper = top_half.result()
    check = _adler32_joined(upper[1], bottom[1], bottom[2])
    pieces = [b"\x78\x01", *upper[0], *bottom[0], struct.pack(">I", check)]  # zlib's header and end
    pieces[1] = pieces[0] + pieces[1]
    pieces[-2] += pieces[-1]
    for data in pieces[1:-1]:
        if data:
            _chunk(fh, b"IDAT", data)
    _chunk(fh, b"IEND", b"")


def _filtered(band: np.ndarray, above: np.ndarray | None) -> np.ndarray:
    """Rows of bytes, each stored as it is or with PNG's "Up" filter (each byte minus the one
    above), whichever has the smaller sum of absolute (signed) bytes, libpng's heuristic: big
    cells repeat their rows (Up: zeros), one-pixel walls do not; a filter byte before each."""
    n = band.shape[0]
    out = np.empty((n, band.shape[1] + 1), dtype=np.uint8)
    np.subtract(band[0], 0 if above is None else above, out=out[0, 1:])
    np.subtract(band[1:], band[:-1], out=out[1:, 1:])
    up_cost = np.abs(out[:, 1:].view(np.int8), dtype=np.int64).sum(axis=1)
    none_cost = np.abs(band.view(np.int8), dtype=np.int64).sum(axis=1)
    plain = none_cost <= up_cost
    out[:, 0] = np.where(plain, 0, _UP)
    out[:, 1:][plain] = band[plain]
    return out


def _adler32_joined(first: int, second: int, length: int) -> int:
    """The Adler-32 checksum of two byte strings one after the other, from each one's and the
    second's ``length`` (zlib's ``adler32_combine``, which Python's zlib does not offer).

    >>> _adler32_joined(zlib.adler32(b"maze"), zlib.adler32(b"kit"), 3) == zlib.adler32(b"mazekit")
    True
    """
    base = 65521
    rem = length % base
    low = (first & 0xFFFF) + (second & 0xFFFF) + base - 1
    high = (rem * (first & 0xFFFF)) % base + (first >> 16) + (second >> 16) + base - rem
    return (low % base) | ((high % base) << 16)


#: Colour types :func:`read_png` decodes: grey, RGB and palette.
_READ_TYPES = (0, 2, 3)


def read_png(path: str | os.PathLike[str]) -> np.ndarray | None:
    """A PNG file's pixels as ``(height, width, 3)`` uint8 RGB, or ``None`` for a kind this
    decoder leaves to Pillow: interlaced, 16 bits a sample, an alpha channel or a
    transparent colour. Grey and palette pixels of 1 to 8 bits come as their RGB colours,
    as ``np.asarray(Image.open(path).convert("RGB"))`` gives them.

    Pillow decodes a 6001x6001 RGB maze in 0.26 s and copies it out in 0.2 more (it holds
    RGB as four bytes a pixel); here zlib inflates the rows in one call (0.18 s, no lock
    held, while numba starts its first kernel in another thread: 0.3 s of a command's
    first compiled call) and one compiled pass undoes the row filters into the array.
    A broken file (a bad chunk checksum, too little image data) is a ``ValueError``.

    >>> import io, tempfile
    >>> from PIL import Image
    >>> im = Image.new("P", (5, 3)); im.putpalette([0, 0, 0, 250, 20, 20]); im.putpixel((4, 2), 1)
    >>> with tempfile.TemporaryDirectory() as tmp:
    ...     im.save(f"{tmp}/a.png")
    ...     read_png(f"{tmp}/a.png")[2, 3:].tolist()
    [[0, 0, 0], [250, 20, 20]]
    """
    import threading

    from ..grids.rect import PNG_CHANNELS, png_data_size

    with open(path, "rb") as fh:
        data = fh.read()
    name = os.fspath(path)
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        return None
    chunks: dict[bytes, bytes] = {}
    idat: list[bytes] = []
    at = 8
    while at + 8 <= len(data):
        (size,) = struct.unpack(">I", data[at : at + 4])
        end = at + 8 + size
        kind, body, crc = data[at + 4 : at + 8], data[at + 8 : end], data[end : end + 4]
        if kind == b"IEND" or (idat and len(body) < size):  # the end, or bytes after the image data
            break  # (a file cut in IEND's checksum, or with junk after its image data: Pillow reads it)
        # the header and the palette are checked, as Pillow checks them (it checks no other)
        bad = kind in (b"IHDR", b"PLTE") and (
            len(crc) < 4 or zlib.crc32(kind + body) != struct.unpack(">I", crc)[0]
        )
        if len(body) < size or bad:
            what = kind.decode("latin-1")
            raise ValueError(f"{name!r} is a broken PNG file: its {what!r} chunk is damaged")
        if kind == b"IDAT":
            idat.append(body)
        elif kind == b"PLTE":  # the last before the image data, as Pillow takes it
            if not idat:
                chunks[kind] = body
        else:
            chunks.setdefault(kind, body)
        at = end + 4
    header = chunks.get(b"IHDR", b"")
    if len(header) != 13 or not idat:
        raise ValueError(f"{name!r} is a broken PNG file: no header or no image data")
    width, height, bits, color, _, _, interlaced = struct.unpack(">IIBBBBB", header)
    if color not in _READ_TYPES or bits not in (1, 2, 4, 8) or interlaced or b"tRNS" in chunks:
        return None
    samples = PNG_CHANNELS[color]
    if samples == 3 and bits != 8:
        return None
    if color == 3:
        plte = np.frombuffer(chunks.get(b"PLTE", b""), np.uint8)[:768]
        palette = np.zeros((256, 3), dtype=np.uint8)  # (an index past the palette: black)
        palette.reshape(-1)[: len(plte) // 3 * 3] = plte[: len(plte) // 3 * 3]
    else:  # grey of 1, 2, 4 or 8 bits, spread over 0-255
        levels = (np.arange(1 << bits) * (255 // ((1 << bits) - 1))).astype(np.uint8)
        palette = np.repeat(levels[:, None], 3, axis=1)
    from .._limits import check_bytes

    need = png_data_size(width, height, bits, color, False)  # bytes of image data once inflated
    check_bytes(need + 3 * width * height + 2 * len(data), f"reading a {width}x{height} picture")
    tiny = np.frombuffer(bytes(4), np.uint8)  # (read-only, as the real call's: one specialisation)
    start = threading.Thread(target=_unfiltered, args=(tiny, 1, 1, 8, 1, palette))
    start.start()  # numba's first call, while zlib inflates (it lets go of the lock)
    try:
        # never more than the rows need: a small file can inflate to gigabytes (and Pillow,
        # too, reads no further); a stream cut short after the last row is read as Pillow does
        raw = zlib.decompressobj().decompress(b"".join(idat), need)
    except zlib.error as exc:
        raise ValueError(f"{name!r} is a broken PNG file: {exc}") from None
    finally:
        start.join()
    if len(raw) < need:
        raise ValueError(f"{name!r} is a broken PNG file: its image data ends early")
    rgb, known = _unfiltered(np.frombuffer(raw, np.uint8), height, width, bits, samples, palette)
    if not known:
        raise ValueError(f"{name!r} is a broken PNG file: a row has an unknown filter")
    return rgb


@njit(cache=True, nogil=True)
def _unfiltered(raw, height, width, bits, samples, palette):  # pragma: no cover - compiled
    """The RGB pixels of PNG image data ``raw`` (each row a filter byte, then ``stride``
    bytes): each row's filter undone (PNG's five: none, Sub, Up, Average, Paeth), in place
    for RGB, else then looked up in ``palette`` (grey or palette indices of ``bits`` bits,
    the first in the high bits); and ``False`` on an unknown filter."""
    stride = (width * samples * bits + 7) // 8
    step = max(1, samples * bits // 8)  # bytes a pixel, for the filters
    out = np.empty((height, width, 3), dtype=np.uint8)
    flat = out.reshape(height, width * 3)
    above = np.zeros(stride, dtype=np.uint8)
    buffer = np.empty(stride, dtype=np.uint8)
    per = 8 // bits if bits < 8 else 1
    mask = (1 << bits) - 1
    for y in range(height):
        at = y * (stride + 1)
        kind = raw[at]
        line = raw[at + 1 : at + 1 + stride]
        row = flat[y] if samples == 3 else buffer
        if kind == 0:
            row[:] = line
        elif kind == 1:
            row[:step] = line[:step]
            for i in range(step, stride):
                row[i] = line[i] + row[i - step]
        elif kind == 2:
            for i in range(stride):
                row[i] = line[i] + above[i]
        elif kind == 3:
            for i in range(stride):
                left = np.int32(row[i - step]) if i >= step else np.int32(0)
                row[i] = line[i] + np.uint8((left + np.int32(above[i])) >> 1)
        elif kind == 4:
            for i in range(stride):
                a = np.int32(row[i - step]) if i >= step else np.int32(0)
                b = np.int32(above[i])
                c = np.int32(above[i - step]) if i >= step else np.int32(0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                row[i] = line[i] + np.uint8(pred)
        else:
            return out, False
        if samples == 1:
            for x in range(width):
                k = row[x] if bits == 8 else (row[x // per] >> (8 - bits * (x % per + 1))) & mask
                out[y, x, 0], out[y, x, 1], out[y, x, 2] = palette[k, 0], palette[k, 1], palette[k, 2]
            buffer, above = above, buffer
        else:
            above = row
    return out, True
