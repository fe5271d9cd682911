"""Prim's algorithm proper: a minimum spanning tree over random wall weights.

1. Give every wall between two cells an independent random weight.
2. Put a random cell in the maze. Its outside neighbours become frontier cells, each keyed
   by its lightest wall to the maze, in a priority queue (an indexed 4-ary heap).
3. Take the frontier cell of lightest key, open that wall and add the cell. Each of its
   outside neighbours joins the frontier, or has its key lowered if the new wall is lighter.
4. Repeat until the frontier is empty.

This is the weighted algorithm (Prim 1957), not the "random frontier cell" simplification
that :mod:`.prim` implements. The maze is the minimum spanning tree of independent random
weights, which is exactly what randomized Kruskal builds, so the two make mazes with the
same statistics: many short dead ends (about 30% of cells, against 36% for simplified Prim),
short jagged corridors, no directional bias; close to, but not exactly, uniform. What
differs is the growth, which the trace shows: one region creeping out from the root in
fingers along runs of light walls (invasion percolation). A weight is drawn when its wall
is first seen, which is the same as drawing all weights up front.

The queue holds frontier cells, not walls (the "eager" form): one entry and one pop a cell,
on any grid, where a queue of walls pops every wall, and holds every wall whose both cells
have since joined until it comes up. The maze, trace and draws are the same either way.
Reference: R. C. Prim (1957); J. Buck, *Mazes for Programmers* (2015), ch. 11 ("true
Prim's").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._memory import index_dtype
from ..grids import Grid
from ..grids import kernel as gk
from ..kernels.draw import draws, tick, uniform
from ..kernels.heap import insert, lower, take
from ..trace import CARVE, FRONTIER, VISIT, record
from ._common import Carved, buffers, carved, start_cell, unavailable

TRACE_BYTES_PER_CELL = 36  # three events (12 bytes each) per cell
BYTES_PER_CELL = 18  # passages + state + heap key (int64), heap cell and heap position (int32)


def bytes_per_cell(grid: Grid) -> int:
    """Peak bytes per cell on ``grid``: the heap's cells and positions are int64 past 2**31
    cells."""
    return 2 + 8 + 2 * np.dtype(index_dtype(grid.size)).itemsize


OUT, FRONT, IN = 0, 1, 2


@njit(cache=True, nogil=True, _nrt=False)
def _offer(
    passages, geo, cell, state, keys, vals, pos, n, edge_bits, slot_bits, scale, src, trace, t
):  # pragma: no cover
    """Offer the walls from ``cell`` (just added) to its outside neighbours: a new frontier
    cell is put in the heap, one already there keeps the lighter of its key and this wall's
    (no reference counting: called per cell with eight arrays)."""
    for slot in range(gk.n_slots(geo[0])):
        nb = gk.step(geo, cell, slot)
        if nb >= 0 and state[nb] != IN and gk.tunnel_ok(geo, passages, cell, slot, nb):
            fresh = state[nb] == OUT
            if fresh:
                state[nb] = FRONT
                t = record(trace, t, nb, FRONTIER, -1)
            key = (np.int64(uniform(src) * scale) << edge_bits) | (cell << slot_bits | slot)
            if fresh:
                n = insert(keys, vals, pos, n, key, nb)
            elif key < keys[pos[nb]]:
                lower(keys, vals, pos, nb, key)
    return n, t


@njit(cache=True, nogil=True)
def _prim_true(
    passages, geo, mask, root, keys, vals, pos, edge_bits, slot_bits, scale, src, trace
):  # pragma: no cover
    state = unavailable(passages.shape[0], mask) * np.uint8(IN)  # masked cells count as joined
    low = (np.int64(1) << edge_bits) - 1
    state[root] = IN
    t = record(trace, 0, root, VISIT, -1)
    n, t = _offer(passages, geo, root, state, keys, vals, pos, 0, edge_bits, slot_bits, scale, src, trace, t)
    while n > 0:
        key, nb, n = take(keys, vals, pos, n)
        edge = key & low
        cell, slot = edge >> slot_bits, edge & ((1 << slot_bits) - 1)
        passages[cell] |= 1 << slot
        back = gk.back(geo, cell, slot)
        passages[nb] |= 1 << back
        state[nb] = IN
        tick(src, 1)
        t = record(trace, t, nb, CARVE, back)
        args = (edge_bits, slot_bits, scale, src, trace, t)
        n, t = _offer(passages, geo, nb, state, keys, vals, pos, n, *args)
    return t


def prim_true(
    grid: Grid, rng: np.random.Generator, *, root: tuple[int, int] | None = None, record: bool = False
) -> Carved:
    """Carve a perfect maze on ``grid`` by Prim's algorithm on random wall weights.

    Parameters
    ----------
    root : (int, int), optional
        The cell carving starts from, e.g. ``(0, 0)`` as the turtle tutorial does
        (``-O root=0,0``); a random cell by default.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grids import RectGrid
    >>> out = prim_true(RectGrid((3, 4)), np.random.default_rng(0))
    >>> out.passages.shape, int((out.passages > 0).sum())
    ((3, 4), 12)
    """
    passages, trace = buffers(grid, record, 3)
    # A heap key is (weight << edge_bits) | (cell << slot_bits | slot): one int64, compared as is.
    slot_bits = 2 if grid.n_slots <= 4 else 3
    edge_bits = max(1, int((grid.size << slot_bits) - 1).bit_length())
    scale = float(2 ** (63 - edge_bits))
    # a frontier cell is in the heap once; the root never is
    keys = np.empty(max(1, grid.n_cells - 1), dtype=np.int64)
    vals = np.empty(keys.shape[0], dtype=index_dtype(grid.size))
    pos = np.empty(grid.size, dtype=vals.dtype)
    first = start_cell(grid, rng, root)
    with draws(rng, grid.n_cells - 1) as src:
        used = _prim_true(
            passages, *grid.kernel_args(), first, keys, vals, pos, edge_bits, slot_bits, scale, src, trace
        )
    return carved(grid, passages, trace, used)
