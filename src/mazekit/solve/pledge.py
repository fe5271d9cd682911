"""Pledge algorithm: head one way; round an obstacle hand on wall, counting the turns.

1. Choose a preferred direction and set the turn count to zero.
2. Walk straight in that direction until a wall blocks the way.
3. Turn away from your hand to put it on that wall (count -1) and follow the wall as the
   wall follower does, counting +1 for each quarter turn towards the hand, -1 for each away
   from it and -2 for turning back at a dead end.
4. When the count is back to zero (you face the preferred direction again, having unwound
   every turn), let go of the wall and go to step 2. Stop on the goal.

On other flat grids the count is the angle turned, in the units of
:func:`~mazekit.solve._walk.heading` (sixths of a turn on hex and triangle grids, eighths on
upsilon, a quarter of the outer ring's cell on polar, where walking round a ring turns you
too). A turn that sweeps past the preferred direction (a sharp turn towards the hand, on a
grid with more than four sides) lets go of the wall there; where no side of a cell faces
exactly the preferred direction (half the triangles, most polar cells) the way straight on
counts as blocked. Pledge needs the plane: on 3d, weave and wrapped grids it raises
``ValueError`` (walking straight round a cylinder or through a tunnel never unwinds).

Jon Pledge's algorithm is the wall follower that can jump between islands: started
anywhere inside a two-dimensional maze, even on an island, it always reaches an exit on the
outer edge, where the wall follower would circle its island for ever. Pullen's *Think
Labyrinth* is careful about what it cannot do: the reverse, finding a goal inside the maze
from the outside, because it need not visit every passage. Here that reads: from any
start, it is guaranteed to reach a goal that touches the outer wall or any wall joined to
it -- a goal on the edge of the grid, or anywhere in a perfect maze (whose walls are all
joined). The reason: it cannot cycle through a spell of walking straight (Pledge's theorem),
so failing that it ends up going round the outer wall for good, and one round passes every
cell that touches it. It is not guaranteed when every wall the goal touches is an island (a
braid maze's centre, the middle of an open room): it may cross such a goal in passing, but
it may also go round the outer wall for ever without coming near it. In a braid maze that
is often half the cells, so mazes with loops are not promised in general (``SOLVES_LOOPS``
is False), only from any start to such a goal.

The walk is bounded: leaving a wall always happens with count zero facing the preferred
way, so arriving somewhere a second time with count zero means a cycle; while following a
wall the walk is periodic, and arriving where it was in the same spell with a count no
higher means the count is falling each round, so it will never let go. Either way the
answer is "not found" (``extras["stopped"] == "loop"``). A count below two turns a cell
(``-(8 * cells + 8)`` on a rectangle) also stops the walk (``"limit"``), as a guard: it
cannot happen.

The path returned is the walk with its loops erased: a simple path from start to goal (the
only one in a perfect maze, not the shortest with loops). ``solution.extras["walk"]`` holds
every cell stepped on, in order; ``extras["stopped"]`` is ``"goal"``, ``"loop"``,
``"limit"`` or ``"stuck"`` (a start with no open passage). The trace has a ``VISIT`` per
step, so cells repeat in ``solution.explored``, and a ``BACKTRACK`` wherever the walker
turned back. References: H. Abelson and A. diSessa, *Turtle Geometry* (1980);
W. D. Pullen, *Think Labyrinth: Maze Algorithms* ("Pledge algorithm").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grids import Cell
from ..grids import kernel as k
from ..grids.kernel import full_turn, heading
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends
from ._walk import (
    GOAL,
    LIMIT,
    LOOP,
    STUCK,
    aim,
    grow,
    hand_rule,
    hand_sign,
    require_flat,
    turn,
    walk_solution,
)

#: Peak memory in bytes per cell besides the path (the front door adds that), checked before
#: it runs (measured on 600x600 mazes of every grid, perfect, braided and unicursal: up to 115,
#: on upsilon's 8 slots).
BYTES_PER_CELL = 128

SHORTEST = False
SOLVES_PERFECT = True  # all walls of a perfect maze are joined to the outer wall
SOLVES_LOOPS = False  # only goals touching the outer wall's walls (from any start); in a braid
# maze many cells touch only islands
SOLVES_ISLAND = False  # it escapes to the outer wall; it cannot home in on an island
FLAT_ONLY = True  # the turn count needs the plane: no 3d, weave or wrapped grids


@njit(cache=True, inline="always")
def _in_line(geo, cell, back, slot, d):  # pragma: no cover - compiled
    """Whether ``slot`` comes right after ``back`` turning ``d`` with every slot from one to
    the other facing the same way: walls in a line (the two bricks above a brick), so
    leaving by ``slot`` sweeps nothing, where coming round to it the other way is a whole turn."""
    h = heading(geo, cell, back)
    t = turn(geo, cell, back, d)
    while t != back and heading(geo, cell, t) == h:
        if t == slot:
            return True
        t = turn(geo, cell, t, d)
    return False


@njit(cache=True, inline="always")
def _grab(geo, bits, cell, want, s, full):  # pragma: no cover - compiled
    """Blocked facing ``want``: the first open slot turning away from the hand, and the
    count that leaves (minus the angle turned); ``(-1, 0)`` if no slot is open."""
    best, arg = full + 1, -1
    for slot in range(k.n_slots(geo[0])):
        if bits >> slot & 1:
            sweep = (-s * (heading(geo, cell, slot) - want)) % full
            if sweep == 0 and not k.shared_headings(geo[0]):  # (else the other slot that way: straight on)
                sweep = full
            # slots facing the same way (a table grid's walls in a line) come in turn order:
            # turning counter-clockwise (the right hand on the wall), the last one first
            if sweep < best or (sweep == best and s > 0 and k.shared_headings(geo[0])):
                best, arg = sweep, slot
    return arg, -best


@njit(cache=True, nogil=True)
def _pledge(passages, geo, start, goal, want, s, cap):  # pragma: no cover - compiled
    n = passages.shape[0]
    slots = k.n_slots(geo[0])
    full = full_turn(geo)
    free = np.zeros(n, dtype=np.uint8)  # cells where the count was zero
    spell = np.zeros(slots * n, dtype=np.int64)  # the wall-following spell that last saw a state
    count_at = np.zeros(slots * n, dtype=np.int64)  # and the count it had then
    walk = np.empty(2 * n + 2, dtype=np.int64)
    walk[0] = start
    m = 1
    cell, back, count, spells = start, -1, 0, 0
    free[start] = 1
    while cell != goal:
        bits = passages[cell]
        if count == 0:
            slot = aim(geo, cell, want)
            if slot < 0 or not bits >> slot & 1:  # blocked: turn away from the hand onto the wall
                slot, count = _grab(geo, bits, cell, want, s, full)
                spells += 1
                if slot < 0:
                    return walk[:m], STUCK
        else:
            slot = hand_rule(geo, bits, cell, back, -s)
            sweep = (-s * (heading(geo, cell, slot) - heading(geo, cell, back))) % full
            if sweep == 0 and not (k.shared_headings(geo[0]) and _in_line(geo, cell, back, slot, -s)):
                sweep = full  # the way back: a whole sweep round
            turned = count + full // 2 - sweep
            if turned > 0:  # swept past the preferred direction: let go of the wall here
                if free[cell]:
                    return walk[:m], LOOP
                free[cell] = 1
                count = 0
                continue
            count = turned
        back = k.back(geo, cell, slot)
        cell = k.through(geo, cell, slot)
        walk = grow(walk, m)
        walk[m] = cell
        m += 1
        if count == 0:
            if free[cell]:
                return walk[:m], LOOP
            free[cell] = 1
        else:
            state = slots * cell + back
            if spell[state] == spells and count <= count_at[state]:
                return walk[:m], LOOP
            spell[state], count_at[state] = spells, count
            if count < -cap:
                return walk[:m], LIMIT
    return walk[:m], GOAL


def pledge(maze: Maze, start: Cell, goal: Cell, *, direction: str = "N", hand: str = "left") -> Solution:
    """Head ``direction``, going round each obstacle with ``hand`` on it until unwound.

    Parameters
    ----------
    direction : str
        The preferred direction: ``N``, ``E``, ``S``, ``W`` on rect and polar grids;
        ``N``, ``NE``, ``SE``, ``S``, ``SW``, ``NW`` on hex and triangle grids; those eight
        on upsilon grids (on any grid: :meth:`~mazekit.grids.Grid.directions`).
    hand : {"left", "right"}
        The hand kept on the wall while going round an obstacle.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.pledge import pledge
    >>> m = mazekit.generate("prim", (8, 8), rng=1)
    >>> s = pledge(m, (4, 4), (0, 7), direction="E")
    >>> s.found, s.length == mazekit.solve(m, "bfs", start=(4, 4), goal=(0, 7)).length
    (True, True)
    """
    require_flat(maze.grid, "pledge")
    names = maze.grid.directions()
    d = direction.upper() if isinstance(direction, str) else direction
    if d not in names:
        raise ValueError(f"direction must be one of {', '.join(map(repr, names))}, got {direction!r}")
    s = hand_sign(hand)
    a, b = flat_ends(maze, start, goal)
    geo = maze.grid.geo
    full = int(full_turn(geo))
    want = names.index(d) * full // len(names)
    cap = 2 * full * (maze.grid.size + 1)
    walk, stopped = _pledge(maze.passages.ravel(), geo, a, b, want, s, cap)
    return walk_solution("pledge", maze, start, goal, walk, stopped)
