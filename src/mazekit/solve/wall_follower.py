"""Wall follower: keep one hand on the wall and walk until the goal turns up.

1. Stand on the start with your back to a wall: the start's first side, counter-clockwise
   from slot 0 (N, W, S, E on a rectangle), that has no neighbouring cell (where the entrance
   gap is drawn), or, inside the maze, its first closed side in that order (facing slot 0 if
   every side is open).
2. At every cell take the first open side turning from the way you came in towards your hand
   (clockwise from it for the left hand): the sharpest turn towards the hand, else straight
   on, else away from the hand, else back (a dead end). Stop on the goal.
3. The walk is periodic: if you arrive at a cell by the same side as before, you are going
   round in circles and the goal is not on your wall, so stop with "not found".

The hand starts on the wall behind you and stays on that wall (that connected piece of wall)
for good, visiting exactly the cells that touch it. So the walk is guaranteed to reach the
goal when the goal touches the same wall: always in a perfect maze (a spanning tree has one
connected wall, and the walk goes round the whole tree, each passage once each way), and on
a flat grid in any maze when start and goal both lie on the outer edge of the grid (the hand
starts on the outer wall, which every edge cell touches; on a mask with holes, a hole's wall
is an island). Otherwise nothing is promised: a goal on an island, a part of the maze whose
walls are not joined to the outer wall (a braid maze's centre), is never reached from the
outer wall, and a walker started on an island or in the middle of an open room circles it
for ever. The walk never takes more than ``slots * cells`` steps.

Every grid: turning uses the slot order of :mod:`~mazekit.solve._walk` (clockwise as
drawn; 3d stairs come after W, weave tunnels right after the passage beside them). Going
round a tree works with any order, so perfect mazes are solved on 3d and weave grids too;
the edge-to-edge promise needs a flat grid.

The path returned is the walk with its loops erased: a simple path from start to goal (in a
perfect maze, the only one). ``solution.extras["walk"]`` holds every cell stepped on, in
order; ``extras["stopped"]`` says why the walk ended (``"goal"``, ``"loop"``, or ``"stuck"``
when the start has no open passage). The trace has a ``VISIT`` per step, so cells repeat in
``solution.explored``, and a ``BACKTRACK`` wherever the walker turned back. Reference:
W. D. Pullen, *Think Labyrinth: Maze Algorithms* ("Wall follower").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grids import Cell
from ..grids import kernel as k
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends
from ._walk import GOAL, LOOP, STUCK, hand_rule, hand_sign, start_back, walk_solution

#: Peak memory in bytes per cell, checked by the solve front door before it runs (measured
#: on 600x600 rect mazes: 62 on a perfect one, where the hand walks every passage twice).
BYTES_PER_CELL = 80

SHORTEST = False  # the only path in a perfect maze, but not the shortest with loops
SOLVES_PERFECT = True  # one connected wall: the walk goes round the whole tree
SOLVES_LOOPS = False  # only when start and goal both touch the outer wall
SOLVES_ISLAND = False  # a goal on an island is never reached


@njit(cache=True, nogil=True)
def _wall_follower(passages, geo, start, goal, back, d):  # pragma: no cover - compiled
    n = passages.shape[0]
    slots = k.n_slots(geo[0])
    seen = np.zeros(slots * n, dtype=np.uint8)  # (cell, side come in by) already walked
    walk = np.empty(slots * n + 2, dtype=np.int64)
    walk[0] = start
    m = 1
    cell = start
    while cell != goal:
        state = slots * cell + back
        if seen[state]:
            return walk[:m], LOOP
        seen[state] = 1
        slot = hand_rule(geo, passages[cell], cell, back, d)
        if slot < 0:
            return walk[:m], STUCK
        back = k.back(geo, cell, slot)
        cell = k.through(geo, cell, slot)
        walk[m] = cell
        m += 1
    return walk[:m], GOAL


def wall_follower(maze: Maze, start: Cell, goal: Cell, *, hand: str = "left") -> Solution:
    """Walk with one hand on the wall; "not found" once the walk goes round in circles.

    Parameters
    ----------
    hand : {"left", "right"}
        The hand kept on the wall.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.wall_follower import wall_follower
    >>> m = mazekit.generate("kruskal", (6, 6), rng=3)
    >>> s = wall_follower(m, m.start, m.goal, hand="right")
    >>> s.found, s.extras["stopped"], len(s.extras["walk"]) >= len(s.path)
    (True, 'goal', True)
    """
    d = -hand_sign(hand)  # the left hand turns clockwise from the way in
    a, b = flat_ends(maze, start, goal)
    back = start_back(maze, start)
    walk, stopped = _wall_follower(maze.passages.ravel(), maze.grid.geo, a, b, back, d)
    return walk_solution("wall_follower", maze, start, goal, walk, stopped)
