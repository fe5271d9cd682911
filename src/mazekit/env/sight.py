"""What an agent sees of its window: the cells whose centre a straight line from its own
cell's centre reaches without touching a wall of the maze's picture.

MiniGrid hides what walls hide (``see_through_walls=False``) by spreading visibility from
the agent through see-through cells; mazekit's walls are thin lines between cells, on
every grid, so the test is the line of sight itself, in the picture's cell units
(:func:`mazekit.render.geometry.scene`): a line that touches a wall, even at its end (a
post), is blocked. :class:`~mazekit.env.MazeEnv` takes it with ``occlude=True``.
"""

from __future__ import annotations

import numpy as np

from ..grids import Grid

_EPS = 1e-9


def seen_cells(grid: Grid, cell: int, radius: int, centres: np.ndarray, walls: np.ndarray) -> np.ndarray:
    """``(2r+1, 2r+1)`` uint8, 1 where the agent at flat ``cell`` sees the window's cell.

    The window is the layout's ``(row, col)`` square around the agent, on the agent's level
    of a 3d grid; cells off the maze, off the agent's level or off its mask are unseen.
    ``centres`` are the picture's cell centres (``(size, 2)``), ``walls`` the picture's
    wall pieces (``(m, 2, 2)``).

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grids import make_grid
    >>> from mazekit.maze import Maze
    >>> g = make_grid("rect", (1, 3))
    >>> centres = np.array([[0.5, 0.5], [1.5, 0.5], [2.5, 0.5]])
    >>> wall = np.array([[[2.0, 0.0], [2.0, 1.0]]])  # between the middle cell and the east one
    >>> seen_cells(g, 0, 1, centres, wall)[1].tolist()
    [0, 1, 1]
    >>> seen_cells(g, 0, 2, centres, wall)[2].tolist()
    [0, 0, 1, 1, 0]
    """
    k = radius
    r, c = divmod(cell, grid.cols)
    band = getattr(grid, "level_rows", grid.rows)  # 3d: the agent's level only
    top = r // band * band
    rows = np.arange(r - k, r + k + 1)[:, None]
    cols = np.arange(c - k, c + k + 1)[None, :]
    on = (rows >= top) & (rows < top + band) & (cols >= 0) & (cols < grid.cols)
    on &= grid.cell_mask[np.clip(rows, 0, grid.rows - 1), np.clip(cols, 0, grid.cols - 1)]
    out = np.zeros((2 * k + 1, 2 * k + 1), dtype=np.uint8)
    at = np.nonzero(on)
    targets = (rows * grid.cols + cols)[at]
    p, q = centres[cell], centres[targets]
    lo, hi = np.minimum(p, q.min(axis=0)) - _EPS, np.maximum(p, q.max(axis=0)) + _EPS
    near = ((walls.max(axis=1) >= lo) & (walls.min(axis=1) <= hi)).all(axis=1)
    out[at] = ~_crossing(p, q, walls[near]).any(axis=1)
    out[k, k] = 1
    return out


def _crossing(p: np.ndarray, q: np.ndarray, walls: np.ndarray) -> np.ndarray:
    """``(n, m)``: whether segment ``p -> q[i]`` meets wall ``j`` (touching counts)."""
    if len(walls) == 0 or len(q) == 0:
        return np.zeros((len(q), len(walls)), dtype=bool)
    a, b = walls[None, :, 0], walls[None, :, 1]  # (1, m, 2)
    pp, qq = p[None, None, :], q[:, None, :]  # (n, 1, 2)

    def cross(u: np.ndarray, v: np.ndarray) -> np.ndarray:
        return u[..., 0] * v[..., 1] - u[..., 1] * v[..., 0]

    d, e = qq - pp, b - a
    ends_apart = cross(d, a - pp) * cross(d, b - pp) <= _EPS  # the wall's ends not on one side of the line
    sides_apart = cross(e, pp - a) * cross(e, qq - a) <= _EPS  # nor the sight's ends of the wall's
    boxes = (
        (np.minimum(pp, qq) <= np.maximum(a, b) + _EPS) & (np.minimum(a, b) <= np.maximum(pp, qq) + _EPS)
    ).all(axis=-1)  # (collinear pieces meet only where their boxes do)
    return ends_apart & sides_apart & boxes
