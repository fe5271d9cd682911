"""Dead-end filling: wall off dead ends, again and again, until only the way through remains.

1. Put every dead end (a cell with one open passage) other than the start and the goal in a
   queue.
2. Take a cell from the queue; if it is still a dead end, close its passage. If that leaves
   the neighbour a dead end (and it is not the start or the goal), queue the neighbour.

What remains: on a perfect maze, exactly the solution path; on a maze with loops, every
passage that does not lead only into a dead end: the solution corridors, the loops, and the
corridors joining loops to each other and to the ends (a loop hanging off the path by a
corridor survives; see ``fill_cul_de_sacs`` for that). Filled cells stay on the grid with no
passages at all: they are isolated. Only closes walls, and never one on a shortest path, so
the start-goal distance is unchanged. The result does not depend on the order of filling, so
the op uses no randomness. Works on every grid. On a weave grid a filled corridor may run
over a tunnel that stays (it is on the way through): the tunnel then passes under a walled-off
cell, never under a passage along it. Reference: W. D. Pullen, *Think Labyrinth: Maze
Algorithms* ("dead end filler").
"""

from __future__ import annotations

import numpy as np

from .._memory import index_scratch
from ..kernels.fill import fill_dead_ends as fill
from ..maze import Maze
from ._common import Carved, done, start

CLOSES_ONLY = True
KEEPS_SHORTEST = True
USES_RNG = False
BYTES_PER_CELL = 5  # passages copy + int32 queue


def fill_dead_ends(
    maze: Maze, rng: np.random.Generator, *, keep_ends: bool = True, record: bool = False
) -> Carved:
    """Fill dead ends repeatedly until none is left but the start and the goal.

    Parameters
    ----------
    keep_ends : bool
        Never fill the start or the goal (the default). With False, every dead end goes:
        a perfect maze loses all its passages and a maze with loops keeps only its loops
        and the corridors between them.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("backtracker", (8, 8), rng=2)
    >>> out = fill_dead_ends(m, np.random.default_rng(0))
    >>> left = m.replace(passages=out.passages)
    >>> left.n_passages == mazekit.solve(m, "bfs").length
    True
    """
    passages, trace = start(maze, record, 2)
    if keep_ends:
        a, b = maze.grid.flat(maze.start), maze.grid.flat(maze.goal)
    else:
        a = b = -1
    used = fill(passages, maze.grid.geo, a, b, index_scratch(maze.grid), trace)
    return done(maze.grid, passages, trace, used)
