"""Wilson: what only it does (the contract in tests/contract/test_generators.py covers the
rest, uniformity included)."""

import numpy as np
import pytest

from mazekit import trace as tr
from mazekit.generate import properties
from mazekit.generate.wilson import wilson
from mazekit.grid import DCOL, DROW, RectGrid

from ..checks import carve


def test_declares_uniform_and_any_grid():
    props = properties(wilson)
    assert props["uniform"] and props["perfect"] and not props["rect_only"]


def test_traces_one_carve_per_cell():
    maze = carve("wilson", (9, 11), rng=1, record=True)
    events = maze.trace[:, 1].tolist()
    assert events[0] == tr.VISIT and events.count(tr.VISIT) == 1
    assert events.count(tr.CARVE) == 9 * 11 - 1
    assert len(set(maze.trace[:, 0].tolist())) == 9 * 11  # every cell joins once


def test_carves_loop_free_paths_from_each_row_major_start():
    """Each path starts at the first cell (row-major) not yet in the maze, then follows its
    own passages, never revisiting a cell, until it steps into the maze."""
    grid = RectGrid((8, 9))
    trace = carve("wilson", grid, rng=3, record=True).trace
    cols = grid.cols
    in_maze = {int(trace[0, 0])}
    follow = None
    paths = 0
    for cell, event, slot in trace[1:].tolist():
        assert event == tr.CARVE and cell not in in_maze
        if follow is None:
            assert cell == min(set(range(grid.size)) - in_maze)
            paths += 1
        else:
            assert cell == follow
        in_maze.add(cell)
        nb = (cell // cols + DROW[slot]) * cols + cell % cols + DCOL[slot]
        follow = None if nb in in_maze else nb
    assert follow is None and len(in_maze) == grid.n_cells and paths > 1


def test_refuses_a_disconnected_mask_instead_of_hanging():
    islands = RectGrid((1, 3), mask=[[1, 0, 1]], require_connected=False)  # as RectGrid.from_dict allows
    with pytest.raises(ValueError, match="2 separate regions"):
        wilson(islands, np.random.default_rng(0))
