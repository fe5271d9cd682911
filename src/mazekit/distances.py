"""Distances through a maze's passages (breadth-first), for ends, statistics and heat maps."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
from numba import njit

from .grids import Cell
from .grids import kernel as k

if TYPE_CHECKING:
    from .maze import Maze


#: Work the exact diameter may cost beyond its first sweeps, in cells visited (about a
#: tenth of a second): all pairs of a maze of a few thousand cells, and on bigger mazes with
#: loops as many sweeps as fit; past it :func:`diameter` gives bounds, labelled so.
DIAMETER_WORK = 1 << 25


@njit(cache=True, nogil=True)
def _sweep(passages, geo, source, dist, queue):  # pragma: no cover - compiled
    """Breadth-first from ``source`` into ``dist`` (all -1 before); the cells reached, in
    order, are ``queue[:count]``; returns ``(count, farthest)``, the farthest cell being the
    first in reading order at the greatest distance."""
    dist[source] = 0
    queue[0] = source
    head, tail = 0, 1
    slots = k.n_slots(geo[0])
    while head < tail:
        cell = queue[head]
        head += 1
        bits = passages[cell]
        for slot in range(slots):
            if bits >> slot & 1:
                nb = k.through(geo, cell, slot)
                if dist[nb] < 0:
                    dist[nb] = dist[cell] + 1
                    queue[tail] = nb
                    tail += 1
    far = queue[tail - 1]
    top = dist[far]
    for j in range(tail - 1, -1, -1):  # the queue is sorted by distance: walk the last level
        cell = queue[j]
        if dist[cell] < top:
            break
        far = min(far, cell)
    return tail, far


@njit(cache=True, nogil=True)
def _distances(passages, geo, source):  # pragma: no cover - compiled
    dist = np.full(passages.shape[0], -1, dtype=np.int64)
    _sweep(passages, geo, source, dist, np.empty(passages.shape[0], dtype=np.int64))
    return dist


@njit(cache=True, nogil=True)
def _clear(dist, queue, count):  # pragma: no cover - compiled
    for j in range(count):
        dist[queue[j]] = -1


@njit(cache=True, nogil=True)
def _diameter(passages, geo, source, work):  # pragma: no cover - compiled
    """``(low, high, a, b)``: the diameter of ``source``'s piece lies in ``[low, high]``
    (equal when exact), ``a`` and ``b`` a pair ``low`` apart.

    Two sweeps give a pair and the lower bound, exact on a tree. With loops, iFUB (Crescenzi
    et al., *On computing the diameter of real-world undirected graphs*, TCS 2013): sweep
    from a middle cell ``r`` of that pair, then from every cell of the farthest level ``i``
    down; once the pairs with an end at level ``i`` or beyond are known, any other pair is at
    most ``2 (i - 1)`` apart. Stops when the bounds meet, or past ``work`` cells visited.
    """
    n = passages.shape[0]
    dist = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    count, u = _sweep(passages, geo, source, dist, queue)
    edges = 0
    for j in range(count):
        bits = passages[queue[j]]
        while bits:
            edges += bits & 1
            bits >>= 1
    _clear(dist, queue, count)
    count, v = _sweep(passages, geo, u, dist, queue)
    low, a, b = dist[v], u, v
    if edges // 2 == count - 1:  # a tree (a weave tunnel counts at both ends, as any passage)
        return low, low, a, b
    r = v  # back from v towards u, half way: the middle of a longest known path
    for _ in range(low // 2):
        bits = passages[r]
        for slot in range(k.n_slots(geo[0])):
            if bits >> slot & 1:
                nb = k.through(geo, r, slot)
                if dist[nb] == dist[r] - 1:
                    r = nb
                    break
    _clear(dist, queue, count)
    count, far = _sweep(passages, geo, r, dist, queue)
    level = dist.copy()
    order = queue[:count].copy()
    _clear(dist, queue, count)
    top = level[far]
    if top > low:
        low, a, b = top, r, far
    high = 2 * top
    spent = 3 * count
    j = count - 1
    i = top
    while low < high and i > 0:
        while j >= 0 and level[order[j]] == i:
            if spent + count > work:
                return low, high, a, b
            x = order[j]
            seen, y = _sweep(passages, geo, x, dist, queue)
            if dist[y] > low:
                low, a, b = dist[y], x, y
            _clear(dist, queue, seen)
            spent += count
            j -= 1
        i -= 1
        high = max(low, min(high, 2 * i))
    return low, max(low, high), a, b


def diameter(maze: Maze, source: Cell | None = None, *, work: int | None = None) -> dict[str, Any]:
    """The diameter of ``source``'s piece (the start's by default): the longest shortest path.

    Exact on a perfect maze (two sweeps) and, with loops, whenever iFUB settles it within
    ``work`` cells visited (:data:`DIAMETER_WORK` by default: every maze of a few thousand
    cells, and most bigger ones); otherwise the longest path found and a proven upper bound,
    with ``diameter_exact`` False.

    Returns
    -------
    dict
        ``diameter`` (steps; exact or a lower bound), ``diameter_exact``, ``diameter_at_most``
        (an upper bound, equal to ``diameter`` when exact) and ``diameter_ends`` (two cells
        ``diameter`` apart, in reading order).

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.transform(mazekit.generate("kruskal", (12, 15), rng=24), "braid", rng=24)
    >>> d = diameter(m)
    >>> d["diameter"], d["diameter_exact"]
    (30, True)
    >>> cut = diameter(m, work=0)  # no budget beyond the sweeps: bounds, labelled
    >>> cut["diameter_exact"], cut["diameter"] <= 30 <= cut["diameter_at_most"]
    (False, True)
    """
    grid = maze.grid
    src = grid.check_cell(maze.start if source is None else source, "source")
    budget = min(int(DIAMETER_WORK if work is None else work), 1 << 62)
    low, high, a, b = _diameter(maze.passages.ravel(), grid.geo, grid.flat(src), budget)
    return {
        "diameter": int(low),
        "diameter_exact": bool(low == high),
        "diameter_at_most": int(high),
        "diameter_ends": tuple(sorted((grid.unflat(int(a)), grid.unflat(int(b))))),
    }


def distance_map(maze: Maze, source: Cell) -> np.ndarray:
    """Steps from ``source`` to every cell; -1 where unreachable or masked out.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("kruskal", (4, 4), rng=3)
    >>> d = distance_map(m, (0, 0))
    >>> int(d[0, 0]), bool((d >= 0).all())
    (0, True)
    """
    r, c = maze.grid.check_cell(source, "source")
    flat = _distances(maze.passages.ravel(), maze.grid.geo, r * maze.grid.cols + c)
    return flat.reshape(maze.shape)


def farthest_pair(maze: Maze, anchor: Cell | None = None) -> tuple[Cell, Cell]:
    """Two cells far apart by two sweeps of BFS: the farthest pair on a perfect maze (with
    loops, :func:`diameter` finds the farthest)."""
    grid = maze.grid
    a = anchor if anchor is not None else grid.unflat(int(grid.cell_indices()[0]))
    d = distance_map(maze, a)
    u = grid.unflat(int(np.argmax(d)))
    d2 = distance_map(maze, u)
    v = grid.unflat(int(np.argmax(d2)))
    return u, v


#: The compiled BFS distance kernel, for kernels of other families.
distances_kernel = _distances
