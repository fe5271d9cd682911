"""True Prim (a minimum spanning tree of random weights), against the simplified Prim."""

import numpy as np

from mazekit import trace as tr
from mazekit.generate import GENERATORS, properties
from mazekit.generate.prim import prim
from mazekit.grid import DCOL, DROW, RectGrid

from ..checks import carve, degree


def test_declares_any_grid():
    props = properties(GENERATORS["prim_true"])
    assert props["perfect"] and not props["rect_only"] and not props["uniform"]


def test_differs_from_simplified_prim():
    grid = RectGrid((100, 100))
    simple = prim(grid, np.random.default_rng(5)).passages
    true = carve("prim_true", grid, rng=5).passages
    assert not np.array_equal(simple, true)
    # the minimum spanning tree of random weights is Kruskal's maze: ~30% dead ends, not ~36%
    assert 0.28 < (degree(true) == 1).mean() < 0.32 < 0.34 < (degree(simple) == 1).mean()


def test_grows_one_region_from_its_root():
    maze = carve("prim_true", (15, 20), rng=2, record=True)
    t = maze.trace
    assert t[0, 1] == tr.VISIT
    carves = t[t[:, 1] == tr.CARVE]
    assert len(carves) == 15 * 20 - 1
    joined = {int(t[0, 0])}
    for cell, _, slot in carves.tolist():  # each new cell attaches to the region grown so far
        r, c = divmod(cell, 20)
        assert (r + int(DROW[slot])) * 20 + c + int(DCOL[slot]) in joined
        joined.add(cell)
