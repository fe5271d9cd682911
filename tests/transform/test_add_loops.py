"""add_loops: opens a count or a fraction of the closed walls."""

import numpy as np

import mazekit
from mazekit import trace as tr
from mazekit.measure import loops
from mazekit.transform import transform

from ..checks import edges, transform_inputs

INPUTS = transform_inputs()


def test_add_loops_count_and_fraction():
    maze = mazekit.generate("prim", (20, 30), rng=2)
    closed = len(edges(mazekit.Maze(tr.open_room(maze.grid), maze.grid, (0, 0), (0, 0)))) - len(edges(maze))
    out = transform(maze, "add_loops", rng=1, count=17)
    assert len(edges(out)) == len(edges(maze)) + 17 and loops(out) == 17
    out = transform(maze, "add_loops", rng=1, fraction=0.5)
    assert len(edges(out)) - len(edges(maze)) == round(0.5 * closed)
    default = transform(maze, "add_loops", rng=1)
    assert len(edges(default)) - len(edges(maze)) == round(0.1 * closed)
    everything = transform(maze, "add_loops", rng=1, count=10**6)
    assert np.array_equal(everything.passages, tr.open_room(maze.grid))
    assert transform(maze, "add_loops", rng=1, count=0) == maze


def test_add_loops_on_a_mask():
    maze = INPUTS["masked"]
    out = transform(maze, "add_loops", rng=1, fraction=1.0)
    assert np.array_equal(out.passages, tr.open_room(maze.grid))
