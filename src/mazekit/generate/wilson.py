"""Wilson: grow the maze by loop-erased random walks that end when they hit it.

1. Put a random cell (the root) in the maze.
2. From the first cell not yet in the maze (row-major order), walk at random. At every cell
   the walk leaves, overwrite that cell's "next direction" with the step taken: a walk that
   crosses its own path thereby erases the loop it just made.
3. When the walk reaches the maze, follow the next directions from its start and carve that
   loop-free path into the maze. Repeat until every cell is in the maze.

The maze is a *uniform* spanning tree (every spanning tree of the grid, or of a connected
mask, is equally likely), like Aldous-Broder's, but made in about the mean hitting time of
the root instead of the cover time: several times faster on large grids. Memory is one byte
of state per cell besides the passages (no path lists). Textures: no bias, about 30% dead
ends. On a weave grid a walk tunnels only under a straight corridor of the maze so far
(:func:`~mazekit.grids.kernel.tunnel_ok`), so the tree is not uniform there. References:
D. B. Wilson, *Generating random spanning trees more quickly than the cover time*, STOC
1996; J. Buck, *Mazes for Programmers* (2015), ch. 4.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import trace as tr
from ..grids import Grid
from ..grids import kernel as gk
from ..kernels.draw import draws, take_bits, tick
from ..trace import CARVE, VISIT, record
from ._common import Carved, buffers, carve_fast, carved, start_cell

TRACE_BYTES_PER_CELL = 12  # one event (12 bytes) per cell
BYTES_PER_CELL = 2  # passages + one state byte (next direction, or "in the maze")
PADDED_BYTES = 1  # its padded layout: a byte a cell (see registry.memory_per_cell)
UNIFORM = True

IN_MAZE = 8  # state value; 0..7 are next directions (slots)
BLOCKED = 9  # padded layout: the border and masked cells


@njit(cache=True, nogil=True)
def _wilson(state, geo, root, p, passages, src, trace, T, cell_off):  # pragma: no cover
    """The kernel, on topology ``T`` (:meth:`~mazekit.grids.Grid.kernel_topology`: the padded
    layout's offsets, a polar grid's ring table or a neighbour table), one for every grid: a
    step is a few operations on the walk's position (:func:`~mazekit.grids.kernel.walk_try`)
    and one byte read, the border, masked cells and the ring table's sentinel being
    ``BLOCKED``. ``state`` is the fast layout's bytes
    (:func:`~mazekit.grids.kernel.fast_layout`) and ``p`` the fast index of ``root``;
    ``cell_off`` moves a cell along with its fast index (:func:`~mazekit.grids.kernel.cell_steps`),
    made once by the caller (made here, it was an array a maze)."""
    rows, cols = geo[1], geo[2]
    n_slot = gk.n_slots(geo[0])
    width = 2 if n_slot <= 4 else 3
    off1 = gk.flat(T)
    state[p] = IN_MAZE
    t = record(trace, 0, root, VISIT, -1)
    bits = 0
    left = 0
    for r in range(rows):
        first = gk.row_start(T, geo, r)
        for c in range(cols):
            start = first + c
            if state[start] >= IN_MAZE:
                continue
            at = gk.walk_start(T, start)
            while True:  # walk (see _wilson) until a step enters the maze
                v, bits, left = take_bits(src, bits, left, width)
                slot, to = gk.walk_try(T, off1, at, v)
                if slot >= n_slot:
                    continue
                entered = state[np.uint64(to[0])]
                if entered == BLOCKED:
                    continue
                if slot >= 4 and gk.tunnels(geo[0]):  # weave: a tunnel only under a straight
                    x = gk.to_cell(T, geo, at[0])  # corridor, in the passages, kept by cell
                    if not gk.tunnel_ok(geo, passages, x, slot, x + cell_off[0, slot]):
                        continue
                state[np.uint64(at[0])] = slot
                at = to
                if entered == IN_MAZE:
                    if not gk.crosses_under(T, geo, state, start, IN_MAZE):
                        break
                    at = gk.walk_start(T, start)  # (weave) it would cross under its last cell: again
            cell = r * cols + c
            at = gk.walk_start(T, start)
            while state[np.uint64(at[0])] != IN_MAZE:  # carve, retracing the walk's last exits
                w = at[0]
                slot = np.int64(state[np.uint64(w)])
                _, to = gk.walk_try(T, off1, at, slot)  # (bits naming a slot: the slot itself)
                nb = gk.along(T, cell_off, cell, w, slot, to[0])
                passages[cell] |= 1 << slot
                passages[nb] |= 1 << gk.walk_back(T, geo, at, slot)
                state[np.uint64(w)] = IN_MAZE
                tick(src, 1)
                t = record(trace, t, cell, CARVE, slot)
                at = to
                cell = nb
    return t


@njit(cache=True, nogil=True)
def _many(out, geo, mask, roots, srcs, trace, T):  # pragma: no cover
    """:func:`_wilson` on maze after maze, the fast layout made and copied out inside (the
    front door lays it out with numpy, and so compiles none of this on a first run)."""
    blank = gk.lay_out(T, geo, mask, 0, BLOCKED)  # laid out once, copied for each maze
    state = np.empty_like(blank)
    cell_off = gk.pad_offsets(geo, geo[2])  # (cell_steps)
    for k in range(out.shape[0]):
        state[:] = blank
        _wilson(state, geo, roots[k], gk.to_fast(T, geo, roots[k]), out[k], srcs[k], trace, T, cell_off)


def wilson(
    grid: Grid, rng: np.random.Generator, *, root: tuple[int, int] | None = None, record: bool = False
) -> Carved:
    """Carve a uniform spanning-tree maze on ``grid`` with Wilson's algorithm.

    The trace holds the root's ``VISIT`` and one ``CARVE`` per other cell, path by path in
    the order the loop-erased walks joined the maze (the erased walking is not traced).

    Parameters
    ----------
    root : (int, int), optional
        The cell carving starts from, e.g. ``(0, 0)`` as the turtle tutorial does
        (``-O root=0,0``); a random cell by default.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grids import RectGrid
    >>> out = wilson(RectGrid((4, 5)), np.random.default_rng(0), record=True)
    >>> int((out.passages > 0).sum()), out.trace.shape
    (20, (20, 3))
    """
    grid.check_connected()  # a walk could never reach a second region: refuse, don't hang
    passages, trace = buffers(grid, record, 1)
    first = start_cell(grid, rng, root)
    fast = grid.kernel_topology()
    with draws(rng, grid.n_cells - 1, steady=False) as src:  # slow at first, fast at the end
        rest = (passages, src, trace, fast, gk.cell_steps(grid.geo))
        used = carve_fast(_wilson, grid, fast, first, BLOCKED, None, passages, *rest)
    return carved(grid, passages, trace, used)


def many(out: np.ndarray, grid: Grid, srcs: np.ndarray, roots: np.ndarray) -> None:
    """:func:`wilson` maze after maze in one compiled call: the door to many mazes
    (:func:`mazekit.generate.many_door` says what it takes and gives)."""
    grid.check_connected()  # as wilson: a walk could never reach a second region
    geo, mask = grid.kernel_args()
    _many(out, geo, mask, roots, srcs, tr.empty(), grid.kernel_topology())
