"""Bidirectional BFS: search from both ends at once and meet in the middle.

1. Keep two breadth-first searches, one from the start and one from the goal, each with
   its frontier (the cells of its newest ring).
2. Expand a whole ring of the side whose frontier is smaller (the start's side on a tie).
   When a cell being expanded has an open neighbour the other side has already reached,
   the two searches have met: stop.
3. The path is the start side's predecessors back from the meeting passage, then the
   goal side's forward from it.

Solves any maze on any grid; the path is always a shortest one: as whole rings are expanded in turn,
the sides can only meet once they are as close as they can be, so the first meeting found
is as short as any. Two balls of half the radius hold far fewer cells than one of the full
radius on open ground; in a perfect maze the gain is smaller. If either side runs out of
cells first, the ends are not connected. The trace's ``arg`` says which side expanded the
cell: 0 from the start, 1 from the goal. Reference: I. Pohl, "Bi-directional search",
*Machine Intelligence* 6 (1971).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grids import Cell
from ..grids import kernel as k
from ..maze import Maze
from ..solution import Solution
from ..trace import VISIT, record
from ._common import flat_ends, solution, walk_back

#: Peak memory in bytes per cell, checked by the solve front door before it runs (measured
#: on 600x600 rect mazes, perfect and braided: 26-31).
BYTES_PER_CELL = 40

SHORTEST = True  # always a shortest path
SOLVES_PERFECT = True
SOLVES_LOOPS = True
SOLVES_ISLAND = True  # searches from both ends reach every reachable cell


@njit(cache=True, nogil=True)
def _ring(passages, geo, queue, head, tail, prev, other, side, trace, t):  # pragma: no cover - compiled
    """Expand one ring of one side; return ``(head, tail, cell, nb, t)``, ``cell >= 0`` on meeting."""
    end = tail
    while head < end:
        cell = queue[head]
        head += 1
        t = record(trace, t, cell, VISIT, side)
        bits = passages[cell]
        for slot in range(k.n_slots(geo[0])):
            if bits >> slot & 1:
                nb = k.through(geo, cell, slot)
                if other[nb] >= 0:
                    return head, tail, cell, nb, t
                if prev[nb] < 0:
                    prev[nb] = cell
                    queue[tail] = nb
                    tail += 1
    return head, tail, -1, -1, t


@njit(cache=True, nogil=True)
def _join(from_start, from_goal, start, goal, a, b):  # pragma: no cover - compiled
    """start .. a (start side's predecessors), then b .. goal (goal side's)."""
    first = walk_back(from_start, start, a)
    k = 1
    cell = b
    while cell != goal:
        cell = from_goal[cell]
        k += 1
    path = np.empty(first.shape[0] + k, dtype=np.int64)
    path[: first.shape[0]] = first
    cell = b
    for i in range(first.shape[0], path.shape[0]):
        path[i] = cell
        cell = from_goal[cell]
    return path


@njit(cache=True, nogil=True)
def _bidirectional(passages, geo, start, goal, trace):  # pragma: no cover - compiled
    n = passages.shape[0]
    from_start = np.full(n, -1, dtype=np.int64)
    from_goal = np.full(n, -1, dtype=np.int64)
    qs = np.empty(n, dtype=np.int64)
    qg = np.empty(n, dtype=np.int64)
    from_start[start] = start
    from_goal[goal] = goal
    qs[0] = start
    qg[0] = goal
    hs, ts, hg, tg = 0, 1, 0, 1
    if start == goal:
        return np.full(1, start, dtype=np.int64), record(trace, 0, start, VISIT, 0)
    t = 0
    while hs < ts and hg < tg:
        if ts - hs <= tg - hg:
            hs, ts, a, b, t = _ring(passages, geo, qs, hs, ts, from_start, from_goal, 0, trace, t)
        else:
            hg, tg, b, a, t = _ring(passages, geo, qg, hg, tg, from_goal, from_start, 1, trace, t)
        if a >= 0:
            return _join(from_start, from_goal, start, goal, a, b), t
    return np.empty(0, dtype=np.int64), t


def bidirectional_bfs(maze: Maze, start: Cell, goal: Cell) -> Solution:
    """Shortest path by two breadth-first searches that meet in the middle.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.bidirectional_bfs import bidirectional_bfs
    >>> m = mazekit.generate("kruskal", (8, 8), rng=1)
    >>> s = bidirectional_bfs(m, m.start, m.goal)
    >>> s.length == mazekit.solve(m, "bfs").length
    True
    >>> sorted(set(s.trace[:, 2].tolist()))  # cells expanded from the start (0) and the goal (1)
    [0, 1]
    """
    s, g = flat_ends(maze, start, goal)
    trace = np.zeros((maze.grid.size, 3), dtype=np.int32)  # each side expands a cell once, disjointly
    path, used = _bidirectional(maze.passages.ravel(), maze.grid.geo, s, g, trace)
    return solution("bidirectional_bfs", maze, start, goal, path, trace[:used].copy())
