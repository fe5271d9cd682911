"""The weave grid: a rectangle whose passages may cross under one another.

Slots N, E, S, W, then the same four passing *under* the next cell to the one beyond. A
tunnel may only pass under a cell that is a straight corridor across it: ``kruskal`` places
its crossings first, as in *Mazes for Programmers*, ch. 9, and the generators that grow one
maze cell by cell take a tunnel where their step finds one
(:func:`mazekit.grids.kernel.tunnel_ok`), as the book's backtracker does. Solvers,
transforms that keep the crossings, and pictures work as on any grid.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from . import kernel as k
from .base import Grid, check_shape
from .rect import square_centres, square_outline


class WeaveGrid(Grid):
    """A rectangle of ``shape = (rows, cols)`` cells whose passages may cross under others.

    Examples
    --------
    >>> g = WeaveGrid((3, 3))
    >>> g.n_slots, g.neighbor((1, 0), 5)
    (8, (1, 2))
    """

    kind: ClassVar[str] = "weave"
    code: ClassVar[int] = k.WEAVE
    slot_names: ClassVar[tuple[str, ...]] = ("N", "E", "S", "W", "under N", "under E", "under S", "under W")
    planar: ClassVar[bool | None] = False  # a tunnel's slot is not the drawing's order
    tunnel_slots: ClassVar[int] = 4
    padded: ClassVar[bool] = True  # two blocked rows above and below: a tunnel's reach
    #: a passage or a tunnel, straight on through its side or the other of the two
    straight: ClassVar[tuple[tuple[int, int], ...] | None] = tuple(
        (a, b) for a in range(8) for b in range(a + 1, 8) if (a & 3) == ((b + 2) & 3)
    )
    walk_help: ClassVar[tuple[str, ...] | None] = ("arrows / WASD\tplay: walk, over or under a crossing",)

    def __init__(self, shape: tuple[int, int], mask: Any = None, *, require_connected: bool = True) -> None:
        self.rows, self.cols = check_shape(shape)
        self._set_mask(mask, require_connected)

    def layout_extent(self) -> tuple[float, float]:
        return float(self.cols), float(self.rows)

    def plane_points(self) -> tuple[np.ndarray, tuple[float, float]]:
        return square_centres(self.rows, self.cols), self.layout_extent()

    def region_geo(self) -> tuple[int, int, int, int]:
        """A rectangle's: a tunnel passes only under a cell that exists, whose sides join
        the cells at its two ends anyway."""
        return (k.RECT, self.rows, self.cols, 0)

    def neighbor(self, cell: tuple[int, int], slot: int) -> tuple[int, int] | None:
        """As on any grid, but no tunnel runs under a cell the mask switched off."""
        nb = super().neighbor(cell, slot)
        if nb is not None and not k.bridged(
            self.geo, self.kernel_args()[1], self.flat(cell), int(slot), self.flat(nb)
        ):
            return None
        return nb

    def _outline(self) -> tuple[np.ndarray, np.ndarray]:
        polys, square = square_outline(self.rows, self.cols)
        walls = np.full((self.size, 8, 2, 2), np.nan)
        walls[:, :4] = square
        return polys, walls

    def open_sides(self, passages: np.ndarray) -> np.ndarray:
        """A tunnel leaves through the side it starts from."""
        p = np.asarray(passages)
        return (p | (p >> 4)) & 15
