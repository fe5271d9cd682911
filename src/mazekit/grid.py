"""The rectangular grid's slot tables, for the code that is rect-only by nature.

Text art, the block picture and the row-based generators (binary tree, sidewinder, Eller,
recursive division) work on rectangles: they use these tables. Everything else asks the
grid (:mod:`mazekit.grids`), which knows every shape.
"""

from __future__ import annotations

import numpy as np

from .grids import Cell, Grid, RectGrid, as_grid, make_grid
from .grids.rect import MASK_OFF_CHARS, E, N, S, W

SLOTS = ("N", "E", "S", "W")
BITS = np.array([1, 2, 4, 8], dtype=np.uint8)
OPPOSITE = np.array([2, 3, 0, 1], dtype=np.int64)
DROW = np.array([-1, 0, 1, 0], dtype=np.int64)
DCOL = np.array([0, 1, 0, -1], dtype=np.int64)


def require_rect(grid: Grid, what: str) -> RectGrid:
    """``grid`` if it is a plain rectangle (no wrap), else ``ValueError`` naming ``what``."""
    if not isinstance(grid, RectGrid) or grid.wrap:
        shape = grid.kind if not isinstance(grid, RectGrid) else f"wrapped ({grid.wrap})"
        raise ValueError(f"{what} works on rect grids only, not on a {shape} grid")
    return grid


__all__ = [
    "BITS", "DCOL", "DROW", "MASK_OFF_CHARS", "OPPOSITE", "SLOTS", "Cell", "E", "Grid", "N",
    "RectGrid", "S", "W", "as_grid", "make_grid", "require_rect",
]  # fmt: skip
