"""Randomized Kruskal: join cells along shuffled walls, never closing a loop.

1. List every interior wall (each cell's east and south wall) and shuffle the list.
2. For each wall in turn, if the cells on its two sides are in different sets (a
   union-find forest), open it and merge the sets.
3. Stop after cells-1 walls are open.

Mazes have many short dead ends (about 30% of cells) and no directional bias, but they
are not exactly uniform. Memory is the largest of the classic set (the wall list).

On a weave grid, crossings are placed first (Buck's method): each inner cell, with
probability ``crossings``, becomes a bridge if it and its four neighbours are still apart:
a straight corridor through it one way and a tunnel under it the other, both merged into the
sets; Kruskal then joins the rest through plain walls only, never along a tunnel's axis.
Reference: J. B. Kruskal (1956); J. Buck, *Mazes for Programmers* (2015), ch. 9 and 11.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._memory import index_dtype
from ..grids import GRIDS as GRIDS_ALL
from ..grids import Grid
from ..grids import kernel as gk
from ..kernels.union_find import find, union
from ..trace import OPEN, record
from ._common import Carved, buffers, carved, max_edges

BYTES_PER_CELL = 17  # on a rect grid: passages + 2 int32 walls + int32 parent + int32 size
GRIDS = tuple(GRIDS_ALL)  # weave too: crossings are placed first, then joined like any wall


def bytes_per_cell(grid: Grid) -> int:
    """Peak bytes per cell on ``grid``: one int32 wall per neighbouring pair."""
    return 9 + 4 * ((grid.n_slots + 1) // 2)


@njit(cache=True)
def _walls(geo, mask, walls):  # pragma: no cover
    """Fill ``walls`` with ``cell * slots + slot`` for each neighbouring pair, once (from the
    lower cell); return how many. On a weave grid only plain walls: tunnels are crossings'."""
    n_slot = gk.n_slots(geo[0])
    n_plain = 4 if geo[0] == gk.WEAVE else n_slot
    masked = mask.shape[0] != 0
    m = 0
    for cell in range(geo[1] * geo[2]):
        if masked and mask[cell] == 0:
            continue
        for slot in range(n_plain):
            nb = gk.step(geo, cell, slot)
            if nb > cell and not (masked and mask[nb] == 0):
                walls[m] = cell * n_slot + slot
                m += 1
    return m


@njit(cache=True)
def _place_crossings(passages, geo, parent, size, crossings, rng, trace):  # pragma: no cover
    """Make bridges on a weave grid; ``under`` gets 1 where a tunnel runs N-S under a cell,
    2 where it runs E-W. Return the crossings' share of joins, ``under`` and the trace row."""
    rows, cols = geo[1], geo[2]
    under = np.zeros(passages.shape[0], dtype=np.uint8)
    joined, t = 0, 0
    for r in range(1, rows - 1):
        for c in range(1, cols - 1):
            cell = r * cols + c
            if passages[cell] != 0 or rng.random() >= crossings:
                continue
            n, e, s, w = cell - cols, cell + 1, cell + cols, cell - 1
            roots = (find(parent, n), find(parent, e), find(parent, s), find(parent, w), find(parent, cell))
            distinct = True
            for i in range(5):
                for j in range(i + 1, 5):
                    distinct = distinct and roots[i] != roots[j]
            if not distinct:
                continue
            vertical_tunnel = rng.random() < 0.5
            a, b, x, y = (w, e, n, s) if vertical_tunnel else (n, s, w, e)
            over = 1 if vertical_tunnel else 2  # the slot from ``a`` to the cell to ``b``: E or S
            passages[a] |= 1 << over
            passages[cell] |= (1 << over) | (1 << ((over + 2) & 3))
            passages[b] |= 1 << ((over + 2) & 3)
            tunnel = 6 if vertical_tunnel else 5  # from ``x`` under the cell to ``y``: S or E
            passages[x] |= 1 << tunnel
            passages[y] |= 1 << gk.back(geo, x, tunnel)
            union(parent, size, a, cell)
            union(parent, size, cell, b)
            union(parent, size, x, y)
            under[cell] = 1 if vertical_tunnel else 2
            joined += 3
            t = record(trace, t, a, OPEN, over)
            t = record(trace, t, cell, OPEN, over)
            t = record(trace, t, x, OPEN, tunnel)
    return joined, under, t


@njit(cache=True)
def _kruskal(passages, geo, mask, walls, n_cells, crossings, rng, trace):  # pragma: no cover
    m = _walls(geo, mask, walls)
    n_slot = gk.n_slots(geo[0])
    parent = np.arange(passages.shape[0]).astype(walls.dtype)
    size = np.ones(passages.shape[0], dtype=walls.dtype)
    joined, t = 0, 0
    weave = geo[0] == gk.WEAVE
    if weave:
        joined, under, t = _place_crossings(passages, geo, parent, size, crossings, rng, trace)
    for i in range(m):  # lazy Fisher-Yates: shuffle only as far as needed
        if joined == n_cells - 1:
            break
        j = i + int(rng.random() * (m - i))
        wall = walls[j]
        walls[j] = walls[i]
        cell = wall // n_slot
        slot = wall - cell * n_slot
        nb = gk.step(geo, cell, slot)
        if weave and (under[cell] == 1 + (slot & 1) or under[nb] == 1 + (slot & 1)):
            continue  # a tunnel runs under along this wall's axis
        if not union(parent, size, cell, nb):
            continue
        passages[cell] |= 1 << slot
        passages[nb] |= 1 << gk.back(geo, cell, slot)
        joined += 1
        t = record(trace, t, cell, OPEN, slot)
    return t


def kruskal(grid: Grid, rng: np.random.Generator, *, crossings: float = 0.3, record: bool = False) -> Carved:
    """Carve a perfect maze on ``grid`` by randomized Kruskal.

    Parameters
    ----------
    crossings : float
        On a weave grid, the chance that each inner cell is tried as a crossing (0 to 1);
        ignored on other grids.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grids import RectGrid
    >>> out = kruskal(RectGrid((1, 4)), np.random.default_rng(0))
    >>> out.passages.tolist()
    [[2, 10, 10, 8]]
    """
    if not 0.0 <= float(crossings) <= 1.0:
        raise ValueError(f"kruskal crossings must be between 0 and 1, got {crossings}")
    passages, trace = buffers(grid, record, 1)
    walls = np.empty(max_edges(grid), dtype=index_dtype(grid.size * grid.n_slots))
    used = _kruskal(passages, *grid.kernel_args(), walls, grid.n_cells, float(crossings), rng, trace)
    return carved(grid, passages, trace, used)
