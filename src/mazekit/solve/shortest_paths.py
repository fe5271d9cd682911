"""All shortest paths: the breadth-first DAG from the start, counted and enumerated.

1. Breadth-first search from the start until the goal leaves the queue: every cell up to
   the goal's distance ``D`` gets its distance. A passage from distance ``k`` to ``k + 1``
   is a step some shortest path from the start may take: these passages form a DAG.
2. Walking the cells from far to near, mark a cell *on a shortest path* if it is the goal
   or one of its DAG steps leads to a marked cell.
3. Count the paths near to far: a marked cell's count is the sum over its marked DAG
   predecessors (the start counts 1). The goal's count is the number of shortest paths.
4. List the paths depth-first through the marked cells, in slot order (N, E, S, W on a
   rectangle),
   up to ``limit``. Every marked cell leads on to the goal, so no branch is wasted: each
   path costs ``D`` steps.

Solves any maze on any grid; every path listed is shortest and no two are alike. The number of paths
grows exponentially with open ground (an open ``a`` x ``b`` room has ``C(a+b-2, a-1)``
corner to corner): it is exact as an ``int`` below ``2**53`` and a ``float`` above (``inf``
past about ``1.8e308``). Reference: the path-counting recurrence on a BFS DAG, e.g.
Cormen et al., *Introduction to Algorithms*, exercise 22.4-2.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grids import Cell
from ..grids import kernel as k
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends, solution, visits

SHORTEST = True  # every path it returns is a shortest one
SOLVES_PERFECT = True
SOLVES_LOOPS = True
SOLVES_ISLAND = True  # a search from the start reaches every reachable cell

#: Counts at or above this are returned as a float (a float64 sum of integers is exact below).
EXACT_BELOW = 2**53


@njit(cache=True, nogil=True)
def _dag(passages, geo, start, goal):  # pragma: no cover - compiled
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
def _enumerate(passages, geo, dist, on, start, goal, limit):  # pragma: no cover - compiled
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


def _rowcol(maze: Maze, flat: np.ndarray) -> np.ndarray:
    """``(k, 2)`` array of ``(row, col)`` for flat cell indices."""
    cols = maze.grid.cols
    return np.stack([flat // cols, flat % cols], axis=1)


def shortest_paths(maze: Maze, start: Cell, goal: Cell, *, limit: int = 1000) -> Solution:
    """Every shortest path (up to ``limit``), and how many there are.

    Parameters
    ----------
    limit : int
        Most paths to list (at least 1). Memory is ``limit`` times the path length.

    Returns
    -------
    Solution
        ``path`` is the first path listed. ``extras["paths"]``: list of ``(k, 2)`` arrays,
        ``min(limit, n_paths)`` distinct shortest paths; ``extras["n_paths"]``: the number
        of shortest paths (0 if the goal cannot be reached; see the module notes on size).

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.shortest_paths import shortest_paths
    >>> m = mazekit.generate("prim", (3, 3), rng=0)
    >>> room = m.replace(passages=mazekit.trace.open_room(m.grid))
    >>> s = shortest_paths(room, (0, 0), (2, 2))
    >>> s.extras["n_paths"], len(s.extras["paths"]), s.length
    (6, 6, 4)
    >>> shortest_paths(room, (0, 0), (2, 2), limit=2).extras["n_paths"]
    6
    """
    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 1:
        raise ValueError(f"limit must be a positive integer, got {limit!r}")
    s, g = flat_ends(maze, start, goal)
    passages, geo = maze.passages.ravel(), maze.grid.geo
    order, dist, on, count = _dag(passages, geo, s, g)
    n_paths = as_count(count)
    rows = int(min(limit, n_paths))
    flat = _enumerate(passages, geo, dist, on, s, g, rows) if rows else np.empty((0, 0), np.int64)
    path = flat[0] if rows else np.empty(0, np.int64)
    out = solution("shortest_paths", maze, start, goal, path, visits(order))
    out.extras["paths"] = [_rowcol(maze, row) for row in flat]
    out.extras["n_paths"] = n_paths
    return out
