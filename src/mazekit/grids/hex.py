"""The hexagonal grid (sigma): six slots N, NE, SE, S, SW, NW.

Flat-topped hexagons in columns; odd columns sit half a cell lower. This is the layout of
Jamis Buck's theseus and of *Mazes for Programmers*, ch. 7. Cells are ``(row, col)`` of that
layout, so a hex maze is stored, masked and saved like a rectangular one.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from . import kernel as k
from .base import Grid

A = 1 / np.sqrt(3)  # circumradius, so that a hexagon is exactly 1 tall
H = 1.0


class HexGrid(Grid):
    """A grid of flat-topped hexagons, ``shape = (rows, cols)``, optionally masked.

    Examples
    --------
    >>> g = HexGrid((3, 4))
    >>> g.n_slots, g.neighbor((1, 1), 1), g.neighbor((1, 2), 1)
    (6, (1, 2), (0, 3))
    """

    kind: ClassVar[str] = "hex"
    code: ClassVar[int] = k.HEX
    slot_names: ClassVar[tuple[str, ...]] = ("N", "NE", "SE", "S", "SW", "NW")
    planar: ClassVar[bool | None] = True
    compass_names: ClassVar[tuple[str, ...]] = ("N", "NE", "SE", "S", "SW", "NW")
    straight: ClassVar[tuple[tuple[int, int], ...] | None] = ((0, 3), (1, 4), (2, 5))
    walk_help: ClassVar[tuple[str, ...] | None] = (
        "Q W E, A S D\tplay: walk NW N NE, SW S SE", "arrows\tplay: walk towards that side",
    )  # fmt: skip
    parity: ClassVar[str] = "col"
    offsets: ClassVar = (  # N NE SE S SW NW
        ((-1, 0), (-1, 1), (0, 1), (1, 0), (0, -1), (-1, -1)),  # even columns
        ((-1, 0), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1)),  # odd columns, half a cell lower
    )
    metric: ClassVar[str] = "offset_columns"

    def layout_extent(self) -> tuple[float, float]:
        return float(A * (2 + 1.5 * (self.cols - 1))), float(H * self.rows + (H / 2 if self.cols > 1 else 0))

    def plane_points(self) -> tuple[np.ndarray, tuple[float, float]]:
        r, c = np.divmod(np.arange(self.size), self.cols)
        return np.stack([A + 1.5 * A * c, H / 2 + r * H + (c & 1) * H / 2], 1), self.layout_extent()

    def _outline(self) -> tuple[np.ndarray, np.ndarray]:
        r, c = np.divmod(np.arange(self.size), self.cols)
        x = A + 1.5 * A * c
        y = H / 2 + r * H + (c & 1) * H / 2
        dx = np.array([-A / 2, A / 2, A, A / 2, -A / 2, -A])
        dy = np.array([-H / 2, -H / 2, 0, H / 2, H / 2, 0])
        polys = np.stack([x[:, None] + dx, y[:, None] + dy], axis=2)
        walls = np.stack([polys[:, [i, (i + 1) % 6]] for i in range(6)], axis=1)
        return polys, walls
