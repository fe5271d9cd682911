"""The triangular grid (delta): three slots W, E and the base.

Cell ``(row, col)`` points up when ``row + col`` is even and down otherwise; its base
neighbour is below an upward triangle and above a downward one. *Mazes for Programmers*,
ch. 7.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from . import kernel as k
from .base import Grid, check_shape

H = np.sqrt(3) / 2  # height of a triangle with sides 1


def _bends() -> np.ndarray:
    """:meth:`TriangleGrid.bend_table` from each side's outward normal (degrees
    counter-clockwise from east; index 0: pointing up)."""
    normals = ((150, 30, 270), (210, 330, 90))  # W, E, base
    out = np.zeros((2, 3, 3), dtype=np.int8)
    for parity, angle in enumerate(normals):
        for a in range(3):
            for b in range(3):
                if a != b:
                    out[parity, a, b] = 1 if (angle[b] - angle[a] - 180) % 360 < 180 else -1
    return out


_BENDS = _bends()


class TriangleGrid(Grid):
    """A grid of alternating up and down triangles, ``shape = (rows, cols)``, optionally masked.

    Examples
    --------
    >>> g = TriangleGrid((2, 3))
    >>> g.n_slots, g.neighbor((0, 0), 2), g.neighbor((0, 1), 2)
    (3, (1, 0), None)
    """

    kind: ClassVar[str] = "triangle"
    code: ClassVar[int] = k.TRIANGLE
    slot_names: ClassVar[tuple[str, ...]] = ("W", "E", "base")
    planar: ClassVar[bool | None] = True
    mark_scale: ClassVar[float] = 0.5  # a triangle's corners lie far from its centre
    compass_names: ClassVar[tuple[str, ...]] = ("N", "NE", "SE", "S", "SW", "NW")
    straight: ClassVar[tuple[tuple[int, int], ...] | None] = ()  # no two sides face each other
    walk_help: ClassVar[tuple[str, ...] | None] = (
        "arrows / WASD\tplay: walk left, right, or through the base",
    )
    parity: ClassVar[str] = "checker"
    offsets: ClassVar = (  # W E base
        ((0, -1), (0, 1), (1, 0)),  # pointing up: the base below
        ((0, -1), (0, 1), (-1, 0)),  # pointing down: the base above
    )
    metric: ClassVar[str] = "taxicab"

    def __init__(self, shape: tuple[int, int], mask: Any = None, *, require_connected: bool = True) -> None:
        self.rows, self.cols = check_shape(shape)
        if self.cols == 1 and self.rows > 2:
            raise ValueError(
                f"a triangle grid one column wide falls apart below its second row; "
                f"give at least 2 columns, got shape={(self.rows, self.cols)}"
            )
        self._set_mask(mask, require_connected)

    @classmethod
    def bend_table(cls) -> np.ndarray:
        """Every pass through a triangle bends by 60 degrees: along a straight band the bends
        alternate (the zigzag of a row of triangles), two the same way turn a corner.

        >>> TriangleGrid.bend_table()[0].tolist()  # pointing up: W, E, base
        [[0, 1, -1], [-1, 0, 1], [1, -1, 0]]
        """
        return _BENDS

    def layout_extent(self) -> tuple[float, float]:
        return (self.cols + 1) / 2, float(self.rows * H)

    def plane_points(self) -> tuple[np.ndarray, tuple[float, float]]:
        """Each triangle's centroid, a third of the way from its base to its apex."""
        r, c = np.divmod(np.arange(self.size), self.cols)
        up = (r + c) % 2 == 0
        return np.stack([(c + 1) / 2, (r + np.where(up, 2 / 3, 1 / 3)) * H], 1), self.layout_extent()

    def _outline(self) -> tuple[np.ndarray, np.ndarray]:
        r, c = np.divmod(np.arange(self.size), self.cols)
        up = (r + c) % 2 == 0
        apex = np.stack([(c + 1) / 2, np.where(up, r * H, (r + 1) * H)], 1)
        base_y = np.where(up, (r + 1) * H, r * H)
        right = np.stack([(c + 2) / 2, base_y], 1)
        left = np.stack([c / 2, base_y], 1)
        polys = np.stack([apex, right, left], axis=1).astype(float)
        walls = np.stack([polys[:, [2, 0]], polys[:, [0, 1]], polys[:, [1, 2]]], axis=1)
        return polys, walls
