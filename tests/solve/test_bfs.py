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
    slots = gk.slot_count(grid.n_slots)
    rest = (slots, bfs_module.NOWHERE, gk.cell_steps(grid.geo))
    _, used, _ = bfs_module._bfs(fast, T, grid.geo, *ends, queue, want, *rest)
    got = sol.trace
    assert np.array_equal(got, want[:used]) and got.dtype == np.int32
    assert sol.trace is got and not callable(sol.__dict__["_trace"])
    assert got.base is None or got.base.shape[0] >= got.shape[0]
    if 2 * used < grid.n_cells:
        assert got.base is None  # a copy of what was explored
    assert sol == mazekit.solve(maze, "bfs", goal=goal)  # equality reads both traces


def test_a_deferred_trace_is_made_once_for_every_copy_and_thread():
    """The rows are written over the queue they are made from, so they are made once: a
    copy of the solution, another thread, a pickle and a deep copy all get the same rows
    (made twice in place, the second making read rows instead of the queue)."""
    import copy
    import pickle
    import threading

    maze = mazekit.generate("backtracker", (30, 30), rng=5)
    explored = {cell: mazekit.solve(maze, "bfs", goal=cell).n_explored for cell in np.ndindex(30, 30)}
    far = max(explored, key=explored.__getitem__)  # explored whole: its rows reach the queue
    maze = mazekit.Maze(maze.passages, maze.grid, maze.start, far)
    assert explored[far] == 900
    want = mazekit.solve(maze, "bfs").trace.copy()
    sol = mazekit.solve(maze, "bfs")
    twin = copy.copy(sol)
    assert np.array_equal(sol.trace, want) and np.array_equal(twin.trace, want)
    assert np.array_equal(sol.trace, want)  # the first reader's rows are intact too
    for unread in (lambda s: pickle.loads(pickle.dumps(s)), copy.deepcopy):
        assert np.array_equal(unread(mazekit.solve(maze, "bfs")).trace, want)
    sol = mazekit.solve(maze, "bfs")
    got: list[np.ndarray] = []
    readers = [threading.Thread(target=lambda: got.append(sol.trace.copy())) for _ in range(4)]
    for t in readers:
        t.start()
    for t in readers:
        t.join()
    assert len(got) == 4 and all(np.array_equal(g, want) for g in got)


def test_a_deferred_trace_holds_only_what_it_needs():
    """Until it is read, a solution that explored little keeps a copy of the queue's used
    part, not the 12-byte buffer, and never the grid's neighbour table."""
    maze = mazekit.generate("backtracker", (300, 300), grid="rect", wrap="x", rng=2)
    sol = mazekit.solve(maze, "bfs", goal=(0, 1) if maze.passages[0, 0] & 2 else (1, 0))
    maker = sol.__dict__["_trace"]
    held = [v for v in vars(maker).values() if isinstance(v, np.ndarray)]
    assert sum(v.nbytes for v in held) < 1000, [v.shape for v in held]
    assert sol.trace.shape[0] == sol.n_explored >= 2


def test_a_long_path_is_split_into_rows_and_columns_as_numpy_would():
    """Paths longer than ``LONG_PATH`` cells are split into (row, col) by a multiply
    (``_rows_cols``), shorter ones by numpy's divmod: the same pairs either way, for cells
    up to the multiply's limit and row lengths from 1 up."""
    common = importlib.import_module("mazekit.solve._common")
    rng = np.random.default_rng(5)
    for cols in (1, 2, 3, 7, 1000, 4097, 65_537, gk.MAGIC_LIMIT - 1):
        flat = np.concatenate(
            [[0, gk.MAGIC_LIMIT - 1, cols - 1, cols], rng.integers(0, gk.MAGIC_LIMIT, 5000)]
        )
        out = np.empty((flat.size, 2), np.int64)
        common._rows_cols(flat, cols, out)
        assert np.array_equal(out, np.stack(np.divmod(flat, cols), axis=1)), cols
    maze = mazekit.generate("backtracker", (3, common.LONG_PATH), rng=1)
    sol = mazekit.solve(maze, "bfs", start=(0, 0), goal=(2, common.LONG_PATH - 1))
    assert sol.path.shape[0] > common.LONG_PATH  # (the split by the multiply)
    flat = sol.path[:, 0] * maze.grid.cols + sol.path[:, 1]
    assert np.array_equal(sol.path, np.stack(np.divmod(flat, maze.grid.cols), axis=1))
    assert (np.abs(np.diff(sol.path, axis=0)).sum(axis=1) == 1).all()  # a walk, cell to next cell


@pytest.mark.parametrize("kind,shape", [("rect", (24, 24)), ("hex", (14, 14)), ("polar", (8, 12))])
def test_many_writes_paths_that_fit_and_grows_for_those_that_do_not(kind, shape):
    """``many`` writes each path into its shared buffer, walked once from the goal and turned
    round; a path longer than the room left gets an array of its own, and the buffer grows.
    Either way each path is the front door's."""
    grid = mazekit.make_grid(kind, shape)
    mazes = [mazekit.generate("backtracker", grid, rng=seed) for seed in range(5)]
    stack = np.stack([m.passages.ravel() for m in mazes])
    starts = np.array([m.start[0] * grid.cols + m.start[1] for m in mazes])
    goals = np.array([m.goal[0] * grid.cols + m.goal[1] for m in mazes])
    goals[2] = starts[2]  # a path of one cell
    cells, counts = bfs_module.many(stack, grid, starts, goals)
    assert counts.max() > 64  # longer than the room a maze is first given
    at = 0
    for k, m in enumerate(mazes):
        sol = mazekit.solve(m, "bfs", start=divmod(starts[k], grid.cols), goal=divmod(goals[k], grid.cols))
        assert np.array_equal(cells[at : at + counts[k]], sol.path[:, 0] * grid.cols + sol.path[:, 1])
        at += counts[k]
    assert counts[2] == 1 and at == cells.shape[0]
