"""Origin shift: a walk of the root over a spanning tree, uniform on a 3x3 grid."""

import itertools
from collections import Counter

import numpy as np
import pytest

from mazekit import trace as tr
from mazekit.generate import properties
from mazekit.generate.origin_shift import origin_shift
from mazekit.grid import RectGrid
from mazekit.replay import replay

from ..checks import assert_spanning_tree, carve, components


def test_declares_uniform():
    props = properties(origin_shift)
    assert props["uniform"] and props["perfect"] and not props["rect_only"]


def spanning_trees(rows, cols):
    """Every spanning tree of the grid, as passage bytes, by brute force over edge subsets."""
    cells = rows * cols
    all_edges = [(r * cols + c, k) for r in range(rows) for c in range(cols) for k in (1, 2)
                 if (k == 1 and c + 1 < cols) or (k == 2 and r + 1 < rows)]  # fmt: skip
    out = set()
    for subset in itertools.combinations(all_edges, cells - 1):
        p = np.zeros(cells, np.uint8)
        for cell, k in subset:
            nb = cell + 1 if k == 1 else cell + cols
            p[cell] |= 1 << k
            p[nb] |= 1 << (k + 2) % 4
        grid = p.reshape(rows, cols)
        if len(components(grid, [(r, c) for r in range(rows) for c in range(cols)])) == 1:
            out.add(grid.tobytes())
    return out


def test_is_uniform_on_3x3():
    stats = pytest.importorskip("scipy.stats")
    trees = spanning_trees(3, 3)
    assert len(trees) == 192
    grid, gen = RectGrid((3, 3)), np.random.default_rng(2024)
    counts = Counter(origin_shift(grid, gen).passages.tobytes() for _ in range(192 * 40))
    assert set(counts) == trees
    assert stats.chisquare([counts[k] for k in sorted(trees)]).pvalue > 0.001
    # the test has teeth: a few moves from the starting tree are far from uniform
    few = Counter(origin_shift(grid, gen, steps=12).passages.tobytes() for _ in range(192 * 40))
    assert stats.chisquare([few.get(k, 0) for k in sorted(trees)]).pvalue < 1e-6


@pytest.mark.parametrize("shape", [(6, 7), "mask"])
def test_keeps_a_perfect_maze_after_every_move(shape, ring_mask):
    maze = carve("origin_shift", ring_mask if shape == "mask" else shape, rng=5, record=True)
    t, grid, n = maze.trace, maze.grid, maze.grid.n_cells
    assert (t[: n - 1, 1] == tr.OPEN).all() and t[n - 1, 1] == tr.VISIT  # the starting tree
    visits = np.flatnonzero(t[:, 1] == tr.VISIT)
    assert len(visits) > n  # the walk
    for end in visits[:: max(1, len(visits) // 60)].tolist() + [len(t) - 1]:
        assert_spanning_tree(maze.replace(passages=replay(t, grid, end + 1)))
    moves = t[n:]  # each move: (OPEN, CLOSE)? then VISIT of the new origin
    assert set(np.unique(moves[:, 1]).tolist()) <= {tr.OPEN, tr.CLOSE, tr.VISIT}
    assert int((moves[:, 1] == tr.OPEN).sum()) == int((moves[:, 1] == tr.CLOSE).sum())


def test_visits_every_cell_by_default():
    maze = carve("origin_shift", (8, 9), rng=3, record=True)
    visited = set(maze.trace[maze.trace[:, 1] == tr.VISIT, 0].tolist())
    assert visited == set(range(72))


def test_steps_option():
    start = carve("origin_shift", (6, 8), rng=1, steps=0, record=True)
    assert_spanning_tree(start)
    assert len(start.trace) == 6 * 8  # the starting tree and the origin
    moved = carve("origin_shift", (6, 8), rng=1, steps=25, record=True)
    assert_spanning_tree(moved)
    assert int((moved.trace[:, 1] == tr.VISIT).sum()) == 1 + 25
    assert_spanning_tree(carve("origin_shift", (1, 1), steps=10))
    for bad in (-1, 2.5, True, "10"):
        with pytest.raises(ValueError, match="steps must be (at least 0|a non-negative integer)"):
            carve("origin_shift", (3, 3), steps=bad)
