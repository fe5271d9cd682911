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

from .. import trace as tr
from ..grids import Grid
from ..grids import kernel as gk
from ..kernels.draw import draws, tick, uniform_pick
from ..trace import BACKTRACK, CARVE, VISIT, record
from ._common import Carved, buffers, carve_fast, carved, scratch, start_cell

BYTES_PER_CELL = 6  # passages + visited (or the padded layout) + int32 stack
PADDED_BYTES = 1  # its padded layout: a byte a cell (see registry.memory_per_cell)

SEEN = 128  # padded layout: bits 0-5 are the passages, this bit marks visited and border


@njit(cache=True, nogil=True)
def _backtracker(grid, geo, root, p, stack, src, trace, slots, T):  # pragma: no cover
    """The kernel, on topology ``T`` (:meth:`~mazekit.grids.Grid.kernel_topology`: the padded
    layout's offsets, a polar grid's ring table or a neighbour table), one for every grid:
    the unvisited neighbours are a bit mask read without branches, the stack holds fast-path
    indices, and passages are carved into ``grid``, the fast layout's bytes
    (:func:`~mazekit.grids.kernel.fast_layout`, ``SEEN`` outside the cells), from ``root``
    at fast index ``p``; the caller copies them out.

    ``slots`` is :func:`~mazekit.grids.kernel.slot_count` of the grid, the slot count compiled
    in (as in :func:`~mazekit.generate.prim._prim`), and every index is unsigned, the
    stack's top too (no negative-index fix-ups): together 20% a cell at 1000x1000."""
    shift = gk.high(grid)  # state bits a byte up in a two-byte layout (eight slots)
    seen = SEEN << shift
    n_slot = len(slots)
    off1 = gk.flat(T)
    recording = trace.shape[0] != 0
    p = np.uint64(p)
    grid[p] = seen
    stack[0] = p
    top = np.uint64(0)
    t = record(trace, 0, root, VISIT, -1)
    while True:
        h = gk.around(off1, p)  # the ring worked out once, kept across the draw and carve
        free = gk.open_tunnels(T, geo, grid, p, gk.matching(grid, h, off1, n_slot, seen, 0))
        if free == 0:
            if recording:
                t = record(trace, t, gk.to_cell(T, geo, np.int64(p)), BACKTRACK, -1)
            if top == 0:
                break
            top -= np.uint64(1)
            p = np.uint64(stack[top])
            continue
        k = gk.BIT_COUNT[free]
        slot = gk.NTH_BIT[free, uniform_pick(src, k)]
        back = gk.hop_back(T, geo, h, slot)
        grid[p] |= 1 << slot
        p = gk.near(h, off1, slot)
        grid[p] |= seen | (1 << back)
        top += np.uint64(1)
        stack[top] = p
        tick(src, 1)
        if recording:
            t = record(trace, t, gk.to_cell(T, geo, np.int64(p)), CARVE, back)
    return t


@njit(cache=True, nogil=True)
def _many(out, geo, mask, roots, srcs, stack, trace, slots, T):  # pragma: no cover
    """:func:`_backtracker` on maze after maze, the fast layout made and copied out inside (the
    front door lays it out with numpy, and so compiles none of this on a first run)."""
    s = gk.high(T)  # the state bits a byte up in a two-byte layout
    blank = gk.lay_out(T, geo, mask, 0, SEEN << s)  # copied for each maze (made a maze: +25% on 10x10)
    grid = np.empty_like(blank)
    for k in range(out.shape[0]):
        grid[:] = blank
        _backtracker(grid, geo, roots[k], gk.to_fast(T, geo, roots[k]), stack, srcs[k], trace, slots, T)
        gk.copy_out(T, geo, grid, (SEEN << s) - 1, out[k])


def backtracker(
    grid: Grid, rng: np.random.Generator, *, root: tuple[int, int] | None = None, record: bool = False
) -> Carved:
    """Carve a perfect maze on ``grid`` by randomized depth-first search.

    Parameters
    ----------
    root : (int, int), optional
        The cell carving starts from, e.g. ``(0, 0)`` as the turtle tutorial does
        (``-O root=0,0``); a random cell by default.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grids import RectGrid
    >>> out = backtracker(RectGrid((2, 2)), np.random.default_rng(0))
    >>> out.passages.shape, int((out.passages > 0).sum())
    ((2, 2), 4)
    """
    passages, trace = buffers(grid, record, 2)
    first = start_cell(grid, rng, root)
    fast = grid.kernel_topology()
    with draws(rng, grid.n_cells - 1) as src:
        rest = (scratch(grid), src, trace, gk.slot_count(grid.n_slots), fast)
        used = carve_fast(_backtracker, grid, fast, first, SEEN, SEEN - 1, passages, *rest)
    return carved(grid, passages, trace, used)


def many(out: np.ndarray, grid: Grid, srcs: np.ndarray, roots: np.ndarray) -> None:
    """:func:`backtracker` maze after maze in one compiled call: the door to many mazes
    (:func:`mazekit.generate.many_door` says what it takes and gives)."""
    geo, mask = grid.kernel_args()
    rest = (scratch(grid), tr.empty(), gk.slot_count(grid.n_slots), grid.kernel_topology())
    _many(out, geo, mask, roots, srcs, *rest)
