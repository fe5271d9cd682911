"""Randomized Kruskal: join cells along shuffled walls, never closing a loop.

1. List every interior wall (each cell's east and south wall) and shuffle the list.
2. For each wall in turn, if the cells on its two sides are in different sets (a
   union-find forest), open it and merge the sets.
3. Stop after cells-1 walls are open.

Mazes have many short dead ends (about 30% of cells) and no directional bias, but they
are not exactly uniform. Memory is the largest of the classic set (the wall list).

On a weave grid, crossings are placed first (Buck's method): each inner cell, with
probability ``crossings``, becomes a bridge if it and its four neighbours are still apart:
a straight corridor through it one way and a tunnel under it the other, both merged into the
sets; Kruskal then joins the rest through plain walls only, never along a tunnel's axis.
Reference: J. B. Kruskal (1956); J. Buck, *Mazes for Programmers* (2015), ch. 9 and 11.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import trace as tr
from .._memory import index_dtype
from ..grids import GRIDS as GRIDS_ALL
from ..grids import Grid
from ..grids import kernel as gk
from ..kernels.draw import draws, rewind, tick, uniform
from ..kernels.union_find import find, forest, union
from ..trace import OPEN, record
from ._common import Carved, carved

TRACE_BYTES_PER_CELL = 12  # one event (12 bytes) per cell
BYTES_PER_CELL = 13  # on a rect grid: passages + 2 int32 walls + int32 union-find
GRIDS = tuple(GRIDS_ALL)  # weave too: crossings are placed first, then joined like any wall
DRAWS_ROOT = False  # the front door draws no root cell first (see mazekit.generate.many_roots)
MANY_WEAVES = False  # many() places no crossings: weave mazes take the front door (many_door)


def _dtype(grid: Grid) -> type[np.signedinteger]:
    """Walls are ``index << 3 | slot``, the index padded (at most this big) or not."""
    return index_dtype(max(grid.size, grid.padded_cells()) * gk.MAX_SLOTS)


def bytes_per_cell(grid: Grid) -> float:
    """Peak bytes per cell on ``grid``: passages, the union-find and one wall per
    neighbouring pair (int32, or int64 past 268 million cells); the passages and the
    union-find in the padded layout where the grid has one (its border and a 3d grid's
    blocked bands: ``padded_cells() / size`` of them a cell); the neighbour table a grid
    with neither a padded layout nor rings makes (:meth:`~mazekit.grids.Grid.topology_bytes`);
    on a weave grid a byte a cell saying where tunnels run under (:func:`_place_crossings`)."""
    size = np.dtype(_dtype(grid)).itemsize
    layout = grid.padded_cells() / grid.size if grid.padded_layout() else 1.0
    wide = grid.padded_layout() and grid.n_slots > 6  # passages in two bytes a cell
    under = bool(grid.tunnel_slots)
    return layout * (1 + wide + size + under) + size * ((grid.n_slots + 1) // 2) + grid.topology_bytes()


@njit(cache=True, nogil=True)
def _walls(geo, mask, walls, padded, T):  # pragma: no cover
    """Fill ``walls`` with ``cell << 3 | slot`` for each neighbouring pair, once (from the
    lower cell); return how many. ``padded``: with the cell's padded index instead. On a
    weave grid only plain walls: tunnels are crossings'. A grid with neither (a polar
    grid, a wrapped rectangle, a declared grid whose steps hang on the row) has its
    neighbours from its topology ``T``, a cell's all at once
    (:func:`~mazekit.grids.kernel.cell_hood`: on a 700x700 torus 7 ns a cell, against 16
    by ``move`` a slot and 26 with its modulo; on rings no floating point)."""
    n_plain = gk.wall_slots(geo[0])
    masked = mask.shape[0] != 0
    rows, cols = geo[1], geo[2]
    w = gk.pad_width(geo) if padded else cols
    m = 0
    if geo[0] == gk.RECT and geo[3] == 0 and not masked:  # the same walls, without the moves
        for r in range(rows):
            index = (r + 1) * w + 1 if padded else r * cols
            for c in range(cols):
                if c + 1 < cols:
                    walls[m] = (index + c) << 3 | 1
                    m += 1
                if r + 1 < rows:
                    walls[m] = (index + c) << 3 | 2
                    m += 1
        return m
    if padded:  # the same walls in the same order, by the offsets (a move is ~7 ns a slot)
        return _padded_walls(geo, mask, walls, n_plain)
    hood = np.empty(gk.MAX_SLOTS, dtype=np.int64)
    for cell in range(rows * cols):
        if masked and mask[cell] == 0:
            continue
        gk.cell_hood(T, geo, cell, hood)
        for slot in range(n_plain):
            nb = hood[slot]
            if nb > cell and not (masked and mask[nb] == 0):
                walls[m] = cell << 3 | slot
                m += 1
    return m


@njit(cache=True, nogil=True)
def _padded_walls(geo, mask, walls, n_slot):  # pragma: no cover
    """:func:`_walls` on a padded layout: a neighbour is an offset away, a cell where a byte
    of a padded copy of the mask says so, and the lower cell's (row-major order is kept by
    padded indices). On a 700x700 hex grid 42 -> 6 ns a cell (a move is several branches on
    the grid's kind), a third of Kruskal's time there."""
    inside = gk.pad(geo, mask, 1, 0, np.uint8)
    off = gk.pad_offsets(geo, gk.pad_width(geo))
    m = 0
    for p in range(inside.shape[0]):
        if inside[p] == 0:
            continue
        q = p & 1
        for slot in range(n_slot):
            nb = p + off[q, slot]
            if nb > p and inside[nb] != 0:
                walls[m] = p << 3 | slot
                m += 1
    return m


@njit(cache=True, nogil=True)
def _place_crossings(passages, geo, mask, parent, crossings, src, trace, T):  # pragma: no cover
    """Make bridges on a weave grid; ``under`` gets 1 where a tunnel runs N-S under a cell,
    2 where it runs E-W. Return the crossings' share of joins, ``under`` and the trace row.

    On a mask a bridge also needs the eight cells around it, none of them a bridge (a
    masked-out one takes no draw): then each side a tunnel closes has a way round it, past
    a corner of the block, and the joins can still reach every cell. (Without that, a plus
    of five cells with a bridge in the middle could never be joined.)

    ``passages``, ``parent`` and ``under`` are in the fast layout of topology ``T`` (the
    padded one; its rows are contiguous, as the plain layout's)."""
    rows, cols = geo[1], geo[2]
    under = np.zeros(passages.shape[0], dtype=np.uint8)
    joined, t = 0, 0
    masked = mask.shape[0] != 0
    for r in range(1, rows - 1):
        for c in range(1, cols - 1):
            cell = gk.to_fast(T, geo, r * cols + c)
            n, e, s, w = gk.hop(T, cell, 0), cell + 1, gk.hop(T, cell, 2), cell - 1
            if masked and (not gk.block_exists(geo, mask, r * cols + c) or under[n - 1] or under[n + 1]):
                continue  # (the corners below are not bridges yet: rows go downward)
            if passages[cell] != 0 or uniform(src) >= crossings:
                continue
            roots = (find(parent, n), find(parent, e), find(parent, s), find(parent, w), find(parent, cell))
            distinct = True
            for i in range(5):
                for j in range(i + 1, 5):
                    distinct = distinct and roots[i] != roots[j]
            if not distinct:
                continue
            vertical_tunnel = uniform(src) < 0.5
            a, b, x, y = (w, e, n, s) if vertical_tunnel else (n, s, w, e)
            over = 1 if vertical_tunnel else 2  # the slot from ``a`` to the cell to ``b``: E or S
            passages[a] |= 1 << over
            passages[cell] |= (1 << over) | (1 << ((over + 2) & 3))
            passages[b] |= 1 << ((over + 2) & 3)
            tunnel = 6 if vertical_tunnel else 5  # from ``x`` under the cell to ``y``: S or E
            passages[x] |= 1 << tunnel
            passages[y] |= 1 << gk.back(geo, x, tunnel)
            union(parent, a, cell)
            union(parent, cell, b)
            union(parent, x, y)
            under[cell] = 1 if vertical_tunnel else 2
            joined += 3
            tick(src, 3)
            t = record(trace, t, gk.to_cell(T, geo, a), OPEN, over)
            t = record(trace, t, gk.to_cell(T, geo, cell), OPEN, over)
            t = record(trace, t, gk.to_cell(T, geo, x), OPEN, tunnel)
    return joined, under, t


@njit(cache=True, nogil=True)
def _shuffle(walls, m, src):  # pragma: no cover
    """Fisher-Yates over ``walls[:m]``: the order the lazy shuffle in :func:`_join` makes,
    with every draw made up front (the swaps no longer wait for the unions)."""
    for i in range(m):
        j = np.uint64(i + int(uniform(src) * (m - i)))  # unsigned: no negative-index fix-ups
        wall = walls[j]
        walls[j] = walls[i]
        walls[i] = wall
        tick(src, 1)


@njit(cache=True, nogil=True)
def _join(
    passages, geo, T, walls, m, parent, n_cells, shuffled, joined, under, src, trace, t
):  # pragma: no cover
    """Open walls in shuffled order between different sets until all ``n_cells`` are one;
    shuffle as it goes unless ``shuffled``. Return the walls looked at (= draws) and ``t``.

    One kernel on the topology ``T`` (:meth:`~mazekit.grids.Grid.kernel_topology`): on
    padded offsets ``passages``, ``walls`` and the union-find are in the padded layout, on a
    ring or neighbour table they are the cells'; a wall's far side and its slot back are a
    few operations, no division, and indices are unsigned. ``under`` (weave) says where a
    tunnel runs under a cell: no wall along its axis opens."""
    off1 = gk.flat(T)
    weave = under.shape[0] != 0
    recording = trace.shape[0] != 0
    for i in range(m):
        if joined == n_cells - 1:
            return i, t
        if not shuffled:  # lazy Fisher-Yates: draw only as far as needed
            j = i + int(uniform(src) * (m - i))
            wall = walls[j]
            walls[j] = walls[i]
        else:
            wall = walls[i]
        cell = np.int64(wall >> 3)
        slot = np.int64(wall & 7)
        nb = gk.near(np.uint64(cell), off1, slot)
        if weave and (under[cell] == 1 + (slot & 1) or under[nb] == 1 + (slot & 1)):
            continue  # a tunnel runs under along this wall's axis
        if not union(parent, cell, nb):
            continue
        passages[np.uint64(cell)] |= 1 << slot
        passages[nb] |= 1 << gk.hop_back(T, geo, cell, slot)
        joined += 1
        tick(src, 1)
        if recording:
            t = record(trace, t, gk.to_cell(T, geo, cell), OPEN, slot)
    return m, t


def _wall_list(grid: Grid, topology: np.ndarray, padded: bool) -> tuple[np.ndarray, int]:
    """``(walls, m)``: every wall of ``grid`` once, in the indices of its ``topology``
    (:meth:`~mazekit.grids.Grid.kernel_topology`; ``padded``: its padded layout's), the first
    ``m`` of the array used."""
    geo, mask = grid.kernel_args()
    walls = np.empty(grid.max_edges(), dtype=_dtype(grid))
    return walls, _walls(geo, mask, walls, padded, topology)


def _check_crossings(crossings: float) -> None:
    try:
        value = float(crossings)
    except (TypeError, ValueError):
        value = float("nan")
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"kruskal crossings must be between 0 and 1, got {crossings!r}")


def kruskal(grid: Grid, rng: np.random.Generator, *, crossings: float = 0.3, record: bool = False) -> Carved:
    """Carve a perfect maze on ``grid`` by randomized Kruskal.

    Parameters
    ----------
    crossings : float
        On a weave grid, the chance that each inner cell is tried as a crossing (0 to 1);
        ignored on other grids.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grids import RectGrid
    >>> out = kruskal(RectGrid((1, 4)), np.random.default_rng(0))
    >>> out.passages.tolist()
    [[2, 10, 10, 8]]
    """
    _check_crossings(crossings)
    geo, mask = grid.kernel_args()
    trace = tr.allocate(grid.size + 4) if record else tr.empty()
    topology = grid.kernel_topology()  # padded offsets, a ring table or a neighbour table
    padded = topology if grid.padded_layout() else None  # walls, sets and passages there, copied out
    passages = (
        gk.fast_layout(padded, geo, mask, 0, 0) if padded is not None else np.zeros(grid.size, dtype=np.uint8)
    )
    walls, m = _wall_list(grid, topology, padded is not None)
    parent = forest(passages.shape[0], _dtype(grid))
    with draws(rng, m + grid.n_cells - 1, "steps") as src:  # walls shuffled, then joins
        joined, t = 0, 0
        under = np.zeros(0, dtype=np.uint8)
        if grid.tunnel_slots:
            crossing = (parent, float(crossings), src, trace, topology)
            joined, under, t = _place_crossings(passages, geo, mask, *crossing)
        # With numpy's PCG64 the whole shuffle comes first, then the draws it made past the
        # walls the unions needed are taken back: the same maze and the same generator state
        # as the lazy shuffle, about twice as fast on large grids.
        shuffled = isinstance(src, np.ndarray)
        if shuffled:
            mark = src.copy()
            _shuffle(walls, m, src)
        rest = (parent, grid.n_cells, shuffled, joined, under, src, trace, t)
        used, t = _join(passages, geo, topology, walls, m, *rest)
        if shuffled:
            rewind(src, mark, used)
    if padded is not None:
        del walls, parent
        flat = np.empty(grid.size, dtype=np.uint8)
        gk.fast_passages(padded, geo, passages, 0xFF, flat)
        passages = flat
    return carved(grid, passages, trace, t)


@njit(cache=True, nogil=True)
def _many(out, geo, mask, srcs, all_walls, m, parent, n_cells, blank, trace, T):  # pragma: no cover
    """Kruskal as its front door runs it on a PCG64 source, maze after maze: the wall list
    (the same for every maze) shuffled whole, then joined by :func:`_join`, on the padded
    layout (``blank``, copied for each maze and copied out) or, where ``blank`` is empty,
    on the cells themselves."""
    one = out.shape[0] == 1  # one maze: shuffle the list itself, no second copy
    walls = all_walls if one else np.empty_like(all_walls)
    under = np.zeros(0, dtype=np.uint8)
    padded = blank.shape[0] != 0
    work = np.empty_like(blank)
    for k in range(out.shape[0]):
        if not one:
            walls[:] = all_walls
        parent[:] = -1
        src = srcs[k]
        _shuffle(walls, m, src)
        if padded:
            work[:] = blank
            _join(work, geo, T, walls, m, parent, n_cells, True, 0, under, src, trace, 0)
            gk.copy_out(T, geo, work, 0xFF, out[k])
        else:
            _join(out[k], geo, T, walls, m, parent, n_cells, True, 0, under, src, trace, 0)


def many(out: np.ndarray, grid: Grid, srcs: np.ndarray, roots: np.ndarray, *, crossings: float = 0.3) -> None:
    """:func:`kruskal` maze after maze in one compiled call: the door to many mazes
    (:func:`mazekit.generate.many_door`). ``roots`` is not used (Kruskal draws no root
    cell), nor ``crossings``: a weave grid, whose crossings are placed first, is refused."""
    _check_crossings(crossings)  # (unused here, but what the front door refuses is refused)
    if grid.tunnel_slots:
        raise ValueError("kruskal's many() places no crossings: carve weave grids with kruskal()")
    geo, mask = grid.kernel_args()
    topology = grid.kernel_topology()
    padded = grid.padded_layout()
    walls, m = _wall_list(grid, topology, padded)
    parent = forest(grid.padded_cells() if padded else grid.size, _dtype(grid))
    blank = gk.fast_layout(topology, geo, mask, 0, 0) if padded else np.empty(0, gk.layout_dtype(topology))
    _many(out, geo, mask, srcs, walls, m, parent, grid.n_cells, blank, tr.empty(), topology)
