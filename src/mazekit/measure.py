"""Measurements of a maze: dead ends, pieces, loops, and the statistics of its texture.

Every measurement works on every grid (:mod:`mazekit.grids`): a cell's degree is the number
of its open slots (a weave tunnel counts, at both of its ends), a dead end is a cell of
degree 1, pieces and loops are those of the passage graph.

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

from .grids import Grid
from .grids import kernel as k
from .maze import Maze

#: Pairs of slots that face each other across a cell, per grid kind: a cell whose two
#: passages leave through such a pair runs straight. Triangles have no such pair. On a polar
#: grid "straight" means around the ring, or in and out (to either outer cell where the
#: ring outside doubles). Weave tunnels run the way of their side (``under E`` is east).
STRAIGHT_PAIRS: dict[str, tuple[tuple[int, int], ...]] = {
    "rect": ((0, 2), (1, 3)),
    "hex": ((0, 3), (1, 4), (2, 5)),
    "triangle": (),
    "polar": ((0, 1), (2, 3), (2, 4)),
    "upsilon": ((0, 4), (1, 5), (2, 6), (3, 7)),
    "3d": ((0, 2), (1, 3), (4, 5)),
    "weave": tuple((a, b) for a in range(8) for b in range(a + 1, 8) if (a & 3) == ((b + 2) & 3)),
}

#: Slot names of passages that run east-west, counted at their western end.
EAST = ("E", "under E")


@njit(cache=True, inline="always")
def degree(bits):  # pragma: no cover - compiled
    """Open passages of one cell: the set bits of its byte."""
    x = bits - ((bits >> 1) & 0x55)
    x = (x & 0x33) + ((x >> 2) & 0x33)
    return (x + (x >> 4)) & 0x0F


# -- dead ends, pieces, loops ---------------------------------------------------------------


@njit(cache=True)
def _dead_ends(passages, out):  # pragma: no cover - compiled
    """Count cells with exactly one open passage; write their flat indices to ``out`` if it
    has room (pass a zero-length array just to count)."""
    n = 0
    for cell in range(passages.shape[0]):
        if degree(passages[cell]) == 1:
            if n < out.shape[0]:
                out[n] = cell
            n += 1
    return n


def dead_ends(maze: Maze) -> int:
    """Number of dead ends: cells with exactly one open passage.

    Examples
    --------
    >>> import mazekit
    >>> dead_ends(mazekit.generate("backtracker", (1, 5), rng=0))
    2
    """
    return int(_dead_ends(maze.passages.ravel(), np.zeros(0, dtype=np.int64)))


def dead_end_cells(maze: Maze) -> np.ndarray:
    """Flat indices (``row * cols + col``, ascending) of the dead ends."""
    flat = maze.passages.ravel()
    out = np.empty(flat.shape[0], dtype=np.int64)
    n = _dead_ends(flat, out)
    return out[:n].copy()


@njit(cache=True)
def _components(passages, geo, mask):  # pragma: no cover - compiled
    n = passages.shape[0]
    slots = k.n_slots(geo[0])
    masked = mask.shape[0] != 0
    seen = np.zeros(n, dtype=np.uint8)
    stack = np.empty(n, dtype=np.int64)
    count = 0
    for s in range(n):
        if seen[s] or (masked and mask[s] == 0):
            continue
        count += 1
        seen[s] = 1
        top = 0
        stack[0] = s
        while top >= 0:
            cell = stack[top]
            top -= 1
            bits = passages[cell]
            for slot in range(slots):
                if bits >> slot & 1:
                    nb = k.through(geo, cell, slot)
                    if not seen[nb]:
                        seen[nb] = 1
                        top += 1
                        stack[top] = nb
    return count


def components(maze: Maze) -> int:
    """Number of separate pieces the passages join the cells into (1 for a connected maze;
    every passage-less cell, e.g. one filled by a dead-end filler, is a piece of its own).

    Examples
    --------
    >>> import mazekit
    >>> components(mazekit.generate("prim", (4, 4), rng=0))
    1
    """
    return int(_components(maze.passages.ravel(), *maze.grid.kernel_args()))


def loops(maze: Maze) -> int:
    """Number of independent loops (the cycle rank): passages - cells + pieces.

    0 for a perfect maze; every wall a braid or a loop-adder opens adds one.
    """
    return maze.n_passages - maze.grid.n_cells + components(maze)


# -- texture ----------------------------------------------------------------------------------


@njit(cache=True)
def _corridors(passages, geo, deg):  # pragma: no cover - compiled
    """Sizes of the runs of degree-2 cells joined by passages (corridor lengths)."""
    n = passages.shape[0]
    slots = k.n_slots(geo[0])
    seen = np.zeros(n, dtype=np.uint8)
    stack = np.empty(n, dtype=np.int64)
    sizes = np.empty(n, dtype=np.int64)
    m = 0
    for s in range(n):
        if deg[s] != 2 or seen[s]:
            continue
        seen[s] = 1
        stack[0] = s
        top, size = 0, 0
        while top >= 0:
            cell = stack[top]
            top -= 1
            size += 1
            for slot in range(slots):
                if passages[cell] >> slot & 1:
                    nb = k.through(geo, cell, slot)
                    if deg[nb] == 2 and not seen[nb]:
                        seen[nb] = 1
                        top += 1
                        stack[top] = nb
        sizes[m] = size
        m += 1
    return sizes[:m]


def straight_bits(grid: Grid) -> np.ndarray:
    """``(256,)`` bool: which cell bytes are straight corridors on ``grid`` (see
    :data:`STRAIGHT_PAIRS`)."""
    table = np.zeros(256, dtype=bool)
    for a, b in STRAIGHT_PAIRS.get(grid.kind, ()):
        table[(1 << a) | (1 << b)] = True
    return table


def stats(maze: Maze, *, solution_length: bool = True) -> dict[str, Any]:
    """Texture statistics of a maze, on any grid.

    Returns a dict with: ``cells``, ``passages``, ``components`` (connected regions),
    ``loops`` (independent cycles: passages - cells + components; 0 for a perfect maze),
    ``dead_ends`` and ``dead_end_ratio`` (cells with one passage), ``junctions`` (three or
    more), ``crossroads`` (four or more), ``straights`` and ``turns`` (cells with two
    passages, leaving through facing sides or not: see :data:`STRAIGHT_PAIRS`; every
    two-passage triangle is a turn), ``corridor_mean`` and ``corridor_max`` (runs of
    two-passage cells), ``horizontal_ratio`` (share of passages running east-west, through a
    slot named ``E``; None on grids without one: hex and polar), ``solution_length`` (steps
    from start to goal, -1 if unreachable) and ``diameter`` (longest shortest path from the
    start's region, found by two breadth-first sweeps: exact on perfect mazes).

    Examples
    --------
    >>> import mazekit
    >>> s = stats(mazekit.generate("wilson", (6, 8), grid="hex", rng=1))
    >>> s["loops"], s["components"], s["horizontal_ratio"]
    (0, 1, None)
    """
    from .distances import distance_map, farthest_pair

    grid = maze.grid
    flat = maze.passages.ravel()
    deg = maze.degree().ravel()
    cells = grid.n_cells
    passages = maze.n_passages
    pieces = components(maze)
    straight = straight_bits(grid)[flat]
    runs = _corridors(flat, grid.geo, deg)
    east = [slot for slot, name in enumerate(grid.slot_names) if name in EAST]
    horizontal = sum(int(((flat >> slot) & 1).sum()) for slot in east)
    out: dict[str, Any] = {
        "cells": cells,
        "passages": passages,
        "components": pieces,
        "loops": passages - cells + pieces,
        "dead_ends": int((deg == 1).sum()),
        "dead_end_ratio": float((deg == 1).sum() / cells),
        "junctions": int((deg >= 3).sum()),
        "crossroads": int((deg >= 4).sum()),
        "straights": int(straight.sum()),
        "turns": int(((deg == 2) & ~straight).sum()),
        "corridor_mean": float(runs.mean()) if runs.size else 0.0,
        "corridor_max": int(runs.max()) if runs.size else 0,
        "horizontal_ratio": (horizontal / passages if passages else 0.0) if east else None,
    }
    if solution_length:
        d = distance_map(maze, maze.start)
        out["solution_length"] = int(d[maze.goal])
        a, b = farthest_pair(maze, maze.start)
        out["diameter"] = int(distance_map(maze, a)[b])
    return out
