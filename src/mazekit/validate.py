"""Checks that a path or a maze is what it claims to be."""

from __future__ import annotations

from typing import Any

import numpy as np

from .grid import BITS, Cell
from .maze import Maze

_SLOT_OF_STEP = {(-1, 0): 0, (0, 1): 1, (1, 0): 2, (0, -1): 3}


def check_path(maze: Maze, path: Any, start: Cell, goal: Cell) -> None:
    """Raise ``ValueError`` unless ``path`` runs from ``start`` to ``goal`` through open passages.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("prim", (3, 3), rng=0)
    >>> check_path(m, mazekit.solve(m).path, m.start, m.goal)
    >>> check_path(m, [(0, 0), (2, 2)], (0, 0), (2, 2))
    Traceback (most recent call last):
    ...
    ValueError: path step 0 from (0, 0) to (2, 2) is not between neighbours
    """
    p = np.asarray(path, dtype=np.int64).reshape(-1, 2)
    if p.shape[0] == 0:
        raise ValueError("path is empty")
    if tuple(p[0]) != tuple(start) or tuple(p[-1]) != tuple(goal):
        raise ValueError(f"path runs {tuple(p[0].tolist())}..{tuple(p[-1].tolist())}, not {start}..{goal}")
    for cell in p:
        maze.grid.check_cell(tuple(cell.tolist()), "path cell")
    for i, (a, b) in enumerate(zip(p[:-1].tolist(), p[1:].tolist(), strict=True)):
        slot = _SLOT_OF_STEP.get((b[0] - a[0], b[1] - a[1]))
        if slot is None:
            raise ValueError(f"path step {i} from {tuple(a)} to {tuple(b)} is not between neighbours")
        if not maze.passages[a[0], a[1]] & BITS[slot]:
            raise ValueError(f"path step {i} from {tuple(a)} to {tuple(b)} goes through a wall")
