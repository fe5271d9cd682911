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

_EPS = 1e-9


def seen_cells(
    exists: np.ndarray, cell: int, cols: int, centres: np.ndarray, walls: np.ndarray
) -> np.ndarray:
    """``(2k+1, 2k+1)`` uint8, 1 where the agent at flat ``cell`` sees the window's cell.

    ``exists`` is the window (the layout's ``(row, col)`` square round the agent, ``cols``
    columns a row) marking the cells that exist on the agent's level of the maze (the
    window observation's "exists" channel): only those can be seen. ``centres`` are the
    picture's cell centres (``(size, 2)``), ``walls`` the picture's wall pieces
    (``(m, 2, 2)``).

    Examples
    --------
    >>> import numpy as np
    >>> centres = np.array([[0.5, 0.5], [1.5, 0.5], [2.5, 0.5]])  # a 1x3 rect maze's cells
    >>> wall = np.array([[[2.0, 0.0], [2.0, 1.0]]])  # between the middle cell and the east one
    >>> exists = np.zeros((5, 5), dtype=np.uint8)
    >>> exists[2, 2:] = 1  # round the west cell, radius 2: the row's three cells
    >>> seen_cells(exists, 0, 3, centres, wall)[2].tolist()
    [0, 0, 1, 1, 0]
    """
    k = exists.shape[0] // 2
    r, c = divmod(cell, cols)
    rows, across = np.arange(r - k, r + k + 1)[:, None], np.arange(c - k, c + k + 1)[None, :]
    out = np.zeros(exists.shape, dtype=np.uint8)
    at = np.nonzero(exists)
    targets = (rows * cols + across)[at]
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
