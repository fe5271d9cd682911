"""The breadth-first DAG of shortest paths: which cells lie on one, how many paths, listing them.

Shared by the solvers that want every shortest path, not just one (``shortest_paths``,
``collision``, and ``dead_end_filling`` for its last walk). :func:`shortest_dag` floods from
the start up to the goal's distance, marks the cells on some shortest path (far to near) and
counts the paths (near to far); :func:`enumerate_paths` lists them depth-first, in slot
order. See :mod:`mazekit.solve.shortest_paths` for the steps and their reference.

Examples
--------
>>> import numpy as np
>>> from mazekit.grids import RectGrid
>>> from mazekit.trace import open_room
>>> grid = RectGrid((3, 3))
>>> passages = open_room(grid).ravel()
>>> order, dist, on, count = shortest_dag(passages, grid.geo, 0, 8)
>>> int(dist[8]), float(count), as_count(count)
(4, 6.0, 6)
>>> enumerate_paths(passages, grid.geo, dist, on, 0, 8, 2).tolist()
[[0, 1, 2, 5, 8], [0, 1, 4, 5, 8]]
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grids import kernel as k

#: Counts at or above this are returned as a float (a float64 sum of integers is exact below).
EXACT_BELOW = 2**53


@njit(cache=True, nogil=True)
def shortest_dag(passages, geo, start, goal):  # pragma: no cover - compiled
    """BFS order (up to the goal), distances, cells on a shortest path, number of paths."""
    n = passages.shape[0]
    slots = k.n_slots(geo[0])
    dist = np.full(n, -1, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    dist[start] = 0
    order[0] = start
    head, tail = 0, 1
    while head < tail:
        cell = order[head]
        head += 1
        if cell == goal:
            break
        for slot in range(slots):
            if passages[cell] >> slot & 1:
                nb = k.through(geo, cell, slot)
                if dist[nb] < 0:
                    dist[nb] = dist[cell] + 1
                    order[tail] = nb
                    tail += 1
    on = np.zeros(n, dtype=np.uint8)
    count = np.zeros(n, dtype=np.float64)
    if dist[goal] < 0:
        return order[:head], dist, on, 0.0
    on[goal] = 1
    for i in range(head - 1, -1, -1):
        cell = order[i]
        for slot in range(slots):
            if passages[cell] >> slot & 1:
                nb = k.through(geo, cell, slot)
                if on[nb] and dist[nb] == dist[cell] + 1:
                    on[cell] = 1
                    break
    count[start] = 1.0
    for i in range(1, head):
        cell = order[i]
        if on[cell]:
            for slot in range(slots):
                if passages[cell] >> slot & 1:
                    nb = k.through(geo, cell, slot)
                    if on[nb] and dist[nb] == dist[cell] - 1:
                        count[cell] += count[nb]
    return order[:head], dist, on, count[goal]


@njit(cache=True, nogil=True)
def enumerate_paths(passages, geo, dist, on, start, goal, limit):  # pragma: no cover - compiled
    """Up to ``limit`` distinct shortest paths, as rows of flat cells, depth-first."""
    slots = k.n_slots(geo[0])
    depth_max = dist[goal]
    out = np.empty((limit, depth_max + 1), dtype=np.int64)
    cur = np.empty(depth_max + 1, dtype=np.int64)
    next_slot = np.zeros(depth_max + 1, dtype=np.int64)
    cur[0] = start
    depth, found = 0, 0
    while depth >= 0 and found < limit:
        cell = cur[depth]
        if cell == goal:
            out[found] = cur
            found += 1
            depth -= 1
            continue
        slot = next_slot[depth]
        nb = -1
        while slot < slots:
            if passages[cell] >> slot & 1:
                nb = k.through(geo, cell, slot)
                if on[nb] and dist[nb] == depth + 1:
                    break
            nb = -1
            slot += 1
        next_slot[depth] = slot + 1
        if nb < 0:
            depth -= 1
        else:
            depth += 1
            cur[depth] = nb
            next_slot[depth] = 0
    return out[:found]


def as_count(count: float) -> int | float:
    """A path count from the float64 DP: exact ``int`` below :data:`EXACT_BELOW`, else the float."""
    return int(count) if count < EXACT_BELOW else float(count)
