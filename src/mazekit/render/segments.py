"""A maze as geometry in cell units, for the vector renderers (SVG, PDF).

Corner ``(i, j)`` of the grid sits at ``x = j, y = i``; cell ``(r, c)`` is the unit square
from ``(c, r)`` to ``(c + 1, r + 1)``. Walls come out as maximal straight runs, so a 100x100
maze is a few thousand lines, not twenty thousand wall pieces.
"""

from __future__ import annotations

import numpy as np

from ..convert import end_openings, to_blocks
from ..maze import Maze


def number(v: float) -> str:
    """A coordinate as text: at most three decimals, no trailing zeros (``2``, ``0.5``)."""
    text = f"{v:.3f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def _runs(on: np.ndarray) -> np.ndarray:
    """``(k, 3)`` rows ``(line, first, past_last)`` of the runs of True along axis 1."""
    padded = np.zeros((on.shape[0], on.shape[1] + 2), dtype=np.int8)
    padded[:, 1:-1] = on
    step = np.diff(padded, axis=1)
    starts = np.argwhere(step == 1)
    ends = np.argwhere(step == -1)
    return np.column_stack([starts[:, 0], starts[:, 1], ends[:, 1]]).astype(np.int64)


def wall_runs(maze: Maze) -> tuple[np.ndarray, np.ndarray]:
    """Horizontal and vertical wall runs, each ``(k, 3)``, in cell units.

    A horizontal run ``(y, x0, x1)`` goes from ``(x0, y)`` to ``(x1, y)``; a vertical run
    ``(x, y0, y1)`` from ``(x, y0)`` to ``(x, y1)``. The gaps at the start and the goal are
    left open, and walls with no cell on either side (inside a mask's holes) are left out.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("kruskal", (1, 3), rng=0)
    >>> h, v = wall_runs(m)
    >>> h.tolist(), v.tolist()
    ([[0, 1, 3], [1, 0, 2]], [[0, 0, 1], [3, 0, 1]])
    """
    blocks = to_blocks(maze).astype(bool)
    for r, c in end_openings(maze).values():
        blocks[r, c] = False
    rows, cols = maze.shape
    exists = np.ones((rows, cols), bool) if maze.grid.mask is None else maze.grid.mask
    pad = np.zeros((rows + 2, cols + 2), bool)
    pad[1:-1, 1:-1] = exists
    beside_h = pad[:-1, 1:-1] | pad[1:, 1:-1]  # (rows + 1, cols): a cell above or below
    beside_v = pad[1:-1, :-1] | pad[1:-1, 1:]  # (rows, cols + 1): a cell left or right
    horizontal = blocks[0::2, 1::2] & beside_h
    vertical = blocks[1::2, 0::2] & beside_v
    return _runs(horizontal), _runs(vertical.T)


def path_points(maze: Maze, path: np.ndarray) -> np.ndarray:
    """``(k, 2)`` float ``(x, y)`` corners of the solution polyline, in cell units.

    The line runs through cell centres, out through the gaps at the start and the goal, and
    keeps only the points where it turns.
    """
    pts = np.stack([path[:, 1] + 0.5, path[:, 0] + 0.5], axis=1).astype(float)
    rows, cols = maze.shape
    gaps = end_openings(maze)
    head: list[tuple[float, float]] = []
    tail: list[tuple[float, float]] = []
    for name, index, into in (("start", 0, head), ("goal", -1, tail)):
        if name not in gaps or tuple(int(v) for v in path[index]) != getattr(maze, name):
            continue
        r, c = gaps[name]
        x, y = pts[index]
        if r == 0:
            y = 0.0
        elif r == 2 * rows:
            y = float(rows)
        elif c == 0:
            x = 0.0
        else:
            x = float(cols)
        into.append((x, y))
    pts = np.concatenate([np.reshape(head, (-1, 2)), pts, np.reshape(tail, (-1, 2))])
    if len(pts) < 3:
        return pts
    step = np.sign(np.diff(pts, axis=0))
    turns = np.flatnonzero((step[1:] != step[:-1]).any(axis=1)) + 1
    return pts[np.concatenate([[0], turns, [len(pts) - 1]])]


def cell_runs(index: np.ndarray) -> np.ndarray:
    """``(k, 4)`` rows ``(y, x0, x1, value)``: runs of equal non-negative ``index`` along rows.

    Cells with a negative index are skipped. Used to draw per-cell colours as few rectangles.
    """
    rows, cols = index.shape
    change = np.ones((rows, cols), bool)
    change[:, 1:] = index[:, 1:] != index[:, :-1]
    starts = np.argwhere(change)
    ends = np.empty(len(starts), dtype=np.int64)
    ends[:-1] = starts[1:, 1]
    ends[np.r_[starts[1:, 0] != starts[:-1, 0], True]] = cols
    values = index[starts[:, 0], starts[:, 1]]
    keep = values >= 0
    return np.column_stack([starts[keep], ends[keep], values[keep]]).astype(np.int64)
