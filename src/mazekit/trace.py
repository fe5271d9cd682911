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

:func:`mazekit.replay.replay` rebuilds the passages after any number of events; a
:class:`mazekit.replay.Replay` cursor steps through a trace keeping every cell's state too
(what the animations, the game window and the web page show).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .grids import Grid
from .grids import kernel as k

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


@njit(cache=True, nogil=True)
def _open_room(passages, geo, mask):  # pragma: no cover - compiled
    masked = mask.shape[0] != 0
    for cell in range(passages.shape[0]):
        if masked and mask[cell] == 0:
            continue
        for slot in range(k.n_slots(geo[0])):
            nb = k.step(geo, cell, slot)
            if nb >= 0 and not (masked and mask[nb] == 0):
                passages[cell] |= np.uint8(1 << slot)


def open_room(grid: Grid) -> np.ndarray:
    """Passages of a grid with every inner wall removed (``uint8``, ``grid.shape``)."""
    p = np.zeros(grid.size, dtype=np.uint8)
    _open_room(p, *grid.kernel_args())
    return p.reshape(grid.shape)
