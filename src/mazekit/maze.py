"""The maze: per-cell passage bits on a grid, with a start and a goal."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .grid import BITS, DCOL, DROW, OPPOSITE, SLOTS, Cell, RectGrid


@dataclass(eq=False)
class Maze:
    """A maze: ``passages[r, c]`` has bit ``1 << k`` set when slot ``k`` of the cell is open.

    Slots on a rectangle are ``N, E, S, W`` = bits ``1, 2, 4, 8``. The array means passages
    and nothing else, so it can be saved, hashed and compared as it is.

    Attributes
    ----------
    passages : numpy.ndarray
        ``uint8`` array of shape ``grid.shape``.
    grid : RectGrid
        Which cells exist.
    start, goal : tuple of int
        ``(row, col)`` of the entrance and the exit.
    algorithm, seed, options
        How the maze was made (``seed`` is None when unknown).
    trace : numpy.ndarray or None
        The generator's recorded events (see :mod:`mazekit.trace`), if asked for.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("backtracker", (3, 4), rng=1)
    >>> m.shape, m.start, m.goal, m.is_perfect()
    ((3, 4), (0, 0), (2, 3), True)
    >>> m.n_passages
    11
    """

    passages: np.ndarray
    grid: RectGrid
    start: Cell
    goal: Cell
    algorithm: str | None = None
    seed: int | None = None
    options: dict[str, Any] = field(default_factory=dict)
    trace: np.ndarray | None = field(default=None, repr=False)

    @property
    def shape(self) -> tuple[int, int]:
        return self.grid.shape

    @property
    def n_passages(self) -> int:
        """Number of open passages (each counted once)."""
        counts = np.unpackbits(self.passages[..., None], axis=-1)[..., 4:].sum()
        return int(counts) // 2

    def is_open(self, cell: Cell, slot: int | str) -> bool:
        """Whether the passage out of ``cell`` through ``slot`` (0-3 or 'N','E','S','W') is open."""
        k = SLOTS.index(slot) if isinstance(slot, str) else int(slot)
        return bool(self.passages[cell] & BITS[k])

    def open_neighbors(self, cell: Cell) -> list[Cell]:
        """Cells reachable in one step from ``cell``, in slot order."""
        bits = int(self.passages[cell])
        return [(cell[0] + int(DROW[k]), cell[1] + int(DCOL[k])) for k in range(4) if bits >> k & 1]

    def degree(self) -> np.ndarray:
        """Open passages per cell, as an array of ``shape``."""
        p = self.passages
        return ((p & 1) + (p >> 1 & 1) + (p >> 2 & 1) + (p >> 3 & 1)).astype(np.uint8)

    def check(self) -> None:
        """Raise ``ValueError`` unless passages are symmetric and stay on existing cells."""
        p = self.passages
        if p.dtype != np.uint8 or p.shape != self.grid.shape:
            raise ValueError(f"passages must be uint8 of shape {self.grid.shape}, got {p.dtype} {p.shape}")
        if (p & 0xF0).any():
            raise ValueError("passage array has bits above the 4 rectangular slots")
        exists = np.ones(p.shape, bool) if self.grid.mask is None else self.grid.mask
        if (p[~exists] != 0).any():
            raise ValueError("a masked-out cell has open passages")
        rows, cols = p.shape
        for k in range(4):
            has = (p & BITS[k]) != 0
            dr, dc = int(DROW[k]), int(DCOL[k])
            # a passage leading off the grid
            edge = {0: has[0, :], 1: has[:, -1], 2: has[-1, :], 3: has[:, 0]}[k]
            if edge.any():
                raise ValueError(f"a passage leads off the grid through side {SLOTS[k]}")
            src = has[max(0, -dr) : rows - max(0, dr), max(0, -dc) : cols - max(0, dc)]
            dst = p[max(0, dr) : rows + min(0, dr), max(0, dc) : cols + min(0, dc)]
            back = (dst & BITS[OPPOSITE[k]]) != 0
            if (src & ~back).any():
                raise ValueError(f"passages are not symmetric through side {SLOTS[k]}")
        for name, cell in (("start", self.start), ("goal", self.goal)):
            self.grid.check_cell(cell, name)

    def is_perfect(self) -> bool:
        """Whether the passages form a spanning tree: connected, exactly cells-1 passages."""
        from .distances import distance_map

        if self.n_passages != self.grid.n_cells - 1:
            return False
        start = self.grid.unflat(int(self.grid.cell_indices()[0]))
        return bool((distance_map(self, start) >= 0).sum() == self.grid.n_cells)

    def replace(self, **changes: Any) -> Maze:
        """A copy with some fields changed (the passages array is shared unless given)."""
        import dataclasses

        return dataclasses.replace(self, **changes)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Maze):
            return NotImplemented
        return (
            self.grid == other.grid
            and self.start == other.start
            and self.goal == other.goal
            and bool(np.array_equal(self.passages, other.passages))
        )

    __hash__ = None  # type: ignore[assignment]
