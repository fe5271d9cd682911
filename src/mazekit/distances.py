"""Distances through a maze's passages (breadth-first), for ends, statistics and heat maps."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from .grids import Cell
from .grids import kernel as k

if TYPE_CHECKING:
    from .maze import Maze


@njit(cache=True, nogil=True)
def _distances(passages, geo, source):  # pragma: no cover - compiled
    n = passages.shape[0]
    dist = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    dist[source] = 0
    queue[0] = source
    head, tail = 0, 1
    while head < tail:
        cell = queue[head]
        head += 1
        bits = passages[cell]
        for slot in range(k.n_slots(geo[0])):
            if bits >> slot & 1:
                nb = k.through(geo, cell, slot)
                if dist[nb] < 0:
                    dist[nb] = dist[cell] + 1
                    queue[tail] = nb
                    tail += 1
    return dist


def distance_map(maze: Maze, source: Cell) -> np.ndarray:
    """Steps from ``source`` to every cell; -1 where unreachable or masked out.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("kruskal", (4, 4), rng=3)
    >>> d = distance_map(m, (0, 0))
    >>> int(d[0, 0]), bool((d >= 0).all())
    (0, True)
    """
    r, c = maze.grid.check_cell(source, "source")
    flat = _distances(maze.passages.ravel(), maze.grid.geo, r * maze.grid.cols + c)
    return flat.reshape(maze.shape)


def farthest_pair(maze: Maze, anchor: Cell | None = None) -> tuple[Cell, Cell]:
    """The two cells farthest apart (the diameter of a perfect maze), by two sweeps of BFS."""
    grid = maze.grid
    a = anchor if anchor is not None else grid.unflat(int(grid.cell_indices()[0]))
    d = distance_map(maze, a)
    u = grid.unflat(int(np.argmax(d)))
    d2 = distance_map(maze, u)
    v = grid.unflat(int(np.argmax(d2)))
    return u, v


#: The compiled BFS distance kernel, for kernels of other families.
distances_kernel = _distances
