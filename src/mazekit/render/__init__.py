"""Renderers: text (ASCII, Unicode, ANSI colour) and raster images (PNG, BMP, ...)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .._files import atomic_write
from ..maze import Maze
from ..solution import Solution
from .text import render_text

TEXT_SUFFIXES = {".txt": "ascii", ".ans": "blocks"}
IMAGE_SUFFIXES = {".png", ".bmp", ".gif", ".jpg", ".jpeg", ".webp", ".tif", ".tiff"}
FORMATS = ("ascii", "unicode", "blocks", "image")


def render(maze: Maze, solution: Solution | None = None, *, format: str = "ascii", **options: Any) -> Any:
    """Render ``maze`` (and ``solution``) as text or as a ``PIL.Image``.

    ``format`` is ``"ascii"``, ``"unicode"`` or ``"blocks"`` (returns ``str``; pass
    ``color=True`` for ANSI colour) or ``"image"`` (returns a ``PIL.Image.Image``; options
    as :func:`mazekit.render.image.render_image`).

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
    if format == "image":
        from .image import render_image

        return render_image(maze, solution, **options)
    if format in ("ascii", "unicode", "blocks"):
        return render_text(maze, solution, style=format, **options)
    raise ValueError(f"unknown render format {format!r}; choose from {', '.join(FORMATS)}")


def render_file(
    maze: Maze, path: str | os.PathLike[str], solution: Solution | None = None, **options: Any
) -> Path:
    """Render to a file whose suffix picks the format (``.png``, ``.bmp``, ``.txt``, ...).

    The file is written whole or not at all (a temporary file renamed into place).
    """
    p = Path(path)
    suffix = p.suffix.lower()
    if suffix in IMAGE_SUFFIXES:
        image = render(maze, solution, format="image", **options)
        fmt = {".jpg": "JPEG", ".jpeg": "JPEG", ".tif": "TIFF", ".tiff": "TIFF"}.get(
            suffix, suffix[1:].upper()
        )
        with atomic_write(p, "wb") as fh:
            image.save(fh, format=fmt)
    elif suffix in TEXT_SUFFIXES:
        style = options.pop("style", TEXT_SUFFIXES[suffix])
        if suffix == ".ans":
            options.setdefault("color", True)
        text = render_text(maze, solution, style=style, **options)
        with atomic_write(p, "w") as fh:
            fh.write(text + "\n")
    else:
        known = sorted(IMAGE_SUFFIXES | set(TEXT_SUFFIXES))
        raise ValueError(f"cannot render to {p.name!r}: unknown suffix; use one of {', '.join(known)}")
    return p


__all__ = ["render", "render_file", "render_text"]
