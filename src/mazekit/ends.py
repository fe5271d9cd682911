"""Where a maze starts and ends."""

from __future__ import annotations

from typing import Any

import numpy as np

from .grid import Cell, RectGrid

ENDS = ("corners", "opposite", "random", "diameter")


def place_ends(
    passages: np.ndarray,
    grid: RectGrid,
    ends: str = "corners",
    rng: np.random.Generator | None = None,
    start: Any = None,
    goal: Any = None,
) -> tuple[Cell, Cell]:
    """Choose ``(start, goal)``.

    ``corners``: top-left to bottom-right (the first and last cells in reading order);
    ``opposite``: top-right to bottom-left; ``random``: two distinct random cells (needs
    ``rng``); ``diameter``: the two cells farthest apart through the passages, the hardest pair.
    An explicit ``start`` or ``goal`` overrides the choice for that end.
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
        rows_of = cells // grid.cols
        top = cells[rows_of == rows_of[0]]
        bottom = cells[rows_of == rows_of[-1]]
        s, g = grid.unflat(int(top[-1])), grid.unflat(int(bottom[0]))
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
