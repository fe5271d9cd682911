"""Chain algorithm: follow a straight line to the goal; round each obstacle with two robots.

1. Draw the guiding line: a staircase of cells from the start to the goal, each a step
   nearer the goal, hugging the straight segment between them (walls are ignored). On
   other grids than the rectangle: a shortest route through the grid, at each step the
   neighbour a step nearer whose centre lies nearest the segment.
2. Walk the line while the passage to its next cell is open.
3. When a wall blocks it, send two wall-following robots from here along that wall, one
   keeping it on its right hand, one on its left, a step each in turn. The first robot to
   stand on the line at a cell *farther along it* wins: walk its route there, go to 2.
4. A robot that comes back to where and how it set off has been all the way round; if
   both do, no cell farther along the line can be reached, nor the goal.

Pullen says it always finds a path when there is one; this holds on any flat (planar)
maze: a rectangle or a mask of one, a hex, triangle, polar or upsilon grid; the tests check
it against BFS on mazes with loops, islands and cut-off parts. Why: the two robots trace the
whole border between the start's part of the maze and the walls joined to the one they hit.
If the goal can be reached it lies in the start's part, so where the line last crosses those
walls (or what they enclose) it lands in a cell of the start's part on that border: a robot
stands on the line there, if not sooner. It is the grid form of the Bug2 rule for robots
(Lumelsky and Stepanov, 1987). Nothing in it needs the line to be straight, only a fixed
route of cells, and robots that turn round each cell in the order its sides are drawn (see
:mod:`~mazekit.solve._walk`). Each round takes at most one lap of a border (a step per side
of each cell) and moves the walker strictly along the line, so it always ends. On 3d, weave
and wrapped grids the argument fails (a robot can go under the line or round the back of the
grid), so they are refused with a ``ValueError``.

The walker's route is made a simple path by cutting out every loop it closes (a robot's
trip up a dead end and back, for one): on a perfect maze that leaves the one path. With
loops it is a short path, not necessarily the shortest. Solves mazes whose goal is on an
island, unlike a plain wall follower. The trace has a ``VISIT`` the first time any cell is
reached, ``arg`` saying by whom: -1 the walker on the line, 0 the right-hand robot, 1 the
left-hand one. Reference: W. D. Pullen, *Think Labyrinth: Maze Algorithms* ("chain
algorithm").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grids import Cell, Grid
from ..grids import kernel as k
from ..maze import Maze
from ..solution import Solution
from ..trace import VISIT, record
from ._common import flat_ends, solution
from ._walk import hand_rule, require_flat, turn

#: Peak memory in bytes per cell besides the path (the front door adds that), checked before
#: it runs (measured on 600x600 rect mazes, perfect, braided and unicursal: up to 24). Other
#: grids also hold every cell's middle for the line: see :func:`bytes_per_cell`.
BYTES_PER_CELL = 28


def bytes_per_cell(grid: Grid) -> int:
    """Peak bytes per cell on ``grid``: a rectangle's line is arithmetic; on other grids each
    cell's middle is laid out first (measured up to 49 on a polar grid)."""
    return BYTES_PER_CELL if grid.kind == "rect" else 64


SHORTEST = False  # the line and the robots' detours, with loops cut out: short, not shortest
SOLVES_PERFECT = True
SOLVES_LOOPS = True
SOLVES_ISLAND = True  # it always finds a path when there is one (module notes)
FLAT_ONLY = True  # the robots' argument needs the plane: no 3d, weave or wrapped grids


@njit(cache=True, nogil=True)
def _line(cols, start, goal):  # pragma: no cover - compiled
    """The guiding line on a rectangle: flat cells from start to goal, each step toward the
    goal, choosing at each step the cell nearer the straight segment."""
    sr, sc = start // cols, start % cols
    gr, gc = goal // cols, goal % cols
    dr, dc = gr - sr, gc - sc
    vr = 1 if dr > 0 else -1
    vc = 1 if dc > 0 else -1
    out = np.empty(abs(dr) + abs(dc) + 1, dtype=np.int64)
    out[0] = start
    r, c = sr, sc
    for i in range(1, out.shape[0]):
        off_r = abs((r + vr - sr) * dc - (c - sc) * dr)  # how far each candidate strays
        off_c = abs((r - sr) * dc - (c + vc - sc) * dr)
        if c == gc or (r != gr and off_r <= off_c):
            r += vr
        else:
            c += vc
        out[i] = r * cols + c
    return out


@njit(cache=True, nogil=True)
def _grid_line(geo, start, goal, x, y):  # pragma: no cover - compiled
    """The guiding line on any grid: a shortest route through the grid graph (walls and mask
    ignored), each step to the neighbour nearer the goal whose centre ``(x, y)`` strays least
    from the segment start-goal."""
    n = geo[1] * geo[2]
    slots = k.n_slots(geo[0])
    dist = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    dist[goal] = 0
    queue[0] = goal
    head, tail = 0, 1
    while head < tail and dist[start] < 0:
        cell = queue[head]
        head += 1
        for slot in range(slots):
            nb = k.step(geo, cell, slot)
            if nb >= 0 and dist[nb] < 0:
                dist[nb] = dist[cell] + 1
                queue[tail] = nb
                tail += 1
    out = np.empty(dist[start] + 1, dtype=np.int64)
    out[0] = start
    ax, ay = x[start], y[start]
    dx, dy = x[goal] - ax, y[goal] - ay
    cell = start
    for i in range(1, out.shape[0]):
        best, nxt = np.inf, -1
        for slot in range(slots):
            nb = k.step(geo, cell, slot)
            if nb >= 0 and dist[nb] == dist[cell] - 1:
                off = abs((x[nb] - ax) * dy - (y[nb] - ay) * dx)
                if off < best:
                    best, nxt = off, nb
        cell = nxt
        out[i] = cell
    return out


@njit(cache=True, nogil=True)
def _step(geo, bits, cell, back, hand):  # pragma: no cover - compiled
    """One wall-follower step from ``cell`` (open slots ``bits``): the sharpest turn to the
    ``hand`` side (+1 right, -1 left) from the way in (slot ``back``), else straight, else
    the other way, else back. Returns the new cell and the slot it was entered by."""
    slot = hand_rule(geo, bits, cell, back, -hand)
    if slot < 0:
        return cell, back
    return k.through(geo, cell, slot), k.back(geo, cell, slot)


@njit(cache=True, inline="always")
def _add(path, pos, m, cell):  # pragma: no cover - compiled
    """Append ``cell`` to ``path[:m]``, cutting out the loop if it is already there."""
    if pos[cell] >= 0:
        for j in range(pos[cell] + 1, m):
            pos[path[j]] = -1
        return pos[cell] + 1
    path[m] = cell
    pos[cell] = m
    return m + 1


@njit(cache=True, nogil=True)
def _robots(passages, geo, along, i, cell, wall, seen, trace, t):  # pragma: no cover - compiled
    """Race the right- and left-hand robots from ``cell`` (line index ``i``, blocked through
    slot ``wall``) to the line beyond ``i``. Returns ``(hand, steps, t)``; hand 0: both lapped."""
    if passages[cell] == 0:
        return 0, 0, t
    # each robot starts as if it came in by the side next to the wall, the wall at its hand
    rc, rb = _step(geo, passages[cell], cell, turn(geo, cell, wall, 1), 1)
    lc, lb = _step(geo, passages[cell], cell, turn(geo, cell, wall, -1), -1)
    r0, l0 = (rc, rb), (lc, lb)  # on the lap: the pre-step state was only a pose
    r_on = l_on = True
    steps = 1
    lap = k.n_slots(geo[0]) * passages.shape[0]  # a lap walks each side of a cell at most once
    while (r_on or l_on) and steps <= lap:
        for hand, c, on in ((1, rc, r_on), (-1, lc, l_on)):
            if on and seen[c] == 0:
                seen[c] = 1
                t = record(trace, t, c, VISIT, 0 if hand == 1 else 1)
            if on and along[c] > i:
                return hand, steps, t
        rc, rb = _step(geo, passages[rc], rc, rb, 1)
        lc, lb = _step(geo, passages[lc], lc, lb, -1)
        steps += 1
        r_on = r_on and (rc, rb) != r0
        l_on = l_on and (lc, lb) != l0
    return 0, steps, t


@njit(cache=True, nogil=True)
def _chain(passages, geo, line, trace):  # pragma: no cover - compiled
    n = passages.shape[0]
    start = line[0]
    along = np.full(n, -1, dtype=np.int64)
    along[line] = np.arange(line.shape[0])
    seen = np.zeros(n, dtype=np.uint8)
    path = np.empty(n, dtype=np.int64)
    pos = np.full(n, -1, dtype=np.int64)
    seen[start] = 1
    t = record(trace, 0, start, VISIT, -1)
    m = _add(path, pos, 0, start)
    cell, i = start, 0
    while i < line.shape[0] - 1:
        nxt = line[i + 1]
        wall = 0
        while k.step(geo, cell, wall) != nxt:  # the line's cells are grid neighbours
            wall += 1
        if passages[cell] >> wall & 1:
            cell, i = nxt, i + 1
            m = _add(path, pos, m, cell)
            if seen[cell] == 0:
                seen[cell] = 1
                t = record(trace, t, cell, VISIT, -1)
            continue
        hand, steps, t = _robots(passages, geo, along, i, cell, wall, seen, trace, t)
        if hand == 0:
            return np.empty(0, dtype=np.int64), t
        back = turn(geo, cell, wall, hand)
        for _ in range(steps):
            cell, back = _step(geo, passages[cell], cell, back, hand)
            m = _add(path, pos, m, cell)
        i = along[cell]
    return path[:m].copy(), t


def chain(maze: Maze, start: Cell, goal: Cell) -> Solution:
    """A path by Pullen's chain algorithm: a guiding line and wall-following robots.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.chain import chain
    >>> m = mazekit.generate("kruskal", (12, 12), rng=6)
    >>> s = chain(m, m.start, m.goal)
    >>> s.found, s.length == mazekit.solve(m, "bfs").length  # a perfect maze: the one path
    (True, True)
    """
    grid = maze.grid
    require_flat(grid, "chain")
    s, g = flat_ends(maze, start, goal)
    if grid.kind == "rect":
        line = _line(grid.cols, s, g)
    else:
        x, y = grid.plane_points()[0].T  # each cell's middle, by formula (not from its outline)
        line = _grid_line(grid.geo, s, g, np.ascontiguousarray(x), np.ascontiguousarray(y))
    trace = np.zeros((grid.size, 3), dtype=np.int32)  # one VISIT per cell, when first reached
    path, used = _chain(maze.passages.ravel(), grid.geo, line, trace)
    return solution("chain", maze, start, goal, path, trace[:used].copy())
