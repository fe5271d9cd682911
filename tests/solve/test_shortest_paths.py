"""All shortest paths (and collision's count of them): counted in rooms, listed against networkx."""

import math

import numpy as np
import pytest

import mazekit
from mazekit.solve import guarantees
from mazekit.solve.collision import collision
from mazekit.solve.shortest_paths import shortest_paths

from ..checks import assert_valid_path, braided, cut_in_two, distances, room
from .test_dijkstra import nx_graph


def test_declares_its_guarantees():
    assert guarantees(shortest_paths) == {"shortest": True, "perfect": True, "loops": True, "island": True}


ROOMS = [(1, 1), (1, 6), (6, 1), (2, 2), (3, 4), (5, 5), (7, 9), (12, 15)]


@pytest.mark.parametrize("a, b", ROOMS)
def test_counting_paths_across_a_room(a, b):
    maze = room((a, b))
    expected = math.comb(a + b - 2, a - 1)
    c = collision(maze, (0, 0), (a - 1, b - 1))
    s = shortest_paths(maze, (0, 0), (a - 1, b - 1), limit=500)
    assert c.extras["n_paths"] == s.extras["n_paths"] == expected
    assert isinstance(c.extras["n_paths"], int)
    assert c.extras["on_shortest"].all()  # corner to corner, every cell is on some path
    paths = s.extras["paths"]
    assert len(paths) == min(500, expected)
    assert len({p.tobytes() for p in paths}) == len(paths), "a path listed twice"
    for p in paths:
        assert_valid_path(maze, p, (0, 0), (a - 1, b - 1))
        assert len(p) == a + b - 1
    assert np.array_equal(s.path, paths[0])


def test_counts_too_big_for_an_int():
    maze = room((40, 40))
    c = collision(maze, (0, 0), (39, 39))
    s = shortest_paths(maze, (0, 0), (39, 39))
    exact = math.comb(78, 39)
    for n in (c.extras["n_paths"], s.extras["n_paths"]):
        assert isinstance(n, float) and math.isclose(n, exact, rel_tol=1e-12)
    assert len(s.extras["paths"]) == 1000
    assert collision(room((600, 600)), (0, 0), (599, 599)).extras["n_paths"] == math.inf


@pytest.mark.parametrize("seed", range(8))
def test_all_shortest_paths_on_mazes_with_loops(seed):
    maze = braided(mazekit.generate("backtracker", (12, 16), rng=seed), seed)
    rng = np.random.default_rng(seed)
    s, g = (int(rng.integers(12)), int(rng.integers(16))), (int(rng.integers(12)), int(rng.integers(16)))
    c = collision(maze, s, g)
    sp = shortest_paths(maze, s, g, limit=10**6)
    nx, graph = nx_graph(maze, np.ones(maze.shape))
    truth = {tuple(map(tuple, p)) for p in nx.all_shortest_paths(graph, s, g)}
    assert {tuple(map(tuple, p.tolist())) for p in sp.extras["paths"]} == truth
    assert c.extras["n_paths"] == sp.extras["n_paths"] == len(truth)
    union = np.zeros(maze.shape, bool)
    for p in truth:
        union[tuple(np.array(p).T)] = True
    assert np.array_equal(c.extras["on_shortest"], union)
    d_s, d_g = distances(maze, s), distances(maze, g)
    for r in range(12):
        for col in range(16):
            on = d_s.get((r, col), -99) + d_g.get((r, col), -99) == d_s[g]
            assert c.extras["on_shortest"][r, col] == on
    assert_valid_path(maze, c.path, s, g)
    assert c.length == d_s[g]


def test_shortest_paths_limit():
    maze = room((6, 6))
    assert len(shortest_paths(maze, (0, 0), (5, 5), limit=7).extras["paths"]) == 7
    assert shortest_paths(maze, (0, 0), (5, 5), limit=1).extras["n_paths"] == 252
    for bad in (0, -3, 2.5, True, "10"):
        with pytest.raises(ValueError, match="limit must be a positive integer"):
            shortest_paths(maze, (0, 0), (5, 5), limit=bad)


def test_unreachable_lists_no_paths():
    s = shortest_paths(cut_in_two(mazekit.generate("prim", (6, 6), rng=1)), (0, 0), (5, 5))
    assert s.extras["n_paths"] == 0 and s.extras["paths"] == []
