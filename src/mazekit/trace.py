"""Event codes of the traces that kernels record for replay and animation.

A trace is an ``int32`` array of shape ``(n, 3)``; each row is ``(cell, event, arg)`` with
``cell`` a flat cell index (``row * cols + col``).

``CARVE``
    ``cell`` joined the maze: the passage from ``cell`` through slot ``arg`` was opened.
``VISIT``
    ``cell`` became the current cell (a generator's root or head, a solver's expansion).
``BACKTRACK``
    ``cell`` was left for good (popped from a stack, retired from a frontier).
``FRONTIER``
    ``cell`` was added to a frontier or queue.
``OPEN``
    a wall was removed between ``cell`` and its slot-``arg`` neighbour without either
    cell being new (Kruskal, transforms).
``CLOSE``
    a wall was put up between ``cell`` and its slot-``arg`` neighbour (recursive division,
    which starts from an open room: its module sets ``STARTS_OPEN = True``); with ``arg``
    -1, ``cell`` itself turned to rock (cave automata).

:func:`replay` rebuilds the passages after any number of events, which is all an animation
needs.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .grid import OPPOSITE, RectGrid, neighbor

CARVE = 0
VISIT = 1
BACKTRACK = 2
FRONTIER = 3
OPEN = 4
CLOSE = 5

NAMES = {
    CARVE: "carve",
    VISIT: "visit",
    BACKTRACK: "backtrack",
    FRONTIER: "frontier",
    OPEN: "open",
    CLOSE: "close",
}


def empty() -> np.ndarray:
    """A zero-length trace: kernels given one record nothing."""
    return np.zeros((0, 3), dtype=np.int32)


def allocate(capacity: int) -> np.ndarray:
    """A trace buffer with room for ``capacity`` events."""
    return np.zeros((capacity, 3), dtype=np.int32)


@njit(cache=True, inline="always")
def record(trace, t, cell, event, arg):  # pragma: no cover - compiled
    """Write one event at row ``t`` if there is room; return the next row."""
    if t < trace.shape[0]:
        trace[t, 0] = cell
        trace[t, 1] = event
        trace[t, 2] = arg
        return t + 1
    return t


@njit(cache=True)
def _replay(passages, rows, cols, mask, trace, upto):  # pragma: no cover - compiled
    for i in range(upto):
        cell, event, slot = trace[i, 0], trace[i, 1], trace[i, 2]
        if slot < 0 or (event != CARVE and event != OPEN and event != CLOSE):
            continue
        nb = neighbor(rows, cols, mask, cell, slot)
        if nb < 0:
            continue
        if event == CLOSE:
            passages[cell] &= ~np.uint8(1 << slot)
            passages[nb] &= ~np.uint8(1 << OPPOSITE[slot])
        else:
            passages[cell] |= np.uint8(1 << slot)
            passages[nb] |= np.uint8(1 << OPPOSITE[slot])


def open_room(grid: RectGrid) -> np.ndarray:
    """Passages of a grid with every inner wall removed (``uint8``, ``grid.shape``)."""
    rows, cols, mask = grid.kernel_args()
    p = np.zeros(grid.size, dtype=np.uint8)
    exists = np.ones(grid.size, bool) if mask.size == 0 else mask.astype(bool)
    for slot in range(4):
        cells = np.flatnonzero(exists)
        r, c = cells // cols, cells % cols
        ok = {0: r > 0, 1: c < cols - 1, 2: r < rows - 1, 3: c > 0}[slot]
        nb = cells + (-cols, 1, cols, -1)[slot]
        ok &= exists[np.where(ok, nb, 0)]
        p[cells[ok]] |= np.uint8(1 << slot)
    return p.reshape(grid.shape)


def replay(
    trace: np.ndarray, grid: RectGrid, upto: int | None = None, *, starts_open: bool = False
) -> np.ndarray:
    """The passages after the first ``upto`` events of a generator's trace (all by default).

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("prim", (5, 5), rng=1, record=True)
    >>> bool((replay(m.trace, m.grid) == m.passages).all())
    True
    """
    p = open_room(grid) if starts_open else np.zeros(grid.shape, dtype=np.uint8)
    n = trace.shape[0] if upto is None else min(int(upto), trace.shape[0])
    _replay(p.ravel(), *grid.kernel_args(), trace, n)
    return p
