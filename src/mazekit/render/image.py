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
from .layers import BACKTRACKED, EXPLORED, GOAL, OPENING, PATH, ROAD, START, WALL, classify, outside_blocks
from .palette import parse_color as _rgb  # heatmap and svg read it from here too
from .pixels import AUTO_SIDE, DEFAULT_COLORS, auto_sizes, walk_cells  # noqa: F401 - read from here too


def render_image(
    maze: Maze,
    solution: Solution | None = None,
    *,
    cell_size: int | None = None,
    wall_width: int | None = None,
    colors: dict[str, Any] | None = None,
    explored: bool = False,
    marks: bool = True,
    path_style: str = "line",
) -> Any:
    """A ``PIL.Image`` (RGB) of the maze, its solution path and, optionally, explored cells.

    Parameters
    ----------
    cell_size, wall_width : int, optional
        Pixels per cell and per wall; by default chosen from the maze size.
    colors : dict, optional
        Any of ``background, wall, path, start, goal, explored, backtracked, walk``: colour
        names or ``#rrggbb``. The path is red, the start green and the goal blue by default.
        A walking solver's walk (``wall_follower``, ``pledge``: every step it took, dead ends
        and all) is drawn as a thin ``walk`` line under the path.
    explored : bool
        Tint the cells the solver explored (and, for DFS, those it backtracked from).
    path_style : {"line", "fill"}
        ``line`` draws the solution as a round-jointed line half a cell wide along the
        corridors; ``fill`` paints whole corridor blocks (the tutorials' look).

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("backtracker", (3, 4), rng=0)
    >>> im = render_image(m, cell_size=8, wall_width=2)
    >>> im.size, im.getpixel((0, 0))
    ((42, 32), (27, 27, 31))
    """
    from PIL import Image

    from .geometry import uses_geometry

    if uses_geometry(maze.grid):
        return _render_grid(maze, solution, cell_size, wall_width, colors, explored, marks, path_style)
    auto_cell, auto_wall = auto_sizes(maze.shape)
    cell = auto_cell if cell_size is None else int(cell_size)
    wall = (auto_wall if cell_size is None else max(1, cell // 4)) if wall_width is None else int(wall_width)
    if cell < 1 or wall < 0:
        raise ValueError(f"cell size must be >= 1 and wall width >= 0, got {cell} and {wall}")
    rows, cols = maze.shape
    width, height = cols * cell + (cols + 1) * wall, rows * cell + (rows + 1) * wall
    if width * height > 500_000_000:
        raise ValueError(f"a {width}x{height} pixel picture is too large; use a smaller cell size")
    from .pixels import colors_with_defaults

    palette = colors_with_defaults(colors)
    lut = np.zeros((OPENING + 1, 3), dtype=np.uint8)
    lut[ROAD] = _rgb(palette["background"], "background")
    lut[WALL] = _rgb(palette["wall"], "wall")
    lut[PATH] = _rgb(palette["path"], "path")
    lut[START] = _rgb(palette["start"], "start")
    lut[GOAL] = _rgb(palette["goal"], "goal")
    lut[EXPLORED] = _rgb(palette["explored"], "explored")
    lut[BACKTRACKED] = _rgb(palette["backtracked"], "backtracked")
    lut[OPENING] = lut[PATH] if solution is not None and solution.found else lut[ROAD]
    if path_style not in ("line", "fill"):
        raise ValueError(f"path_style must be 'line' or 'fill', got {path_style!r}")
    line = path_style == "line" and solution is not None and solution.found
    classes = classify(maze, solution, explored=explored, marks=marks, path=not line)
    outside = None if maze.grid.mask is None else outside_blocks(maze.grid.mask)
    if outside is not None:  # a shape: nothing drawn outside it, as on the other grids
        classes[outside] = ROAD
    if line:
        lut[OPENING] = lut[ROAD]
    reps_r = np.tile([wall, cell], rows + 1)[: 2 * rows + 1]
    reps_c = np.tile([wall, cell], cols + 1)[: 2 * cols + 1]
    pixels = np.repeat(np.repeat(classes, reps_r, axis=0), reps_c, axis=1)
    image = Image.fromarray(lut[pixels])
    walk = walk_cells(solution) if path_style == "line" else None
    if walk is not None:  # found or not: a failed walk is the one worth seeing
        thin = max(1, cell // 6) if cell > 2 else 1
        _draw_path(image, maze, walk, cell, wall, _rgb(palette["walk"], "walk"), width=thin)
    if line:
        assert solution is not None
        _draw_path(image, maze, solution.path, cell, wall, tuple(lut[PATH].tolist()))
        if marks:
            _draw_marks(image, maze, cell, wall, tuple(lut[START].tolist()), tuple(lut[GOAL].tolist()))
    if outside is not None:  # tight margins: the rows and columns of blocks the shape touches
        rs, cs = np.flatnonzero(~outside.all(axis=1)), np.flatnonzero(~outside.all(axis=0))
        edge = np.cumsum(np.concatenate([[0], reps_c])), np.cumsum(np.concatenate([[0], reps_r]))
        image = image.crop(
            (int(edge[0][cs[0]]), int(edge[1][rs[0]]), int(edge[0][cs[-1] + 1]), int(edge[1][rs[-1] + 1]))
        )
    return image


def _centres(cells: np.ndarray, cell: int, wall: int) -> np.ndarray:
    """Pixel centres ``(x, y)`` of ``(row, col)`` cells."""
    pitch = cell + wall
    half = (cell - 1) / 2
    return np.stack([wall + cells[:, 1] * pitch + half, wall + cells[:, 0] * pitch + half], axis=1)


def _draw_path(
    image: Any, maze: Maze, path: np.ndarray, cell: int, wall: int, color: tuple, width: int | None = None
) -> None:
    """The solution as one polyline, extended out through the entrance and exit gaps."""
    from PIL import ImageDraw

    from ..convert import end_openings

    pts = _centres(path, cell, wall)
    gaps = end_openings(maze)
    outside: dict[str, list[tuple[float, float]]] = {"start": [], "goal": []}
    for name, index in (("start", 0), ("goal", -1)):
        if name not in gaps or tuple(path[index]) != getattr(maze, name):
            continue
        r, c = gaps[name]
        x, y = pts[index]
        if r == 0:
            y = 0
        elif r == 2 * maze.shape[0]:
            y = image.size[1] - 1
        elif c == 0:
            x = 0
        else:
            x = image.size[0] - 1
        outside[name].append((float(x), float(y)))
    head, tail = outside["start"], outside["goal"]
    points = head + [tuple(p) for p in pts.tolist()] + tail
    if width is None:
        width = max(1, cell // 2) if cell > 2 else cell
    draw = ImageDraw.Draw(image)
    if len(points) == 1:
        x, y = points[0]
        draw.rectangle([x - width / 2, y - width / 2, x + width / 2, y + width / 2], fill=color)
        return
    draw.line(points, fill=color, width=width, joint="curve")


def _draw_marks(image: Any, maze: Maze, cell: int, wall: int, start: tuple, goal: tuple) -> None:
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    inset = 1 if cell >= 6 else 0
    for rc, color in ((maze.start, start), (maze.goal, goal)):
        x0 = wall + rc[1] * (cell + wall) + inset
        y0 = wall + rc[0] * (cell + wall) + inset
        draw.rectangle([x0, y0, x0 + cell - 1 - 2 * inset, y0 + cell - 1 - 2 * inset], fill=color)


def palette_rgb(colors: dict[str, Any] | None, **defaults: Any) -> dict[str, tuple[int, int, int]]:
    """Every colour of :data:`DEFAULT_COLORS` as RGB, after ``defaults`` and ``colors``."""
    from .pixels import colors_with_defaults

    return {k: _rgb(v, k) for k, v in colors_with_defaults(colors, **defaults).items()}


def grid_sizes(grid: Any, sc: Any, cell_size: int | None, wall_width: int | None) -> tuple[int, int]:
    """``(cell, wall)`` pixels for a scene: as asked, or chosen from its extent.

    Walls default to a quarter of a cell on a rect grid, as in the block pictures, and to a
    sixth on grids with thin walls (:attr:`~mazekit.grids.Grid.thin_walls`: theirs turn and
    meet at more angles).
    """
    from .raster import auto_cell

    cell = auto_cell(sc) if cell_size is None else int(cell_size)
    if wall_width is not None:
        return cell, int(wall_width)
    return cell, max(1, cell // (6 if grid.thin_walls else 4))


def _render_grid(
    maze: Maze,
    solution: Solution | None,
    cell_size: int | None,
    wall_width: int | None,
    colors: dict[str, Any] | None,
    explored: bool,
    marks: bool,
    path_style: str,
) -> Any:
    """:func:`render_image` for the grids drawn from their geometry (not the block picture)."""
    from .. import trace as tr
    from .geometry import scene
    from .raster import draw

    if path_style not in ("line", "fill"):
        raise ValueError(f"path_style must be 'line' or 'fill', got {path_style!r}")
    palette = palette_rgb(colors)
    sc = scene(maze, solution)
    cell, wall = grid_sizes(maze.grid, sc, cell_size, wall_width)
    fill = np.full((maze.passages.size, 3), -1, dtype=np.int16)
    if solution is not None and explored:
        for event, name in ((tr.VISIT, "explored"), (tr.BACKTRACK, "backtracked")):
            fill[solution.trace[solution.trace[:, 1] == event, 0]] = palette[name]
    line = path_style == "line"
    if not line and solution is not None and solution.found:
        fill[solution.path[:, 0] * maze.shape[1] + solution.path[:, 1]] = palette["path"]
    return draw(sc, cell=cell, wall=wall, colors=palette, cell_colors=fill, path=line, marks=marks)
