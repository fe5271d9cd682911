"""mazekit's own PNG decoder (:func:`mazekit.render.png.read_png`), judged by Pillow."""

from __future__ import annotations

import struct
import zlib

import numpy as np
import pytest

from mazekit.render.png import read_png


def _paeth(a: int, b: int, c: int) -> int:
    p = a + b - c
    pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
    return a if pa <= pb and pa <= pc else (b if pb <= pc else c)


def _filtered(rows: np.ndarray, kinds: list[int], step: int) -> bytes:
    """PNG image data of the byte rows ``rows``, row ``y`` filtered with ``kinds[y]`` (the
    PNG specification's predictors, written out plainly)."""
    out = bytearray()
    above = np.zeros(rows.shape[1], dtype=np.int64)
    for row, kind in zip(rows.astype(np.int64), kinds, strict=True):
        line = []
        for i, x in enumerate(row):
            a = row[i - step] if i >= step else 0
            b, c = above[i], (above[i - step] if i >= step else 0)
            guess = (0, a, b, (a + b) // 2, _paeth(a, b, c))[kind]
            line.append((x - guess) % 256)
        out += bytes([kind, *line])
        above = row
    return bytes(out)


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _png(path, width, height, bits, colour, data, *, extra=(), pieces=1, interlace=0):
    """A PNG file of image ``data`` (filtered rows), split in ``pieces`` IDAT chunks."""
    header = struct.pack(">IIBBBBB", width, height, bits, colour, 0, 0, interlace)
    packed = zlib.compress(data)
    cut = -(-len(packed) // pieces)
    idat = b"".join(_chunk(b"IDAT", packed[i : i + cut]) for i in range(0, len(packed), cut))
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", header) + b"".join(extra) + idat + _chunk(b"IEND", b"")
    )
    return path


def _pillow(path) -> np.ndarray:
    from PIL import Image

    with Image.open(path) as im:
        return np.asarray(im.convert("RGB"))


KINDS = [(0, 1), (0, 2), (0, 4), (0, 8), (2, 8), (3, 1), (3, 2), (3, 4), (3, 8)]  # (colour type, bits)


@pytest.mark.parametrize(("colour", "bits"), KINDS)
@pytest.mark.parametrize("width", [1, 7, 33])
def test_every_filter_on_every_plain_kind_decodes_as_pillow_does(tmp_path, colour, bits, width):
    """Each row of a picture filtered with one of PNG's five filters in turn (Sub, Average and
    Paeth read the pixel to the left, so multi-byte pixels and packed ones both matter)."""
    rng = np.random.default_rng(width * 100 + colour * 10 + bits)
    samples = 3 if colour == 2 else 1
    height = 41  # (each filter 8 times: enough pixels for the Paeth predictor's ties)
    stride = -(-width * samples * bits // 8)
    rows = rng.integers(0, 256, (height, stride), dtype=np.uint8)
    rows[4] = rows[3]  # a repeated row, as big cells make
    extra = []
    if colour == 3:  # a palette shorter than the indices can reach: those are black
        palette = rng.integers(0, 256, (max(1, (1 << bits) - 1), 3), dtype=np.uint8)
        extra.append(_chunk(b"PLTE", palette.tobytes()))
    kinds = [y % 5 for y in range(height)]
    step = max(1, samples * bits // 8)
    path = _png(
        tmp_path / "p.png", width, height, bits, colour, _filtered(rows, kinds, step), extra=extra, pieces=3
    )
    got = read_png(path)
    assert got is not None and got.shape == (height, width, 3) and got.dtype == np.uint8
    np.testing.assert_array_equal(got, _pillow(path))


@pytest.mark.parametrize("mode", ["RGBA", "LA", "I;16", "interlaced", "tRNS"])
def test_kinds_it_leaves_to_pillow_give_none(tmp_path, mode):
    from PIL import Image

    rgb = np.random.default_rng(0).integers(0, 256, (9, 13, 3), dtype=np.uint8)
    path = tmp_path / "p.png"
    if mode in ("RGBA", "LA"):
        Image.fromarray(rgb).convert(mode).save(path)
    elif mode == "I;16":
        Image.fromarray(rgb[..., 0].astype(np.uint16) * 257).save(path)
    elif mode == "interlaced":
        _png(path, 1, 1, 8, 0, b"\0\7", interlace=1)
    else:
        Image.fromarray(rgb[..., 0]).save(path, transparency=7)
    assert read_png(path) is None


def test_other_files_give_none(tmp_path):
    from PIL import Image

    Image.new("RGB", (4, 3), "white").save(tmp_path / "p.bmp")
    assert read_png(tmp_path / "p.bmp") is None


def test_broken_files_are_refused_in_one_line(tmp_path):
    rows = np.arange(24, dtype=np.uint8).reshape(4, 6)
    good = _png(tmp_path / "good.png", 2, 4, 8, 2, _filtered(rows, [0, 1, 2, 4], 3)).read_bytes()
    unknown = bytearray(_filtered(rows, [0, 1, 2, 4], 3))
    unknown[3 * 7] = 7  # the last row's filter byte: no such filter
    at = good.index(b"IHDR") + 17  # a byte of the header's checksum
    cases = {
        "crc": good[:at] + bytes([good[at] ^ 1]) + good[at + 1 :],
        "short": _png(tmp_path / "s.png", 2, 4, 8, 2, _filtered(rows[:3], [0, 1, 2], 3)).read_bytes(),
        "filter": _png(tmp_path / "f.png", 2, 4, 8, 2, bytes(unknown)).read_bytes(),
        "cut": good[: good.index(b"IDAT") + 10],  # the image data's chunk past the file's end
    }
    words = {"crc": "its 'IHDR' chunk is damaged", "short": "its image data ends early",
             "filter": "a row has an unknown filter", "cut": "its 'IDAT' chunk is damaged"}  # fmt: skip
    for name, data in cases.items():
        (tmp_path / f"{name}.png").write_bytes(data)
        with pytest.raises(ValueError, match=words[name]) as err:
            read_png(tmp_path / f"{name}.png")
        assert "\n" not in str(err.value) and f"{name}.png" in str(err.value)


def test_what_pillow_reads_reads_the_same(tmp_path):
    """Flaws Pillow reads past (it checks no checksum but the header's and the palette's, and
    reads no further than the rows need) are read past here too, with the same pixels."""
    rows = np.arange(24, dtype=np.uint8).reshape(4, 6)
    good = _png(tmp_path / "good.png", 2, 4, 8, 2, _filtered(rows, [0, 1, 2, 4], 3)).read_bytes()
    idat = good.index(b"IDAT")
    (size,) = struct.unpack(">I", good[idat - 4 : idat])
    crc = idat + 4 + size  # the image data's checksum
    stream = zlib.compress(_filtered(rows, [0, 1, 2, 4], 3))
    cases = {
        "idat crc": good[:crc] + bytes([good[crc] ^ 1]) + good[crc + 1 :],
        "junk after": good[: good.index(b"IEND") - 4] + b"?" * 40,  # no end, junk instead
        "no adler": good[: idat - 4] + _chunk(b"IDAT", stream[:-4]) + _chunk(b"IEND", b""),
        "end cut": good[:-2],
    }
    for name, data in cases.items():
        path = tmp_path / f"{name.replace(' ', '_')}.png"
        path.write_bytes(data)
        np.testing.assert_array_equal(read_png(path), _pillow(path), err_msg=name)
        np.testing.assert_array_equal(read_png(path), rows.reshape(4, 2, 3), err_msg=name)


def test_image_data_that_inflates_past_its_rows_is_not_inflated(tmp_path):
    """A 1x1 picture whose image data holds 50 MB of zeros more: only its one row is inflated
    (inflating it all took gigabytes for a 3 MB file)."""
    import tracemalloc

    squeeze = zlib.compressobj(9)
    body = squeeze.compress(b"\x00\x80") + b"".join(squeeze.compress(bytes(1 << 20)) for _ in range(50))
    path = tmp_path / "bomb.png"
    path.write_bytes(
        b"\x89PNG\r\n\x1a\n" + _chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 0, 0, 0, 0))
        + _chunk(b"IDAT", body + squeeze.flush()) + _chunk(b"IEND", b"")
    )  # fmt: skip
    assert path.stat().st_size < 200_000
    tracemalloc.start()
    try:
        got = read_png(path)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got.tolist() == [[[128, 128, 128]]] and peak < 5 << 20
    np.testing.assert_array_equal(got, _pillow(path))


def test_the_picture_reader_takes_the_fast_path_and_pillow_the_rest(tmp_path, monkeypatch):
    """load_pixels gives the same pixels whichever decoder reads the file."""
    from PIL import Image

    from mazekit import picture
    from mazekit.render import png

    rgb = np.random.default_rng(5).integers(0, 256, (20, 30, 3), dtype=np.uint8)
    Image.fromarray(rgb).save(tmp_path / "p.png")
    used = []
    monkeypatch.setattr(png, "read_png", lambda path: used.append(path) or read_png(path))
    np.testing.assert_array_equal(picture.load_pixels(tmp_path / "p.png"), rgb)
    assert len(used) == 1
    Image.fromarray(rgb[..., 0].astype(np.uint16) * 257).save(tmp_path / "i.png")  # 16 bits: Pillow
    np.testing.assert_array_equal(picture.load_pixels(tmp_path / "i.png"), np.repeat(rgb[..., :1], 3, 2))
    assert len(used) == 1  # (16-bit pictures are read by Pillow before the fast path is asked)
    Image.fromarray(rgb).convert("RGBA").save(tmp_path / "a.png")  # an alpha channel: Pillow
    np.testing.assert_array_equal(picture.load_pixels(tmp_path / "a.png"), rgb)
    assert len(used) == 1


@pytest.mark.parametrize("mode", ["L", "RGB", "P"])
def test_written_halves_make_one_checked_stream(tmp_path, mode):
    """write_png deflates the top and bottom half apart: zlib itself (which checks the joined
    Adler-32 sum) and both decoders read every height back, and the bytes do not vary."""
    import io

    from PIL import Image

    from mazekit.render.png import BAND, write_png

    rng = np.random.default_rng(7)
    for height in (1, BAND - 1, BAND, 2 * BAND, 2 * BAND + 1, 3 * BAND + 5):
        grey = rng.integers(0, 4, (height, 9), dtype=np.uint8) * 60
        image = Image.fromarray(grey).convert(mode)
        if mode == "P":
            image = Image.fromarray(grey // 60, "P")
            image.putpalette([0, 0, 0, 90, 0, 0, 0, 90, 0, 0, 0, 90])
        first, second = io.BytesIO(), io.BytesIO()
        write_png(image, first)
        write_png(image, second)
        data = first.getvalue()
        assert data == second.getvalue()
        stream, at = b"", 8
        while at < len(data):
            (size,) = struct.unpack(">I", data[at : at + 4])
            if data[at + 4 : at + 8] == b"IDAT":
                stream += data[at + 8 : at + 8 + size]
            at += 12 + size
        zlib.decompress(stream)  # (raises on a bad checksum or a cut stream)
        (tmp_path / "w.png").write_bytes(data)
        want = np.asarray(image.convert("RGB"))
        np.testing.assert_array_equal(read_png(tmp_path / "w.png"), want)
        np.testing.assert_array_equal(_pillow(tmp_path / "w.png"), want)
