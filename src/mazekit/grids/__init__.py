"""Grids: which cells exist, who neighbours whom, and where each cell is drawn.

Every grid lays its cells out in a ``(rows, cols)`` array and numbers them
``row * cols + col``; a maze stores one byte per cell, bit ``k`` open when the passage
through slot ``k`` is. Kernels see a grid only as ``grid.kernel_args()`` and ask
:mod:`mazekit.grids.kernel` for neighbours, so a graph algorithm written once runs on every
grid here. To add a grid whose neighbours are fixed steps: a module with its class (its
``offsets``, and its drawing in ``_outline``) and a line in :data:`GRIDS` (see docs/grids.md,
"Adding a grid").

Examples
--------
>>> from mazekit.grids import make_grid
>>> make_grid("hex", (4, 5)).n_slots, make_grid("polar", (3, 8)).counts.tolist()
(6, [8, 8, 16])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .base import Cell, Grid, check_shape
from .cube import CubeGrid
from .hex import HexGrid
from .polar import PolarGrid
from .rect import RectGrid
from .triangle import TriangleGrid
from .upsilon import UpsilonGrid
from .weave import WeaveGrid

GRIDS: dict[str, type[Grid]] = {
    "rect": RectGrid,
    "hex": HexGrid,
    "triangle": TriangleGrid,
    "polar": PolarGrid,
    "upsilon": UpsilonGrid,
    "3d": CubeGrid,
    "weave": WeaveGrid,
}


def grid_class(kind: str) -> type[Grid]:
    """``GRIDS[kind]``, or ``ValueError`` listing the grids there are."""
    try:
        return GRIDS[kind]
    except (KeyError, TypeError):
        raise ValueError(f"unknown grid {kind!r}; choose from {', '.join(GRIDS)}") from None


def make_grid(kind: str = "rect", shape: Any = (10, 10), *, mask: Any = None, wrap: Any = None) -> Grid:
    """A grid of ``kind`` and ``shape``; ``mask`` cuts it, ``wrap`` joins a rectangle's edges.

    ``shape`` is ``(rows, cols)``, ``(rings, inner cells)`` for ``polar`` and
    ``(levels, rows, cols)`` for ``3d``.
    """
    cls = grid_class(kind)
    if wrap not in (None, "", "none") and cls is not RectGrid:
        raise ValueError(f"only rect grids wrap around, not {kind} grids")
    if cls is RectGrid:
        return RectGrid(shape, mask=mask, wrap=wrap)
    return cls(shape, mask=mask)


def as_grid(shape: Any, grid: str | None = None, **params: Any) -> Grid:
    """A grid from a shape (with ``grid`` naming its kind), a boolean mask array, or a grid."""
    if isinstance(shape, Grid):
        if grid is not None and grid != shape.kind:
            raise ValueError(f"grid={grid!r} but the shape given is a {shape.kind} grid")
        return shape
    if isinstance(shape, np.ndarray) and shape.ndim == 2 and shape.dtype == bool:
        if grid is not None and not grid_class(grid).layout_is_shape:  # the array cannot say its shape
            raise ValueError(
                f"a boolean array gives the shape of a rect, hex, triangle, upsilon or weave grid; "
                f"for a {grid} grid pass the grid, e.g. make_grid({grid!r}, shape, mask=...)"
            )
        return make_grid(grid or "rect", shape.shape, mask=shape, **params)
    return make_grid(grid or "rect", shape, **params)


def flat_kinds() -> tuple[str, ...]:
    """The grid kinds that lie flat, their slots in the order drawn (a rect only unwrapped).

    >>> flat_kinds()
    ('rect', 'hex', 'triangle', 'polar', 'upsilon')
    """
    return tuple(kind for kind, cls in GRIDS.items() if cls.lies_flat())


def from_dict(d: Any) -> Grid:
    """A grid from what :meth:`Grid.to_dict` wrote."""
    if not isinstance(d, dict):
        raise ValueError(f"grid must be an object, got {type(d).__name__}")
    kind = d.get("type")
    if not isinstance(kind, str) or kind not in GRIDS:
        raise ValueError(f"unknown grid type {kind!r}; this version knows {', '.join(GRIDS)}")
    return GRIDS[kind].from_dict(d)


__all__ = [
    "GRIDS",
    "Cell",
    "Grid",
    "as_grid",
    "check_shape",
    "flat_kinds",
    "from_dict",
    "grid_class",
    "make_grid",
]
__all__ += [cls.__name__ for cls in GRIDS.values()]
