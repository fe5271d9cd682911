"""Wall follower: keep one hand on the wall and walk until the goal turns up.

1. Stand on the start with your back to a wall: the start's first side in the order N, W, S,
   E that has no neighbouring cell (where the entrance gap is drawn), or, inside the maze,
   its first closed side in that order (facing north if every side is open).
2. At every cell turn towards your hand if you can, else go straight, else turn away from
   your hand, else turn back (a dead end). Stop on the goal.
3. The walk is periodic: if you arrive at a cell facing the same way as before, you are
   going round in circles and the goal is not on your wall, so stop with "not found".

The hand starts on the wall behind you and stays on that wall (that connected piece of wall)
for good, visiting exactly the cells that touch it. So the walk is guaranteed to reach the
goal when the goal touches the same wall: always in a perfect maze (a spanning tree has one
connected wall, and the walk goes round the whole tree, each passage once each way), and in
any maze when start and goal both lie on the outer edge of the grid (the hand starts on the
outer wall, which every edge cell touches; on a mask with holes, a hole's wall is an island).
Otherwise nothing is promised: a goal on an island, a part of the maze whose walls are not
joined to the outer wall (a braid maze's centre), is never reached from the outer wall, and
a walker started on an island or in the middle of an open room circles it for ever. The walk
never takes more than ``4 * cells`` steps.

The path returned is the walk with its loops erased: a simple path from start to goal (in a
perfect maze, the only one). ``solution.extras["walk"]`` holds every cell stepped on, in
order; ``extras["stopped"]`` says why the walk ended (``"goal"``, ``"loop"``, or ``"stuck"``
when the start has no open passage). The trace has a ``VISIT`` per step, so cells repeat in
``solution.explored``, and a ``BACKTRACK`` wherever the walker turned back. Reference:
W. D. Pullen, *Think Labyrinth: Maze Algorithms* ("Wall follower").

The helpers at the bottom (:func:`hand_rule`, :func:`loop_erase`, :func:`walk_solution`)
are shared by the other walkers: ``pledge``, ``tremaux`` and ``random_mouse``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grid import OPPOSITE, Cell, through
from ..maze import Maze
from ..solution import Solution
from ..trace import BACKTRACK, VISIT, record
from ._common import flat_ends, solution

SHORTEST = False  # the only path in a perfect maze, but not the shortest with loops
SOLVES_PERFECT = True  # one connected wall: the walk goes round the whole tree
SOLVES_LOOPS = False  # only when start and goal both touch the outer wall
SOLVES_ISLAND = False  # a goal on an island is never reached

# Why a walk ended: the codes the walker kernels return, and their names in extras["stopped"].
GOAL, LOOP, STUCK, LIMIT, EXHAUSTED = 0, 1, 2, 3, 4
STOPPED = ("goal", "loop", "stuck", "limit", "exhausted")
HANDS = {"left": -1, "right": 1}  # slots N, E, S, W run clockwise: the hand's side is +1 / -1


def hand_sign(hand: str) -> int:
    """``-1`` for the left hand, ``+1`` for the right (the hand's side in slot steps)."""
    if hand not in HANDS:
        raise ValueError(f"hand must be 'left' or 'right', got {hand!r}")
    return HANDS[hand]


def start_heading(maze: Maze, start: Cell) -> int:
    """The slot the walker faces on the start: away from its first outward side in the order
    N, W, S, E, else away from its first closed side in that order, else north."""
    rows, cols = maze.grid.shape
    r, c = start
    bits = int(maze.passages[start])
    for slot, (dr, dc) in ((0, (-1, 0)), (3, (0, -1)), (2, (1, 0)), (1, (0, 1))):
        if not maze.grid.contains((r + dr, c + dc)):
            return int(OPPOSITE[slot])
    for slot in (0, 3, 2, 1):
        if not bits >> slot & 1:
            return int(OPPOSITE[slot])
    return 0


@njit(cache=True, inline="always")
def hand_rule(bits, heading, s):  # pragma: no cover - compiled
    """``(slot, turn)`` of the first open way: towards the hand (turn +1), straight (0), away
    from the hand (-1), back (-2). ``(-1, 0)`` if the cell has no open passage."""
    h = (heading + s) & 3
    if bits >> h & 1:
        return h, 1
    if bits >> heading & 1:
        return heading, 0
    h = (heading - s) & 3
    if bits >> h & 1:
        return h, -1
    h = (heading + 2) & 3
    if bits >> h & 1:
        return h, -2
    return -1, 0


@njit(cache=True)
def grow(buf, k):  # pragma: no cover - compiled
    """``buf``, or a copy twice as long if index ``k`` does not fit."""
    if k < buf.shape[0]:
        return buf
    out = np.empty(2 * buf.shape[0] + 16, dtype=buf.dtype)
    out[: buf.shape[0]] = buf
    return out


@njit(cache=True)
def loop_erase(walk, n):  # pragma: no cover - compiled
    """The walk with every loop erased in the order it was closed: a simple path."""
    pos = np.full(n, -1, dtype=np.int64)
    path = np.empty(min(walk.shape[0], n), dtype=np.int64)
    k = 0
    for i in range(walk.shape[0]):
        cell = walk[i]
        j = pos[cell]
        if j >= 0:
            for m in range(j + 1, k):
                pos[path[m]] = -1
            k = j + 1
        else:
            pos[cell] = k
            path[k] = cell
            k += 1
    return path[:k].copy()


@njit(cache=True)
def _wall_follower(passages, cols, start, goal, heading, s):  # pragma: no cover - compiled
    n = passages.shape[0]
    seen = np.zeros(4 * n, dtype=np.uint8)
    walk = np.empty(4 * n + 2, dtype=np.int64)
    walk[0] = start
    k = 1
    cell = start
    while cell != goal:
        state = 4 * cell + heading
        if seen[state]:
            return walk[:k], LOOP
        seen[state] = 1
        slot, _ = hand_rule(passages[cell], heading, s)
        if slot < 0:
            return walk[:k], STUCK
        cell = through(cols, cell, slot)
        heading = slot
        walk[k] = cell
        k += 1
    return walk[:k], GOAL


@njit(cache=True)
def walk_trace(walk, cols):  # pragma: no cover - compiled
    """A ``VISIT`` per step and a ``BACKTRACK`` after each turn back (a step straight back
    to the previous cell), and the walk as ``(row, col)`` pairs."""
    k = walk.shape[0]
    backs = 0
    for i in range(1, k - 1):
        if walk[i + 1] == walk[i - 1]:
            backs += 1
    trace = np.empty((k + backs, 3), dtype=np.int32)
    cells = np.empty((k, 2), dtype=np.int64)
    t = 0
    for i in range(k):
        cell = walk[i]
        cells[i, 0] = cell // cols
        cells[i, 1] = cell % cols
        t = record(trace, t, cell, VISIT, -1)
        if 0 < i < k - 1 and walk[i + 1] == walk[i - 1]:
            t = record(trace, t, cell, BACKTRACK, -1)
    return trace, cells


def walk_solution(
    name: str,
    maze: Maze,
    start: Cell,
    goal: Cell,
    walk: np.ndarray,
    stopped: int,
    path: np.ndarray | None = None,
) -> Solution:
    """A walker's :class:`Solution`: the loop-erased walk as the path (unless ``path`` is
    given), a ``VISIT`` per step and a ``BACKTRACK`` at each turn back, and the walk and
    why it stopped in ``extras``."""
    if stopped != GOAL:
        path = np.empty(0, dtype=np.int64)
    elif path is None:
        path = loop_erase(walk, maze.grid.size)
    trace, cells = walk_trace(walk, maze.grid.cols)
    sol = solution(name, maze, start, goal, path, trace)
    sol.extras["walk"] = cells
    sol.extras["stopped"] = STOPPED[stopped]
    return sol


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
    s = hand_sign(hand)
    a, b = flat_ends(maze, start, goal)
    heading = start_heading(maze, start)
    walk, stopped = _wall_follower(maze.passages.ravel(), maze.grid.cols, a, b, heading, s)
    return walk_solution("wall_follower", maze, start, goal, walk, stopped)
