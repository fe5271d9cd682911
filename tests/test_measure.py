import numpy as np
import pytest

import mazekit
from mazekit.generate import properties
from mazekit.measure import stats

from .checks import bfs_distance


@pytest.mark.parametrize("name", sorted(mazekit.GENERATORS))
def test_counts_add_up(name):
    m = mazekit.generate(name, (20, 25), rng=2)
    s = stats(m)
    deg = m.degree()
    assert s["cells"] == m.grid.n_cells
    assert s["dead_ends"] + s["straights"] + s["turns"] + s["junctions"] + int((deg == 0).sum()) == s["cells"]
    assert s["solution_length"] == bfs_distance(m, m.start, m.goal)
    if properties(mazekit.GENERATORS[name])["perfect"]:
        assert s["loops"] == 0 and s["components"] == 1


def test_hand_made_maze():
    # a 1x5 corridor: two dead ends, three straight cells forming one corridor of length 3
    m = mazekit.generate("backtracker", (1, 5), rng=0)
    s = stats(m)
    assert (s["dead_ends"], s["straights"], s["turns"], s["junctions"]) == (2, 3, 0, 0)
    assert (s["corridor_mean"], s["corridor_max"], s["diameter"]) == (3.0, 3, 4)
    assert s["horizontal_ratio"] == 1.0


def test_loops_and_components():
    m = mazekit.generate("prim", (6, 6), rng=0)
    p = np.full((6, 6), 15, np.uint8)
    p[0, :] &= ~np.uint8(1)
    p[-1, :] &= ~np.uint8(4)
    p[:, 0] &= ~np.uint8(8)
    p[:, -1] &= ~np.uint8(2)
    s = stats(m.replace(passages=p))
    assert s["passages"] == 60 and s["loops"] == 60 - 36 + 1 and s["crossroads"] == 16
    closed = stats(m.replace(passages=np.zeros((6, 6), np.uint8)))
    assert closed["components"] == 36 and closed["solution_length"] == -1


def test_textures_differ_as_the_literature_says():
    """Backtracker: few dead ends and long corridors; Prim and Kruskal: many dead ends."""
    back = stats(mazekit.generate("backtracker", (100, 100), rng=1))
    prim = stats(mazekit.generate("prim", (100, 100), rng=1))
    kruskal = stats(mazekit.generate("kruskal", (100, 100), rng=1))
    assert back["dead_end_ratio"] < 0.15 < kruskal["dead_end_ratio"] < prim["dead_end_ratio"]
    assert back["corridor_mean"] > 2 * kruskal["corridor_mean"]


def test_growing_tree_newest_is_exactly_the_backtracker():
    a = mazekit.generate("growing_tree", (40, 50), rng=9, rule="newest")
    b = mazekit.generate("backtracker", (40, 50), rng=9)
    assert np.array_equal(a.passages, b.passages)
