"""One front door for files: :func:`write` picks the writer by the file's suffix.

Every file mazekit writes goes through one table, :data:`WRITERS`: maze files (``.json``,
``.npz``), pictures (``.png`` and the other raster formats, ``.svg``), printable pages
(``.pdf``), text art (``.txt``, ``.ans``), game levels (``.tmj``, Tiled maps), 3D models
(``.stl``, ``.obj``, ``.glb``). Each writer
says which options it takes, so a misspelt or misplaced option is an error naming the ones
it takes. Every writer writes whole or not at all (a temporary file renamed into place) and
refuses a symbolic link, a pipe or a device at the path (:func:`mazekit._files.writable_target`). Animations
(``.gif`` of a trace, ``.mp4``) are :func:`mazekit.render.animate.animate_file`; datasets
are :mod:`mazekit.dataset`.
"""

from __future__ import annotations

import inspect
import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

if TYPE_CHECKING:  # importing this module stays cheap: the CLI reads its tables at start-up
    from .maze import Maze
    from .solution import Solution

#: Raster picture suffixes (Pillow writes them).
IMAGE_SUFFIXES = frozenset({".png", ".bmp", ".gif", ".jpg", ".jpeg", ".webp", ".tif", ".tiff"})
#: Text art suffixes and the style each one defaults to.
TEXT_SUFFIXES = {".txt": "ascii", ".ans": "blocks"}


class Writer(NamedTuple):
    """How one kind of file is written: ``func(maze, path, solution, **options)``, where
    ``takes()`` names the options (the keyword parameters of the renderer behind it)."""

    func: Callable[..., Path]
    takes: Callable[[], tuple[str, ...]]
    what: str


def _keywords(*funcs: Callable[..., Any], drop: tuple[str, ...] = ()) -> tuple[str, ...]:
    names: list[str] = []
    for func in funcs:
        for name, param in inspect.signature(func).parameters.items():
            if param.kind is inspect.Parameter.KEYWORD_ONLY and name not in names and name not in drop:
                names.append(name)
    return tuple(names)


def _maze_file(maze: Maze, path: Path, solution: Solution | None) -> Path:
    from .io import save

    return save(maze, path, solution=solution)


def _image(maze: Maze, path: Path, solution: Solution | None, **options: Any) -> Path:
    from .render import render

    if options.get("heatmap") is not None:
        options.setdefault("path", solution is not None)
    return save_image(render(maze, solution, format="image", **options), path)


def _image_options(heatmap: bool = False) -> tuple[str, ...]:
    from .render.heatmap import heatmap_image
    from .render.image import render_image

    return ("heatmap", *_keywords(heatmap_image if heatmap else render_image, drop=("solution",)))


def _svg(maze: Maze, path: Path, solution: Solution | None, **options: Any) -> Path:
    from ._files import atomic_write
    from .render import render

    text = render(maze, solution, format="svg", **options)
    with atomic_write(path, "w") as fh:
        fh.write(text)
    return path


def _svg_options() -> tuple[str, ...]:
    from .render.svg import render_svg

    return _keywords(render_svg)


def _pdf(maze: Maze, path: Path, solution: Solution | None, **options: Any) -> Path:
    from ._files import atomic_write
    from .render import at_solution_ends
    from .render.pdf import render_pdf

    data = render_pdf([at_solution_ends(maze, solution)], [solution], answer_key=solution is not None,
                      **options)  # fmt: skip
    with atomic_write(path, "wb") as fh:
        fh.write(data)
    return path


def _pdf_options() -> tuple[str, ...]:
    from .render.pdf import render_pdf

    return _keywords(render_pdf, drop=("answer_key",))


def _text(maze: Maze, path: Path, solution: Solution | None, **options: Any) -> Path:
    from ._files import atomic_write
    from .render import at_solution_ends, render_text

    suffix = path.suffix.lower()
    options.setdefault("style", TEXT_SUFFIXES[suffix])
    if suffix == ".ans":
        options.setdefault("color", True)
    from .render.halfblocks import in_half_blocks, to_halfblocks

    if in_half_blocks(maze.grid, options["style"], options.get("chars")):
        color, explored = bool(options.get("color", False)), bool(options.get("explored", False))
        text = to_halfblocks(maze, solution, color=color, explored=explored, colors=options.get("colors"),
                             marks=bool(options.get("marks", True)))  # fmt: skip
    else:
        text = render_text(at_solution_ends(maze, solution), solution, **options)
    with atomic_write(path, "w") as fh:
        fh.write(text + "\n")
    return path


def _text_options() -> tuple[str, ...]:
    from .render.text import render_text

    return _keywords(render_text)


def _tiled(maze: Maze, path: Path, solution: Solution | None, **options: Any) -> Path:
    from .tiled import write_tiled

    return write_tiled(maze, path, solution, **options)


def _tiled_options() -> tuple[str, ...]:
    from .tiled import write_tiled

    return _keywords(write_tiled)


def _mesh(maze: Maze, path: Path, solution: Solution | None, **options: Any) -> Path:
    from .mesh import write_mesh

    return write_mesh(maze, path, **options)


def _mesh_options() -> tuple[str, ...]:
    from .mesh import write_mesh

    return _keywords(write_mesh)


_MAZE = Writer(_maze_file, tuple, "maze file")
_IMAGE = Writer(_image, _image_options, "picture")
_TEXT = Writer(_text, _text_options, "text file")

#: suffix -> writer: the only place that maps a file name to what is written.
WRITERS: dict[str, Writer] = {
    ".json": _MAZE,
    ".npz": _MAZE,
    **dict.fromkeys(sorted(IMAGE_SUFFIXES), _IMAGE),
    ".svg": Writer(_svg, _svg_options, "SVG picture"),
    ".pdf": Writer(_pdf, _pdf_options, "PDF"),
    ".txt": _TEXT,
    ".ans": _TEXT,
    ".tmj": Writer(_tiled, _tiled_options, "Tiled map"),
    **{suffix: Writer(_mesh, _mesh_options, "3D model") for suffix in (".stl", ".obj", ".glb")},
}

#: Suffixes of maze files (read back by :func:`mazekit.load`).
MAZE_SUFFIXES = (".json", ".npz")


def writer(path: str | os.PathLike[str]) -> Writer:
    """The :class:`Writer` for ``path``'s suffix, or ``ValueError`` naming the suffixes known.

    >>> writer("maze.svg").what, writer("m.JSON").what, writer("m.pdf").takes()
    ('SVG picture', 'maze file', ('paper', 'title', 'per_page', 'colors', 'marks'))
    >>> writer("maze.docx")
    Traceback (most recent call last):
    ...
    ValueError: cannot write 'maze.docx': unknown suffix; use one of .ans, .bmp, .gif, ...
    """
    name = Path(path).name
    suffix = Path(path).suffix.lower()
    if suffix not in WRITERS:
        raise ValueError(f"cannot write {name!r}: unknown suffix; use one of {', '.join(sorted(WRITERS))}")
    return WRITERS[suffix]


def write(
    maze: Maze, path: str | os.PathLike[str], *, solution: Solution | None = None, **options: Any
) -> Path:
    """Write ``maze`` (and ``solution``) to ``path``, in the format its suffix names.

    Parameters
    ----------
    maze : Maze
    path : str or path-like
        ``.json``/``.npz`` save the maze (and solution) to load back; ``.png``, ``.bmp``,
        ``.gif``, ``.jpg``, ``.webp``, ``.tif`` and ``.svg`` draw it (options as
        :func:`mazekit.render.render`: ``cell_size``, ``wall_width``, ``colors``,
        ``explored``, ``heatmap`` ...); ``.pdf`` is a printable page plus an answer key
        when a solution is given; ``.txt``/``.ans`` are text art (``style``); ``.tmj`` is a
        Tiled map (game level) with its tileset image beside it (``tile_size``);
        ``.stl``/``.obj``/``.glb`` a 3D model, walls on a floor (``block``, ``height``,
        ``floor`` in mm).
    solution : Solution, optional
        Drawn on pictures, stored in maze files.

    Returns
    -------
    pathlib.Path
        ``path``, written whole (never half a file, whatever happens).

    Examples
    --------
    >>> import os, tempfile, mazekit
    >>> m = mazekit.generate("prim", (4, 6), rng=1)
    >>> d = tempfile.mkdtemp()
    >>> for name in ("m.json", "m.png", "m.svg", "m.pdf", "m.txt"):
    ...     _ = write(m, os.path.join(d, name), solution=mazekit.solve(m))
    >>> sorted(os.listdir(d))
    ['m.json', 'm.pdf', 'm.png', 'm.svg', 'm.txt']
    >>> write(m, os.path.join(d, "m.png"), cell_size=6).name
    'm.png'
    >>> write(m, os.path.join(d, "m.json"), cell_size=6)
    Traceback (most recent call last):
    ...
    ValueError: a maze file takes no options (got cell_size)
    """
    p = Path(path)
    w = writer(p)
    known = _image_options(True) if w is _IMAGE and options.get("heatmap") is not None else w.takes()
    unknown = sorted(set(options) - set(known))
    if unknown:
        takes = f"takes only {', '.join(known)}" if known else "takes no options"
        raise ValueError(f"a {w.what} {takes} (got {', '.join(unknown)})")
    return w.func(maze, p, solution, **options)


def render_file(
    maze: Maze, path: str | os.PathLike[str], solution: Solution | None = None, **options: Any
) -> Path:
    """:func:`write` for everything but maze files: pictures, pages and text art (``.png``,
    ``.svg``, ``.pdf``, ``.txt`` ...), game levels (``.tmj``) and 3D models (``.stl``,
    ``.obj``, ``.glb``); a maze file suffix is refused, so a picture is never saved as data.

    A ``.pdf`` is a printable page, plus an answer-key page when a solution is given (see
    :func:`mazekit.render.pdf.render_pdf`). The file is written whole or not at all (a
    temporary file renamed into place).

    >>> import mazekit
    >>> render_file(mazekit.generate("prim", (2, 2), rng=1), "m.json")
    Traceback (most recent call last):
    ...
    ValueError: cannot render to 'm.json': unknown suffix; use one of .ans, .bmp, .gif, ...
    """
    p = Path(path)
    if p.suffix.lower() in MAZE_SUFFIXES or p.suffix.lower() not in WRITERS:
        known = sorted(set(WRITERS) - set(MAZE_SUFFIXES))
        raise ValueError(f"cannot render to {p.name!r}: unknown suffix; use one of {', '.join(known)}")
    return write(maze, p, solution=solution, **options)


#: Pictures at least this big are written as PNG by :mod:`mazekit.render.png`, which reports
#: progress (PIL's encoder runs as one silent call).
STREAM_PIXELS = 4_000_000


def save_image(image: Any, path: str | os.PathLike[str], *, level: int = 6) -> Path:
    """Save a ``PIL.Image`` in the format its suffix names, whole or not at all; a big PNG
    compressed at zlib ``level`` (1 for speed: a 6001x6001 answer 3.5 s -> 1.0 s, 60% bigger)."""
    from ._files import atomic_write

    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in IMAGE_SUFFIXES:
        raise ValueError(
            f"cannot save a picture as {p.name!r}; use one of {', '.join(sorted(IMAGE_SUFFIXES))}"
        )
    fmt = {".jpg": "JPEG", ".jpeg": "JPEG", ".tif": "TIFF", ".tiff": "TIFF"}.get(suffix, suffix[1:].upper())
    from .render.png import can_write, write_png

    streamed = fmt == "PNG" and image.size[0] * image.size[1] >= STREAM_PIXELS and can_write(image)
    with atomic_write(p, "wb") as fh:
        if streamed:  # rows in bands, counted for a progress bar
            write_png(image, fh, level=level)
        else:
            image.save(fh, format=fmt)
    return p


__all__ = [
    "IMAGE_SUFFIXES", "MAZE_SUFFIXES", "STREAM_PIXELS", "TEXT_SUFFIXES", "WRITERS", "Writer", "render_file",
    "save_image", "write", "writer",
]  # fmt: skip


def write_on_picture(
    source: str | os.PathLike[str],
    target: str | os.PathLike[str],
    solution: Solution,
    layout: Any,
    color: Any = None,
    regions: Any = (),
) -> Path:
    """Write ``target``: the maze picture ``source`` (read by
    :func:`mazekit.picture.read_picture_layout`, giving ``layout``) with ``solution``'s path
    drawn on its passage pixels (:func:`mazekit.picture.draw_path`), the same size, every
    other pixel unchanged; whole or not at all (a JPEG target re-encodes, as JPEG does). A
    picture of at most 16 colours is painted as palette indices and written as a palette PNG
    of its colours and the path's (smaller, and a 6001x6001 answer 1.2 -> 0.2 s to encode).
    A picture with transparency keeps it in a target that can hold it (PNG, WebP, TIFF), the
    path opaque; any other target gets the picture on white, as it was read. ``regions``:
    ``(blocks, colour)`` pairs painted first (:func:`mazekit.picture.draw_blocks`)."""
    import numpy as np
    from PIL import Image

    from .picture import draw_blocks, draw_path, has_transparency, load_pixels
    from .render.palette import parse_color
    from .render.pixels import DEFAULT_COLORS

    rgb = parse_color(DEFAULT_COLORS["path"] if color is None else color, "path")
    pixels = layout.pixels  # as read; a picture with transparency is read again to keep it
    if Path(target).suffix.lower() in (".png", ".webp", ".tif", ".tiff") and not layout.turned:
        with Image.open(source) as img:
            clear = has_transparency(img)
        pixels = load_pixels(source, alpha=True) if clear else pixels

    found = None
    if Path(target).suffix.lower() == ".png" and pixels.shape[2] == 3:  # a few colours: a palette PNG
        from .render.png import indexed

        found = indexed(pixels)
    if found is None:
        canvas = pixels

        def ink(c: tuple[int, int, int]) -> tuple[int, ...]:
            return (*c, 255) if pixels.shape[2] == 4 else tuple(c)

    else:  # painted as palette indices: a third of the bytes of RGB, and no pass to index them
        canvas, colours = found[0][..., None], [tuple(c) for c in found[1].tolist()]

        def ink(c: tuple[int, int, int]) -> tuple[int, ...]:
            if tuple(c) not in colours:
                colours.append(tuple(c))
            return (colours.index(tuple(c)),)

    for blocks, tint in regions:
        canvas = draw_blocks(layout, canvas, np.asarray(blocks, dtype=bool), ink(parse_color(tint, "region")))
    canvas = draw_path(layout, canvas, np.asarray(solution.path), ink(rgb))
    if found is None:
        return save_image(Image.fromarray(canvas), target, level=1)
    image = Image.fromarray(canvas[..., 0], "P")
    image.putpalette([v for c in colours for v in c])
    return save_image(image, target, level=1)
