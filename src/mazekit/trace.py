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
"""

from __future__ import annotations

import numpy as np
from numba import njit

CARVE = 0
VISIT = 1
BACKTRACK = 2
FRONTIER = 3
OPEN = 4

NAMES = {CARVE: "carve", VISIT: "visit", BACKTRACK: "backtrack", FRONTIER: "frontier", OPEN: "open"}


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
