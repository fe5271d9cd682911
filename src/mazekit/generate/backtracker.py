"""Recursive backtracker: a randomized depth-first search that carves as it goes.

1. Start at a random cell and push it on a stack.
2. Look at the cell on top of the stack. If it has unvisited neighbours, open the wall to one
   of them at random, mark it visited and push it.
3. Otherwise pop the cell (backtrack). Repeat until the stack is empty.

Mazes have long, winding corridors, few dead ends (about 10% of cells) and a very long
solution; the texture is strongly biased, not uniform. The stack is an array, so there is no
recursion limit. Reference: J. Buck, *Mazes for Programmers* (2015), ch. 5.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grids import Grid
from ..grids import kernel as gk
from ..trace import BACKTRACK, CARVE, VISIT, record
from ._common import Carved, buffers, carved, random_cell, scratch, unavailable

BYTES_PER_CELL = 6  # passages + visited + int32 stack


@njit(cache=True)
def _backtracker(passages, geo, mask, root, stack, rng, trace):  # pragma: no cover
    visited = unavailable(passages.shape[0], mask)
    n_slot = gk.n_slots(geo[0])
    slots = np.empty(gk.MAX_SLOTS, dtype=np.int64)
    cells = np.empty(gk.MAX_SLOTS, dtype=np.int64)
    visited[root] = 1
    stack[0] = root
    top = 0
    t = record(trace, 0, root, VISIT, -1)
    while top >= 0:
        cell = stack[top]
        k = 0
        for slot in range(n_slot):
            nb = gk.step(geo, cell, slot)
            if nb >= 0 and visited[nb] == 0:
                slots[k] = slot
                cells[k] = nb
                k += 1
        if k == 0:
            top -= 1
            t = record(trace, t, cell, BACKTRACK, -1)
            continue
        i = int(rng.random() * k) if k > 1 else 0
        nb = cells[i]
        back = gk.back(geo, cell, slots[i])
        passages[cell] |= 1 << slots[i]
        passages[nb] |= 1 << back
        visited[nb] = 1
        top += 1
        stack[top] = nb
        t = record(trace, t, nb, CARVE, back)
    return t


def backtracker(grid: Grid, rng: np.random.Generator, *, record: bool = False) -> Carved:
    """Carve a perfect maze on ``grid`` by randomized depth-first search.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grids import RectGrid
    >>> out = backtracker(RectGrid((2, 2)), np.random.default_rng(0))
    >>> out.passages.shape, int((out.passages > 0).sum())
    ((2, 2), 4)
    """
    passages, trace = buffers(grid, record, 2)
    root = random_cell(grid, rng)
    used = _backtracker(passages, *grid.kernel_args(), root, scratch(grid), rng, trace)
    return carved(grid, passages, trace, used)
