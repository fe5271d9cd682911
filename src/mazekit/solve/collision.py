"""Collision solver ("amoeba"): flood from the start; where the waves collide, no shortest path runs.

1. Flood the maze from the start, every front advancing one cell per tick (breadth first),
   until the wave reaches the goal. Cells farther than the goal cannot be on a shortest
   path, so the flood stops there.
2. Where fronts collide (two waves running into each other from opposite ends of a loop)
   the wave cannot go on: a cell with no passage on to a cell the wave reached one tick
   later is on no shortest path, unless it is the goal. Knock it out, which may leave the
   cell before it with no way on: knock that out too, back to where the waves split.
3. What survives is exactly the union of all shortest paths. Count them by adding up, near
   to far, how many ways each surviving cell is reached, and follow one to the goal.

Pullen's description walls off each collision, fills the dead ends that makes and floods
again until nothing collides. A re-flood gives every surviving cell its old distance, so one
sweep from the far edge of the flood back to the start, knocking out every cell with no way
on, does all those rounds at once; that sweep is what runs here. (Waves meeting half way
along a passage, impossible on a square grid whose cells alternate like a chessboard's,
need nothing special: the sweep only goes on to cells one tick later, so that passage
drops out. They do meet so on grids with loops of odd length: hex, upsilon, polar,
weave.)

Solves any maze on any grid; the path is a shortest one. ``extras["on_shortest"]``: boolean
array of the maze's shape, the cells on some shortest path; ``extras["n_paths"]``: how many
shortest paths there are (an exact ``int`` below ``2**53``, a ``float`` above, see
:mod:`~mazekit.solve.shortest_paths`). The trace holds a ``VISIT`` per flooded cell, then
a ``BACKTRACK`` per knocked-out cell, far to near.
Reference: W. D. Pullen, *Think Labyrinth: Maze Algorithms* ("collision solver").
"""

from __future__ import annotations

import numpy as np

from .. import trace as tr
from ..grids import Cell
from ..kernels.shortest import as_count, enumerate_paths, shortest_dag
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends, solution, visits

#: Peak memory in bytes per cell, checked by the solve front door before it runs (measured
#: on 600x600 rect mazes, perfect and braided: 27-72).
BYTES_PER_CELL = 90

SHORTEST = True  # the survivors are the shortest paths
SOLVES_PERFECT = True
SOLVES_LOOPS = True
SOLVES_ISLAND = True  # the flood reaches every reachable cell


def collision(maze: Maze, start: Cell, goal: Cell) -> Solution:
    """A shortest path, every cell on any shortest path, and their number, by flooding.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.collision import collision
    >>> m = mazekit.generate("prim", (2, 3), rng=0)
    >>> room = m.replace(passages=mazekit.trace.open_room(m.grid))
    >>> s = collision(room, (0, 0), (1, 2))
    >>> s.extras["n_paths"], s.length, int(s.extras["on_shortest"].sum())
    (3, 3, 6)
    """
    s, g = flat_ends(maze, start, goal)
    passages, geo = maze.passages.ravel(), maze.grid.geo
    order, dist, on, count = shortest_dag(passages, geo, s, g)
    path = enumerate_paths(passages, geo, dist, on, s, g, 1)[0] if count else np.empty(0, np.int64)
    back = order[::-1][on[order[::-1]] == 0]
    knocked = visits(back)
    knocked[:, 1] = tr.BACKTRACK
    out = solution("collision", maze, start, goal, path, np.concatenate([visits(order), knocked]))
    out.extras["on_shortest"] = on.reshape(maze.shape).astype(bool)
    out.extras["n_paths"] = as_count(count)
    return out
