"""Bidirectional BFS: two searches in rings, meeting in the middle."""

import numpy as np
import pytest

import mazekit
from mazekit.solve import guarantees
from mazekit.solve.bfs import bfs
from mazekit.solve.bidirectional_bfs import bidirectional_bfs

from ..checks import braided, cut_in_two, distances, room


def test_declares_its_guarantees():
    assert guarantees(bidirectional_bfs) == {"shortest": True, "perfect": True, "loops": True, "island": True}


def test_bidirectional_explores_less_on_open_ground():
    maze = room((30, 30))
    rng = np.random.default_rng(0)
    ours, plain = [], []
    for _ in range(40):
        s = (int(rng.integers(30)), int(rng.integers(30)))
        g = (int(rng.integers(30)), int(rng.integers(30)))
        a, b = bidirectional_bfs(maze, s, g), bfs(maze, s, g)
        assert a.length == b.length
        ours.append(a.n_explored)
        plain.append(b.n_explored)
    assert np.mean(ours) < 0.75 * np.mean(plain)


def test_bidirectional_trace_sides():
    maze = braided(mazekit.generate("prim", (20, 20), rng=4), 4)
    sol = bidirectional_bfs(maze, (0, 0), (19, 19))
    sides = sol.trace[:, 2]
    assert set(sides.tolist()) == {0, 1}
    cells = sol.trace[:, 0].tolist()
    assert len(cells) == len(set(cells)), "a cell was expanded twice"
    d_start, d_goal = distances(maze, (0, 0)), distances(maze, (19, 19))
    for side, dist in ((0, d_start), (1, d_goal)):  # each side expands in rings
        ring = [dist[divmod(c, 20)] for c in sol.trace[sides == side, 0].tolist()]
        assert ring == sorted(ring)


@pytest.mark.parametrize("seed", range(3))
def test_unreachable_goal_one_side_searched_to_the_end_the_other_stays_home(seed):
    maze = cut_in_two(braided(mazekit.generate("backtracker", (30, 40), rng=seed), seed))
    sol = bidirectional_bfs(maze, (15, 3), (15, 36))
    assert not sol.found
    seen = {side: {divmod(int(c), 40) for c in sol.trace[sol.trace[:, 2] == side, 0]} for side in (0, 1)}
    near, far = set(distances(maze, (15, 3))), set(distances(maze, (15, 36)))
    assert seen[0] == near or seen[1] == far
    assert seen[0] <= near and seen[1] <= far
