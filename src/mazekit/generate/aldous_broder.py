"""Aldous-Broder: a random walk that carves a passage whenever it enters a new cell.

1. Start at a random cell and mark it visited.
2. Step to a uniformly random neighbour. If it was never visited, open the wall between
   the two cells and mark it visited.
3. Repeat until every cell is visited.

The maze is a *uniform* spanning tree: every one of the grid's spanning trees is equally
likely, on any connected mask too. The price is the walk's cover time, about
``(4/pi) n (ln sqrt(n))^2`` steps for ``n`` cells (some ten billion steps at 10,000x10,000),
so it is the slowest generator by far at large sizes; :func:`mazekit.generate.wilson.wilson`
makes the same distribution several times faster. Textures: no bias, about 30% dead ends.
On a weave grid the walk tunnels only under a straight corridor of the maze so far
(:func:`~mazekit.grids.kernel.tunnel_ok`), so the tree is not uniform there.
References: D. Aldous (1990), A. Broder (1989); J. Buck, *Mazes for Programmers* (2015), ch. 4.
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
BYTES_PER_CELL = 2  # passages + visited (or the padded layout)
PADDED_BYTES = 1  # its padded layout: a byte a cell (see registry.memory_per_cell)
UNIFORM = True

VISITED, BLOCKED = 64, 128  # padded layout: bits 0-5 are the passages


@njit(cache=True, nogil=True)
def _aldous_broder(grid, geo, root, p, n_cells, src, trace, T):  # pragma: no cover
    """The kernel, on topology ``T`` (:meth:`~mazekit.grids.Grid.kernel_topology`: the padded
    layout's offsets, a polar grid's ring table or a neighbour table), one for every grid: a
    step is a few operations on the walk's position (:func:`~mazekit.grids.kernel.walk_try`)
    and one byte read; passages are carved into ``grid``, the fast layout's bytes
    (``BLOCKED`` outside the cells), from ``root`` at fast index ``p``; the caller copies
    them out."""
    shift = gk.high(grid)  # state bits a byte up in a two-byte layout (eight slots)
    visited, blocked = VISITED << shift, BLOCKED << shift
    n_slot = gk.n_slots(geo[0])
    width = 2 if n_slot <= 4 else 3
    off1 = gk.flat(T)
    recording = trace.shape[0] != 0
    grid[p] = visited
    at = gk.walk_start(T, p)
    t = record(trace, 0, root, VISIT, -1)
    remaining = n_cells - 1
    bits = 0
    left = 0
    while remaining > 0:
        v, bits, left = take_bits(src, bits, left, width)
        slot, to = gk.walk_try(T, off1, at, v)
        if slot >= n_slot:
            continue
        nb = np.uint64(to[0])  # unsigned: no negative-index fix-up
        entered = grid[nb]
        if entered >= blocked or not gk.tunnel_open(T, geo, grid, at[0], slot):
            continue
        if entered < visited:
            p = np.uint64(at[0])
            back = gk.hop_back(T, geo, p, slot)
            grid[p] |= 1 << slot
            grid[nb] = visited | (1 << back)
            if recording:
                t = record(trace, t, gk.to_cell(T, geo, np.int64(nb)), CARVE, back)
            remaining -= 1
            tick(src, 1)
        at = to
    return t


@njit(cache=True, nogil=True)
def _many(out, geo, mask, roots, srcs, n_cells, trace, T):  # pragma: no cover
    """:func:`_aldous_broder` on maze after maze, the fast layout made and copied out inside (the
    front door lays it out with numpy, and so compiles none of this on a first run)."""
    s = gk.high(T)  # the state bits a byte up in a two-byte layout
    blank = gk.lay_out(T, geo, mask, 0, BLOCKED << s)  # laid out once, copied for each maze
    grid = np.empty_like(blank)
    for k in range(out.shape[0]):
        grid[:] = blank
        _aldous_broder(grid, geo, roots[k], gk.to_fast(T, geo, roots[k]), n_cells, srcs[k], trace, T)
        gk.copy_out(T, geo, grid, (VISITED << s) - 1, out[k])


def aldous_broder(
    grid: Grid, rng: np.random.Generator, *, root: tuple[int, int] | None = None, record: bool = False
) -> Carved:
    """Carve a uniform spanning-tree maze on ``grid`` with the Aldous-Broder random walk.

    Only the carving steps are traced (one ``CARVE`` per cell after the root's ``VISIT``): the
    walk itself can be billions of steps long.

    Parameters
    ----------
    root : (int, int), optional
        The cell carving starts from, e.g. ``(0, 0)`` as the turtle tutorial does
        (``-O root=0,0``); a random cell by default.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grids import RectGrid
    >>> out = aldous_broder(RectGrid((4, 5)), np.random.default_rng(0), record=True)
    >>> int((out.passages > 0).sum()), out.trace.shape
    (20, (20, 3))
    """
    grid.check_connected()  # a walk could never reach a second region: refuse, don't hang
    passages, trace = buffers(grid, record, 1)
    first = start_cell(grid, rng, root)
    fast = grid.kernel_topology()
    with draws(rng, grid.n_cells - 1, steady=False) as src:  # fast at first, slow at the end
        rest = (grid.n_cells, src, trace, fast)
        used = carve_fast(_aldous_broder, grid, fast, first, BLOCKED, VISITED - 1, passages, *rest)
    return carved(grid, passages, trace, used)


def many(out: np.ndarray, grid: Grid, srcs: np.ndarray, roots: np.ndarray) -> None:
    """:func:`aldous_broder` maze after maze in one compiled call: the door to many mazes
    (:func:`mazekit.generate.many_door` says what it takes and gives)."""
    grid.check_connected()  # as aldous_broder: a walk could never reach a second region
    geo, mask = grid.kernel_args()
    _many(out, geo, mask, roots, srcs, grid.n_cells, tr.empty(), grid.kernel_topology())
