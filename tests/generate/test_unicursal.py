"""Unicursal labyrinths: one path through every cell, made by doubling a base maze."""

import itertools

import numpy as np
import pytest

from mazekit.generate import GENERATORS, properties
from mazekit.generate.backtracker import backtracker
from mazekit.generate.cellular_automaton import cellular_automaton
from mazekit.generate.unicursal import ends, unicursal
from mazekit.grid import RectGrid

from ..checks import assert_spanning_tree, carve, degree


def test_declares_rect_only():
    props = properties(unicursal)
    assert props["rect_only"] and props["perfect"] and props["ends"] is ends


def assert_single_path(maze) -> None:
    assert_spanning_tree(maze)
    d = degree(maze.passages)
    assert d.max() <= 2
    assert int((d == 1).sum()) == (0 if maze.grid.n_cells == 1 else 2)


@pytest.mark.parametrize("rows", range(1, 10))
def test_every_shape_is_one_path(rows):
    for cols in range(1, 10):
        for seed in (0, 1):
            maze = carve("unicursal", (rows, cols), rng=seed, record=True)
            assert_single_path(maze)
            start, goal = ends(maze.passages)
            if rows * cols == 1:
                assert start == goal == (0, 0)
            elif rows == 1 or cols == 1:
                assert (start, goal) == ((0, 0), (rows - 1, cols - 1))
            elif rows % 2 and cols % 2:
                assert (start, goal) == ((rows - 2, cols - 2), (rows - 1, cols - 1))
            else:
                assert (start, goal) == ((0, 0), (0, 1))
            path = maze.trace  # a VISIT of the start, then one CARVE per step along the path
            assert path[0, 0] == start[0] * cols + start[1] and path[-1, 0] == goal[0] * cols + goal[1]
            assert len(path) == rows * cols and len(set(path[:, 0].tolist())) == rows * cols


def test_large_and_other_bases():
    assert_single_path(carve("unicursal", (200, 300), rng=3))
    assert_single_path(carve("unicursal", (201, 301), rng=3))
    a = carve("unicursal", (30, 40), rng=3, base="kruskal")
    b = carve("unicursal", (30, 40), rng=3, base="backtracker")
    assert_single_path(a)
    assert not np.array_equal(a.passages, b.passages)


def test_doubles_its_base():
    base = backtracker(RectGrid((4, 5)), np.random.default_rng(9)).passages
    lanes = carve("unicursal", (8, 10), rng=9).passages
    for r, c in itertools.product(range(4), range(5)):
        # a base passage east shows as two parallel lanes crossing the block boundary
        east = bool(base[r, c] & 2)
        assert bool(lanes[2 * r, 2 * c + 1] & 2) == east == bool(lanes[2 * r + 1, 2 * c + 1] & 2)
        south = bool(base[r, c] & 4)
        assert bool(lanes[2 * r + 1, 2 * c] & 4) == south == bool(lanes[2 * r + 1, 2 * c + 1] & 4)


def test_base_option(monkeypatch):
    with pytest.raises(ValueError, match="unknown generator 'nope'"):
        carve("unicursal", (4, 4), base="nope")
    monkeypatch.setitem(GENERATORS, "cave", cellular_automaton)
    with pytest.raises(ValueError, match="not a perfect generator"):
        carve("unicursal", (4, 4), base="cave")
    with pytest.raises(ValueError, match="not a single path"):
        ends(carve("prim_true", (6, 6)).passages)
