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

from ..grids import Grid
from ..grids import kernel as gk
from ..kernels.draw import draws, take_bits, tick
from ..trace import CARVE, VISIT, record
from ._common import Carved, buffers, carve_fast, carved, random_cell

TRACE_BYTES_PER_CELL = 12  # one event (12 bytes) per cell
BYTES_PER_CELL = 2  # passages + one state byte (next direction, or "in the maze")
PADDED_BYTES = 1  # its padded layout: a byte a cell (see registry.memory_per_cell)
UNIFORM = True

IN_MAZE = 8  # state value; 0..7 are next directions (slots)
BLOCKED = 9  # padded layout: the border and masked cells


@njit(cache=True, nogil=True)
def _side_of_crossing(geo, state, start):  # pragma: no cover - compiled
    """Whether the loop-erased path from ``start`` tunnels under the maze cell it ends at and
    then enters that cell from the side (weave grids only): carved, it would open a side of
    a cell a tunnel runs under. The walk is then made again from ``start``."""
    if not gk.tunnels(geo[0]):
        return False
    before, prev, cell = -1, -1, start
    while state[cell] != IN_MAZE:
        before, prev, cell = prev, cell, gk.through(geo, cell, state[cell])
    last = state[prev]  # the step into the maze, from prev (the path has one at least)
    # the path came to prev from across the maze cell: a tunnel under it (two cells apart in
    # a line, so no other step could join them)
    return last < 4 and before >= 0 and before == gk.step(geo, prev, last | 4)


@njit(cache=True, nogil=True)
def _wilson(passages, geo, mask, root, src, trace):  # pragma: no cover
    n = passages.shape[0]
    masked = mask.shape[0] != 0
    cols = geo[2]
    n_slot = gk.n_slots(geo[0])
    width = 2 if n_slot <= 4 else 3  # random bits a step (gk.walk_slot names the slot)
    state = np.zeros(n, dtype=np.uint8)  # next direction while walking; IN_MAZE once carved
    state[root] = IN_MAZE
    t = record(trace, 0, root, VISIT, -1)
    bits = 0
    left = 0
    for start in range(n):
        if state[start] == IN_MAZE or (masked and mask[start] == 0):
            continue
        # Walk until the maze is hit, remembering only the last exit from each cell. A slot
        # that leaves the grid is a step that stays put: the cells entered follow the simple
        # random walk exactly, so the loop-erased path has Wilson's law.
        cell = start
        r = start // cols
        c = start - r * cols
        while state[cell] != IN_MAZE or _side_of_crossing(geo, state, start):
            if state[cell] == IN_MAZE:  # (weave) the path would cross under its last cell: again
                cell = start
                r = start // cols
                c = start - r * cols
            v, bits, left = take_bits(src, bits, left, width)
            slot = gk.walk_slot(geo, r, v)
            if slot >= n_slot:  # a draw past the slots stays put
                continue
            nr, nc = gk.move(geo, r, c, slot)
            if nr < 0:
                continue
            nb = nr * cols + nc
            if (masked and mask[nb] == 0) or not gk.tunnel_ok(geo, passages, cell, slot, nb):
                continue
            state[cell] = slot
            cell = nb
            r = nr
            c = nc
        # Carve the loop-erased path: follow the last exits from the start.
        cell = start
        while state[cell] != IN_MAZE:
            slot = state[cell]
            nb = gk.through(geo, cell, slot)
            passages[cell] |= 1 << slot
            passages[nb] |= 1 << gk.back(geo, cell, slot)
            state[cell] = IN_MAZE
            tick(src, 1)
            t = record(trace, t, cell, CARVE, slot)
            cell = nb
    return t


@njit(cache=True, nogil=True)
def _wilson_padded(state, geo, root, p, passages, src, trace, T):  # pragma: no cover
    """:func:`_wilson` on the fast topology ``T`` (:meth:`~mazekit.grids.Grid.fast_topology`:
    the padded layout's offsets, or a polar grid's ring table), the same maze for the
    same draws: a step is a few operations on the walk's position
    (:func:`~mazekit.grids.kernel.walk_try`) and one byte read, the border, masked cells and
    the ring table's sentinel being ``BLOCKED``. ``state`` is the fast layout's bytes
    (:func:`~mazekit.grids.kernel.fast_layout`) and ``p`` the fast index of ``root``."""
    rows, cols = geo[1], geo[2]
    n_slot = gk.n_slots(geo[0])
    width = 2 if n_slot <= 4 else 3
    off1 = gk.flat(T)
    cell_off = gk.pad_offsets(geo, cols)
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
                if entered == BLOCKED or not gk.tunnel_open(T, geo, passages, at[0], slot):
                    continue
                state[np.uint64(at[0])] = slot
                at = to
                if entered == IN_MAZE:
                    break
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
def _wilson_whole(passages, geo, mask, root, src, trace, T):  # pragma: no cover
    """:func:`_wilson_padded` with the fast layout made inside, for drivers
    that make many mazes in one compiled call (the front door lays it out with numpy:
    :func:`~mazekit.generate._common.carve_fast`)."""
    state = gk.lay_out(T, geo, mask, 0, BLOCKED)
    return _wilson_padded(state, geo, root, gk.to_fast(T, geo, root), passages, src, trace, T)


def wilson(grid: Grid, rng: np.random.Generator, *, record: bool = False) -> Carved:
    """Carve a uniform spanning-tree maze on ``grid`` with Wilson's algorithm.

    The trace holds the root's ``VISIT`` and one ``CARVE`` per other cell, path by path in
    the order the loop-erased walks joined the maze (the erased walking is not traced).

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
    root = random_cell(grid, rng)
    fast = grid.kernel_topology()
    with draws(rng, grid.n_cells - 1, steady=False) as src:  # slow at first, fast at the end
        if fast is not None:
            used = carve_fast(
                _wilson_padded, grid, fast, root, BLOCKED, None, passages, passages, src, trace, fast
            )
        else:
            used = _wilson(passages, *grid.kernel_args(), root, src, trace)
    return carved(grid, passages, trace, used)


#: The compiled kernels under public names, for drivers that run many mazes in one
#: compiled call (:mod:`mazekit.dataset.batch`); the arguments are those this module passes.
kernel = _wilson
kernel_padded = _wilson_whole
