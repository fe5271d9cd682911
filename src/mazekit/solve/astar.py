"""A* search: expand the cell with the least steps-so-far plus estimated steps-to-go.

1. Put the start in a priority queue keyed by ``f = g + h``, where ``g`` is steps from the
   start and ``h`` the grid's admissible estimate to the goal (``kernel.estimate``:
   Manhattan on a rectangle, the hex distance on hexagons...).
2. Pop the cell with the smallest ``f`` (ties: smallest ``h``); stop at the goal. Otherwise
   give each open neighbour a better ``g`` if this route is shorter and push it.
3. Walk the predecessors back from the goal.

Solves any maze on any grid; the path is always shortest (the estimate never overestimates
and never drops by more than one a step, so a cell once closed needs no second look). Usually
explores fewer cells than BFS when the maze lets it head for the goal. Reference: Hart,
Nilsson and Raphael (1968).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grids import Cell
from ..grids import kernel as k
from ..kernels.heap import pop_item, push_item
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends, solution, visits, walk_back

#: Peak memory in bytes per cell, checked by the solve front door before it runs (measured
#: on 600x600 rect mazes, perfect and braided: 19-25).
BYTES_PER_CELL = 32

SHORTEST = True  # always a shortest path


@njit(cache=True, nogil=True)
def _astar(passages, geo, start, goal):  # pragma: no cover - compiled
    n = passages.shape[0]
    slots = k.n_slots(geo[0])
    g = np.full(n, -1, dtype=np.int64)
    prev = np.full(n, -1, dtype=np.int64)
    closed = np.zeros(n, dtype=np.uint8)
    keys = np.empty(slots * n + 1, dtype=np.int64)  # a push per open passage, and the start
    vals = np.empty(slots * n + 1, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    g[start] = 0
    prev[start] = start
    h0 = k.estimate(geo, start, goal)
    size = push_item(keys, vals, 0, h0 << 32 | h0, start)
    m = 0
    while size > 0:
        cell, size = pop_item(keys, vals, size)
        if closed[cell]:
            continue
        closed[cell] = 1
        order[m] = cell
        m += 1
        if cell == goal:
            break
        bits = passages[cell]
        for slot in range(slots):
            if bits >> slot & 1:
                nb = k.through(geo, cell, slot)
                cost = g[cell] + 1
                if closed[nb] == 0 and (g[nb] < 0 or cost < g[nb]):
                    g[nb] = cost
                    prev[nb] = cell
                    h = k.estimate(geo, nb, goal)
                    size = push_item(keys, vals, size, (cost + h) << 32 | h, nb)
    return walk_back(prev, start, goal), order[:m]


def astar(maze: Maze, start: Cell, goal: Cell) -> Solution:
    """Shortest path by A* with the grid's distance estimate.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.astar import astar
    >>> from mazekit.solve.bfs import bfs
    >>> m = mazekit.generate("growing_tree", (6, 6), rng=5, rule="oldest")
    >>> astar(m, m.start, m.goal).length == bfs(m, m.start, m.goal).length
    True
    """
    s, g = flat_ends(maze, start, goal)
    path, order = _astar(maze.passages.ravel(), maze.grid.geo, s, g)
    return solution("astar", maze, start, goal, path, visits(order))
