"""Dijkstra: weights, its distance map, and agreement with networkx."""

import math

import numpy as np
import pytest

import mazekit
from mazekit.solve import guarantees
from mazekit.solve.dijkstra import dijkstra

from ..checks import MASK_TEXT, STEPS, assert_valid_path, bfs_distance, braided, cut_in_two, room


def test_declares_its_guarantees():
    assert guarantees(dijkstra) == {"shortest": True, "perfect": True, "loops": True, "island": True}


def nx_graph(maze, weights):
    """The maze as a networkx digraph whose edge u->v costs the weight of v."""
    nx = pytest.importorskip("networkx")
    graph = nx.DiGraph()
    rows, cols = maze.shape
    graph.add_nodes_from((r, c) for r in range(rows) for c in range(cols))
    for r in range(rows):
        for c in range(cols):
            for k, (dr, dc) in STEPS.items():
                if maze.passages[r, c] >> k & 1:
                    graph.add_edge((r, c), (r + dr, c + dc), weight=float(weights[r + dr, c + dc]))
    return nx, graph


def test_dijkstra_takes_the_cheap_way_round():
    # a 5 x 9 room with a costly swamp across the middle rows, and a dry strip down column 8
    maze = room((5, 9))
    w = np.ones((5, 9))
    w[1:4, :8] = 50.0
    sol = dijkstra(maze, (0, 0), (4, 0), weights=w)
    assert_valid_path(maze, sol.path, (0, 0), (4, 0))
    assert sol.length > bfs_distance(maze, (0, 0), (4, 0)) == 4
    assert sol.extras["cost"] == pytest.approx(w[tuple(sol.path[1:].T)].sum()) == 20.0  # round the swamp
    nx, graph = nx_graph(maze, w)
    assert sol.extras["cost"] == pytest.approx(nx.dijkstra_path_length(graph, (0, 0), (4, 0)))
    plain = dijkstra(maze, (0, 0), (4, 0))
    assert plain.length == plain.extras["cost"] == 4


@pytest.mark.parametrize("seed", range(6))
def test_dijkstra_matches_networkx(seed):
    rng = np.random.default_rng(seed)
    maze = braided(mazekit.generate("kruskal", (14, 19), rng=seed), seed)
    w = rng.uniform(0.1, 10.0, maze.shape)
    s, g = (int(rng.integers(14)), int(rng.integers(19))), (int(rng.integers(14)), int(rng.integers(19)))
    sol = dijkstra(maze, s, g, weights=w)
    nx, graph = nx_graph(maze, w)
    best = nx.single_source_dijkstra_path_length(graph, s)
    assert_valid_path(maze, sol.path, s, g)
    assert sol.extras["cost"] == pytest.approx(best[g])
    assert sol.extras["cost"] == pytest.approx(w[tuple(sol.path[1:].T)].sum())
    dmap = sol.extras["distances"]
    assert dmap.shape == maze.shape and dmap.dtype == np.float64
    settled = {tuple(c) for c in sol.explored.tolist()}
    for r in range(14):
        for c in range(19):
            if (r, c) in settled:
                assert dmap[r, c] == pytest.approx(best[(r, c)])
                assert dmap[r, c] <= sol.extras["cost"] + 1e-9
            else:
                assert dmap[r, c] == math.inf


def test_dijkstra_weights_are_checked():
    maze = mazekit.generate("prim", (3, 4), rng=0)
    ok = np.ones((3, 4))
    for bad, msg in [
        (np.ones((4, 3)), r"shape \(3, 4\), got shape=\(4, 3\)"),
        (np.full((3, 4), "x"), "real numbers, got dtype=<U1"),
        (np.where(np.eye(3, 4, dtype=bool), -1.0, ok), r"> 0 on every cell, got -1.0 at \(0, 0\)"),
        (np.where(np.eye(3, 4, k=1, dtype=bool), np.nan, ok), r"got nan at \(0, 1\)"),
        (np.where(np.eye(3, 4, k=2, dtype=bool), np.inf, ok), r"got inf at \(0, 2\)"),
        (np.zeros((3, 4)), r"got 0.0 at \(0, 0\)"),
    ]:
        with pytest.raises(ValueError, match=msg):
            dijkstra(maze, maze.start, maze.goal, weights=bad)
    sol = dijkstra(maze, maze.start, maze.goal, weights=np.full((3, 4), 2, dtype=np.int8))
    assert sol.extras["cost"] == 2 * sol.length
    # values on masked-out cells are not used, so anything goes there
    masked = mazekit.generate("kruskal", mazekit.RectGrid.from_text(MASK_TEXT), rng=1)
    w = np.where(masked.grid.mask, 1.0, np.nan)
    assert dijkstra(masked, masked.start, masked.goal, weights=w).extras["cost"] == bfs_distance(
        masked, masked.start, masked.goal
    )


def test_unreachable_cost_and_distances():
    d = dijkstra(cut_in_two(mazekit.generate("prim", (6, 6), rng=1)), (0, 0), (5, 5))
    assert d.extras["cost"] == math.inf and np.isinf(d.extras["distances"][:, 3:]).all()
