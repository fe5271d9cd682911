"""Dijkstra's algorithm: settle cells in order of least cost from the start.

1. Give the start cost 0 and put it in a priority queue.
2. Pop the cell of least cost; skip it if already settled, stop if it is the goal.
   Otherwise offer each open neighbour the cost of this cell plus the neighbour's weight
   (the price of stepping into it) and push it if that is cheaper than its best so far.
3. Walk the predecessors back from the goal.

Without weights every step costs 1 and the path is a shortest one, as with BFS. With
``weights`` it is a cheapest one: the least total weight of the cells entered after the
start. Solves any maze (loops, islands) on any grid. Explores every cell cheaper than the goal.
Reference: E. W. Dijkstra, "A note on two problems in connexion with graphs" (1959).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from ..grids import Cell
from ..grids import kernel as k
from ..kernels.heap import pop_item, push_item
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends, solution, visits, walk_back

#: Peak memory in bytes per cell, checked by the solve front door before it runs (measured
#: on 600x600 rect mazes, perfect and braided: 27-36).
BYTES_PER_CELL = 44

SHORTEST = True  # shortest in steps without weights; cheapest with them
SOLVES_PERFECT = True
SOLVES_LOOPS = True
SOLVES_ISLAND = True  # a search from the start reaches every reachable cell


@njit(cache=True, nogil=True)
def _dijkstra(passages, geo, weights, start, goal):  # pragma: no cover - compiled
    n = passages.shape[0]
    dist = np.full(n, np.inf)
    prev = np.full(n, -1, dtype=np.int64)
    settled = np.zeros(n, dtype=np.uint8)
    slots = k.n_slots(geo[0])
    keys = np.empty(slots * n + 1, dtype=np.float64)  # a push per open passage, and the start
    vals = np.empty(slots * n + 1, dtype=np.int64)
    order = np.empty(n, dtype=np.int64)
    dist[start] = 0.0
    prev[start] = start
    size = push_item(keys, vals, 0, 0.0, start)
    m = 0
    while size > 0:
        cell, size = pop_item(keys, vals, size)
        if settled[cell]:
            continue
        settled[cell] = 1
        order[m] = cell
        m += 1
        if cell == goal:
            break
        bits = passages[cell]
        for slot in range(slots):
            if bits >> slot & 1:
                nb = k.through(geo, cell, slot)
                cost = dist[cell] + weights[nb]
                if settled[nb] == 0 and cost < dist[nb]:
                    dist[nb] = cost
                    prev[nb] = cell
                    size = push_item(keys, vals, size, cost, nb)
    for cell in range(n):  # a tentative cost is only an upper bound: report settled ones
        if settled[cell] == 0:
            dist[cell] = np.inf
    return walk_back(prev, start, goal), order[:m], dist


def _check_weights(maze: Maze, weights: Any) -> np.ndarray:
    """Flat float64 copy of ``weights``, or ``ValueError`` saying what is wrong with them."""
    w = np.asarray(weights)
    if w.shape != maze.shape:
        raise ValueError(f"weights must have the maze's shape {maze.shape}, got shape={w.shape}")
    if w.dtype.kind not in "iuf":
        raise ValueError(f"weights must be real numbers, got dtype={w.dtype}")
    w = w.astype(np.float64)
    exists = maze.grid.cell_mask
    bad = exists & ~(np.isfinite(w) & (w > 0))
    if bad.any():
        r, c = (int(v) for v in np.argwhere(bad)[0])
        raise ValueError(f"weights must be finite and > 0 on every cell, got {w[r, c]} at {(r, c)}")
    return w.ravel()


def dijkstra(maze: Maze, start: Cell, goal: Cell, *, weights: np.ndarray | None = None) -> Solution:
    """Cheapest path by Dijkstra's algorithm, with optional per-cell weights.

    Parameters
    ----------
    weights : numpy.ndarray, optional
        Array of the maze's shape: the cost of *entering* each cell (finite, > 0; values
        on masked-out cells are ignored). A path costs the sum over its cells after the
        start. None (the default) makes every step cost 1.

    Returns
    -------
    Solution
        With ``extras["cost"]``: the path's total cost (``inf`` if the goal cannot be
        reached), and ``extras["distances"]``: float array of the maze's shape holding
        the least cost from the start of every cell settled before the search reached
        the goal, ``inf`` elsewhere.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.dijkstra import dijkstra
    >>> m = mazekit.generate("prim", (5, 5), rng=4)
    >>> s = dijkstra(m, m.start, m.goal)
    >>> s.extras["cost"] == s.length == mazekit.solve(m, "bfs").length
    True
    >>> dijkstra(m, m.start, m.goal, weights=np.zeros((5, 5)))
    Traceback (most recent call last):
    ...
    ValueError: weights must be finite and > 0 on every cell, got 0.0 at (0, 0)
    """
    w = np.ones(maze.grid.size) if weights is None else _check_weights(maze, weights)
    s, g = flat_ends(maze, start, goal)
    path, order, dist = _dijkstra(maze.passages.ravel(), maze.grid.geo, w, s, g)
    out = solution("dijkstra", maze, start, goal, path, visits(order))
    out.extras["cost"] = float(dist[g])
    out.extras["distances"] = dist.reshape(maze.shape)
    return out
