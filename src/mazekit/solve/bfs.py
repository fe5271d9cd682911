"""Breadth-first search: explore in rings of equal distance; the path found is shortest.

1. Put the start in a queue.
2. Take the oldest cell from the queue; stop if it is the goal. Otherwise queue each
   unvisited cell one open passage away, remembering where it was reached from.
3. Walk the remembered predecessors back from the goal.

Solves any maze (with or without loops) on any grid; the path is always a shortest one. Explores every
cell closer than the goal. Reference: E. F. Moore, "The shortest path through a maze" (1959).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grids import Cell
from ..grids import kernel as k
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends, solution, visits, walk_back

SHORTEST = True  # always a shortest path


@njit(cache=True, nogil=True)
def _bfs(passages, geo, start, goal):  # pragma: no cover - compiled
    n = passages.shape[0]
    prev = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int32)
    prev[start] = start
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        cell = queue[head]
        head += 1
        if cell == goal:
            break
        bits = passages[cell]
        for slot in range(k.n_slots(geo[0])):
            if bits >> slot & 1:
                nb = k.through(geo, cell, slot)
                if prev[nb] < 0:
                    prev[nb] = cell
                    queue[tail] = nb
                    tail += 1
    return walk_back(prev, start, goal), queue[:head]


def bfs(maze: Maze, start: Cell, goal: Cell) -> Solution:
    """Shortest path by breadth-first search.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.bfs import bfs
    >>> m = mazekit.generate("kruskal", (4, 6), rng=2)
    >>> s = bfs(m, m.start, m.goal)
    >>> s.found, s.path[0].tolist(), s.path[-1].tolist()
    (True, [0, 0], [3, 5])
    """
    s, g = flat_ends(maze, start, goal)
    path, order = _bfs(maze.passages.ravel(), maze.grid.geo, s, g)
    return solution("bfs", maze, start, goal, path, visits(order))
