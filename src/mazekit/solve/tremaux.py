"""Trémaux's algorithm: mark each passage as you walk it, never walk one a third time.

1. Every passage you walk gets a mark (at most two). Leave the start by an unmarked passage.
2. Arriving at a cell you have seen before by an unmarked passage (now marked once), turn
   back the way you came: that passage closed a loop.
3. Otherwise take an unmarked passage (first in slot order: N, E, S, W on a rectangle),
   else the passage marked once (back towards the start); never one marked twice. A dead
   end turns you back.
4. Stop on the goal. Back on the start with every passage marked twice: no way to the goal.

It is a depth-first search on passages done on foot, so it solves every maze, with loops
and islands too, on every grid, walking each passage at most twice (at most ``slots *
cells`` steps); on an unreachable goal it walks the whole reachable part twice and comes
home. The path returned
is the passages marked exactly once, which always run from the start to the walker: a
simple path, though not the shortest when the maze has loops.

``solution.extras["walk"]`` holds every cell stepped on, in order; ``extras["stopped"]`` is
``"goal"``, ``"exhausted"`` or ``"stuck"`` (a start with no open passage). The trace has a
``VISIT`` per step, so cells repeat in ``solution.explored``, and a ``BACKTRACK`` where the
walker turned back (a dead end, or a loop closed). References: É. Lucas, *Récréations
mathématiques* vol. 1 (1882), who published C. P. Trémaux's method; W. D. Pullen,
*Think Labyrinth: Maze Algorithms* ("Trémaux's algorithm").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grids import Cell
from ..grids import kernel as k
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends
from ._walk import EXHAUSTED, GOAL, STUCK, walk_solution

#: Peak memory in bytes per cell, checked by the solve front door before it runs (measured
#: on 600x600 rect mazes, perfect and braided: 65 on a perfect maze).
BYTES_PER_CELL = 80

SHORTEST = False  # the once-marked passages, not the shortest route when there are loops
SOLVES_PERFECT = True
SOLVES_LOOPS = True
SOLVES_ISLAND = True  # a depth-first search: it reaches every reachable cell


@njit(cache=True, inline="always")
def _pick(bits, marks, base, want, slots):  # pragma: no cover - compiled
    for slot in range(slots):
        if bits >> slot & 1 and marks[base + slot] == want:
            return slot
    return -1


@njit(cache=True, nogil=True)
def _marked_path(passages, marks, geo, start, goal):  # pragma: no cover - compiled
    """Follow the passages marked exactly once from the start to the goal."""
    slots = k.n_slots(geo[0])
    path = np.empty(passages.shape[0], dtype=np.int64)
    path[0] = start
    m = 1
    cell, came = start, -1
    while cell != goal:
        bits = passages[cell]
        nxt = -1
        for slot in range(slots):
            if slot != came and bits >> slot & 1 and marks[slots * cell + slot] == 1:
                nxt = slot
                break
        came = k.back(geo, cell, nxt)
        cell = k.through(geo, cell, nxt)
        path[m] = cell
        m += 1
    return path[:m].copy()


@njit(cache=True, nogil=True)
def _tremaux(passages, geo, start, goal):  # pragma: no cover - compiled
    n = passages.shape[0]
    slots = k.n_slots(geo[0])
    marks = np.zeros(slots * n, dtype=np.uint8)  # marks on the passage out of cell through slot
    seen = np.zeros(n, dtype=np.uint8)
    walk = np.empty(slots * n + 1, dtype=np.int64)  # each passage twice at most
    walk[0] = start
    m = 1
    cell, came, known = start, -1, True
    seen[start] = 1
    while cell != goal:
        bits = passages[cell]
        if came >= 0 and known and marks[slots * cell + came] == 1:
            slot = came  # a new passage led somewhere known: it closed a loop
        else:
            slot = _pick(bits, marks, slots * cell, 0, slots)
            if slot < 0:
                slot = _pick(bits, marks, slots * cell, 1, slots)
            if slot < 0:
                return walk[:m], (EXHAUSTED if m > 1 else STUCK), marks
        nb = k.through(geo, cell, slot)
        came = k.back(geo, cell, slot)
        marks[slots * cell + slot] += 1
        marks[slots * nb + came] += 1
        known = seen[nb] == 1
        seen[nb] = 1
        cell = nb
        walk[m] = cell
        m += 1
    return walk[:m], GOAL, marks


def tremaux(maze: Maze, start: Cell, goal: Cell) -> Solution:
    """Walk the maze marking passages; the path is the passages marked once.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.tremaux import tremaux
    >>> m = mazekit.generate("prim", (6, 6), rng=2)
    >>> s = tremaux(m, m.start, m.goal)
    >>> s.found, s.length == mazekit.solve(m, "bfs").length, s.extras["stopped"]
    (True, True, 'goal')
    """
    a, b = flat_ends(maze, start, goal)
    p = maze.passages.ravel()
    walk, stopped, marks = _tremaux(p, maze.grid.geo, a, b)
    path = _marked_path(p, marks, maze.grid.geo, a, b) if stopped == GOAL else None
    return walk_solution("tremaux", maze, start, goal, walk, stopped, path)
