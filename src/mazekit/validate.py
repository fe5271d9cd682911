"""Checks that a path or a maze is what it claims to be, on any grid."""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from .grid import Cell
from .grids import kernel as k
from .maze import Maze


@njit(cache=True, nogil=True)
def _first_bad_step(passages, geo, mask, path):  # pragma: no cover - compiled
    """``(step, problem)`` of the first step that is not a passage: problem 1 when its cells
    are not neighbours (a weave tunnel under a masked-out cell joins none), 2 when the wall
    between them is closed; ``(-1, 0)`` if all are fine."""
    slots = k.n_slots(geo[0])
    for i in range(path.shape[0] - 1):
        a = path[i]
        b = path[i + 1]
        neighbours = False
        passage = False
        for slot in range(slots):
            if k.step(geo, a, slot) == b and k.bridged(geo, mask, a, slot, b):
                neighbours = True
                if passages[a] >> slot & 1:
                    passage = True
        if not neighbours:
            return i, 1
        if not passage:
            return i, 2
    return -1, 0


def check_path(maze: Maze, path: Any, start: Cell, goal: Cell) -> None:
    """Raise ``ValueError`` unless ``path`` runs from ``start`` to ``goal`` through open passages.

    Steps go between grid neighbours through open slots, on any grid (a weave tunnel is one
    step between its two ends).

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("prim", (3, 3), rng=0)
    >>> check_path(m, mazekit.solve(m).path, m.start, m.goal)
    >>> check_path(m, [(0, 0), (2, 2)], (0, 0), (2, 2))
    Traceback (most recent call last):
    ...
    ValueError: path step 0 from (0, 0) to (2, 2) is not between neighbours
    >>> check_path(m, [(0.5, 0), (0, 1)], (0, 0), (0, 1))
    Traceback (most recent call last):
    ...
    ValueError: path must hold integer (row, col) cells, got float64 values
    """
    p = np.asarray(path)
    if p.size and p.dtype.kind not in "iu":  # 0.5 or True is no cell: refuse, do not truncate
        raise ValueError(f"path must hold integer (row, col) cells, got {p.dtype} values")
    p = p.astype(np.int64).reshape(-1, 2)
    if p.shape[0] == 0:
        raise ValueError("path is empty")
    if tuple(p[0]) != tuple(start) or tuple(p[-1]) != tuple(goal):
        raise ValueError(f"path runs {tuple(p[0].tolist())}..{tuple(p[-1].tolist())}, not {start}..{goal}")
    grid = maze.grid
    r, c = p[:, 0], p[:, 1]
    ok = (r >= 0) & (r < grid.rows) & (c >= 0) & (c < grid.cols)
    if ok.all() and grid.mask is not None:
        ok = grid.mask[r, c]
    if not ok.all():  # let the grid say what is wrong with the first bad cell
        grid.check_cell(tuple(p[int(np.argmin(ok))].tolist()), "path cell")
    flat = r * grid.cols + c
    i, problem = _first_bad_step(maze.passages.ravel(), *grid.kernel_args(), flat)
    if problem:
        a, b = tuple(p[i].tolist()), tuple(p[i + 1].tolist())
        why = "is not between neighbours" if problem == 1 else "goes through a wall"
        raise ValueError(f"path step {i} from {a} to {b} {why}")


#: The compiled path check, for kernels of other families.
first_bad_step_kernel = _first_bad_step
