"""Renderers: text (ASCII, Unicode, ANSI colour), raster images (PNG, BMP, ...), SVG, PDF.

Also by module: :mod:`.heatmap` (distance and value heat maps), :mod:`.animate` (GIF, WebP,
MP4 from traces), :mod:`.gallery` (every generator side by side), :mod:`.terminal` (ANSI
animation).

A plain rect grid is drawn from its block picture; every other grid (hex, triangle, polar,
upsilon, 3d, weave, and a rect that wraps) from its geometry (:mod:`.geometry`), by the
same image, SVG, PDF and heat-map functions. Text is for plain rect grids only.
"""

from __future__ import annotations

from typing import Any

from ..maze import Maze
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


__all__ = ["at_solution_ends", "render", "render_text"]
