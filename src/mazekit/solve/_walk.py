"""What the walkers share: turning left and right on every grid, and what a walk returns.

The wall follower, Pledge, Trémaux, the random mouse and the chain algorithm's robots walk
from cell to cell. To keep a hand on the wall they need each cell's slots in clockwise
order (as drawn, y pointing down): :func:`turn` gives the next slot either way,
:func:`clockwise` all of them.

- rect: N E S W. hex: N NE SE S SW NW. upsilon: N NE E SE S SW W NW; its squares have only
  N E S W (the odd slots are skipped).
- triangle: W E base for a cell pointing up (``row + col`` even), base E W for one pointing
  down (the same three sides, seen from the other side of the base).
- polar: cw, in, ccw, out, out2 (going round the cell: its clockwise side, the inner arc, the
  counter-clockwise side, then the outer arc from its counter-clockwise half); out2 only
  where the ring outside has twice the cells.
- weave: a tunnel comes right after the passage beside it, N, under N, E, under E, ... (only
  one of the two can be open: a tunnel runs under a corridor that crosses it).
- 3d: N E S W up down. A stair has no direction on the level, so it goes where the cycle
  closes: a left-hand walker coming in from the west tries the stairs before turning north,
  a right-hand one coming in from the north tries them after turning west.

A walker's cyclic order is all a hand-on-the-wall walk needs: in a perfect maze (a tree) any
cyclic order makes it go round the whole tree, so the wall follower solves perfect mazes on
every grid. Guarantees that come from the plane (Pledge's turn count, the chain's robots
meeting the guiding line, the wall follower on two edge cells) need a flat grid whose slot
order is the drawing's: :func:`require_flat` refuses 3d, weave and wrapped grids for them.
Pledge also counts how far it has turned: :func:`~mazekit.grids.kernel.heading` is the
compass direction of each slot, in units of :func:`~mazekit.grids.kernel.full_turn` per turn
(named by :meth:`mazekit.grids.Grid.directions`); both are the grid kernels'.

Also here: why a walk stopped (:data:`STOPPED`), the walk's loop erasure and its
:class:`~mazekit.solution.Solution` (:func:`walk_solution`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grids import Cell, Grid, RectGrid, flat_kinds
from ..grids import kernel as k
from ..grids.kernel import heading, is_slot, turn
from ..maze import Maze
from ..solution import Solution
from ..trace import BACKTRACK, VISIT, record
from ._common import solution

# Why a walk ended: the codes the walker kernels return, and their names in extras["stopped"].
GOAL, LOOP, STUCK, LIMIT, EXHAUSTED = 0, 1, 2, 3, 4
STOPPED = ("goal", "loop", "stuck", "limit", "exhausted")
HANDS = {"left": -1, "right": 1}  # the hand's side: a left hand scans clockwise (-hand)


def hand_sign(hand: str) -> int:
    """``-1`` for the left hand, ``+1`` for the right (the hand's side in slot steps)."""
    if hand not in HANDS:
        raise ValueError(f"hand must be 'left' or 'right', got {hand!r}")
    return HANDS[hand]


def require_flat(grid: Grid, what: str) -> None:
    """``ValueError`` unless ``grid`` is flat (:attr:`mazekit.grids.Grid.is_flat`): ``what``
    needs the plane."""
    if not grid.is_flat:
        shape = f"wrapped ({grid.wrap}) rect" if isinstance(grid, RectGrid) else grid.kind
        kinds = ", ".join("rect without wrap" if kind == "rect" else kind for kind in flat_kinds())
        raise ValueError(f"{what} works on flat grids only ({kinds}), not on a {shape} grid")


# -- turning ------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
def clockwise(geo, cell, slot):  # pragma: no cover - compiled
    """The slots of ``cell`` in clockwise order, starting from ``slot``.

    Examples
    --------
    >>> from mazekit.grids import make_grid
    >>> clockwise(make_grid("triangle", (2, 2)).geo, 1, 0).tolist()  # (0, 1) points down
    [0, 2, 1]
    >>> clockwise(make_grid("upsilon", (3, 3)).geo, 1, 2).tolist()  # (0, 1) is a square
    [2, 4, 6, 0]
    """
    out = np.empty(k.MAX_SLOTS, dtype=np.int64)
    out[0] = slot
    m = 1
    s = turn(geo, cell, slot, 1)
    while s != slot:
        out[m] = s
        m += 1
        s = turn(geo, cell, s, 1)
    return out[:m].copy()


@njit(cache=True, nogil=True)
def hand_rule(geo, bits, cell, back, d):  # pragma: no cover - compiled
    """The first open slot from ``back`` (the way in) turning ``d`` (1 clockwise: left hand on
    the wall, -1: right hand), ``back`` itself last; -1 if the cell has no open passage."""
    slot = turn(geo, cell, back, d)
    while slot != back:
        if bits >> slot & 1:
            return slot
        slot = turn(geo, cell, slot, d)
    return back if bits >> back & 1 else -1


# -- directions (Pledge) --------------------------------------------------------------------


@njit(cache=True, nogil=True)
def aim(geo, cell, want):  # pragma: no cover - compiled
    """The slot of ``cell`` heading exactly ``want``, or -1 if none does."""
    for slot in range(k.n_slots(geo[0])):
        if is_slot(geo, cell, slot) and heading(geo, cell, slot) == want:
            return slot
    return -1


# -- starting and packaging a walk ------------------------------------------------------------


def start_back(maze: Maze, start: Cell) -> int:
    """The slot behind a walker on the start: its first side, counter-clockwise from slot 0
    (N W S E on a rectangle), with no cell beyond (where the entrance gap is drawn); else its
    first closed side in that order; else the side opposite slot 0 (facing slot 0)."""
    grid = maze.grid
    cw = clockwise(grid.geo, grid.flat(start), 0).tolist()
    ccw = cw[:1] + cw[:0:-1]
    for slot in ccw:
        if grid.neighbor(start, slot) is None:
            return int(slot)
    bits = int(maze.passages[start])
    for slot in ccw:
        if not bits >> slot & 1:
            return int(slot)
    return int(cw[len(cw) // 2])


@njit(cache=True, nogil=True)
def grow(buf, i):  # pragma: no cover - compiled
    """``buf``, or a copy twice as long if index ``i`` does not fit."""
    if i < buf.shape[0]:
        return buf
    out = np.empty(2 * buf.shape[0] + 16, dtype=buf.dtype)
    out[: buf.shape[0]] = buf
    return out


@njit(cache=True, nogil=True)
def loop_erase(walk, n):  # pragma: no cover - compiled
    """The walk with every loop erased in the order it was closed: a simple path."""
    pos = np.full(n, -1, dtype=np.int64)
    path = np.empty(min(walk.shape[0], n), dtype=np.int64)
    m = 0
    for i in range(walk.shape[0]):
        cell = walk[i]
        j = pos[cell]
        if j >= 0:
            for q in range(j + 1, m):
                pos[path[q]] = -1
            m = j + 1
        else:
            pos[cell] = m
            path[m] = cell
            m += 1
    return path[:m].copy()


@njit(cache=True, nogil=True)
def walk_trace(walk, cols):  # pragma: no cover - compiled
    """A ``VISIT`` per step and a ``BACKTRACK`` after each turn back (a step straight back
    to the previous cell), and the walk as ``(row, col)`` pairs."""
    m = walk.shape[0]
    backs = 0
    for i in range(1, m - 1):
        if walk[i + 1] == walk[i - 1]:
            backs += 1
    trace = np.empty((m + backs, 3), dtype=np.int32)
    cells = np.empty((m, 2), dtype=np.int64)
    t = 0
    for i in range(m):
        cell = walk[i]
        cells[i, 0] = cell // cols
        cells[i, 1] = cell % cols
        t = record(trace, t, cell, VISIT, -1)
        if 0 < i < m - 1 and walk[i + 1] == walk[i - 1]:
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
