"""Randomized Kruskal: join cells along shuffled walls, never closing a loop.

1. List every interior wall (each cell's east and south wall) and shuffle the list.
2. For each wall in turn, if the cells on its two sides are in different sets (a
   union-find forest), open it and merge the sets.
3. Stop after cells-1 walls are open.

Mazes have many short dead ends (about 30% of cells) and no directional bias, but they
are not exactly uniform. Memory is the largest of the classic set (the wall list).
Reference: J. B. Kruskal (1956); J. Buck, *Mazes for Programmers* (2015), ch. 11.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._memory import index_dtype
from ..grid import OPPOSITE, RectGrid, neighbor
from ..trace import OPEN, record
from ._common import Carved, buffers, carved

BYTES_PER_CELL = 17  # passages + 2 int32 walls + int32 parent + int32 size


@njit(cache=True)
def _walls(rows, cols, mask, walls):  # pragma: no cover
    """Fill ``walls`` with ``cell * 2 + (0 for east, 1 for south)``; return how many."""
    m = 0
    for cell in range(rows * cols):
        if mask.shape[0] != 0 and mask[cell] == 0:
            continue
        if neighbor(rows, cols, mask, cell, 1) >= 0:
            walls[m] = cell * 2
            m += 1
        if neighbor(rows, cols, mask, cell, 2) >= 0:
            walls[m] = cell * 2 + 1
            m += 1
    return m


@njit(cache=True)
def _find(parent, a):  # pragma: no cover
    while parent[a] != a:
        parent[a] = parent[parent[a]]  # path halving
        a = parent[a]
    return a


@njit(cache=True)
def _kruskal(passages, rows, cols, mask, walls, n_cells, rng, trace):  # pragma: no cover
    m = _walls(rows, cols, mask, walls)
    parent = np.arange(passages.shape[0]).astype(walls.dtype)
    size = np.ones(passages.shape[0], dtype=walls.dtype)
    joined, t = 0, 0
    for i in range(m):  # lazy Fisher-Yates: shuffle only as far as needed
        if joined == n_cells - 1:
            break
        j = i + int(rng.random() * (m - i))
        wall = walls[j]
        walls[j] = walls[i]
        cell = wall >> 1
        slot = 1 + (wall & 1)
        nb = cell + 1 if slot == 1 else cell + cols
        a, b = _find(parent, cell), _find(parent, nb)
        if a == b:
            continue
        if size[a] < size[b]:
            a, b = b, a
        parent[b] = a
        size[a] += size[b]
        passages[cell] |= 1 << slot
        passages[nb] |= 1 << OPPOSITE[slot]
        joined += 1
        t = record(trace, t, cell, OPEN, slot)
    return t


def kruskal(grid: RectGrid, rng: np.random.Generator, *, record: bool = False) -> Carved:
    """Carve a perfect maze on ``grid`` by randomized Kruskal.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grid import RectGrid
    >>> out = kruskal(RectGrid((1, 4)), np.random.default_rng(0))
    >>> out.passages.tolist()
    [[2, 10, 10, 8]]
    """
    passages, trace = buffers(grid, record, 1)
    walls = np.empty(2 * grid.size, dtype=index_dtype(2 * grid.size))
    used = _kruskal(passages, *grid.kernel_args(), walls, grid.n_cells, rng, trace)
    return carved(grid, passages, trace, used)
