"""Braid: remove dead ends by opening walls, turning a perfect maze into one with loops.

1. List the dead ends (cells with one open passage) and visit them in random order.
2. For each cell that is still a dead end, open a wall to a neighbour: a neighbour that is a
   dead end too if there is one (that removes two dead ends with one wall), else a random one.
3. Stop once the wanted fraction of the original dead ends is gone.

With ``fraction=1.0`` no dead end survives unless geometry forbids it: the two ends of a
1xN or Nx1 corridor and the tip of a one-cell-wide spur of a mask have no closed wall to an
existing cell. Cells without any passage (left by a filler) are never joined on. Only opens
walls, so a connected maze stays connected; every opened wall adds one loop. Works on every
grid; on a weave grid only plain walls that leave the crossings intact are opened (see
:func:`~mazekit.transform._common.crossed_cells`), so a dead end boxed in by crossings stays.
Reference: J. Buck, *Mazes for Programmers* (2015), ch. 9 ("braid").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grids import kernel as k
from ..maze import Maze
from ..measure import dead_end_cells
from ..trace import OPEN, record
from ._common import Carved, crossed_cells, degree, done, open_wall, start, wall_slots

OPENS_ONLY = True
BYTES_PER_CELL = 9  # passages copy + int64 dead-end list


@njit(cache=True, nogil=True)
def _braid(passages, geo, mask, crossed, order, target, rng, trace):  # pragma: no cover - compiled
    n = order.shape[0]
    masked = mask.shape[0] != 0
    crossings = crossed.shape[0] != 0
    sides = wall_slots(geo[0])
    slots = np.empty(8, dtype=np.int64)
    best = np.empty(8, dtype=np.int64)
    removed, t = 0, 0
    for i in range(n):  # lazy Fisher-Yates: shuffle only as far as needed
        if removed >= target:
            break
        j = i + int(rng.random() * (n - i))
        cell = order[j]
        order[j] = order[i]
        order[i] = cell
        bits = passages[cell]
        if degree(bits) != 1:
            continue
        m, mb = 0, 0
        for slot in range(sides):
            if bits >> slot & 1:
                continue
            nb = k.step(geo, cell, slot)
            if nb < 0 or (masked and mask[nb] == 0):
                continue
            if crossings and (crossed[cell] or crossed[nb]):
                continue
            d = degree(passages[nb])
            if d == 0:  # an isolated cell: joining it would only move the dead end
                continue
            slots[m] = slot
            m += 1
            if d == 1:
                best[mb] = slot
                mb += 1
        if m == 0:
            continue
        if mb > 0:
            slot = best[int(rng.random() * mb)] if mb > 1 else best[0]
        else:
            slot = slots[int(rng.random() * m)] if m > 1 else slots[0]
        nb = open_wall(passages, geo, cell, slot)
        removed += 2 if degree(passages[nb]) == 2 else 1
        t = record(trace, t, cell, OPEN, slot)
    return t


def braid(maze: Maze, rng: np.random.Generator, *, fraction: float = 1.0, record: bool = False) -> Carved:
    """Remove ``fraction`` of the maze's dead ends by opening walls (Buck's braiding).

    Parameters
    ----------
    fraction : float
        Share of the dead ends to remove, 0 to 1: the op stops once
        ``round(fraction * dead_ends)`` of them are gone (one more when the last wall joined
        two dead ends). 1.0 removes every removable one.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.measure import dead_ends
    >>> m = mazekit.generate("kruskal", (10, 10), rng=0)
    >>> out = braid(m, np.random.default_rng(0))
    >>> dead_ends(m.replace(passages=out.passages))
    0
    """
    fraction = float(fraction)
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"braid fraction must be between 0 and 1, got {fraction}")
    passages, trace = start(maze, record, 1)
    order = dead_end_cells(maze)
    target = int(np.floor(fraction * order.shape[0] + 0.5))
    geo, mask = maze.grid.kernel_args()
    used = _braid(passages, geo, mask, crossed_cells(passages, maze.grid), order, target, rng, trace)
    return done(maze.grid, passages, trace, used)
