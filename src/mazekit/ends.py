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
    apart through the passages, the hardest pair (exactly so on a perfect maze; on one with
    loops, such as a cave, a far pair found by two sweeps: :func:`mazekit.distances.diameter`
    says how far the farthest pair is). Except for ``corners``, the ends avoid
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
    ok = _candidates(np.asarray(passages), grid, ends != "corners")
    if ends == "corners":
        s, g = grid.unflat(_first(ok, grid)), grid.unflat(_last(ok, grid))
    elif ends == "opposite":
        s, g = grid.opposite_corners(ok)
    elif ends == "sides":
        s, g = _sides(grid, _indices(ok, grid))
    elif ends == "random":
        if rng is None:
            raise ValueError("random ends need an rng")
        count = grid.size if ok is None else int(np.count_nonzero(ok))
        if count == 1:
            s = g = grid.unflat(_first(ok, grid))
        else:
            i, j = rng.choice(count, size=2, replace=False)
            s, g = grid.unflat(_nth(ok, grid, int(i))), grid.unflat(_nth(ok, grid, int(j)))
    else:
        from .distances import farthest_pair
        from .maze import Maze

        anchor = grid.unflat(_first(ok, grid))
        probe = Maze(passages, grid, anchor, anchor, trusted=True)  # (a generator's passages)
        s, g = farthest_pair(probe, anchor)
    if start is not None:
        s = grid.check_cell(start, "start")
    if goal is not None:
        g = grid.check_cell(goal, "goal")
    return s, g


#: The rules that place the same ends on every maze of a grid without a mask whose every
#: cell the maze carves (a perfect maze): they read the grid, not the passages.
FIXED_ENDS = ("corners", "opposite", "sides")


def fixed_ends(grid: Grid, ends: str, start: Any = None, goal: Any = None) -> tuple[Cell, Cell] | None:
    """``(start, goal)`` that :func:`place_ends` gives every maze on ``grid`` by rule
    ``ends`` when the maze carves every cell, found once; ``None`` where they depend on the
    maze or on draws (``random``, ``diameter``, a masked grid). The one place that says so,
    for the makers of many mazes (:class:`mazekit.Maker`, the environment, the dataset's
    batches): whether the generator carves every cell (is perfect, declares no ends of its
    own) is theirs to know.

    Examples
    --------
    >>> from mazekit.grids import make_grid
    >>> fixed_ends(make_grid("rect", (5, 8)), "sides"), fixed_ends(make_grid("rect", (5, 8)), "random")
    (((2, 0), (2, 7)), None)
    """
    if ends not in FIXED_ENDS or grid.mask is not None:
        return None
    return place_ends(np.zeros(grid.shape, np.uint8), grid, ends, None, start, goal)


# The candidate cells are a (rows, cols) boolean array, or None for "every layout cell":
# never a list of cell indices, which would take 8 bytes a cell to read two of them.


def _candidates(passages: np.ndarray, grid: Grid, avoid_rock: bool) -> np.ndarray | None:
    """The cells the ends may be on: every cell, or with ``avoid_rock`` the carved ones when
    there are carved cells (and more than one cell)."""
    ok = grid.mask
    if not avoid_rock or grid.n_cells == 1:
        return ok
    carved = passages.reshape(grid.shape) != 0
    if ok is not None:
        carved &= ok
    if np.count_nonzero(carved) in (0, grid.n_cells):  # nothing carved, or no rock to avoid
        return ok
    return carved


def _first(ok: np.ndarray | None, grid: Grid) -> int:
    return 0 if ok is None else int(np.argmax(ok.ravel()))


def _last(ok: np.ndarray | None, grid: Grid) -> int:
    return grid.size - 1 if ok is None else grid.size - 1 - int(np.argmax(ok.ravel()[::-1]))


def _nth(ok: np.ndarray | None, grid: Grid, i: int) -> int:
    """The ``i``-th candidate cell in reading order, counting row totals first."""
    if ok is None:
        return i
    before = np.cumsum(np.count_nonzero(ok, axis=1))
    r = int(np.searchsorted(before, i, side="right"))
    skip = i - (int(before[r - 1]) if r else 0)
    return r * grid.cols + int(np.flatnonzero(ok[r])[skip])


def _indices(ok: np.ndarray | None, grid: Grid) -> np.ndarray:
    return np.arange(grid.size) if ok is None else np.flatnonzero(ok.ravel())


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
