import sys

import numpy as np
import pytest

import mazekit
from mazekit import trace as tr
from mazekit.generate import properties
from mazekit.grid import DCOL, DROW, OPPOSITE, RectGrid

from .checks import MASK_TEXT, assert_spanning_tree, edges

GENERATORS = sorted(mazekit.GENERATORS)
SHAPES = [(1, 1), (1, 9), (9, 1), (2, 2), (5, 7), (6, 8), (7, 6), (200, 300)]


def props(name):
    return properties(mazekit.GENERATORS[name])


def assert_good(maze, name):
    """A perfect generator makes a spanning tree; any generator makes sound passages."""
    if props(name)["perfect"]:
        assert_spanning_tree(maze)
    else:
        edges(maze)


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", GENERATORS)
def test_spanning_tree(name, shape):
    maze = mazekit.generate(name, shape, rng=11)
    assert maze.shape == shape
    assert_good(maze, name)


@pytest.mark.parametrize("name", GENERATORS)
def test_masked_grid(name):
    grid = RectGrid.from_text(MASK_TEXT)
    if props(name)["rect_only"]:
        with pytest.raises(ValueError, match="needs a full rectangle"):
            mazekit.generate(name, grid, rng=3)
        return
    maze = mazekit.generate(name, grid, rng=3)
    assert_good(maze, name)
    assert grid.contains(maze.start) and grid.contains(maze.goal)


@pytest.mark.parametrize("name", GENERATORS)
def test_mask_array(name, ring_mask):
    if props(name)["rect_only"]:
        pytest.skip("row-based generator: refuses masks (tested above)")
    maze = mazekit.generate(name, ring_mask, rng=5)
    assert_good(maze, name)
    assert not maze.passages[~ring_mask].any()


@pytest.mark.parametrize("name", GENERATORS)
def test_same_seed_same_maze_other_seed_other_maze(name):
    a = mazekit.generate(name, (25, 31), rng=42)
    b = mazekit.generate(name, (25, 31), rng=42)
    c = mazekit.generate(name, (25, 31), rng=43)
    assert np.array_equal(a.passages, b.passages)
    assert not np.array_equal(a.passages, c.passages)
    g1 = mazekit.generate(name, (25, 31), rng=np.random.default_rng(42))
    assert np.array_equal(a.passages, g1.passages)


@pytest.mark.parametrize("name", GENERATORS)
def test_recording_does_not_change_the_maze(name):
    plain = mazekit.generate(name, (12, 17), rng=8)
    traced = mazekit.generate(name, (12, 17), rng=8, record=True)
    assert plain.trace is None
    assert np.array_equal(plain.passages, traced.passages)


@pytest.mark.parametrize("name", GENERATORS)
def test_trace_replays_to_the_maze(name):
    maze = mazekit.generate(name, (10, 14), rng=2, record=True)
    t = maze.trace
    assert t.dtype == np.int32 and t.shape[1] == 3
    starts_open = getattr(sys.modules[mazekit.GENERATORS[name].__module__], "STARTS_OPEN", False)
    rebuilt = tr.open_room(maze.grid).ravel() if starts_open else np.zeros(maze.passages.size, np.uint8)
    cols = maze.shape[1]
    for cell, event, arg in t.tolist():  # replayed here by hand, independently of tr.replay
        if event in (tr.CARVE, tr.OPEN, tr.CLOSE) and arg >= 0:
            r, c = divmod(cell, cols)
            nb = (r + DROW[arg]) * cols + c + DCOL[arg]
            if event == tr.CLOSE:
                rebuilt[cell] &= ~np.uint8(1 << arg)
                rebuilt[nb] &= ~np.uint8(1 << OPPOSITE[arg])
            else:
                rebuilt[cell] |= 1 << arg
                rebuilt[nb] |= 1 << OPPOSITE[arg]
    assert np.array_equal(rebuilt.reshape(maze.shape), maze.passages)
    assert np.array_equal(tr.replay(t, maze.grid, starts_open=starts_open), maze.passages)
    half = tr.replay(t, maze.grid, len(t) // 2, starts_open=starts_open)
    assert half.shape == maze.shape


@pytest.mark.parametrize("rule", ["newest", "oldest", "random", "mix"])
def test_growing_tree_rules(rule):
    maze = mazekit.generate("growing_tree", (30, 40), rng=1, rule=rule, p=0.7)
    assert_spanning_tree(maze)
    assert maze.options == {"rule": rule, "p": 0.7}


def test_growing_tree_newest_is_a_depth_first_texture():
    """Newest makes long corridors (few dead ends); oldest and random make many."""

    def dead_ends(maze):
        return int((maze.degree() == 1).sum())

    newest = mazekit.generate("growing_tree", (60, 60), rng=4, rule="newest")
    rand = mazekit.generate("growing_tree", (60, 60), rng=4, rule="random")
    assert dead_ends(newest) * 2 < dead_ends(rand)


def test_options_are_checked():
    with pytest.raises(ValueError, match="no option 'speed'"):
        mazekit.generate("prim", (3, 3), speed=2)
    with pytest.raises(ValueError, match="unknown growing_tree rule"):
        mazekit.generate("growing_tree", (3, 3), rule="widest")
    with pytest.raises(ValueError, match="between 0 and 1"):
        mazekit.generate("growing_tree", (3, 3), rule="mix", p=2)


@pytest.mark.parametrize(
    "shape, message",
    [
        ((0, 5), "at least 1x1"),
        ((3, -1), "at least 1x1"),
        ((2.5, 3), "pair of integers"),
        ("3x3", "pair of integers"),
        ((3,), "pair of integers"),
    ],
)
def test_bad_shapes(shape, message):
    with pytest.raises(ValueError, match=message):
        mazekit.generate("backtracker", shape)


def test_unknown_algorithm_lists_choices():
    with pytest.raises(ValueError, match="choose from aldous_broder, backtracker, binary_tree"):
        mazekit.generate("wilsons", (3, 3))


def test_too_big_for_memory():
    with pytest.raises(MemoryError, match="needs about"):
        mazekit.generate("kruskal", (1_000_000, 1_000_000))


def test_disconnected_mask_refused():
    mask = np.array([[1, 0, 1]], bool)
    with pytest.raises(ValueError, match="2 separate regions"):
        mazekit.generate("prim", mask)


def test_ends():
    m = mazekit.generate("prim", (6, 9), rng=0)
    assert (m.start, m.goal) == ((0, 0), (5, 8))
    m = mazekit.generate("prim", (6, 9), rng=0, ends="opposite")
    assert (m.start, m.goal) == ((0, 8), (5, 0))
    m = mazekit.generate("prim", (6, 9), rng=0, start=(2, 3), goal=(4, 4))
    assert (m.start, m.goal) == ((2, 3), (4, 4))
    r1 = mazekit.generate("prim", (6, 9), rng=0, ends="random")
    r2 = mazekit.generate("prim", (6, 9), rng=0, ends="random")
    assert (r1.start, r1.goal) == (r2.start, r2.goal) and r1.start != r1.goal
    with pytest.raises(ValueError, match="off the grid"):
        mazekit.generate("prim", (6, 9), rng=0, start=(6, 0))


def test_diameter_ends_are_the_farthest_pair():
    from .checks import bfs_distance

    m = mazekit.generate("kruskal", (7, 8), rng=9, ends="diameter")
    best = bfs_distance(m, m.start, m.goal)
    cells = [(r, c) for r in range(7) for c in range(8)]
    assert all(bfs_distance(m, (0, 0), c) <= max(best, 0) or True for c in cells)
    longest = max(bfs_distance(m, a, b) for a in cells for b in cells)
    assert best == longest


def test_masked_corner_ends_lie_on_cells():
    grid = RectGrid.from_text(MASK_TEXT)
    m = mazekit.generate("backtracker", grid, rng=0)
    assert m.start == (0, 2) and m.goal == (7, 7)


#: Generators run at 10,000 x 10,000 in the suite; the rest run at 2,000 x 2,000 to keep CI
#: short (every generator has been run at 10,000 x 10,000 by hand: see docs/algorithms.md).
HUGE = {
    "backtracker",
    "prim",
    "kruskal",
    "growing_tree",
    "binary_tree",
    "sidewinder",
    "recursive_division",
    "unicursal",
}


@pytest.mark.slow
@pytest.mark.parametrize("name", GENERATORS)
def test_huge(name):
    """Very large grids: no recursion limit, no overflow, still one spanning tree."""
    n = 10_000 if name in HUGE else 2_000
    maze = mazekit.generate(name, (n, n), rng=1)
    assert maze.passages.nbytes == n * n
    if props(name)["perfect"]:
        assert int(maze.degree().sum()) == 2 * (n * n - 1)
        assert maze.is_perfect()
    else:
        maze.check()  # symmetric, on the grid
