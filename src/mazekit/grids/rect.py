"""The rectangular grid: four slots N, E, S, W; optionally masked, optionally wrapping.

``wrap="x"`` joins the left and right edges (a cylinder), ``"y"`` the top and bottom,
``"xy"`` both (a torus). A side shorter than 3 cells does not wrap (it would join a cell to
itself or to one neighbour twice).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import numpy as np

from .._limits import check_bytes, check_file
from . import kernel as k
from .base import Grid, check_shape

N, E, S, W = 0, 1, 2, 3

#: Characters that mark a switched-off cell in a text mask; every other character is a cell.
MASK_OFF_CHARS = " .-_"

WRAPS = ("", "x", "y", "xy")


def check_wrap(wrap: Any) -> str:
    """``wrap`` as one of ``"", "x", "y", "xy"`` (None and "none" mean no wrap)."""
    w = "" if wrap in (None, "none", False) else wrap
    if isinstance(w, str):
        w = "".join(sorted(w.lower()))
    if w not in WRAPS:
        raise ValueError(f"wrap must be one of none, x, y, xy, got {wrap!r}")
    return str(w)


def square_outline(rows: int, cols: int, dx: float = 0.0, dy: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """Unit squares in rows and columns: corners TL TR BR BL, walls N E S W."""
    r, c = np.divmod(np.arange(rows * cols), cols)
    x, y = c + dx, r + dy
    polys = np.stack(
        [np.stack([x, y], 1), np.stack([x + 1, y], 1), np.stack([x + 1, y + 1], 1), np.stack([x, y + 1], 1)],
        axis=1,
    ).astype(float)
    walls = np.stack([polys[:, [i, (i + 1) % 4]] for i in range(4)], axis=1)
    return polys, walls


def square_centres(rows: int, cols: int) -> np.ndarray:
    """``(rows * cols, 2)`` centres ``(x, y)`` of unit squares in rows and columns, row-major."""
    r, c = np.divmod(np.arange(rows * cols), cols)
    return np.stack([c + 0.5, r + 0.5], 1)


class RectGrid(Grid):
    """A rectangular grid of ``shape = (rows, cols)`` cells, optionally masked or wrapping.

    Parameters
    ----------
    shape : tuple of int
        ``(rows, cols)``, each at least 1.
    mask : array_like of bool, optional
        ``True`` where a cell exists. Must have ``shape``, contain at least one cell and be
        connected through edge neighbours (a maze must reach every cell).
    require_connected : bool
        Set False to accept a mask of several regions (imported pictures may have islands;
        generators still refuse them).
    wrap : {"", "x", "y", "xy"}
        Edges that join around: ``x`` makes a cylinder, ``xy`` a torus.

    Examples
    --------
    >>> g = RectGrid((2, 3))
    >>> g.rows, g.cols, g.n_cells
    (2, 3, 6)
    >>> m = RectGrid.from_text("##.\\n###")
    >>> m.n_cells, m.contains((0, 2))
    (5, False)
    >>> RectGrid((4, 5), wrap="x").neighbor((0, 0), 3)
    (0, 4)
    """

    kind: ClassVar[str] = "rect"
    code: ClassVar[int] = k.RECT
    padded: ClassVar[bool] = True  # unless it wraps (padded_layout)
    slot_names: ClassVar[tuple[str, ...]] = ("N", "E", "S", "W")
    planar: ClassVar[bool | None] = True
    compass_names: ClassVar[tuple[str, ...]] = ("N", "E", "S", "W")
    straight: ClassVar[tuple[tuple[int, int], ...] | None] = ((0, 2), (1, 3))
    walk_help: ClassVar[tuple[str, ...] | None] = ("arrows / WASD\tplay: walk",)
    thin_walls: ClassVar[bool] = False

    @property
    def is_flat(self) -> bool:
        """Whether this rectangle lies flat: it does unless its edges join round (``wrap``)."""
        return not self.wrap

    @property
    def kind_words(self) -> str:
        return " ".join(filter(None, ["masked" if self.mask is not None else "",
                                      f"wrapped ({self.wrap})" if self.wrap else "", "rect"]))  # fmt: skip

    @property
    def square_lattice(self) -> bool:
        return not self.wrap

    def __init__(
        self, shape: tuple[int, int], mask: Any = None, *, require_connected: bool = True, wrap: Any = ""
    ) -> None:
        self.rows, self.cols = check_shape(shape)
        self.wrap = check_wrap(wrap)
        self._set_mask(mask, require_connected)

    @property
    def param(self) -> int:
        return ("x" in self.wrap) * 1 + ("y" in self.wrap) * 2

    def params(self) -> dict[str, Any]:
        return {"wrap": self.wrap} if self.wrap else {}

    def padded_layout(self) -> bool:
        """A wrapped rectangle's edges meet: no border, no padded layout."""
        return not self.wrap

    def fast_topology(self) -> np.ndarray | None:
        """The padded offsets; on a wrapped rectangle its record
        (:func:`mazekit.grids.kernel.wrap_topology`: a cell's neighbours by arithmetic, no
        table), ``None`` where its layout is too big for one."""
        if not self.wrap:
            return super().fast_topology()
        if "_wrap_record" not in self.__dict__:
            self.__dict__["_wrap_record"] = k.wrap_topology(self.geo)
        return self.__dict__["_wrap_record"]

    @classmethod
    def _param_keys(cls) -> tuple[str, ...]:
        return ("wrap",)

    # -- construction -------------------------------------------------------------------
    @classmethod
    def from_mask(cls, mask: Any, **params: Any) -> RectGrid:
        """A grid whose cells are the ``True`` entries of a 2-D boolean array."""
        m = np.asarray(mask)
        if m.ndim != 2:
            raise ValueError(f"mask must be 2-D, got {m.ndim}-D with shape {m.shape}")
        return cls((m.shape[0], m.shape[1]), mask=m, **params)

    @classmethod
    def from_text(cls, text: str, **params: Any) -> RectGrid:
        """A grid from text art: any character is a cell except space, ``.``, ``-`` and ``_``.

        Lines are padded on the right; blank leading and trailing lines are dropped.
        """
        return cls.from_mask(text_mask(text), **params)

    @classmethod
    def from_file(cls, path: str | Path, **params: Any) -> RectGrid:
        """A grid from a mask file: text art (any suffix) or an image (dark pixels are cells)."""
        return cls.from_mask(read_mask(path), **params)

    def layout_extent(self) -> tuple[float, float]:
        return float(self.cols), float(self.rows)

    def plane_points(self) -> tuple[np.ndarray, tuple[float, float]]:
        return square_centres(self.rows, self.cols), self.layout_extent()

    def _outline(self) -> tuple[np.ndarray, np.ndarray]:
        return square_outline(self.rows, self.cols)


#: Peak bytes per character (or pixel) of making a grid from a mask: the mask, its copy in
#: the grid and the connectivity check (a flag and a stack entry per cell).
MASK_BYTES_PER_CELL = 12
#: Image suffixes a mask file may have; any other file is read as text art.
IMAGE_SUFFIXES = {".png", ".bmp", ".gif", ".jpg", ".jpeg", ".webp"}


def text_mask(text: str) -> np.ndarray:
    """A boolean mask from text art (see :meth:`RectGrid.from_text`).

    The mask is as wide as the longest line; one that would not fit in memory (a single
    100,000-character line over 100,000 short ones) is refused before it is built.

    Examples
    --------
    >>> text_mask(" #\\n##\\n").astype(int).tolist()
    [[0, 1], [1, 1]]
    """
    lines = text.splitlines()
    while lines and not lines[0].strip(MASK_OFF_CHARS):
        lines.pop(0)
    while lines and not lines[-1].strip(MASK_OFF_CHARS):
        lines.pop()
    if not lines:
        raise ValueError("mask text has no cells (every character is blank or '.')")
    width = max(map(len, lines))
    check_bytes(len(lines) * width * MASK_BYTES_PER_CELL, f"a text mask of {width}x{len(lines)} characters")
    off = np.array([ord(ch) for ch in MASK_OFF_CHARS], dtype=np.uint32)
    mask = np.zeros((len(lines), width), dtype=bool)
    for r, line in enumerate(lines):
        codes = np.frombuffer(line.encode("utf-32-le", "surrogatepass"), dtype="<u4")
        mask[r, : len(line)] = ~np.isin(codes, off)
    return mask


def read_mask(path: str | Path) -> np.ndarray:
    """A boolean mask from a file: text art (any suffix) or an image (dark pixels are cells).

    Only regular files are read (not ``/dev/zero`` or a pipe), and a picture or text too
    big to make a grid of in the memory there is, is refused before it is decoded; every
    problem is a one-line ``ValueError``.
    """
    p = Path(path)
    size = check_file(p, "mask file")
    if p.suffix.lower() in IMAGE_SUFFIXES:
        return _image_mask(p)
    check_bytes(size * 6, f"reading the {size:,}-byte mask file {p.name}")  # bytes, then text
    try:
        text = p.read_bytes().decode("utf-8")
    except UnicodeDecodeError:
        raise ValueError(f"mask file {p} is not UTF-8 text or an image") from None
    except OSError as exc:
        raise ValueError(f"cannot read mask file {p}: {exc.strerror or exc}") from None
    return text_mask(text)


def _image_mask(p: Path) -> np.ndarray:
    """Dark pixels of an image, its size checked from the header before it is decoded; in a
    picture with transparency only the dark pixels that are at least half opaque (a logo on
    a transparent background is black where it is empty)."""
    import warnings

    from PIL import Image

    try:
        with warnings.catch_warnings():
            # the size is checked against memory below; Pillow's own bomb limit still holds
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(p) as im:
                w, h = im.size
                # decoded pixels, the grey copy, the array and then the mask's grid
                per_pixel = len(im.getbands()) + 2 + MASK_BYTES_PER_CELL + 4 * _has_alpha(im)
                check_bytes(w * h * per_pixel, f"the {w}x{h} mask image {p.name} ({w * h:,} pixels)")
                if im.format == "PNG":
                    _check_png_whole(p)
                grey = np.asarray(im.convert("L"))
                alpha = np.asarray(im.convert("RGBA"))[..., 3] if _has_alpha(im) else None
    except Image.DecompressionBombError as exc:
        raise ValueError(f"mask image {p} is too large to decode safely: {exc}") from None
    except MemoryError:  # TooLarge: already one line naming the size
        raise
    except Exception as exc:  # Pillow raises OSError, SyntaxError, EOFError... on a bad file
        said = str(exc)  # the PNG check's own words already name the file
        raise ValueError(
            said if said.startswith("mask image ") else f"cannot read mask image {p}: {exc}"
        ) from None
    return grey < 128 if alpha is None else (grey < 128) & (alpha >= 128)


#: Channels of each PNG colour type (grey, RGB, palette, grey + alpha, RGBA).
PNG_CHANNELS = {0: 1, 2: 3, 3: 1, 4: 2, 6: 4}


def png_data_size(width: int, height: int, depth: int, colour: int, interlaced: bool) -> int:
    """Bytes of filtered scanlines a PNG of this header holds once inflated (each row a filter
    byte and its packed pixels; an interlaced one as its seven Adam7 passes).

    >>> png_data_size(24, 3, 1, 0, False), png_data_size(8, 8, 8, 2, True)
    (12, 207)
    """
    adam7 = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
    passes = adam7 if interlaced else [(0, 0, 1, 1)]
    bits = PNG_CHANNELS.get(colour, 4) * depth
    total = 0
    for x0, y0, dx, dy in passes:
        cols, rows = (width - x0 + dx - 1) // dx, (height - y0 + dy - 1) // dy
        if cols > 0 and rows > 0:
            total += rows * (1 + (cols * bits + 7) // 8)
    return total


def _check_png_whole(p: Path) -> None:
    """Refuse a PNG whose chunks claim more bytes than the file holds, or whose image data
    inflates to fewer bytes than its header declares.

    Pillow reads a chunk's length as given: a flipped byte in one makes it ask for up to
    4 GiB at once (``MemoryError`` under a memory cap). And it decodes a file whose
    compressed stream ends cleanly but early without a word, leaving the missing rows black:
    as a mask, cells nobody drew. Every chunk's length is checked against the file, and the
    data inflated once more in bounded pieces, which costs about what decoding it does.
    """
    import struct
    import zlib

    total = p.stat().st_size
    with open(p, "rb") as f:
        f.seek(8)
        header = f.read(8 + 13)
        if len(header) < 21 or header[4:8] != b"IHDR":
            raise ValueError(f"mask image {p} is not a PNG with a header")
        width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header[8:])
        want = png_data_size(width, height, depth, colour, interlace == 1)
        f.seek(4, 1)  # the header's CRC
        inflate, got = zlib.decompressobj(), 0
        while True:
            head = f.read(8)
            if len(head) < 8:
                break
            length, kind = struct.unpack(">I4s", head)
            # the chunk's data past the file; a CRC cut short after it is left to Pillow,
            # which reads such a file as it did before this check
            if length > (1 << 31) - 1 or f.tell() + length > total:
                raise ValueError(
                    f"mask image {p} is corrupt: its {kind.decode('latin-1')!r} chunk claims"
                    f" {length:,} bytes, the file has {max(total - f.tell(), 0):,} left"
                )
            if kind == b"IEND":
                break
            if kind != b"IDAT" or got >= want:
                f.seek(length + 4, 1)
                continue
            left = length
            while left and got < want:
                data = f.read(min(left, 1 << 20))
                left -= len(data)
                while data and got < want:
                    try:
                        got += len(inflate.decompress(data, 1 << 20))
                    except zlib.error as exc:
                        raise ValueError(f"mask image {p} has corrupt image data: {exc}") from None
                    data = inflate.unconsumed_tail
            f.seek(left + 4, 1)
        if got < want:
            got += len(inflate.flush())  # what zlib still held back (less than its window)
    if got < want:
        rows = got * height // want if want else 0
        raise ValueError(
            f"mask image {p} is truncated: its {width}x{height} pixels need {want:,} bytes of image"
            f" data, the file holds {got:,} (about {rows:,} rows)"
        )


def _has_alpha(im: Any) -> bool:
    """Whether a Pillow image has an alpha channel or a transparent palette colour."""
    return "A" in im.getbands() or "transparency" in im.info


#: Letters of a ``--text`` mask this many pixels (cells) tall by default: strokes 3-4 cells wide.
TEXT_SIZE = 24


#: Fonts looked for when the built-in one lacks a letter of ``--text`` (after fontconfig's
#: choice): bold sans faces that Linux, macOS and Windows install, file names as they ship.
SYSTEM_FONTS = (
    "DejaVuSans-Bold.ttf", "DejaVuSans.ttf", "NotoSans-Bold.ttf", "LiberationSans-Bold.ttf",
    "FreeSansBold.ttf", "Arial Bold.ttf", "arialbd.ttf", "Arial Unicode.ttf", "ArialUni.ttf",
)  # fmt: skip
FONT_FOLDERS = (
    "/usr/share/fonts", "/usr/local/share/fonts", "~/.local/share/fonts", "~/.fonts", "/Library/Fonts",
    "/System/Library/Fonts", "~/Library/Fonts", "C:/Windows/Fonts",
)  # fmt: skip


def _lacks(face: Any, text: str) -> list[str]:
    """The letters of ``text`` (spaces aside) that ``face`` draws as its missing-letter box."""

    def drawn(ch: str) -> tuple[tuple[int, int], bytes]:  # a letter's shape as the font draws it
        mask = face.getmask(ch)
        return mask.size, bytes(mask)

    missing = drawn("\U0010fffd")  # (a letter no font has)
    return [ch for ch in dict.fromkeys(text.replace(" ", "").replace("\n", "")) if drawn(ch) == missing]


def _system_fonts(text: str) -> list[str]:
    """Font files of the system's that may have the letters of ``text``: fontconfig's best
    bold sans match for them first (when ``fc-match`` is there), then :data:`SYSTEM_FONTS`
    found in :data:`FONT_FOLDERS`."""
    import shutil
    import subprocess

    found = []
    if shutil.which("fc-match"):
        charset = " ".join(f"{ord(ch):x}" for ch in dict.fromkeys(text) if not ch.isspace())
        try:
            out = subprocess.run(["fc-match", "-f", "%{file}", f"sans:bold:charset={charset}"],
                                 capture_output=True, text=True, timeout=10, check=False)  # fmt: skip
            found += [out.stdout.strip()] if out.stdout.strip() else []
        except (OSError, subprocess.SubprocessError):
            pass
    for folder in FONT_FOLDERS:  # each folder walked once, its fonts in SYSTEM_FONTS' order
        root = Path(folder).expanduser()
        if root.is_dir():
            named = sorted(
                (SYSTEM_FONTS.index(p.name), str(p)) for p in root.rglob("*") if p.name in SYSTEM_FONTS
            )
            found += [path for _, path in named]
    return list(dict.fromkeys(found))


def text_font(text: str, font: str | Path | None = None, size: int = TEXT_SIZE) -> str | Path | None:
    """The font :func:`text_picture` writes ``text`` in: ``font`` when given (it must have
    every letter), else ``None`` for the built-in one when it has them all, else the first
    font of the system's that has them (:func:`_system_fonts`: Pillow's built-in font has
    ASCII letters only); a one-line ``ValueError`` naming a letter none has.

    >>> text_font("MAZE") is None
    True
    """
    from PIL import ImageFont

    try:
        face = ImageFont.load_default(size=size) if font is None else ImageFont.truetype(str(font), size)
    except OSError as exc:
        raise ValueError(f"cannot read font {font}: {exc}") from None
    lacking = _lacks(face, text)
    if not lacking:
        return font
    if font is None:
        for path in _system_fonts(text):
            try:
                if not _lacks(ImageFont.truetype(path, size), text):
                    return path
            except OSError:  # not a font Pillow reads
                continue
    letter = f"letter {lacking[0]!r} (U+{ord(lacking[0]):04X})"
    if font is None:
        raise ValueError(f"--text: neither the built-in font nor a font found on this system has the"
                         f" {letter}; give --font FILE that has it")  # fmt: skip
    raise ValueError(f"--text: the font has no {letter}; give --font FILE that has it")


def text_picture(text: str, *, size: int = TEXT_SIZE, font: str | Path | None = None) -> np.ndarray:
    """A boolean mask of ``text`` written in a font (``True`` on the letters), ``size``
    pixels to the em, letters a little apart so that each stays its own part: the font
    Pillow ships (Aileron, ASCII letters only), or a TrueType/OpenType file ``font``, or for
    letters Aileron lacks a font of the system's that has them (:func:`text_font`). Lines
    split at ``\\n``.

    Examples
    --------
    >>> hi = text_picture("HI")
    >>> hi.shape[0] > 15, bool(hi[:, 0].any()), bool(hi[:, -1].any())  # tight margins
    (True, True, True)
    """
    from PIL import Image, ImageDraw, ImageFont

    lines = [line for line in text.splitlines() if line.strip()]
    if not lines:
        raise ValueError("--text has no letters to make a maze of")
    if not 4 <= size <= 1000:
        raise ValueError(f"a text mask's letters must be 4 to 1000 pixels tall, got {size}")
    check_bytes(sum(map(len, lines)) * size * size * 4, f"a text mask of {sum(map(len, lines))} letters")
    font = text_font("\n".join(lines), font, size)
    face = ImageFont.load_default(size=size) if font is None else ImageFont.truetype(str(font), size)
    thick = max(1, size // 16)  # Aileron's strokes are thin: widen them to corridors
    gap = max(2, size // 5)  # between letters
    top, bottom = (int(v) for v in face.getbbox("Hg")[1::2])  # capitals' top to descenders' foot
    line_height = bottom - top + 2 * thick + gap
    widths = [sum(face.getlength(ch) + 2 * thick + gap for ch in line) for line in lines]
    width, height = int(max(widths)) + 2 * gap, line_height * len(lines) + gap
    check_bytes(width * height * 3, f"a text mask of {width}x{height} pixels")  # (a picture, its mask)
    picture = Image.new("L", (width, height), 255)
    draw = ImageDraw.Draw(picture)
    for i, line in enumerate(lines):
        x = float(gap)
        for ch in line:
            draw.text((x + thick, gap + i * line_height + thick - top), ch, font=face, fill=0,
                      stroke_width=thick, stroke_fill=0)  # fmt: skip
            x += face.getlength(ch) + 2 * thick + gap
    ink = np.asarray(picture) < 128
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    if rows.size == 0:
        raise ValueError(f"--text {text!r} draws nothing in that font")
    return ink[rows[0] : rows[-1] + 1, cols[0] : cols[-1] + 1]
