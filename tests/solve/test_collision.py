"""Collision solving: flood from the start, knock out cells off every shortest path."""

import numpy as np

import mazekit
from mazekit import trace as tr
from mazekit.solve import guarantees
from mazekit.solve.collision import collision

from ..checks import braided, cut_in_two, distances


def test_declares_its_guarantees():
    assert guarantees(collision) == {"shortest": True, "perfect": True, "loops": True, "island": True}


def test_collision_trace_floods_then_knocks_out():
    maze = braided(mazekit.generate("prim", (20, 20), rng=3), 3)
    sol = collision(maze, (0, 0), (19, 19))
    events = sol.trace[:, 1]
    flooded = sol.trace[events == tr.VISIT, 0]
    knocked = sol.trace[events == tr.BACKTRACK, 0]
    assert (np.flatnonzero(events == tr.BACKTRACK) > np.flatnonzero(events == tr.VISIT).max()).all()
    on = sol.extras["on_shortest"].ravel()
    assert set(knocked.tolist()) == {c for c in flooded.tolist() if not on[c]}
    d = distances(maze, (0, 0))
    far = [d[divmod(c, 20)] for c in knocked.tolist()]
    assert far == sorted(far, reverse=True)  # knocked out from the far edge of the flood back
    assert max(d[divmod(c, 20)] for c in flooded.tolist()) <= d[(19, 19)]


def test_unreachable_counts_no_paths():
    c = collision(cut_in_two(mazekit.generate("prim", (6, 6), rng=1)), (0, 0), (5, 5))
    assert c.extras["n_paths"] == 0 and not c.extras["on_shortest"].any()
