"""Opening and closing one wall, on both sides, inside compiled kernels (every grid)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grids import kernel as k


@njit(cache=True, inline="always")
def open_wall(passages, geo, cell, slot):  # pragma: no cover - compiled
    """Open the wall through ``slot`` of ``cell`` on both sides (the neighbour must exist)."""
    nb = k.through(geo, cell, slot)
    passages[cell] |= np.uint8(1 << slot)
    passages[nb] |= np.uint8(1 << k.back(geo, cell, slot))
    return nb


@njit(cache=True, inline="always")
def close_wall(passages, geo, cell, slot):  # pragma: no cover - compiled
    """Put up the wall through ``slot`` of ``cell`` on both sides (the passage must be open)."""
    nb = k.through(geo, cell, slot)
    passages[cell] &= ~np.uint8(1 << slot)
    passages[nb] &= ~np.uint8(1 << k.back(geo, cell, slot))
    return nb
