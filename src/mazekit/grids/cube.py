"""The 3D grid: levels of rectangular grids joined by stairs up and down.

``shape = (levels, rows, cols)``; slots N, E, S, W within a level, then up and down. Cells
are ``(level * rows + row, col)`` in a layout of levels stacked as bands of rows, so a 3D
maze is stored like a tall rectangular one; pictures draw the levels side by side, with a
mark where a stair leads up or down. *Mazes for Programmers*, ch. 14.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from . import kernel as k
from .base import Cell, Grid, _row, _rows, check_shape
from .rect import square_centres, square_outline

GAP = 1.0  # cell widths between two levels in a picture


class CubeGrid(Grid):
    """``levels`` levels of ``rows x cols`` cells (``shape = (levels, rows, cols)``).

    A ``mask`` is of the layout (``(levels * rows, cols)``), or ``(rows, cols)`` to cut every
    level alike.

    Examples
    --------
    >>> g = CubeGrid((2, 3, 4))
    >>> g.shape, g.levels, g.neighbor((1, 1), 4), g.neighbor((4, 1), 5)
    ((6, 4), 2, (4, 1), (1, 1))
    >>> CubeGrid((2, 3, 4), mask=[[1, 1, 1, 1], [1, 0, 0, 1], [1, 1, 1, 1]]).n_cells
    20
    """

    kind: ClassVar[str] = "3d"
    code: ClassVar[int] = k.CUBE
    padded: ClassVar[bool] = True  # levels a fixed offset apart (kernel/padded.py)
    slot_names: ClassVar[tuple[str, ...]] = ("N", "E", "S", "W", "up", "down")

    def __init__(
        self, shape: tuple[int, int, int], mask: Any = None, *, require_connected: bool = True
    ) -> None:
        self.levels, self.level_rows, self.cols = check_shape(shape, 3, "(levels, rows, cols)")
        self.rows = self.levels * self.level_rows
        if mask is not None and np.shape(mask) == (self.level_rows, self.cols) and self.levels > 1:
            mask = np.tile(np.asarray(mask, dtype=bool), (self.levels, 1))  # the same cut on every level
        self._set_mask(mask, require_connected)

    @property
    def band_rows(self) -> int:
        return self.level_rows

    @property
    def param(self) -> int:
        return self.level_rows

    def params(self) -> dict[str, Any]:
        return {"levels": self.levels}

    size_words: ClassVar[tuple[str, ...]] = ("WIDTH", "HEIGHT", "LEVELS")
    default_size: ClassVar[str] = "8x6x3"
    size_example: ClassVar[str] = "10x8x3"
    shape_words: ClassVar[str] = "(levels, rows, cols)"
    layout_is_shape: ClassVar[bool] = False  # the levels stacked in one layout
    planar: ClassVar[bool | None] = False
    straight: ClassVar[tuple[tuple[int, int], ...] | None] = ((0, 2), (1, 3), (4, 5))
    walk_keys: ClassVar[dict[str, tuple[str, ...]] | None] = {
        "u": ("up",), "j": ("down",), "pageup": ("up",), "pagedown": ("down",),
    }  # fmt: skip
    walk_help: ClassVar[tuple[str, ...] | None] = (
        "arrows / WASD\tplay: walk on a level", "U / PgUp, J / PgDn\tplay: take the stairs up, down",
    )  # fmt: skip

    @property
    def made_shape(self) -> tuple[int, ...]:
        return (self.levels, self.level_rows, self.cols)

    @classmethod
    def shape_of_size(cls, numbers: tuple[int, ...]) -> tuple[int, ...]:
        return (numbers[2], numbers[1], numbers[0])

    @classmethod
    def size_of(cls, shape: tuple[int, ...]) -> str:
        return f"{shape[2]}x{shape[1]}x{shape[0]}"

    def opposite_corners(self, ok: np.ndarray | None) -> tuple[Cell, Cell]:
        """The top right of the top level, and the bottom left of the first."""
        rows = _rows(ok, self)
        band = self.level_rows
        top = int(rows[rows // band == rows[-1] // band][0])  # first row of the top level
        bottom = int(rows[rows // band == rows[0] // band][-1])  # last row of level 0
        return self.unflat(int(_row(ok, self, top)[-1])), self.unflat(int(_row(ok, self, bottom)[0]))

    @classmethod
    def _param_keys(cls) -> tuple[str, ...]:
        return ("levels",)

    @classmethod
    def _from_layout(cls, shape: tuple[int, int], mask: Any, params: dict[str, Any]) -> Grid:
        levels = params.get("levels")
        if isinstance(levels, bool) or not isinstance(levels, int) or levels < 1 or shape[0] % levels:
            raise ValueError(f"a 3d grid of {shape[0]} rows needs a 'levels' that divides it, got {levels!r}")
        return cls((levels, shape[0] // levels, shape[1]), mask=mask, require_connected=False)

    def level_of(self, cell: tuple[int, int]) -> tuple[int, int, int]:
        """``(level, row, col)`` of a layout cell."""
        level, row = divmod(cell[0], self.level_rows)
        return (level, row, cell[1])

    def layout_extent(self) -> tuple[float, float]:
        return self.levels * (self.cols + GAP) - GAP, float(self.level_rows)

    def plane_points(self) -> tuple[np.ndarray, tuple[float, float]]:
        """Each cell's centre within its own level: a mask picture cuts every level alike."""
        points = square_centres(self.rows, self.cols)
        points[:, 1] %= self.level_rows
        return points, (float(self.cols), float(self.level_rows))

    def _outline(self) -> tuple[np.ndarray, np.ndarray]:
        polys, square = square_outline(self.rows, self.cols)
        level = np.arange(self.size) // self.cols // self.level_rows
        shift = np.stack([level * (self.cols + GAP), -level * self.level_rows], 1).astype(float)
        polys = polys + shift[:, None, :]
        walls = np.full((self.size, 6, 2, 2), np.nan)
        walls[:, :4] = square + shift[:, None, None, :]
        return polys, walls
