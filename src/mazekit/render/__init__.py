"""Renderers: text (ASCII, Unicode, ANSI colour), raster images (PNG, BMP, ...), SVG, PDF.

Also by module: :mod:`.heatmap` (distance and value heat maps), :mod:`.animate` (GIF, WebP,
MP4 from traces), :mod:`.gallery` (every generator side by side), :mod:`.terminal` (ANSI
animation).

A plain rect grid is drawn from its block picture; every other grid (hex, triangle, polar,
upsilon, 3d, weave, and a rect that wraps) from its geometry (:mod:`.geometry`), by the
same image, SVG, PDF and heat-map functions. Text is for plain rect grids only.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .._files import atomic_write
from ..maze import Maze
from ..output import IMAGE_SUFFIXES, TEXT_SUFFIXES
from ..solution import Solution
from .text import render_text

VECTOR_SUFFIXES = {".svg", ".pdf"}
FORMATS = ("ascii", "unicode", "blocks", "image", "svg")


def render(maze: Maze, solution: Solution | None = None, *, format: str = "ascii", **options: Any) -> Any:
    """Render ``maze`` (and ``solution``) as text, as a ``PIL.Image`` or as SVG.

    Any grid draws as an image or SVG; the text formats take plain rect grids only.

    ``format`` is ``"ascii"``, ``"unicode"`` or ``"blocks"`` (returns ``str``; pass
    ``color=True`` for ANSI colour), ``"image"`` (returns a ``PIL.Image.Image``; options
    as :func:`mazekit.render.image.render_image`, or with ``heatmap=SOURCE`` as
    :func:`mazekit.render.heatmap.heatmap_image`) or ``"svg"`` (returns ``str``; options as
    :func:`mazekit.render.svg.render_svg`).

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("kruskal", (2, 2), rng=1)
    >>> print(render(m, mazekit.solve(m)))
    # ###
    #S..#
    ###.#
    #  G#
    ### #
    """
    maze = at_solution_ends(maze, solution)
    if format == "image":
        if options.get("heatmap") is not None:
            from .heatmap import heatmap_image

            return heatmap_image(maze, options.pop("heatmap"), solution=solution, **options)
        options.pop("heatmap", None)
        from .image import render_image

        return render_image(maze, solution, **options)
    if format == "svg":
        from .svg import render_svg

        return render_svg(maze, solution, **options)
    if format in ("ascii", "unicode", "blocks"):
        return render_text(maze, solution, style=format, **options)
    raise ValueError(f"unknown render format {format!r}; choose from {', '.join(FORMATS)}")


def at_solution_ends(maze: Maze, solution: Solution | None) -> Maze:
    """The maze with its start and goal moved to the ends the solution was asked for, so a
    picture marks (and opens) the ends of the path it draws."""
    if solution is None or (solution.start, solution.goal) == (maze.start, maze.goal):
        return maze
    return maze.replace(start=solution.start, goal=solution.goal)


def render_file(
    maze: Maze, path: str | os.PathLike[str], solution: Solution | None = None, **options: Any
) -> Path:
    """Render to a file whose suffix picks the format (``.png``, ``.txt``, ``.svg``, ``.pdf``, ...).

    A ``.pdf`` is a printable page, plus an answer-key page when a solution is given (see
    :func:`mazekit.render.pdf.render_pdf`). The file is written whole or not at all (a
    temporary file renamed into place).
    """
    from ..output import MAZE_SUFFIXES, WRITERS, write

    p = Path(path)
    if p.suffix.lower() in MAZE_SUFFIXES or p.suffix.lower() not in WRITERS:
        known = sorted(set(WRITERS) - set(MAZE_SUFFIXES))
        raise ValueError(f"cannot render to {p.name!r}: unknown suffix; use one of {', '.join(known)}")
    return write(maze, p, solution=solution, **options)


#: Pictures at least this big are written as PNG by :mod:`mazekit.render.png`, which reports
#: progress (PIL's encoder runs as one silent call).
STREAM_PIXELS = 4_000_000


def save_image(image: Any, path: str | os.PathLike[str]) -> Path:
    """Save a ``PIL.Image`` in the format its suffix names, whole or not at all."""
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix not in IMAGE_SUFFIXES:
        raise ValueError(
            f"cannot save a picture as {p.name!r}; use one of {', '.join(sorted(IMAGE_SUFFIXES))}"
        )
    fmt = {".jpg": "JPEG", ".jpeg": "JPEG", ".tif": "TIFF", ".tiff": "TIFF"}.get(suffix, suffix[1:].upper())
    from .png import can_write, write_png

    streamed = fmt == "PNG" and image.size[0] * image.size[1] >= STREAM_PIXELS and can_write(image)
    with atomic_write(p, "wb") as fh:
        if streamed:  # rows in bands, counted for a progress bar
            write_png(image, fh)
        else:
            image.save(fh, format=fmt)
    return p


__all__ = ["IMAGE_SUFFIXES", "TEXT_SUFFIXES", "render", "render_file", "render_text", "save_image"]
