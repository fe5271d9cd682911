"""Cul-de-sac filling: wall off every part of the maze that hangs off the rest by one cell.

A *cul-de-sac* (W. D. Pullen) is a dead-end section that may contain loops: a part of the
maze you can only enter and leave through a single cell, so going in is never part of a way
from start to goal. Plain dead ends, dead-end corridors with a loop at the end ("nooses"),
and loops hanging straight off a corridor are all cul-de-sacs; a loop *on* the way through
is not.

Precisely, the op keeps exactly the passages that lie on some simple path (one that visits
no cell twice) from the start to the goal, and closes every other passage. In graph terms:

1. Split the maze into biconnected blocks (groups of passages joined by loops, cut apart at
   the articulation cells) by an iterative Tarjan depth-first search from the start.
2. Keep a block iff it lies on the chain of blocks between the start and the goal in the
   block-cut tree. A depth-first search rooted at the start makes that test local: the block
   closed off when child ``v`` of cell ``u`` finishes with ``low[v] >= disc[u]`` is on the
   chain iff the goal was discovered inside ``v``'s subtree (``disc[goal] >= disc[v]``).
3. Close every passage of every other block, and every passage not reachable from the start.

This fills everything dead-end filling fills (the result is a subset of ``fill_dead_ends``')
and also the cul-de-sacs that dead-end filling leaves. Filled cells stay on the grid with no
passages (isolated). The start-goal distance is unchanged: a shortest path is simple. If the
goal cannot be reached from the start, or equals it, no simple path has a passage and every
passage is closed. Deterministic: the op uses no randomness. Works on every grid (on a weave
grid, as with ``fill_dead_ends``, a tunnel on the way may stay under a walled-off cell).
Reference: W. D. Pullen, *Think Labyrinth: Maze Algorithms* ("cul-de-sac filler", "blind alley
filler"); R. E. Tarjan, "Depth-first search and linear graph algorithms" (1972).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._memory import index_scratch as scratch_index
from ..grids import kernel as k
from ..maze import Maze
from ..trace import CLOSE, record
from ._common import Carved, done, start

CLOSES_ONLY = True
KEEPS_SHORTEST = True
USES_RNG = False
BYTES_PER_CELL = 19  # passages copy, drop bits, next slot, int32 disc, low, dfs and block stacks


@njit(cache=True, nogil=True)
def _blocks(passages, geo, s, goal, disc, low, dfs, blk, trace):  # pragma: no cover - compiled
    """Close the passages on no simple s-goal path; return the number of trace rows."""
    n = passages.shape[0]
    slots = k.n_slots(geo[0])
    drop = np.zeros(n, dtype=np.uint8)
    nxt = np.zeros(n, dtype=np.uint8)
    disc[:] = -1
    t = 0
    time = 0
    disc[s] = low[s] = time
    time += 1
    dfs[0] = s
    top = 0
    btop = -1  # the stack of cells not yet assigned to a block
    while top >= 0:
        v = dfs[top]
        slot = nxt[v]
        if slot < slots:
            nxt[v] = slot + 1
            if not passages[v] >> slot & 1:
                continue
            w = k.through(geo, v, slot)
            if disc[w] < 0:
                disc[w] = low[w] = time
                time += 1
                top += 1
                dfs[top] = w
                btop += 1
                blk[btop] = w
            elif disc[w] < low[v] and (top == 0 or w != dfs[top - 1]):  # a back edge
                low[v] = disc[w]
            continue
        top -= 1  # v is finished
        if top < 0:
            break
        u = dfs[top]
        if low[v] < low[u]:
            low[u] = low[v]
        if low[v] >= disc[u]:
            # u cuts off a block: v's part of the block stack. Each popped cell takes its
            # passages to shallower cells (the block's passages) with it.
            keep = disc[goal] >= disc[v]
            while True:
                x = blk[btop]
                btop -= 1
                if not keep:
                    bits = passages[x]
                    for j in range(slots):
                        if bits >> j & 1:
                            y = k.through(geo, x, j)
                            if disc[y] < disc[x]:
                                drop[x] |= np.uint8(1 << j)
                                drop[y] |= np.uint8(1 << k.back(geo, x, j))
                                t = record(trace, t, x, CLOSE, j)
                if x == v:
                    break
    # passages out of reach of the start
    for cell in range(n):
        if disc[cell] < 0 and passages[cell] != 0:
            for j in range(slots):
                if passages[cell] >> j & 1:
                    y = k.through(geo, cell, j)
                    if y > cell:  # each passage once
                        drop[cell] |= np.uint8(1 << j)
                        drop[y] |= np.uint8(1 << k.back(geo, cell, j))
                        t = record(trace, t, cell, CLOSE, j)
    for cell in range(n):
        passages[cell] &= ~drop[cell]
    return t


def fill_cul_de_sacs(maze: Maze, rng: np.random.Generator, *, record: bool = False) -> Carved:
    """Close every passage that lies on no simple path from the start to the goal.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.transform import transform
    >>> m = transform(mazekit.generate("kruskal", (9, 9), rng=4), "braid", rng=1)
    >>> out = fill_cul_de_sacs(m, np.random.default_rng(0))
    >>> left = m.replace(passages=out.passages)
    >>> mazekit.solve(left, "bfs").length == mazekit.solve(m, "bfs").length
    True
    """
    passages, trace = start(maze, record, 2)
    grid = maze.grid
    disc, low, dfs, blk = (scratch_index(grid) for _ in range(4))
    s, g = grid.flat(maze.start), grid.flat(maze.goal)
    used = _blocks(passages, grid.geo, s, g, disc, low, dfs, blk, trace)
    return done(grid, passages, trace, used)
