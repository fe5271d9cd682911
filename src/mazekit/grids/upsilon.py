"""The upsilon grid: octagons and squares (the truncated square tiling).

Cell ``(row, col)`` is an octagon when ``row + col`` is even, with eight slots N, NE, E, SE,
S, SW, W, NW; the others are small squares with the four slots N, E, S, W (0, 2, 4, 6).
Octagons meet diagonally, so a maze can run at 45 degrees. Walter Pullen, *Think Labyrinth*.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from . import kernel as k
from .base import Grid

D = 1 / np.sqrt(2)  # an octagon's half width, so that all its sides are equal
S = 1 - D  # a square's half width


class UpsilonGrid(Grid):
    """A grid of octagons and squares, ``shape = (rows, cols)``, optionally masked.

    Examples
    --------
    >>> g = UpsilonGrid((3, 3))
    >>> g.neighbor((0, 0), 3), g.neighbor((0, 1), 3)
    ((1, 1), None)
    """

    kind: ClassVar[str] = "upsilon"
    code: ClassVar[int] = k.UPSILON
    slot_names: ClassVar[tuple[str, ...]] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    planar: ClassVar[bool | None] = True
    compass_names: ClassVar[tuple[str, ...]] = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
    straight: ClassVar[tuple[tuple[int, int], ...] | None] = ((0, 4), (1, 5), (2, 6), (3, 7))
    walk_help: ClassVar[tuple[str, ...] | None] = (
        "Q W E, A D, Z X C\tplay: walk NW N NE, W E, SW S SE", "arrows\tplay: walk towards that side",
    )  # fmt: skip
    parity: ClassVar[str] = "checker"
    offsets: ClassVar = (  # N NE E SE S SW W NW
        ((-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)),  # octagons
        ((-1, 0), None, (0, 1), None, (1, 0), None, (0, -1), None),  # squares: no diagonals
    )

    def layout_extent(self) -> tuple[float, float]:
        return float(self.cols - 1 + 2 * D), float(self.rows - 1 + 2 * D)

    def plane_points(self) -> tuple[np.ndarray, tuple[float, float]]:
        r, c = np.divmod(np.arange(self.size), self.cols)
        return np.stack([D + c, D + r], 1).astype(float), self.layout_extent()

    def _outline(self) -> tuple[np.ndarray, np.ndarray]:
        r, c = np.divmod(np.arange(self.size), self.cols)
        x = D + c
        y = D + r
        octagon = (r + c) % 2 == 0
        # corners clockwise from the left end of the north side
        ox = np.array([-S, S, D, D, S, -S, -D, -D])
        oy = np.array([-D, -D, -S, S, D, D, S, -S])
        sx = np.array([-S, S, S, S, S, -S, -S, -S])
        sy = np.array([-S, -S, -S, S, S, S, S, -S])
        px = np.where(octagon[:, None], ox, sx) + x[:, None]
        py = np.where(octagon[:, None], oy, sy) + y[:, None]
        polys = np.stack([px, py], axis=2)
        walls = np.stack([polys[:, [i, (i + 1) % 8]] for i in range(8)], axis=1)
        walls[~octagon, 1::2] = np.nan  # squares have no diagonal slots
        return polys, walls
