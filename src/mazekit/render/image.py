"""Raster pictures (PNG, BMP, ...) built as one numpy array, no Python object per cell.

The block picture is stretched with :func:`numpy.repeat`: wall rows and columns become
``wall_width`` pixels, cell rows and columns ``cell_size`` pixels. A 4000x4000 maze is a
single vectorised pass.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..maze import Maze
from ..solution import Solution
from .layers import BACKTRACKED, EXPLORED, GOAL, OPENING, PATH, ROAD, START, WALL, classify

DEFAULT_COLORS = {
    "background": "#ffffff",
    "wall": "#1b1b1f",
    "path": "#e02020",
    "start": "#1faa3c",
    "goal": "#2060e0",
    "explored": "#cfe3ff",
    "backtracked": "#f4c7d9",
}

#: The longest side, in pixels, that an automatic cell size aims for.
AUTO_SIDE = 2400


def _rgb(value: Any, what: str) -> tuple[int, int, int]:
    from PIL import ImageColor

    if isinstance(value, tuple | list) and len(value) == 3:
        return tuple(int(v) for v in value)  # type: ignore[return-value]
    try:
        return ImageColor.getrgb(str(value))[:3]  # type: ignore[return-value]
    except ValueError:
        raise ValueError(f"{what} color {value!r} is not a colour name or #rrggbb") from None


def auto_sizes(shape: tuple[int, int]) -> tuple[int, int]:
    """A ``(cell_size, wall_width)`` that keeps the picture near :data:`AUTO_SIDE` pixels."""
    side = max(shape)
    cell = max(1, min(16, AUTO_SIDE // (side * 5 // 4 + 1)))
    return cell, max(1, cell // 4)


def render_image(
    maze: Maze,
    solution: Solution | None = None,
    *,
    cell_size: int | None = None,
    wall_width: int | None = None,
    colors: dict[str, Any] | None = None,
    explored: bool = False,
    marks: bool = True,
) -> Any:
    """A ``PIL.Image`` (RGB) of the maze, its solution path and, optionally, explored cells.

    Parameters
    ----------
    cell_size, wall_width : int, optional
        Pixels per cell and per wall; by default chosen from the maze size.
    colors : dict, optional
        Any of ``background, wall, path, start, goal, explored, backtracked``: colour names
        or ``#rrggbb``. The path is red, the start green and the goal blue by default.
    explored : bool
        Tint the cells the solver explored (and, for DFS, those it backtracked from).

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("backtracker", (3, 4), rng=0)
    >>> im = render_image(m, cell_size=8, wall_width=2)
    >>> im.size, im.getpixel((0, 0))
    ((42, 32), (27, 27, 31))
    """
    from PIL import Image

    auto_cell, auto_wall = auto_sizes(maze.shape)
    cell = auto_cell if cell_size is None else int(cell_size)
    wall = (auto_wall if cell_size is None else max(1, cell // 4)) if wall_width is None else int(wall_width)
    if cell < 1 or wall < 0:
        raise ValueError(f"cell size must be >= 1 and wall width >= 0, got {cell} and {wall}")
    rows, cols = maze.shape
    width, height = cols * cell + (cols + 1) * wall, rows * cell + (rows + 1) * wall
    if width * height > 500_000_000:
        raise ValueError(
            f"a {width}x{height} pixel picture is too large; use a smaller cell size"
        )
    palette = {**DEFAULT_COLORS, **(colors or {})}
    unknown = set(palette) - set(DEFAULT_COLORS)
    if unknown:
        raise ValueError(f"unknown colour key {sorted(unknown)[0]!r}; known: {', '.join(DEFAULT_COLORS)}")
    lut = np.zeros((8, 3), dtype=np.uint8)
    lut[ROAD] = _rgb(palette["background"], "background")
    lut[WALL] = _rgb(palette["wall"], "wall")
    lut[PATH] = _rgb(palette["path"], "path")
    lut[START] = _rgb(palette["start"], "start")
    lut[GOAL] = _rgb(palette["goal"], "goal")
    lut[EXPLORED] = _rgb(palette["explored"], "explored")
    lut[BACKTRACKED] = _rgb(palette["backtracked"], "backtracked")
    lut[OPENING] = lut[PATH] if solution is not None and solution.found else lut[ROAD]
    classes = classify(maze, solution, explored=explored, marks=marks)
    reps_r = np.tile([wall, cell], rows + 1)[: 2 * rows + 1]
    reps_c = np.tile([wall, cell], cols + 1)[: 2 * cols + 1]
    pixels = np.repeat(np.repeat(classes, reps_r, axis=0), reps_c, axis=1)
    return Image.fromarray(lut[pixels])
