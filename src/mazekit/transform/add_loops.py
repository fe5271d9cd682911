"""Add loops: open randomly chosen walls between existing cells.

1. List every closed wall between two cells that exist (each cell's east and south wall).
2. Open ``count`` of them, chosen uniformly without replacement (or ``fraction`` of them).

Unlike braiding, the walls are not aimed at dead ends, so dead ends mostly survive and the
new loops are spread evenly. Only opens walls, so a connected maze stays connected and each
opened wall adds one loop (a passage-less cell that gets a wall opened is joined on).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._memory import index_dtype
from ..maze import Maze
from ..trace import OPEN, record
from ._common import Carved, done, open_wall, start

OPENS_ONLY = True
BYTES_PER_CELL = 9  # passages copy + 2 int32 walls per cell

DEFAULT_FRACTION = 0.1


@njit(cache=True)
def _closed_walls(passages, rows, cols, mask, walls):  # pragma: no cover - compiled
    """Fill ``walls`` with ``cell * 2 + (0 east, 1 south)`` for closed inner walls; count them."""
    m = 0
    for cell in range(rows * cols):
        if mask.shape[0] != 0 and mask[cell] == 0:
            continue
        r = cell // cols
        c = cell - r * cols
        if c < cols - 1 and not passages[cell] >> 1 & 1 and (mask.shape[0] == 0 or mask[cell + 1]):
            walls[m] = cell * 2
            m += 1
        if r < rows - 1 and not passages[cell] >> 2 & 1 and (mask.shape[0] == 0 or mask[cell + cols]):
            walls[m] = cell * 2 + 1
            m += 1
    return m


@njit(cache=True)
def _add_loops(passages, rows, cols, mask, walls, count, fraction, rng, trace):  # pragma: no cover
    m = _closed_walls(passages, rows, cols, mask, walls)
    k = count if count >= 0 else int(np.floor(fraction * m + 0.5))
    k = min(k, m)
    t = 0
    for i in range(k):  # partial Fisher-Yates
        j = i + int(rng.random() * (m - i))
        wall = walls[j]
        walls[j] = walls[i]
        cell = wall >> 1
        slot = 1 + (wall & 1)
        open_wall(passages, cols, cell, slot)
        t = record(trace, t, cell, OPEN, slot)
    return t


def add_loops(
    maze: Maze,
    rng: np.random.Generator,
    *,
    count: int | None = None,
    fraction: float | None = None,
    record: bool = False,
) -> Carved:
    """Open ``count`` random closed walls, or ``fraction`` (0 to 1) of them.

    Give one of the two; with neither, 10% of the closed walls are opened. ``count`` larger
    than the number of closed walls opens them all.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("prim", (8, 8), rng=0)
    >>> out = add_loops(m, np.random.default_rng(0), count=5)
    >>> m.replace(passages=out.passages).n_passages - m.n_passages
    5
    """
    if count is not None and fraction is not None:
        raise ValueError("add_loops takes count or fraction, not both")
    if count is not None:
        if isinstance(count, bool) or int(count) != count or count < 0:
            raise ValueError(f"add_loops count must be a non-negative integer, got {count!r}")
        n, f = int(count), 0.0
    else:
        f = DEFAULT_FRACTION if fraction is None else float(fraction)
        if not 0.0 <= f <= 1.0:
            raise ValueError(f"add_loops fraction must be between 0 and 1, got {fraction}")
        n = -1
    passages, trace = start(maze, record, 2)
    walls = np.empty(2 * maze.grid.size, dtype=index_dtype(2 * maze.grid.size))
    used = _add_loops(passages, *maze.grid.kernel_args(), walls, n, f, rng, trace)
    return done(maze.grid, passages, trace, used)
