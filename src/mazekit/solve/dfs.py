"""Depth-first search: follow one passage as deep as it goes, backtrack at dead ends.

1. Push the start on a stack.
2. From the cell on top, step into the next unvisited open neighbour (slots in the grid's
   fixed order: N, E, S, W on a rectangle) and push it; if there is none, pop the cell (backtrack).
3. Stop when the goal is on top: the stack is the path.

Solves any maze; the path is the unique one in a perfect maze but may be long in a maze
with loops. Records every visit and every backtrack, like the tutorial animations.
Reference: C. P. Trémaux's method as depth-first search, see Even, *Graph Algorithms* (1979).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grids import Cell
from ..grids import kernel as k
from ..maze import Maze
from ..solution import Solution
from ..trace import BACKTRACK, VISIT, record
from ._common import flat_ends, solution

#: Peak memory in bytes per cell, checked by the solve front door before it runs (measured
#: on 600x600 rect mazes, perfect and braided: 41 on a perfect maze (its walk's trace), 4 braided).
BYTES_PER_CELL = 48

SHORTEST = False  # the only path in a perfect maze, not the shortest with loops


@njit(cache=True, nogil=True)
def _dfs(passages, geo, start, goal, trace):  # pragma: no cover - compiled
    n = passages.shape[0]
    slots = k.n_slots(geo[0])
    visited = np.zeros(n, dtype=np.uint8)
    next_slot = np.zeros(n, dtype=np.uint8)
    stack = np.empty(n, dtype=np.int64)
    stack[0] = start
    visited[start] = 1
    top = 0
    t = record(trace, 0, start, VISIT, -1)
    while top >= 0:
        cell = stack[top]
        if cell == goal:
            return stack[: top + 1].copy(), t
        bits = passages[cell]
        slot = np.int64(next_slot[cell])  # one type of slot: step compiles once, not per type
        while slot < slots:
            if bits >> slot & 1 and visited[k.through(geo, cell, slot)] == 0:
                break
            slot += 1
        if slot == slots:
            top -= 1
            t = record(trace, t, cell, BACKTRACK, -1)
            continue
        next_slot[cell] = slot + 1
        nb = k.through(geo, cell, slot)
        visited[nb] = 1
        top += 1
        stack[top] = nb
        t = record(trace, t, nb, VISIT, -1)
    return np.empty(0, dtype=np.int64), t


def dfs(maze: Maze, start: Cell, goal: Cell) -> Solution:
    """A path by depth-first search, with its backtracking recorded.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.dfs import dfs
    >>> m = mazekit.generate("prim", (5, 5), rng=4)
    >>> s = dfs(m, m.start, m.goal)
    >>> s.found, len(s.trace) >= len(s.path)
    (True, True)
    """
    s, g = flat_ends(maze, start, goal)
    trace = np.zeros((2 * maze.passages.size, 3), dtype=np.int32)
    path, used = _dfs(maze.passages.ravel(), maze.grid.geo, s, g, trace)
    return solution("dfs", maze, start, goal, path, trace[:used].copy())
