"""Random mouse: wander at random, never turning back except at a dead end.

1. Leave the start by a passage chosen at random.
2. At every cell choose at random among the open passages other than the one you came
   along; at a dead end, where there is no other, turn back.
3. Stop on the goal, or with "not found" after ``max_steps`` steps.

No memory, no guarantee: the mouse finds any reachable goal with probability that tends to
one as the step limit grows, but any finite limit can run out, and it usually takes far
more steps than the maze has cells (on a long corridor-rich perfect maze, many times more).
The same seed gives the same walk, on every grid. The path returned is the walk with its loops erased in
the order they were closed: a simple path from start to goal (the only one in a perfect
maze; with loops, a random one of the simple paths, not a shortest).

``solution.extras["walk"]`` holds every cell stepped on, in order; ``extras["stopped"]`` is
``"goal"``, ``"limit"`` or ``"stuck"`` (a start with no open passage); ``extras["seed"]``
reproduces the walk (None when a Generator was passed). The trace has a ``VISIT`` per step,
so cells repeat in ``solution.explored``, and a ``BACKTRACK`` at each dead end. The walk
and its trace cost about 40 bytes a step. Reference: W. D. Pullen, *Think Labyrinth: Maze
Algorithms* ("Random mouse").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._limits import available, check_count
from .._memory import _human
from .._rng import RngLike, as_rng
from ..grids import Cell
from ..grids import kernel as k
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends
from ._walk import GOAL, LIMIT, STUCK, grow, walk_solution

#: Peak memory in bytes per cell, checked by the solve front door before it runs (measured:
#: under 1); the walk's 40 bytes a step are bounded through ``max_steps``.
BYTES_PER_CELL = 8

SHORTEST = False
SOLVES_PERFECT = False  # probabilistic: any step limit can run out
SOLVES_LOOPS = False
SOLVES_ISLAND = False

STEPS_PER_CELL = 100  # the default step limit, per cell of the grid...
DEFAULT_MOST = 1 << 24  # ...but at most this many (a walk of about 670 MB)
#: Peak memory a step of the walk costs: the walk (grown by doubling), its trace and the
#: cells it passes (measured: 37 bytes).
BYTES_PER_STEP = 40


@njit(cache=True, nogil=True)
def _random_mouse(passages, geo, start, goal, max_steps, rng):  # pragma: no cover - compiled
    slots = k.n_slots(geo[0])
    walk = np.empty(min(max_steps, slots * passages.shape[0]) + 1, dtype=np.int64)
    walk[0] = start
    ways = np.empty(slots, dtype=np.int64)
    i = 1
    cell, came = start, -1
    while cell != goal:
        if i > max_steps:
            return walk[:i], LIMIT
        bits = passages[cell]
        m = 0
        for slot in range(slots):
            if slot != came and bits >> slot & 1:
                ways[m] = slot
                m += 1
        if m == 0:
            if came < 0:
                return walk[:i], STUCK
            slot = came  # a dead end: the only way is back
        else:
            slot = ways[int(rng.random() * m)] if m > 1 else ways[0]
        came = k.back(geo, cell, slot)
        cell = k.through(geo, cell, slot)
        walk = grow(walk, i)
        walk[i] = cell
        i += 1
    return walk[:i], GOAL


def random_mouse(
    maze: Maze, start: Cell, goal: Cell, *, max_steps: int | None = None, rng: RngLike = None
) -> Solution:
    """Wander at random until the goal turns up or ``max_steps`` steps have been taken.

    Parameters
    ----------
    max_steps : int, optional
        Give up after this many steps; default ``100 * cells``, at most 16,777,216. A
        number whose walk would not fit in the memory there is (40 bytes a step) is
        refused, saying the most that fits.
    rng : int, numpy.random.Generator or None
        Seed or generator; the same seed gives the same walk.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.random_mouse import random_mouse
    >>> m = mazekit.generate("backtracker", (5, 5), rng=1)
    >>> s = random_mouse(m, m.start, m.goal, rng=7)
    >>> s.found, s.length == mazekit.solve(m, "bfs").length
    (True, True)
    >>> s == random_mouse(m, m.start, m.goal, rng=7)
    True
    >>> random_mouse(m, m.start, m.goal, max_steps=3, rng=7).extras["stopped"]
    'limit'
    """
    if max_steps is None:
        max_steps = min(STEPS_PER_CELL * maze.grid.n_cells, DEFAULT_MOST)
    have = available()
    why = f"{BYTES_PER_STEP} bytes a step; {_human(have)} of memory available"
    max_steps = check_count("max_steps", max_steps, have // BYTES_PER_STEP, why=why)
    gen, seed = as_rng(rng)
    a, b = flat_ends(maze, start, goal)
    walk, stopped = _random_mouse(maze.passages.ravel(), maze.grid.geo, a, b, int(max_steps), gen)
    sol = walk_solution("random_mouse", maze, start, goal, walk, stopped)
    sol.extras["seed"] = seed
    return sol
