"""Breadth-first search: it explores in rings of distance."""

import importlib

import numpy as np
import pytest

import mazekit
from mazekit.grids import kernel as gk

from ..checks import bfs_distance

bfs_module = importlib.import_module("mazekit.solve.bfs")


def test_explores_in_distance_order():
    maze = mazekit.generate("prim", (20, 20), rng=3)
    sol = mazekit.solve(maze, "bfs")
    d = [bfs_distance(maze, maze.start, tuple(c)) for c in sol.explored.tolist()]
    assert d == sorted(d)
    assert len(set(map(tuple, sol.explored.tolist()))) == len(d)


@pytest.mark.parametrize("kind", ["rect", "hex", "polar", "upsilon", "weave", "3d"])
@pytest.mark.parametrize("where", ["goal", "far"])
def test_the_trace_is_made_when_first_read_and_is_the_kernels(kind, where):
    """bfs keeps the order it explored in as its queue and makes the trace rows when the
    trace is first read: the rows the kernel writes when asked for them, once, and kept
    (reading twice gives the very same array); a search that stops early keeps a copy of
    what it explored, not the whole buffer."""
    shape = (3, 6, 7) if kind == "3d" else (9, 11)
    maze = mazekit.generate("backtracker", shape, grid=kind, rng=4)
    grid = maze.grid
    goal = maze.goal if where == "far" else grid.unflat(int(grid.cell_indices()[1]))
    sol = mazekit.solve(maze, "bfs", goal=goal)
    assert callable(sol.__dict__["_trace"])  # not made yet
    T = grid.kernel_topology()
    fast = gk.fast_values(T, grid.geo, maze.passages.ravel(), 0)
    came = np.zeros(grid.padded_cells() + 1, dtype=np.uint8)
    want = np.full((grid.n_cells + 1, 3), -7, dtype=np.int32)
    s, g = grid.flat(maze.start), grid.flat(goal)
    ends = (gk.fast_index(T, grid.geo, s), s, gk.fast_index(T, grid.geo, g), np.zeros(4, np.uint64), came)
    queue = np.empty(grid.n_cells + 1, dtype=np.uint32)
    _, used, _ = bfs_module._bfs(fast, T, grid.geo, *ends, queue, want, gk.slot_count(grid.n_slots))
    got = sol.trace
    assert np.array_equal(got, want[:used]) and got.dtype == np.int32
    assert sol.trace is got and not callable(sol.__dict__["_trace"])
    assert got.base is None or got.base.shape[0] >= got.shape[0]
    if 2 * used < grid.n_cells:
        assert got.base is None  # a copy of what was explored
    assert sol == mazekit.solve(maze, "bfs", goal=goal)  # equality reads both traces
