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

from .. import trace as tr
from ..grids import Cell
from ..grids import kernel as k
from ..kernels.draw import DONE, meter, report
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends, solution, visits, walk_back

#: Peak memory in bytes per cell, checked by the solve front door before it runs (measured
#: on 600x600 rect mazes, perfect and braided: 16-17).
BYTES_PER_CELL = 20

SHORTEST = True  # always a shortest path


@njit(cache=True, nogil=True)
def _bfs(passages, geo, start, goal, progress):  # pragma: no cover - compiled
    n = passages.shape[0]
    prev = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int32)
    watched = progress.shape[0] > DONE
    prev[start] = start
    queue[0] = start
    head, tail = 0, 1
    while head < tail:
        cell = queue[head]
        head += 1
        if watched and head & 4095 == 0:
            progress[DONE] = head
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


#: ``came`` codes of the rectangle fast path: the slot (N, E, S, W) back to the parent, plus 1.
_BACK_N, _BACK_E, _BACK_S, _BACK_W = 1, 2, 3, 4


@njit(cache=True, nogil=True)
def _bfs_rect(passages, cols, start, goal, progress, came, queue, trace):  # pragma: no cover - compiled
    """:func:`_bfs` on a plain rectangle (no wrap): the same path and the same order, but
    returned as the finished trace (``VISIT`` events) rather than the bare order.

    C's layout: one byte per cell says which way the parent is (0 = not reached), in an
    array padded by ``cols + 1`` on both sides so that all four neighbours can be read
    without a bounds check, and each neighbour is queued without a branch (written at the
    tail, the tail moved on by 0 or 1): the passage bits are random, and a mispredicted
    branch per bit cost as much as the rest of the loop. The queue is an array of its own,
    ``uint32``: as the trace's first column, its four writes a cell were 12 bytes apart, and
    the kernel 25% slower on a 4000x4000 maze (2026-12-02); each trace row is written whole
    as its cell leaves the queue. Indices are unsigned, the queue's head and tail too (no
    negative-index fix-ups on the loads; those on the queue's four writes a cell cost
    10-15%), and the caller allocates ``came`` (zeros, ``cells + 2 * (cols + 1)``),
    ``queue`` (``cells + 1``) and ``trace`` (``(cells + 1, 3)`` int32) with numpy, which
    asks for huge pages on large arrays (fewer page faults than numba's own allocations).
    """
    pad = cols + 1
    upad = np.uint64(pad)
    ucols = np.uint64(cols)
    one = np.uint64(1)
    end = np.uint64(goal)
    watched = progress.shape[0] > DONE
    came[start + pad] = 255
    queue[0] = start
    head, tail = np.uint64(0), np.uint64(1)  # unsigned as the rest: no fix-ups on the queue
    while head < tail:
        cell = np.uint64(queue[head])
        trace[head, 0] = cell
        trace[head, 1] = tr.VISIT
        trace[head, 2] = -1
        head += one
        if watched and head & np.uint64(4095) == 0:
            progress[DONE] = head
        if cell == end:
            break
        bits = passages[cell]
        at = cell + upad
        ok = (bits & 1) & (came[at - ucols] == 0)
        queue[tail] = cell - ucols
        came[at - ucols] |= _BACK_S * ok
        tail += np.uint64(ok)
        ok = (bits >> 1 & 1) & (came[at + one] == 0)
        queue[tail] = cell + one
        came[at + one] |= _BACK_W * ok
        tail += np.uint64(ok)
        ok = (bits >> 2 & 1) & (came[at + ucols] == 0)
        queue[tail] = cell + ucols
        came[at + ucols] |= _BACK_N * ok
        tail += np.uint64(ok)
        ok = (bits >> 3 & 1) & (came[at - one] == 0)
        queue[tail] = cell - one
        came[at - one] |= _BACK_E * ok
        tail += np.uint64(ok)
    if came[goal + pad] == 0:
        return np.empty(0, dtype=np.int64), trace[: np.int64(head)]
    steps = np.array((0, -cols, 1, cols, -1), dtype=np.int64)
    k = 1
    cell = goal
    while cell != start:
        cell += steps[came[cell + pad]]
        k += 1
    path = np.empty(k, dtype=np.int64)
    cell = goal
    for i in range(k - 1, 0, -1):
        path[i] = cell
        cell += steps[came[cell + pad]]
    path[0] = start
    return path, trace[: np.int64(head)]


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
    grid = maze.grid
    progress = meter(grid.n_cells)  # cells explored, of at most all
    if grid.kind == "rect" and not grid.param:
        came = np.zeros(grid.size + 2 * (grid.cols + 1), dtype=np.uint8)
        queue = np.empty(grid.size + 1, dtype=np.uint32)  # (the trace's cells are int32)
        buffer = np.empty((grid.size + 1, 3), dtype=np.int32)
        path, trace = _bfs_rect(maze.passages.ravel(), grid.cols, s, g, progress, came, queue, buffer)
        del queue
        if 2 * trace.shape[0] < grid.size:  # keep only what was explored
            trace = trace.copy()
    else:
        path, order = _bfs(maze.passages.ravel(), grid.geo, s, g, progress)
        trace = visits(order)
    report(progress, grid.n_cells)  # the step is over, found early or not
    return solution("bfs", maze, start, goal, path, trace)


#: The compiled generic kernel under a public name, for drivers of many mazes.
kernel = _bfs
