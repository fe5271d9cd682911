"""Depth-first search: it records where it backtracks, and never backtracks off the path."""

import mazekit
from mazekit import trace as tr


def test_records_backtracking():
    maze = mazekit.generate("prim", (20, 20), rng=3)
    sol = mazekit.solve(maze, "dfs")
    events = sol.trace[:, 1]
    assert (events == tr.BACKTRACK).any()
    visited = sol.trace[events == tr.VISIT, 0]
    back = sol.trace[events == tr.BACKTRACK, 0]
    assert len(set(visited.tolist())) == len(visited)
    assert set(back.tolist()) <= set(visited.tolist())
    on_path = set((sol.path[:, 0] * 20 + sol.path[:, 1]).tolist())
    assert not on_path & set(back.tolist()), "a cell on the final path was backtracked"
    assert len(visited) - len(back) == len(sol.path)
