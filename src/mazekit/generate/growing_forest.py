"""Growing forest: many depth-first trees grow at once, then are joined into one.

1. Pick ``seeds`` distinct random cells; each is the root of its own tree, with its own stack.
2. In rounds, every tree that is still growing takes a turn: while the cell on top of its
   stack has unclaimed neighbours, open the wall to one at random, claim it for the tree and
   push it, up to ``TURN`` (8) cells; pop cells that have none. A tree stops when its stack
   is empty. Rounds sweep the trees forward then backward, so no tree is always first to
   reach a contested cell. (Turns of several cells keep memory access local: one cell per
   turn is about three times slower on large grids, and patch sizes spread the same.)
3. List the walls between cells of different trees, shuffle them, and open each one whose
   two trees are not yet joined (union-find over the trees, as in Kruskal's algorithm).

On a weave grid a tree may tunnel under a straight corridor whose 3x3 block holds no
other crossing (so every side a tunnel closes has a way round it), and the seams are the
plain walls that no tunnel runs through.

Texture: a patchwork. Inside each patch the maze is a backtracker's, with long winding
corridors; patches are roughly equal in size (the trees grow at the same rate) and meet
along seams of wall with exactly one door between any two joined patches, so routes wander
around whole patches to find the door. ``seeds=1`` is the recursive backtracker; ``seeds``
equal to the number of cells is Kruskal's algorithm. The default, one tree per 100 cells,
gives patches of about 10 x 10 cells. Biased, not uniform. Reference: a many-rooted
variant of the growing-tree algorithm (J. Buck, *Mazes for Programmers* (2015), ch. 11),
joined with Kruskal's union-find (J. B. Kruskal, 1956).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._memory import index_dtype
from ..grids import GRIDS as GRIDS_ALL
from ..grids import Grid
from ..grids import kernel as gk
from ..kernels.draw import draws, tick, uniform
from ..kernels.union_find import union
from ..trace import BACKTRACK, CARVE, OPEN, VISIT, record
from ._common import Carved, buffers, carved

TRACE_BYTES_PER_CELL = 36  # three events (12 bytes each) per cell
BYTES_PER_CELL = 17  # passages + int32 tree id, stack link and tree tables + seam walls
GRIDS = tuple(GRIDS_ALL)  # weave too: see _bridge_ok and _seams


def bytes_per_cell(grid: Grid) -> int:
    """Peak bytes per cell on ``grid`` whatever ``seeds`` is: passages and int32 tree ids,
    then either stack links and two per-tree tables (growing) or the per-tree union-find and
    a wall per neighbouring pair of cells (joining: every wall is a seam when every cell is a
    tree). With the default one tree per 100 cells it is about 9."""
    return 9 + 4 * max(2, (grid.n_slots + 1) // 2)


CELLS_PER_SEED = 100
TURN = 8  # cells a tree may claim per turn
FREE, GONE = -1, -2  # owner of a cell no tree has claimed yet; of a masked-out cell


@njit(cache=True, nogil=True)
def _plant(geo, mask, n_cells, k, owner, tops, src, trace):  # pragma: no cover
    """Choose ``k`` distinct cells by selection sampling (Knuth's algorithm S), in one pass;
    mark masked-out cells as owned by no tree (``GONE``)."""
    t, chosen, seen = 0, 0, 0
    for cell in range(geo[1] * geo[2]):
        if mask.shape[0] != 0 and mask[cell] == 0:
            owner[cell] = GONE
            continue
        if uniform(src) * (n_cells - seen) < k - chosen:
            owner[cell] = chosen
            tops[chosen] = cell
            t = record(trace, t, cell, VISIT, -1)
            chosen += 1
        seen += 1
    return t


@njit(cache=True, inline="always")
def _crossing(geo, passages, x):  # pragma: no cover - compiled
    """Whether a weave tunnel runs under cell ``x`` (its east or south neighbour has one
    leaving under it)."""
    rows, cols = geo[1], geo[2]
    r = x // cols
    c = x - r * cols
    return (c + 1 < cols and passages[x + 1] >> 7 & 1 != 0) or (
        r + 1 < rows and passages[x + cols] >> 4 & 1 != 0
    )


@njit(cache=True)  # out of line: weave only, and rare (a tunnel slot whose far cell is free)
def _bridge_ok(geo, mask, passages, cell, slot, nb):  # pragma: no cover - compiled
    """Whether a tree may tunnel from ``cell`` through weave slot ``slot`` to ``nb``: under a
    straight corridor (:func:`~mazekit.grids.kernel.tunnel_ok`) whose whole 3x3 block
    exists and holds no other crossing. Then every side a tunnel closes has a way round it,
    past a corner of the block, and the seams can still join every tree (on a mask, a plus
    of five cells with a crossing in the middle could never be joined)."""
    if not gk.tunnel_ok(geo, passages, cell, slot, nb):
        return False
    mid = (cell + nb) >> 1
    if not gk.block_exists(geo, mask, mid):
        return False
    cols = geo[2]
    for x in (
        mid - cols - 1,
        mid - cols,
        mid - cols + 1,
        mid - 1,
        mid + 1,
        mid + cols - 1,
        mid + cols,
        mid + cols + 1,
    ):
        if _crossing(geo, passages, x):
            return False
    return True


@njit(cache=True, nogil=True, _nrt=False)
def _turn(passages, geo, mask, owner, below, tops, tree, slots, hood, src, trace, t, T):  # pragma: no cover
    """``tree`` claims up to ``TURN`` cells depth-first; return whether it still grows, and ``t``.
    (No reference counting: it takes eight arrays and runs once per few cells.) ``T``: a polar
    grid's ring table, a wrapped rectangle's record, or :data:`~mazekit.grids.kernel.NO_TOPOLOGY`
    (see :func:`_topology_of`);
    ``hood`` takes the top cell's neighbours (:func:`~mazekit.grids.kernel.cell_hood`, one
    division a cell; benchmarks/grids.py at 700x700, 2026-12-06: 3d 314 -> 192 ns a cell,
    upsilon 259 -> 141, rect 125 -> 99)."""
    claimed = 0
    weave = gk.tunnels(geo[0])
    while claimed < TURN:
        cell = tops[tree]
        m = 0
        for slot in range(gk.cell_hood(T, geo, cell, hood)):
            nb = hood[slot]
            if (
                nb >= 0
                and owner[nb] == FREE
                and (slot < 4 or not weave or _bridge_ok(geo, mask, passages, cell, slot, nb))
            ):
                slots[m] = slot
                m += 1
        if m == 0:  # pop; a tree whose stack empties stops growing
            tops[tree] = below[cell]
            t = record(trace, t, cell, BACKTRACK, -1)
            if tops[tree] < 0:
                return False, t
            continue
        slot = slots[int(uniform(src) * m) if m > 1 else 0]
        nb = hood[slot]
        back = gk.cell_back(T, geo, cell, slot)
        passages[cell] |= 1 << slot
        passages[nb] |= 1 << back
        owner[nb] = tree
        tick(src, 1)
        below[nb] = cell
        tops[tree] = nb
        t = record(trace, t, nb, CARVE, back)
        claimed += 1
    return True, t


@njit(cache=True, nogil=True)
def _grow(passages, geo, mask, owner, below, tops, src, trace, t, T):  # pragma: no cover
    """Rounds in which every growing tree takes a turn, sweeping forward then backward."""
    k = tops.shape[0]
    live = np.arange(k).astype(tops.dtype)  # growing trees, kept in seed (reading) order
    slots = np.empty(gk.MAX_SLOTS, dtype=np.int64)
    hood = np.empty(gk.MAX_SLOTS, dtype=np.int64)
    for i in range(k):
        below[tops[i]] = -1
    lo, hi, forward = 0, k, True
    while hi > lo:
        if forward:  # stable compaction towards lo
            w = lo
            for i in range(lo, hi):
                alive, t = _turn(
                    passages, geo, mask, owner, below, tops, live[i], slots, hood, src, trace, t, T
                )
                if alive:
                    live[w] = live[i]
                    w += 1
            hi = w
        else:  # stable compaction towards hi
            w = hi
            for i in range(hi - 1, lo - 1, -1):
                alive, t = _turn(
                    passages, geo, mask, owner, below, tops, live[i], slots, hood, src, trace, t, T
                )
                if alive:
                    w -= 1
                    live[w] = live[i]
            lo = w
        forward = not forward
    return t


@njit(cache=True, nogil=True)
def _seams(geo, passages, owner, walls, T):  # pragma: no cover
    """Count the walls between different trees, writing ``cell * slots + slot`` (from the
    lower cell of each pair). On a weave grid only plain walls, and none on a side a tunnel
    runs through (of a crossing, from its tunnel's end)."""
    n_slot = gk.n_slots(geo[0])
    weave = gk.tunnels(geo[0])
    hood = np.empty(gk.MAX_SLOTS, dtype=np.int64)
    m = 0
    for cell in range(geo[1] * geo[2]):
        if owner[cell] < 0:
            continue
        gk.cell_hood(T, geo, cell, hood)
        for slot in range(4 if weave else n_slot):
            nb = hood[slot]
            if (
                weave
                and nb >= 0
                and (passages[cell] >> (4 | slot) & 1 or passages[nb] >> (4 | ((slot + 2) & 3)) & 1)
            ):
                continue  # a tunnel from one of the two under the other
            if nb > cell and owner[nb] >= 0 and owner[nb] != owner[cell]:
                if m < walls.shape[0]:
                    walls[m] = cell * n_slot + slot
                m += 1
    return m


@njit(cache=True, nogil=True)
def _join(passages, geo, owner, walls, parent, src, trace, t, T):  # pragma: no cover
    """Open shuffled seam walls whose trees are not yet joined, until all are one
    (``parent``: a union-find over the trees, all ``-1``)."""
    n_slot = gk.n_slots(geo[0])
    m = walls.shape[0]
    k = parent.shape[0]
    joined = 0
    for i in range(m):  # lazy Fisher-Yates, as in Kruskal
        if joined == k - 1:
            break
        j = i + int(uniform(src) * (m - i))
        wall = walls[j]
        walls[j] = walls[i]
        cell = wall // n_slot
        slot = wall - cell * n_slot
        nb = gk.cell_step(T, geo, cell, slot)
        if not union(parent, owner[cell], owner[nb]):
            continue
        passages[cell] |= 1 << slot
        passages[nb] |= 1 << gk.cell_back(T, geo, cell, slot)
        joined += 1
        tick(src, 1)
        t = record(trace, t, cell, OPEN, slot)
    return t


def _topology_of(grid: Grid) -> np.ndarray:
    """A polar grid's ring table (its neighbours by a few integer operations, not ``step``'s
    floating-point ring sizes: benchmarks/grids.py went from 2.1-2.5x a rectangle's cost a
    cell to 0.7-0.8x, 2026-12-02), a wrapped rectangle's record (no modulo a step), else
    ``NO_TOPOLOGY``: the other grids' ``step`` is cheap already, and this module keeps the
    plain layout."""
    if grid.rings:
        return grid.kernel_topology()
    fast = grid.fast_topology()
    return fast if fast is not None and not gk.padded_topology(fast) else gk.NO_TOPOLOGY


def growing_forest(
    grid: Grid, rng: np.random.Generator, *, seeds: int | None = None, record: bool = False
) -> Carved:
    """Carve a perfect maze on ``grid`` by growing a forest of trees and joining them.

    Parameters
    ----------
    seeds : int, optional
        How many trees to grow, from 1 to the number of cells; by default one per 100 cells
        (at least one).

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grids import RectGrid
    >>> out = growing_forest(RectGrid((10, 10)), np.random.default_rng(0), seeds=4)
    >>> int((out.passages > 0).sum())
    100
    """
    n_cells = grid.n_cells
    if seeds is None:
        k = max(1, n_cells // CELLS_PER_SEED)
    elif isinstance(seeds, bool) or not isinstance(seeds, int | np.integer) or not 1 <= seeds <= n_cells:
        raise ValueError(
            f"growing_forest seeds must be an integer from 1 to {n_cells} (the cells), got {seeds!r}"
        )
    else:
        k = int(seeds)
    passages, trace = buffers(grid, record, 3)
    dtype = index_dtype(grid.n_slots * grid.size)
    owner = np.full(grid.size, FREE, dtype=dtype)
    tops = np.empty(k, dtype=dtype)
    below = np.empty(grid.size, dtype=dtype)
    geo, mask = grid.kernel_args()
    with draws(rng, n_cells - 1) as src:
        t = _plant(geo, mask, n_cells, k, owner, tops, src, trace)
        T = _topology_of(grid)
        t = _grow(passages, geo, mask, owner, below, tops, src, trace, t, T)
        # The seam walls go where the stacks' links were, done with now; in the rare forest
        # with more seams than cells (seeds near the cell count) a second pass writes them all.
        m = _seams(geo, passages, owner, below, T)
        if m <= below.shape[0]:
            walls = below[:m]
        else:
            del below
            walls = np.empty(m, dtype=dtype)
            _seams(geo, passages, owner, walls, T)
        tops[:] = -1  # the trees' stacks are done: their table becomes their union-find
        t = _join(passages, geo, owner, walls, tops, src, trace, t, T)
    return carved(grid, passages, trace, t)
