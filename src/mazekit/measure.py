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

#: Peak scratch memory of :func:`stats`, bytes per cell: two breadth-first sweeps (int64
#: distances and queue) while the distances to the goal are kept, and the corridor search.
BYTES_PER_CELL = 40

#: Slot names of passages that run east-west, counted at their western end.
EAST = ("E", "under E")


@njit(cache=True, inline="always")
def degree(bits):  # pragma: no cover - compiled
    """Open passages of one cell: the set bits of its byte."""
    x = bits - ((bits >> 1) & 0x55)
    x = (x & 0x33) + ((x >> 2) & 0x33)
    return (x + (x >> 4)) & 0x0F


# -- dead ends, pieces, loops ---------------------------------------------------------------


@njit(cache=True, nogil=True)
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


@njit(cache=True, nogil=True)
def _pieces(passages, geo, mask, labels):  # pragma: no cover - compiled
    """Label each cell with its piece (0, 1, ... in the order of their first cells; -1 where
    no cell) in ``labels`` (int32); return how many pieces."""
    n = passages.shape[0]
    slots = k.n_slots(geo[0])
    masked = mask.shape[0] != 0
    labels[:] = -1
    stack = np.empty(n, dtype=np.int64)
    count = 0
    for s in range(n):
        if labels[s] >= 0 or (masked and mask[s] == 0):
            continue
        labels[s] = count
        top = 0
        stack[0] = s
        while top >= 0:
            cell = stack[top]
            top -= 1
            bits = passages[cell]
            for slot in range(slots):
                if bits >> slot & 1:
                    nb = k.through(geo, cell, slot)
                    if labels[nb] < 0:
                        labels[nb] = count
                        top += 1
                        stack[top] = nb
        count += 1
    return count


def pieces(maze: Maze) -> tuple[np.ndarray, int]:
    """``(labels, count)``: the piece of the passage graph each cell is in (0, 1, ... in the
    order of their first cells, -1 where no cell), shaped as the layout, and how many.

    >>> import mazekit
    >>> labels, count = pieces(mazekit.generate("prim", (2, 3), rng=0))
    >>> count, labels.tolist()
    (1, [[0, 0, 0], [0, 0, 0]])
    """
    labels = np.empty(maze.grid.size, dtype=np.int32)
    count = _pieces(maze.passages.ravel(), *maze.grid.kernel_args(), labels)
    return labels.reshape(maze.grid.shape), int(count)


def components(maze: Maze) -> int:
    """Number of separate pieces the passages join the cells into (1 for a connected maze;
    every passage-less cell, e.g. one filled by a dead-end filler, is a piece of its own;
    :func:`pieces` says which cell is in which).

    Examples
    --------
    >>> import mazekit
    >>> components(mazekit.generate("prim", (4, 4), rng=0))
    1
    """
    return pieces(maze)[1]


def loops(maze: Maze) -> int:
    """Number of independent loops (the cycle rank): passages - cells + pieces.

    0 for a perfect maze; every wall a braid or a loop-adder opens adds one.
    """
    return maze.n_passages - maze.grid.n_cells + components(maze)


# -- texture ----------------------------------------------------------------------------------


@njit(cache=True, nogil=True)
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
    """``(256,)`` bool: which cell bytes are straight corridors on ``grid``: the pairs of
    slots facing each other across a cell (:meth:`mazekit.grids.Grid.straight_pairs`)."""
    table = np.zeros(256, dtype=bool)
    for a, b in type(grid).straight_pairs():
        table[(1 << a) | (1 << b)] = True
    return table


@njit(cache=True, inline="always")
def _other_slot(bits, slot, slots):  # pragma: no cover - compiled
    """The open slot of a two-passage cell that is not ``slot``."""
    for s in range(slots):
        if (bits >> s & 1) and s != slot:
            return s
    return -1


@njit(cache=True, inline="always")
def _bend(geo, cell, a, b, bends):  # pragma: no cover - compiled
    """The bend (+1 left, -1 right) of a walk through ``cell`` from slot a to b, by the
    cell's parity (:meth:`~mazekit.grids.Grid.bend_table`)."""
    return bends[k.parity(geo, cell), a, b]


@njit(cache=True, nogil=True)
def _turning(passages, geo, mask, straight, bends):  # pragma: no cover - compiled
    """Degree histogram, turning two-passage cells, and dead-end passage lengths.

    Returns ``(hist, turn, river_cells)``: ``hist[d]`` cells with ``d`` passages, ``turn``
    1 at every two-passage cell that turns, ``river_cells`` the cells of every dead-end
    passage summed (walked from each dead end to the first cell without two passages).
    """
    n = passages.shape[0]
    slots = k.n_slots(geo[0])
    bending = bends.shape[0] != 0  # no facing sides: turns are two bends one way
    masked = mask.shape[0] != 0
    hist = np.zeros(k.MAX_SLOTS + 1, dtype=np.int64)
    turn = np.zeros(n, dtype=np.uint8)
    river = 0
    for cell in range(n):
        if masked and mask[cell] == 0:
            continue
        bits = passages[cell]
        d = degree(bits)
        hist[d] += 1
        if d == 1:  # walk the dead-end passage to its first branching (or other end)
            prev, cur = cell, k.through(geo, cell, _other_slot(bits, -1, slots))
            river += 1
            while degree(passages[cur]) == 2:
                river += 1
                for slot in range(slots):
                    nxt = k.through(geo, cur, slot) if passages[cur] >> slot & 1 else prev
                    if nxt != prev:
                        break
                prev, cur = cur, nxt
        if d != 2:
            continue
        if not bending:
            turn[cell] = 0 if straight[bits] else 1
            continue
        for slot in range(slots):  # a turn: bending the same way as a corridor neighbour
            if bits >> slot & 1:
                nb = k.through(geo, cell, slot)
                if degree(passages[nb]) != 2:
                    continue
                mine = _bend(geo, cell, _other_slot(bits, slot, slots), slot, bends)
                entry = k.back(geo, cell, slot)
                theirs = _bend(geo, nb, entry, _other_slot(passages[nb], entry, slots), bends)
                if mine == theirs:
                    turn[cell] = 1
    return hist, turn, river


@njit(cache=True, nogil=True)
def _walk_path(passages, geo, dist, start, straight, bends):  # pragma: no cover - compiled
    """Walk the shortest path from ``start`` down ``dist`` (distances to the goal).

    Returns ``(turns, decisions, branches)``: changes of direction along the path (on a
    triangle grid, two bends the same way in a row), cells where more than one way leads on
    (the start, if it has two passages or more; a cell inside the path with three or more),
    and the side passages leaving the path (the goal's included).
    """
    slots = k.n_slots(geo[0])
    bending = bends.shape[0] != 0
    cell, entry, last = start, -1, 0
    turns, decisions, branches = 0, 0, 0
    while dist[cell] > 0:
        bits = passages[cell]
        nxt = -1
        for slot in range(slots):
            if bits >> slot & 1 and dist[k.through(geo, cell, slot)] == dist[cell] - 1:
                nxt = slot
                break
        onward = degree(bits) - (1 if entry >= 0 else 0)
        if onward >= 2:
            decisions += 1
        branches += onward - 1
        if entry >= 0:
            if bending:
                bend = _bend(geo, cell, entry, nxt, bends)
                if bend == last:
                    turns += 1
                last = bend
            elif not straight[(1 << entry) | (1 << nxt)]:
                turns += 1
        entry = k.back(geo, cell, nxt)
        cell = k.through(geo, cell, nxt)
    branches += degree(passages[cell]) - (1 if entry >= 0 else 0)
    return turns, decisions, branches


def turning(maze: Maze) -> np.ndarray:
    """``bool`` array of ``maze.shape``: the two-passage cells where a corridor turns.

    On grids whose cells have facing sides a corridor cell turns unless its two passages
    face each other (:meth:`~mazekit.grids.Grid.straight_pairs`); on a triangle grid,
    unless it bends the other way from each corridor neighbour (see
    :meth:`~mazekit.grids.Grid.bend_table`).

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("binary_tree", (3, 4), rng=0)
    >>> turning(m).astype(int)  # the corner of the top row, and two bends of the bottom one
    array([[1, 0, 0, 0],
           [0, 0, 0, 0],
           [1, 0, 1, 0]])
    """
    _, turn, _ = _turning(maze.passages.ravel(), *maze.grid.kernel_args(), straight_bits(maze.grid),
                          type(maze.grid).bend_table())  # fmt: skip
    return turn.reshape(maze.shape).astype(bool)


def stats(maze: Maze, *, solution_length: bool = True, diameter_work: int | None = None) -> dict[str, Any]:
    """Every statistic of a maze's texture and of its solution, on any grid.

    Structure:

    - ``cells``, ``passages``, ``components`` (separate pieces) and ``loops`` (the cycle
      rank, passages - cells + pieces: 0 for a perfect maze, one per wall a braid opened).
    - ``dead_ends`` and ``dead_end_ratio`` (cells with one passage), ``junctions`` (three or
      more), ``crossroads`` (four or more) and ``junctions_by_degree`` (``{3: n, 4: n, ...}``).
    - ``corridors`` (runs of two-passage cells joined by passages), ``corridor_mean`` and
      ``corridor_max`` (their length in cells).
    - ``straights`` and ``turns`` (two-passage cells that run straight or turn) and
      ``turns_per_cell`` = turns / two-passage cells, the straightness: a cell turns when its
      passages do not face each other (:meth:`~mazekit.grids.Grid.straight_pairs`: on a rect grid, a change of
      direction; polar: around the ring or in and out; 3d: up and down too); a triangle has
      no facing sides, so there a cell turns when it bends the same way as a corridor
      neighbour (two 60-degree bends one way make a corner; see :meth:`~mazekit.grids.Grid.bend_table`).
    - ``river``: the mean length in cells of a dead-end passage, walked from the dead end to
      the first cell where it branches. Walter D. Pullen (*Think Labyrinth*, "Maze
      Algorithms") calls a maze with few but long dead ends high in *river* and one with many
      short ones low; this makes the word a number (on 50x50 mazes about 1.6 for Prim, 2.2 for
      the backtracker).
    - ``horizontal_ratio``: share of passages running east-west (None on grids without an
      ``E`` slot: hex, polar).

    Solution (omitted with ``solution_length=False``), from ``maze.start`` to ``maze.goal``
    along a shortest path:

    - ``solution_length`` (steps; -1 if the goal cannot be reached, and then the other
      solution numbers are 0), ``solution_share`` (cells on the path / cells),
      ``solution_turns`` (changes of direction, as above), ``solution_decisions`` (cells
      where more than one way leads on: a walker must choose), ``solution_branches`` (side
      passages leaving the path) and ``branching`` (side passages per cell of the path).
    - ``diameter`` (the longest shortest path within the start's piece) and
      ``diameter_ends`` (two cells that far apart, in row-major order), by
      :func:`mazekit.distances.diameter`: exact on a perfect maze and on any maze with loops
      whose bounds meet within :data:`~mazekit.distances.DIAMETER_WORK` (every maze of a few
      thousand cells). ``diameter_exact`` says which; when False, ``diameter`` is a lower
      bound and ``diameter_at_most`` an upper one (equal to ``diameter`` when exact).
      ``diameter_work`` sets that budget (cells visited; 0 for the two sweeps alone).

    Examples
    --------
    >>> import mazekit
    >>> s = stats(mazekit.generate("wilson", (6, 8), grid="hex", rng=1))
    >>> s["loops"], s["components"], s["horizontal_ratio"]
    (0, 1, None)
    >>> line = stats(mazekit.generate("backtracker", (1, 5), rng=0))
    >>> line["corridors"], line["corridor_max"], line["turns_per_cell"], line["river"]
    (1, 3, 0.0, 4.0)
    >>> line["solution_length"], line["diameter_ends"], line["solution_decisions"]
    (4, ((0, 0), (0, 4)), 0)
    """
    from ._memory import check_fits
    from .distances import _distances, diameter

    grid = maze.grid
    if grid.size >= 1 << 20:  # small mazes skip the look at free memory (compare makes many)
        check_fits(grid.shape, BYTES_PER_CELL, "measuring a maze")
    flat = maze.passages.ravel()
    geo, mask = grid.kernel_args()
    table = straight_bits(grid)
    bends = type(grid).bend_table()
    hist, turn, river = _turning(flat, geo, mask, table, bends)
    cells = grid.n_cells
    passages = int(hist @ np.arange(hist.size)) // 2
    pieces = components(maze)
    deg = maze.degree().ravel()
    runs = _corridors(flat, geo, deg)
    n_turns = int(turn.sum())
    east = [slot for slot, name in enumerate(grid.slot_names) if name in EAST]
    horizontal = sum(int(((flat >> slot) & 1).sum()) for slot in east)
    out: dict[str, Any] = {
        "cells": cells,
        "passages": passages,
        "components": pieces,
        "loops": passages - cells + pieces,
        "dead_ends": int(hist[1]),
        "dead_end_ratio": float(hist[1] / cells),
        "junctions": int(hist[3:].sum()),
        "crossroads": int(hist[4:].sum()),
        "junctions_by_degree": {d: int(hist[d]) for d in range(3, grid.n_slots + 1) if hist[d]},
        "corridors": int(runs.size),
        "corridor_mean": float(runs.mean()) if runs.size else 0.0,
        "corridor_max": int(runs.max()) if runs.size else 0,
        "straights": int(hist[2]) - n_turns,
        "turns": n_turns,
        "turns_per_cell": n_turns / int(hist[2]) if hist[2] else 0.0,
        "river": river / int(hist[1]) if hist[1] else 0.0,
        "horizontal_ratio": (horizontal / passages if passages else 0.0) if east else None,
    }
    if solution_length:
        start, goal = grid.flat(maze.start), grid.flat(maze.goal)
        to_goal = _distances(flat, geo, goal)
        length = int(to_goal[start])
        turns, decisions, branches = (
            _walk_path(flat, geo, to_goal, start, table, bends) if length >= 0 else (0, 0, 0)
        )
        on_path = length + 1 if length >= 0 else 0
        out.update(
            solution_length=length,
            solution_share=on_path / cells,
            solution_turns=int(turns),
            solution_decisions=int(decisions),
            solution_branches=int(branches),
            branching=branches / on_path if on_path else 0.0,
        )
        del to_goal
        # the first sweep from the goal (in the start's piece) picks the same ends as before
        out.update(diameter(maze, maze.goal if length >= 0 else maze.start, work=diameter_work))
    return out
