"""Add loops: open randomly chosen walls between existing cells.

1. List every closed wall between two cells that exist (each wall once, from its cell with
   the lower index).
2. Open ``count`` of them, chosen uniformly without replacement (or ``fraction`` of them).

Unlike braiding, the walls are not aimed at dead ends, so dead ends mostly survive and the
new loops are spread evenly. Only opens walls, so a connected maze stays connected and each
opened wall adds one loop (a passage-less cell that gets a wall opened is joined on). Works
on every grid; on a weave grid the walls are the plain ones that leave every crossing intact
(see :func:`~mazekit.transform._common.crossed_cells`), and new tunnels are never dug.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._limits import check_count
from .._memory import index_dtype
from ..grids import Grid
from ..grids import kernel as k
from ..maze import Maze
from ..trace import OPEN, record
from ._common import Carved, crossed_cells, done, open_wall, start, wall_slots

OPENS_ONLY = True
BYTES_PER_CELL = 9  # passages copy + room for 2 int32 walls per cell (rect has at most 2)

DEFAULT_FRACTION = 0.1


def bytes_per_cell(grid: Grid) -> int:
    """Peak memory per cell: a grid of ``n`` slots has at most ``n / 2`` walls per cell."""
    return 1 + 4 * grid.n_slots // 2


@njit(cache=True, nogil=True)
def _closed_walls(passages, geo, mask, crossed, walls):  # pragma: no cover - compiled
    """Write the closed walls a loop may open to ``walls`` as ``cell * slots + slot``, each
    once from its lower cell; return how many there are."""
    masked = mask.shape[0] != 0
    crossings = crossed.shape[0] != 0
    slots = k.n_slots(geo[0])
    m = 0
    for cell in range(passages.shape[0]):
        if masked and mask[cell] == 0:
            continue
        bits = passages[cell]
        for slot in range(wall_slots(geo[0])):
            if bits >> slot & 1:
                continue
            nb = k.step(geo, cell, slot)
            if nb <= cell or (masked and mask[nb] == 0):
                continue
            if crossings and (crossed[cell] or crossed[nb]):
                continue
            walls[m] = cell * slots + slot
            m += 1
    return m


@njit(cache=True, nogil=True)
def _add_loops(passages, geo, mask, walls, count, fraction, rng, trace):  # pragma: no cover
    m = walls.shape[0]
    n = count if count >= 0 else int(np.floor(fraction * m + 0.5))
    n = min(n, m)
    slots = k.n_slots(geo[0])
    t = 0
    for i in range(n):  # partial Fisher-Yates
        j = i + int(rng.random() * (m - i))
        wall = walls[j]
        walls[j] = walls[i]
        cell = wall // slots
        slot = wall - cell * slots
        open_wall(passages, geo, cell, slot)
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
        # more than there are closed walls opens them all, so the kernel needs no more
        n, f = min(check_count("add_loops count", count, 2**62), maze.grid.n_slots * maze.grid.size), 0.0
    else:
        f = DEFAULT_FRACTION if fraction is None else float(fraction)
        if not 0.0 <= f <= 1.0:
            raise ValueError(f"add_loops fraction must be between 0 and 1, got {fraction}")
        n = -1
    grid = maze.grid
    passages, trace = start(maze, record, 2)
    geo, mask = grid.kernel_args()
    room = grid.n_slots * grid.size // 2 + 1  # a grid has at most that many walls
    walls = np.empty(room, dtype=index_dtype(grid.n_slots * grid.size))
    m = _closed_walls(passages, geo, mask, crossed_cells(passages, grid), walls)
    used = _add_loops(passages, geo, mask, walls[:m], n, f, rng, trace)
    return done(maze.grid, passages, trace, used)
