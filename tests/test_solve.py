"""The ``solve`` front door: names and cells are checked before any solver runs.

What every solver must do is in tests/contract/test_solvers.py; what one solver (or one
family: walkers, MDP planners) does, in tests/solve/test_<name>.py.
"""

import pytest

import mazekit

from .checks import MASK_TEXT


def test_bad_solver_and_cells():
    maze = mazekit.generate("prim", (4, 4), rng=0)
    with pytest.raises(
        ValueError, match="unknown solver 'bsf'; choose from astar, bfs, bidirectional_bfs, chain"
    ):
        mazekit.solve(maze, "bsf")
    with pytest.raises(ValueError, match="off the grid"):
        mazekit.solve(maze, "bfs", start=(-1, 0))
    with pytest.raises(ValueError, match=r"\(row, col\) pair"):
        mazekit.solve(maze, "bfs", goal="corner")
    masked = mazekit.generate("prim", mazekit.RectGrid.from_text(MASK_TEXT), rng=0)
    with pytest.raises(ValueError, match="masked-out"):
        mazekit.solve(masked, "bfs", start=(0, 0))
