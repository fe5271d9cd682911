"""Statistics of a maze: the numbers that describe an algorithm's texture.

>>> import mazekit
>>> from mazekit.measure import stats
>>> s = stats(mazekit.generate("backtracker", (30, 30), rng=0))
>>> s["cells"], s["passages"], s["loops"], s["components"]
(900, 899, 0, 1)
>>> 0 < s["dead_end_ratio"] < 0.2
True
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

from .grid import through
from .maze import Maze


@njit(cache=True)
def _corridors(passages, cols, degree):  # pragma: no cover - compiled
    """Sizes of the runs of degree-2 cells joined by passages (corridor lengths)."""
    n = passages.shape[0]
    seen = np.zeros(n, dtype=np.uint8)
    stack = np.empty(n, dtype=np.int64)
    sizes = np.empty(n, dtype=np.int64)
    m = 0
    for s in range(n):
        if degree[s] != 2 or seen[s]:
            continue
        seen[s] = 1
        stack[0] = s
        top, size = 0, 0
        while top >= 0:
            cell = stack[top]
            top -= 1
            size += 1
            for slot in range(4):
                if passages[cell] >> slot & 1:
                    nb = through(cols, cell, slot)
                    if degree[nb] == 2 and not seen[nb]:
                        seen[nb] = 1
                        top += 1
                        stack[top] = nb
        sizes[m] = size
        m += 1
    return sizes[:m]


def stats(maze: Maze, *, solution_length: bool = True) -> dict[str, Any]:
    """Texture statistics of a maze.

    Returns a dict with: ``cells``, ``passages``, ``components`` (connected regions),
    ``loops`` (independent cycles: passages - cells + components; 0 for a perfect maze),
    ``dead_ends`` and ``dead_end_ratio`` (cells with one passage), ``junctions`` (three or
    more), ``crossroads`` (four), ``straights`` and ``turns`` (cells with two passages, in
    line or not), ``corridor_mean`` and ``corridor_max`` (runs of two-passage cells),
    ``horizontal_ratio`` (share of passages running east-west), ``solution_length`` (steps
    from start to goal, -1 if unreachable) and ``diameter`` (longest shortest path from the
    start's region, found by two breadth-first sweeps: exact on perfect mazes).
    """
    from .distances import distance_map, farthest_pair
    from .transform._common import components as count_components

    p = maze.passages
    flat = p.ravel()
    exists = np.ones(p.size, bool) if maze.grid.mask is None else maze.grid.mask.ravel()
    degree = maze.degree().ravel()
    cells = int(exists.sum())
    passages = maze.n_passages
    components = count_components(maze)
    two = degree == 2
    straight = two & ((flat == 5) | (flat == 10))
    runs = _corridors(flat, maze.grid.cols, degree)
    horizontal = int(((p[:, :-1] & 2) != 0).sum())
    out: dict[str, Any] = {
        "cells": cells,
        "passages": passages,
        "components": components,
        "loops": passages - cells + components,
        "dead_ends": int((degree == 1).sum()),
        "dead_end_ratio": float((degree == 1).sum() / cells),
        "junctions": int((degree >= 3).sum()),
        "crossroads": int((degree == 4).sum()),
        "straights": int(straight.sum()),
        "turns": int((two & ~straight).sum()),
        "corridor_mean": float(runs.mean()) if runs.size else 0.0,
        "corridor_max": int(runs.max()) if runs.size else 0,
        "horizontal_ratio": horizontal / passages if passages else 0.0,
    }
    if solution_length:
        d = distance_map(maze, maze.start)
        out["solution_length"] = int(d[maze.goal])
        a, b = farthest_pair(maze, maze.start)
        out["diameter"] = int(distance_map(maze, a)[b])
    return out
