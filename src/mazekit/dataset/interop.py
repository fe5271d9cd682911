"""maze-dataset's representation, both ways (rectangular grids only).

maze-dataset (Ivanitskiy et al., arXiv 2309.10498) stores a maze as ``connection_list``, a
boolean array of shape ``(2, rows, cols)``: ``[0, r, c]`` is the passage from ``(r, c)``
down to ``(r + 1, c)`` and ``[1, r, c]`` the one right to ``(r, c + 1)``; a solution is an
``(n, 2)`` integer array of ``(row, col)`` from start to goal. mazekit's rect passages are
bits N=1, E=2, S=4, W=8 per cell, so down is S and right is E.

Examples
--------
>>> import mazekit
>>> m = mazekit.generate("wilson", (4, 5), rng=1)
>>> conn, path = to_maze_dataset(m, mazekit.solve(m))
>>> conn.shape, conn.dtype, path[0].tolist(), path[-1].tolist()
((2, 4, 5), dtype('bool'), [0, 0], [3, 4])
>>> back, sol = from_maze_dataset(conn, path)
>>> back == m, bool((sol.path == path).all())
(True, True)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..grids import Grid


def _require_rect(grid: Grid) -> None:
    if grid.kind != "rect" or grid.mask is not None or grid.params():
        what = (
            grid.kind if grid.kind != "rect" else ("masked" if grid.mask is not None else "wrapped") + " rect"
        )
        raise ValueError(
            "maze-dataset's connection_list holds plain rectangular mazes only;"
            f" this maze is on a {what} grid"
        )


def connection_lists(passages: np.ndarray) -> np.ndarray:
    """``(n, rows, cols)`` rect passages -> ``(n, 2, rows, cols)`` connection lists."""
    p = np.asarray(passages)
    return np.stack([(p & 4) != 0, (p & 2) != 0], axis=1)


def passages_from(connection_list: np.ndarray) -> np.ndarray:
    """``(..., 2, rows, cols)`` connection lists -> ``(..., rows, cols)`` uint8 passages.

    Passages off the grid (down from the last row, right from the last column) are refused.
    """
    conn = np.asarray(connection_list)
    if conn.ndim < 3 or conn.shape[-3] != 2 or conn.shape[-2] < 1 or conn.shape[-1] < 1:
        raise ValueError(f"a connection_list has shape (2, rows, cols), got {conn.shape}")
    if conn.dtype != bool and not np.isin(conn, (0, 1)).all():
        raise ValueError("a connection_list holds booleans (or 0/1)")
    conn = conn.astype(bool)
    down, right = conn[..., 0, :, :], conn[..., 1, :, :]
    if down[..., -1, :].any() or right[..., :, -1].any():
        raise ValueError(
            "a connection_list opens a passage off the grid"
            " (down from the last row or right of the last column)"
        )
    p = np.zeros(down.shape, dtype=np.uint8)
    p |= np.where(down, 4, 0).astype(np.uint8)
    p |= np.where(right, 2, 0).astype(np.uint8)
    p[..., 1:, :] |= np.where(down[..., :-1, :], 1, 0).astype(np.uint8)
    p[..., :, 1:] |= np.where(right[..., :, :-1], 8, 0).astype(np.uint8)
    return p


def to_maze_dataset(maze: Any, solution: Any = None) -> tuple[np.ndarray, np.ndarray | None]:
    """``(connection_list, solution)`` of a rect maze: a ``(2, rows, cols)`` bool array and
    the solution's ``(n, 2)`` int array (None without a solution)."""
    _require_rect(maze.grid)
    conn = connection_lists(maze.passages[None])[0]
    path = None if solution is None else np.asarray(solution.path, dtype=np.int64).reshape(-1, 2)
    return conn, path


def from_maze_dataset(
    connection_list: np.ndarray,
    solution: np.ndarray | None = None,
    *,
    start: tuple[int, int] | None = None,
    goal: tuple[int, int] | None = None,
) -> tuple[Any, Any]:
    """``(Maze, Solution or None)`` from maze-dataset's arrays.

    Start and goal are the solution's ends, else ``start``/``goal``, else the corners. The
    solution is checked to walk through open passages.
    """
    from .. import trace as tr
    from ..grids import RectGrid
    from ..maze import Maze
    from ..solution import Solution
    from ..validate import check_path

    p = passages_from(connection_list)
    if p.ndim != 2:
        raise ValueError(f"one connection_list has shape (2, rows, cols), got {np.shape(connection_list)}")
    grid = RectGrid(p.shape)
    path = None
    if solution is not None:
        path = np.asarray(solution)
        if (
            path.ndim != 2
            or path.shape[1] != 2
            or path.shape[0] < 1
            or not np.issubdtype(path.dtype, np.integer)
        ):
            raise ValueError(f"a solution is an (n, 2) integer array of (row, col), got shape {path.shape}")
        path = path.astype(np.int64)
        start = start or (int(path[0, 0]), int(path[0, 1]))
        goal = goal or (int(path[-1, 0]), int(path[-1, 1]))
    s = grid.check_cell(start if start is not None else (0, 0), "start")
    g = grid.check_cell(goal if goal is not None else (p.shape[0] - 1, p.shape[1] - 1), "goal")
    maze = Maze(p, grid, s, g)
    if path is None:
        return maze, None
    check_path(maze, path, s, g)
    return maze, Solution("maze-dataset", s, g, path, tr.empty(), grid.cols)
