"""All shortest paths: the breadth-first DAG from the start, counted and enumerated.

1. Breadth-first search from the start until the goal leaves the queue: every cell up to
   the goal's distance ``D`` gets its distance. A passage from distance ``k`` to ``k + 1``
   is a step some shortest path from the start may take: these passages form a DAG.
2. Walking the cells from far to near, mark a cell *on a shortest path* if it is the goal
   or one of its DAG steps leads to a marked cell.
3. Count the paths near to far: a marked cell's count is the sum over its marked DAG
   predecessors (the start counts 1). The goal's count is the number of shortest paths.
4. List the paths depth-first through the marked cells, in slot order (N, E, S, W on a
   rectangle),
   up to ``limit``. Every marked cell leads on to the goal, so no branch is wasted: each
   path costs ``D`` steps.

Solves any maze on any grid; every path listed is shortest and no two are alike. The number of paths
grows exponentially with open ground (an open ``a`` x ``b`` room has ``C(a+b-2, a-1)``
corner to corner): it is exact as an ``int`` below ``2**53`` and a ``float`` above (``inf``
past about ``1.8e308``). Reference: the path-counting recurrence on a BFS DAG, e.g.
Cormen et al., *Introduction to Algorithms*, exercise 22.4-2.
"""

from __future__ import annotations

import numpy as np

from .._limits import available
from .._memory import _human
from ..grids import Cell
from ..kernels.shortest import as_count, enumerate_paths, shortest_dag
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends, solution, visits

#: Peak memory in bytes per cell (the shortest-path DAG and its path counts), checked by the
#: solve front door before it runs (measured: 167-179); the listed paths are bounded by ``limit``.
BYTES_PER_CELL = 200

SHORTEST = True  # every path it returns is a shortest one
SOLVES_PERFECT = True
SOLVES_LOOPS = True
SOLVES_ISLAND = True  # a search from the start reaches every reachable cell


def _rowcol(maze: Maze, flat: np.ndarray) -> np.ndarray:
    """``(k, 2)`` array of ``(row, col)`` for flat cell indices."""
    cols = maze.grid.cols
    return np.stack([flat // cols, flat % cols], axis=1)


#: Memory a listed path costs per cell (the enumeration's int64 row and the path's ``(row,
#: col)`` pairs) and per path (a numpy array's header in the list).
BYTES_PER_PATH_CELL = 24
BYTES_PER_PATH = 112


def shortest_paths(maze: Maze, start: Cell, goal: Cell, *, limit: int = 1000) -> Solution:
    """Every shortest path (up to ``limit``), and how many there are.

    Parameters
    ----------
    limit : int
        Most paths to list (at least 1). Memory is ``min(limit, paths)`` times the path
        length times 24 bytes: a limit whose paths would not fit in the memory there is is
        refused, saying the most that fits.

    Returns
    -------
    Solution
        ``path`` is the first path listed. ``extras["paths"]``: list of ``(k, 2)`` arrays,
        ``min(limit, n_paths)`` distinct shortest paths; ``extras["n_paths"]``: the number
        of shortest paths (0 if the goal cannot be reached; see the module notes on size).

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.shortest_paths import shortest_paths
    >>> m = mazekit.generate("prim", (3, 3), rng=0)
    >>> room = m.replace(passages=mazekit.trace.open_room(m.grid))
    >>> s = shortest_paths(room, (0, 0), (2, 2))
    >>> s.extras["n_paths"], len(s.extras["paths"]), s.length
    (6, 6, 4)
    >>> shortest_paths(room, (0, 0), (2, 2), limit=2).extras["n_paths"]
    6
    """
    if isinstance(limit, bool) or not isinstance(limit, (int, np.integer)) or limit < 1:
        raise ValueError(f"limit must be a positive integer, got {limit!r}")
    s, g = flat_ends(maze, start, goal)
    passages, geo = maze.passages.ravel(), maze.grid.geo
    order, dist, on, count = shortest_dag(passages, geo, s, g)
    n_paths = as_count(count)
    rows = int(min(limit, n_paths))
    cells = int(dist[g]) + 1
    have, per_path = available(), BYTES_PER_PATH_CELL * cells + BYTES_PER_PATH
    if rows * per_path > have:
        raise ValueError(
            f"limit must be at most {have // per_path:,} here, got {limit}: listing {rows:,} of the"
            f" {n_paths:,} shortest paths of {cells:,} cells each needs about {_human(rows * per_path)}"
            f" of memory, but only {_human(have)} is available"
        )
    flat = enumerate_paths(passages, geo, dist, on, s, g, rows) if rows else np.empty((0, 0), np.int64)
    path = flat[0] if rows else np.empty(0, np.int64)
    out = solution("shortest_paths", maze, start, goal, path, visits(order))
    out.extras["paths"] = [_rowcol(maze, row) for row in flat]
    out.extras["n_paths"] = n_paths
    return out
