"""Trémaux's algorithm: mark each passage as you walk it, never walk one a third time.

1. Every passage you walk gets a mark (at most two). Leave the start by an unmarked passage.
2. Arriving at a cell you have seen before by an unmarked passage (now marked once), turn
   back the way you came: that passage closed a loop.
3. Otherwise take an unmarked passage (first in the order N, E, S, W), else the passage
   marked once (back towards the start); never one marked twice. A dead end turns you back.
4. Stop on the goal. Back on the start with every passage marked twice: no way to the goal.

It is a depth-first search on passages done on foot, so it solves every maze, with loops
and islands too, walking each passage at most twice (at most ``4 * cells`` steps); on an
unreachable goal it walks the whole reachable part twice and comes home. The path returned
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

from ..grid import OPPOSITE, Cell, through
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends
from .wall_follower import EXHAUSTED, GOAL, STUCK, walk_solution

SHORTEST = False  # the once-marked passages, not the shortest route when there are loops
SOLVES_PERFECT = True
SOLVES_LOOPS = True
SOLVES_ISLAND = True  # a depth-first search: it reaches every reachable cell


@njit(cache=True)
def _pick(bits, marks, base, want):  # pragma: no cover - compiled
    for slot in range(4):
        if bits >> slot & 1 and marks[base + slot] == want:
            return slot
    return -1


@njit(cache=True)
def _marked_path(passages, marks, cols, start, goal):  # pragma: no cover - compiled
    """Follow the passages marked exactly once from the start to the goal."""
    path = np.empty(passages.shape[0], dtype=np.int64)
    path[0] = start
    k = 1
    cell, came = start, -1
    while cell != goal:
        bits = passages[cell]
        nxt = -1
        for slot in range(4):
            if slot != came and bits >> slot & 1 and marks[4 * cell + slot] == 1:
                nxt = slot
                break
        cell = through(cols, cell, nxt)
        came = OPPOSITE[nxt]
        path[k] = cell
        k += 1
    return path[:k].copy()


@njit(cache=True)
def _tremaux(passages, cols, start, goal):  # pragma: no cover - compiled
    n = passages.shape[0]
    marks = np.zeros(4 * n, dtype=np.uint8)  # marks on the passage out of cell through slot
    seen = np.zeros(n, dtype=np.uint8)
    walk = np.empty(4 * n + 1, dtype=np.int64)  # each passage twice at most
    walk[0] = start
    k = 1
    cell, came, known = start, -1, True
    seen[start] = 1
    while cell != goal:
        bits = passages[cell]
        if came >= 0 and known and marks[4 * cell + came] == 1:
            slot = came  # a new passage led somewhere known: it closed a loop
        else:
            slot = _pick(bits, marks, 4 * cell, 0)
            if slot < 0:
                slot = _pick(bits, marks, 4 * cell, 1)
            if slot < 0:
                return walk[:k], (EXHAUSTED if k > 1 else STUCK), marks
        nb = through(cols, cell, slot)
        came = OPPOSITE[slot]
        marks[4 * cell + slot] += 1
        marks[4 * nb + came] += 1
        known = seen[nb] == 1
        seen[nb] = 1
        cell = nb
        walk[k] = cell
        k += 1
    return walk[:k], GOAL, marks


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
    walk, stopped, marks = _tremaux(p, maze.grid.cols, a, b)
    path = _marked_path(p, marks, maze.grid.cols, a, b) if stopped == GOAL else None
    return walk_solution("tremaux", maze, start, goal, walk, stopped, path)
