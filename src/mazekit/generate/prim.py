"""Randomized Prim (simplified): grow the maze from a random frontier cell.

1. Put a random cell in the maze and its neighbours in the frontier.
2. Take a random frontier cell, open a wall between it and a random neighbour already in
   the maze, and add its own outside neighbours to the frontier.
3. Repeat until the frontier is empty.

This is the tutorial "random frontier cell" variant (Buck's *simplified Prim*), not Prim's
algorithm on weighted edges. Mazes radiate from the root with many short dead ends (about
36% of cells) and short corridors; biased, not uniform. Reference: J. Buck, *Mazes for
Programmers* (2015), ch. 11.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grids import Grid
from ..grids import kernel as gk
from ..trace import CARVE, FRONTIER, VISIT, record
from ._common import Carved, buffers, carved, random_cell, scratch, unavailable

BYTES_PER_CELL = 6  # passages + state + int32 frontier

OUT, FRONT, IN, GONE = 0, 1, 2, 3


@njit(cache=True)
def _add_frontier(geo, cell, state, frontier, nf, trace, t):  # pragma: no cover
    for slot in range(gk.n_slots(geo[0])):
        nb = gk.step(geo, cell, slot)
        if nb >= 0 and state[nb] == OUT:
            state[nb] = FRONT
            frontier[nf] = nb
            nf += 1
            t = record(trace, t, nb, FRONTIER, -1)
    return nf, t


@njit(cache=True)
def _prim(passages, geo, mask, root, frontier, rng, trace):  # pragma: no cover
    state = unavailable(passages.shape[0], mask) * np.uint8(GONE)  # masked cells never join
    n_slot = gk.n_slots(geo[0])
    slots = np.empty(gk.MAX_SLOTS, dtype=np.int64)
    state[root] = IN
    t = record(trace, 0, root, VISIT, -1)
    nf, t = _add_frontier(geo, root, state, frontier, 0, trace, t)
    while nf > 0:
        i = int(rng.random() * nf)
        cell = frontier[i]
        nf -= 1
        frontier[i] = frontier[nf]
        k = 0
        for slot in range(n_slot):
            nb = gk.step(geo, cell, slot)
            if nb >= 0 and state[nb] == IN:
                slots[k] = slot
                k += 1
        slot = slots[int(rng.random() * k) if k > 1 else 0]
        nb = gk.step(geo, cell, slot)
        passages[cell] |= 1 << slot
        passages[nb] |= 1 << gk.back(geo, cell, slot)
        state[cell] = IN
        t = record(trace, t, cell, CARVE, slot)
        nf, t = _add_frontier(geo, cell, state, frontier, nf, trace, t)
    return t


def prim(grid: Grid, rng: np.random.Generator, *, record: bool = False) -> Carved:
    """Carve a perfect maze on ``grid`` by randomized (simplified) Prim.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grids import RectGrid
    >>> out = prim(RectGrid((3, 3)), np.random.default_rng(0), record=True)
    >>> out.passages.shape, out.trace.shape[1]
    ((3, 3), 3)
    """
    passages, trace = buffers(grid, record, 3)
    root = random_cell(grid, rng)
    used = _prim(passages, *grid.kernel_args(), root, scratch(grid), rng, trace)
    return carved(grid, passages, trace, used)
