"""Dead-end filling: scan every cell, then fill dead ends until only the way is left."""

import numpy as np

import mazekit
from mazekit import trace as tr
from mazekit.solve import guarantees
from mazekit.solve.dead_end_filling import dead_end_filling

from ..checks import STEPS, braided


def test_declares_its_guarantees():
    assert guarantees(dead_end_filling) == {"shortest": True, "perfect": True, "loops": True, "island": True}


def test_dead_end_filling_leaves_the_path():
    maze = mazekit.generate("backtracker", (25, 25), rng=7)
    sol = dead_end_filling(maze, maze.start, maze.goal)
    events = sol.trace[:, 1]
    scanned = sol.trace[events == tr.VISIT, 0]
    filled = sol.trace[events == tr.BACKTRACK, 0]
    on_path = set((sol.path[:, 0] * 25 + sol.path[:, 1]).tolist())
    assert sorted(scanned.tolist()) == list(range(625))
    assert len(set(filled.tolist())) == len(filled) and not on_path & set(filled.tolist())
    assert len(filled) + len(on_path) == 625
    assert (np.flatnonzero(events == tr.BACKTRACK) > np.flatnonzero(events == tr.VISIT).max()).all()


def test_dead_end_filling_only_fills_dead_ends():
    maze = braided(mazekit.generate("kruskal", (20, 20), rng=1), 1)
    sol = dead_end_filling(maze, (0, 0), (19, 19))
    filled = set(sol.trace[sol.trace[:, 1] == tr.BACKTRACK, 0].tolist())
    # replay the filling: each cell, when filled, has at most one unfilled open neighbour
    gone: set[int] = set()
    for cell in sol.trace[sol.trace[:, 1] == tr.BACKTRACK, 0].tolist():
        r, c = divmod(cell, 20)
        alive = [
            (r + dr, c + dc)
            for k, (dr, dc) in STEPS.items()
            if maze.passages[r, c] >> k & 1 and (r + dr) * 20 + c + dc not in gone
        ]
        assert len(alive) <= 1 and cell not in (0, 399)
        gone.add(cell)
    # and what is left has no dead ends but the ends
    for cell in set(range(400)) - filled - {0, 399}:
        r, c = divmod(cell, 20)
        live = [k for k, (dr, dc) in STEPS.items() if maze.passages[r, c] >> k & 1]
        live = [k for k in live if (r + STEPS[k][0]) * 20 + c + STEPS[k][1] not in filled]
        assert len(live) >= 2
