"""Dead-end filling: fill in every dead end until only the way through is left, then walk it.

1. Scan the maze for dead ends: cells with one open passage, other than the start and the
   goal.
2. Fill each in, and follow its passage back, filling, until the first junction (a cell
   that filling leaves a dead end is filled in turn). Filling never cuts the start from the
   goal: a dead end is on no path between them.
3. What is left holds every route from the start to the goal. Walk it: flood it breadth-first
   and take the first shortest path in slot order (:mod:`mazekit.kernels.shortest`).

On a perfect maze what is left is exactly the one path. On a maze with loops the loops
survive (a loop has no dead end), so several routes may remain: the breadth-first walk
picks a shortest one, and as no filled cell is on any simple path, the path found is
always a shortest path of the whole maze. The filling is that of
:mod:`mazekit.transform.fill_dead_ends`, on a copy. It looks at every cell, however close
the goal; the trace shows the part the start can reach (cells cut off from it are on no
path): a ``VISIT`` per cell, nearest first, then a ``BACKTRACK`` per filled cell in the
order they were filled. The walk adds no events: its cells were all visited. Reference:
W. D. Pullen, *Think Labyrinth: Maze Algorithms* ("dead end filler").
"""

from __future__ import annotations

import numpy as np

from .. import trace as tr
from .._memory import index_scratch
from ..distances import distances_kernel as _distances
from ..grids import Cell
from ..kernels.fill import fill_dead_ends
from ..kernels.shortest import enumerate_paths, shortest_dag
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends, solution, visits

#: Peak memory in bytes per cell, checked by the solve front door before it runs (measured
#: on 600x600 rect mazes, perfect and braided: 61-84).
BYTES_PER_CELL = 104

SHORTEST = True  # filling spares every simple path; the walk is breadth-first
SOLVES_PERFECT = True
SOLVES_LOOPS = True
SOLVES_ISLAND = True  # filling never cuts a route; the walk searches what is left


def dead_end_filling(maze: Maze, start: Cell, goal: Cell) -> Solution:
    """Shortest path by filling dead ends and walking what is left.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit import trace as tr
    >>> from mazekit.solve.dead_end_filling import dead_end_filling
    >>> m = mazekit.generate("backtracker", (6, 6), rng=3)
    >>> s = dead_end_filling(m, m.start, m.goal)
    >>> filled = int((s.trace[:, 1] == tr.BACKTRACK).sum())
    >>> s.n_explored == 36, filled + len(s.path) == 36
    (True, True)
    """
    s, g = flat_ends(maze, start, goal)
    passages, geo = maze.passages.ravel(), maze.grid.geo
    dist = _distances(passages, geo, s)
    scan = np.flatnonzero(dist >= 0)
    scan = scan[np.argsort(dist[scan], kind="stable")]  # nearest first: a flood's order
    left = passages.copy()
    closes = tr.allocate(maze.grid.size)  # the fill closes one passage per filled cell
    used = fill_dead_ends(left, geo, s, g, index_scratch(maze.grid), closes)
    filled = closes[:used, 0]
    filled = visits(filled[dist[filled] >= 0])  # cells cut off from the start do not count
    filled[:, 1] = tr.BACKTRACK
    _, to, on, count = shortest_dag(left, geo, s, g)  # the walk: a shortest way through what is left
    path = enumerate_paths(left, geo, to, on, s, g, 1)[0] if count else np.empty(0, np.int64)
    return solution("dead_end_filling", maze, start, goal, path, np.concatenate([visits(scan), filled]))
