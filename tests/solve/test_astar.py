"""A*: its heuristic saves exploring on open ground."""

import numpy as np

import mazekit


def test_explores_no_more_than_bfs_on_open_ground():
    maze = mazekit.generate("backtracker", (30, 30), rng=1)
    p = np.full(maze.shape, 15, np.uint8)
    p[0, :] &= ~np.uint8(1)
    p[-1, :] &= ~np.uint8(4)
    p[:, 0] &= ~np.uint8(8)
    p[:, -1] &= ~np.uint8(2)
    room = maze.replace(passages=p)
    a, b = mazekit.solve(room, "astar"), mazekit.solve(room, "bfs")
    assert a.length == b.length == 58
    assert a.n_explored < b.n_explored / 5
