"""Where a maze starts and ends, on any grid."""

from __future__ import annotations

from typing import Any

import numpy as np

from .grids import Cell, Grid

ENDS = ("corners", "opposite", "sides", "random", "diameter")


def place_ends(
    passages: np.ndarray,
    grid: Grid,
    ends: str = "corners",
    rng: np.random.Generator | None = None,
    start: Any = None,
    goal: Any = None,
) -> tuple[Cell, Cell]:
    """Choose ``(start, goal)``.

    ``corners``: the first and the last cell in reading order (top-left to bottom-right on a
    rectangle; innermost ring to outermost on a polar grid; first level to last in 3D).
    ``opposite``: top-right to bottom-left; on a polar grid the innermost ring's first cell
    (due north) to the outermost ring's cell due south, across the centre; on a 3D grid the
    top-right of the top level (the last, stairs go up to it) to the bottom-left of level 0.
    ``sides``: the middle of the left edge to the middle of the right edge, i.e. the
    western-most and eastern-most cells as drawn (:meth:`Grid.centers`), each the one nearest
    the picture's middle height (the upper one on a tie); a grid one cell wide falls back to
    ``corners``.
    ``random``: two distinct random cells (needs ``rng``); ``diameter``: the two cells farthest
    apart through the passages, the hardest pair. Except for ``corners``, the ends avoid
    cells without passages (cave rock) when there are carved cells. An explicit ``start`` or
    ``goal`` overrides the choice for that end.

    Examples
    --------
    >>> from mazekit.grids import make_grid
    >>> g = make_grid("rect", (5, 8))
    >>> p = np.zeros(g.shape, np.uint8)
    >>> place_ends(p, g, "opposite"), place_ends(p, g, "sides")
    (((0, 7), (4, 0)), ((2, 0), (2, 7)))
    >>> disc = make_grid("polar", (3, 6))
    >>> disc.counts.tolist(), place_ends(np.zeros(disc.shape, np.uint8), disc, "opposite")
    ([6, 12, 12], ((0, 0), (2, 6)))
    """
    if ends not in ENDS:
        raise ValueError(f"unknown ends {ends!r}; choose from {', '.join(ENDS)}")
    cells = grid.cell_indices()
    if ends != "corners" and cells.size > 1:
        carved = cells[np.asarray(passages).ravel()[cells] != 0]
        if carved.size:  # caves: choose among floor cells, never rock
            cells = carved
    if ends == "corners":
        s, g = grid.unflat(int(cells[0])), grid.unflat(int(cells[-1]))
    elif ends == "opposite":
        s, g = _opposite(grid, cells)
    elif ends == "sides":
        s, g = _sides(grid, cells)
    elif ends == "random":
        if rng is None:
            raise ValueError("random ends need an rng")
        if cells.size == 1:
            s = g = grid.unflat(int(cells[0]))
        else:
            i, j = rng.choice(cells.size, size=2, replace=False)
            s, g = grid.unflat(int(cells[i])), grid.unflat(int(cells[j]))
    else:
        from .distances import farthest_pair
        from .maze import Maze

        anchor = grid.unflat(int(cells[0]))
        probe = Maze(passages, grid, anchor, anchor)
        s, g = farthest_pair(probe, anchor)
    if start is not None:
        s = grid.check_cell(start, "start")
    if goal is not None:
        g = grid.check_cell(goal, "goal")
    return s, g


def _opposite(grid: Grid, cells: np.ndarray) -> tuple[Cell, Cell]:
    """Top-right to bottom-left of the candidate ``cells`` (flat, ascending)."""
    rows_of = cells // grid.cols
    if grid.kind == "polar":
        inner = cells[rows_of == rows_of[0]]
        outer = cells[rows_of == rows_of[-1]]
        ring = int(rows_of[-1])
        south = ring * grid.cols + int(grid.counts[ring]) // 2  # type: ignore[attr-defined]
        return grid.unflat(int(inner[0])), grid.unflat(int(outer[np.argmin(np.abs(outer - south))]))
    if grid.kind == "3d":
        band = grid.level_rows  # type: ignore[attr-defined]
        top_level = cells[rows_of // band == rows_of[-1] // band]
        bottom_level = cells[rows_of // band == rows_of[0] // band]
        top_rows = top_level // grid.cols
        bottom_rows = bottom_level // grid.cols
        first = top_level[top_rows == top_rows[0]]
        last = bottom_level[bottom_rows == bottom_rows[-1]]
        return grid.unflat(int(first[-1])), grid.unflat(int(last[0]))
    top = cells[rows_of == rows_of[0]]
    bottom = cells[rows_of == rows_of[-1]]
    return grid.unflat(int(top[-1])), grid.unflat(int(bottom[0]))


def _sides(grid: Grid, cells: np.ndarray) -> tuple[Cell, Cell]:
    """The western-most and eastern-most of ``cells`` as drawn, nearest the middle height."""
    centers = grid.centers()[cells]
    x, y = centers[:, 0], centers[:, 1]
    middle = grid.extent()[1] / 2

    def pick(edge: np.ndarray) -> int:
        side = np.flatnonzero(edge)
        off = np.round(np.abs(y[side] - middle), 6)  # so that mirror rows tie exactly
        return int(cells[side[np.lexsort((y[side], off))[0]]])

    west = pick(np.isclose(x, x.min(), atol=1e-6))
    east = pick(np.isclose(x, x.max(), atol=1e-6))
    if west == east and cells.size > 1:
        return grid.unflat(int(cells[0])), grid.unflat(int(cells[-1]))
    return grid.unflat(west), grid.unflat(east)
