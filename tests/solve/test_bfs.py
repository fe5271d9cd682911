"""Breadth-first search: it explores in rings of distance."""

import mazekit

from ..checks import bfs_distance


def test_explores_in_distance_order():
    maze = mazekit.generate("prim", (20, 20), rng=3)
    sol = mazekit.solve(maze, "bfs")
    d = [bfs_distance(maze, maze.start, tuple(c)) for c in sol.explored.tolist()]
    assert d == sorted(d)
    assert len(set(map(tuple, sol.explored.tolist()))) == len(d)
