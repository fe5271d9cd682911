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
from numba.cpython.unsafe.numbers import trailing_zeros

from .. import trace as tr
from ..grids import Grid
from ..grids import kernel as gk
from ..kernels.draw import draws, held_pick, held_uniform, hold, release, tick
from ..trace import CARVE, FRONTIER, VISIT, record
from ._common import Carved, buffers, carve_fast, carved, scratch, start_cell

TRACE_BYTES_PER_CELL = 36  # three events (12 bytes each) per cell
BYTES_PER_CELL = 6  # passages + state (or the padded layout) + int32 frontier
PADDED_BYTES = 1  # its padded layout: a byte a cell (see registry.memory_per_cell)

OUT, FRONT, IN, GONE = 0, 1, 2, 3
# The padded layout keeps the state above the passage bits (0-5): GONE is the border.
P_FRONT, P_IN, P_GONE = FRONT << 6, IN << 6, GONE << 6


@njit(cache=True, nogil=True)
def _prim(grid, geo, root, p, frontier, src, trace, slots, T):  # pragma: no cover
    """The kernel, on topology ``T`` (:meth:`~mazekit.grids.Grid.kernel_topology`: the padded
    layout's offsets, a polar grid's ring table or a neighbour table), one for every grid:
    neighbour states are bit masks read without branches, the frontier holds fast-path
    indices, and every index is unsigned (no negative-index fix-ups on the loads). It carves
    into ``grid``, the fast layout's bytes (``P_GONE`` outside the cells), from ``root`` at
    fast index ``p``; the caller copies the passages out.

    ``slots`` is :func:`~mazekit.grids.kernel.slot_count` of the grid: its slot count compiled
    in as a constant, one specialisation per grid kind. With it known, the neighbour reads
    have no branches (with unsigned indices: 50-56 -> 45-53 ns a cell on a rectangle).
    The frontier's count alone is signed: it is scaled by a draw on the way from one cell to
    the next, and int64 <-> float64 is one instruction each way where uint64 takes five
    (44-53 ns a cell against 52-56 in one alternating run at 1000x1000)."""
    shift = gk.high(grid)  # state bits a byte up in a two-byte layout (eight slots)
    p_gone, p_in, p_front = P_GONE << shift, P_IN << shift, P_FRONT << shift
    n_slot = len(slots)
    off1 = gk.flat(T)
    recording = trace.shape[0] != 0
    p = np.uint64(p)
    grid[p] = p_in
    held = hold(src)  # the draws' state in registers (given back at the end)
    t = record(trace, 0, root, VISIT, -1)
    nf = 0  # signed: the draw's int-float conversions are one instruction each way
    h = gk.around(off1, p)  # p's neighbours worked out once, kept across the stores
    while True:
        out = gk.open_tunnels(T, geo, grid, p, gk.matching(grid, h, off1, n_slot, p_gone, OUT))
        while out:  # the new cell's outside neighbours join the frontier, in slot order
            nb = gk.near(h, off1, trailing_zeros(out))
            out &= out - 1
            grid[nb] = p_front
            frontier[np.uint64(nf)] = nb
            nf += 1
            if recording:
                t = record(trace, t, gk.to_cell(T, geo, np.int64(nb)), FRONTIER, -1)
        if nf == 0:
            break
        held, u = held_uniform(held)
        i = np.uint64(np.int64(u * nf))
        p = np.uint64(frontier[i])
        nf -= 1
        frontier[i] = frontier[np.uint64(nf)]
        h = gk.around(off1, p)
        inside = gk.open_tunnels(T, geo, grid, p, gk.matching(grid, h, off1, n_slot, p_gone, p_in))
        k = gk.BIT_COUNT[inside]
        held, nth = held_pick(held, k)
        slot = gk.NTH_BIT[inside, nth]
        grid[p] = p_in | (1 << slot)
        grid[gk.near(h, off1, slot)] |= 1 << gk.hop_back(T, geo, h, slot)
        tick(src, 1)
        if recording:
            t = record(trace, t, gk.to_cell(T, geo, np.int64(p)), CARVE, slot)
    release(src, held)
    return t


@njit(cache=True, nogil=True)
def _many(out, geo, mask, roots, srcs, frontier, trace, slots, T):  # pragma: no cover
    """:func:`_prim` on maze after maze, the fast layout made and copied out inside (the
    front door lays it out with numpy, and so compiles none of this on a first run)."""
    s = gk.high(T)  # the state bits a byte up in a two-byte layout
    blank = gk.lay_out(T, geo, mask, 0, P_GONE << s)  # laid out once, copied for each maze
    grid = np.empty_like(blank)
    for k in range(out.shape[0]):
        grid[:] = blank
        _prim(grid, geo, roots[k], gk.to_fast(T, geo, roots[k]), frontier, srcs[k], trace, slots, T)
        gk.copy_out(T, geo, grid, (P_FRONT << s) - 1, out[k])


def prim(
    grid: Grid, rng: np.random.Generator, *, root: tuple[int, int] | None = None, record: bool = False
) -> Carved:
    """Carve a perfect maze on ``grid`` by randomized (simplified) Prim.

    Parameters
    ----------
    root : (int, int), optional
        The cell carving starts from, e.g. ``(0, 0)`` as the turtle tutorial does
        (``-O root=0,0``); a random cell by default.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grids import RectGrid
    >>> out = prim(RectGrid((3, 3)), np.random.default_rng(0), record=True)
    >>> out.passages.shape, out.trace.shape[1]
    ((3, 3), 3)
    """
    passages, trace = buffers(grid, record, 3)
    first = start_cell(grid, rng, root)
    fast = grid.kernel_topology()
    with draws(rng, grid.n_cells - 1) as src:
        rest = (scratch(grid), src, trace, gk.slot_count(grid.n_slots), fast)
        used = carve_fast(_prim, grid, fast, first, P_GONE, P_FRONT - 1, passages, *rest)
    return carved(grid, passages, trace, used)


def many(out: np.ndarray, grid: Grid, srcs: np.ndarray, roots: np.ndarray) -> None:
    """:func:`prim` maze after maze in one compiled call: the door to many mazes
    (:func:`mazekit.generate.many_door` says what it takes and gives)."""
    geo, mask = grid.kernel_args()
    rest = (scratch(grid), tr.empty(), gk.slot_count(grid.n_slots), grid.kernel_topology())
    _many(out, geo, mask, roots, srcs, *rest)
