"""Hunt-and-kill: walk at random until stuck, then hunt for a fresh cell beside the maze.

1. Start at a random cell. Walk: open the wall to a random unvisited neighbour and step
   there, until the current cell has no unvisited neighbour.
2. Hunt: find an unvisited cell that touches the maze, open the wall to a random visited
   neighbour of it, and walk on from there. ``hunt="serpentine"`` takes the first such
   cell scanning rows top to bottom (left to right); ``hunt="random"`` a random one.
3. Stop when the hunt finds nothing.

Mazes look like the backtracker's (long winding corridors, about 10% dead ends) with the
serpentine hunt leaving a faint top-to-bottom grain. The hunt never rescans: the cells that
touch the maze are kept in a 64-ary bitmap with a minimum query (serpentine: a few words
read per hunt) or in an indexed list with O(1) removal (random), so the whole run is
linear in the cells, not quadratic like a naive rescan from the top. The random hunt jumps
all over the grid and is a few times slower on grids much bigger than the CPU cache.
Reference: J. Buck, *Mazes for Programmers* (2015), ch. 5.
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import trailing_zeros

from .. import trace as tr
from .._memory import index_dtype
from ..grids import Grid
from ..grids import kernel as gk
from ..kernels.draw import draws, tick, uniform, uniform_pick
from ..trace import BACKTRACK, CARVE, VISIT, record
from ._common import Carved, buffers, carve_fast, carved, scratch, start_cell

BYTES_PER_CELL = 10  # passages + state + int32 list and positions (random); serpentine: 2.2
PADDED_BYTES = 1  # its padded layout: a byte a cell (see registry.memory_per_cell)

HUNTS = ("serpentine", "random")

# Cell states.
FRESH, EDGE, DONE, GONE = 0, 1, 2, 3  # unvisited; unvisited next to the maze; visited; masked

# The fast kernel's byte per cell: passages in bits 0-5, the state in bits 6-7.
F_STATE, F_EDGE, F_DONE = 0xC0, EDGE << 6, DONE << 6


@njit(cache=True, nogil=True)
def _bitmap_levels(n):  # pragma: no cover
    """Word offsets of each level of a 64-ary bitmap over ``n`` bits (top level: one word)."""
    sizes = []
    m = n
    while True:
        m = (m + 63) >> 6
        sizes.append(m)
        if m == 1:
            break
    offsets = np.zeros(len(sizes) + 1, dtype=np.int64)
    for i in range(len(sizes)):
        offsets[i + 1] = offsets[i] + sizes[i]
    return offsets


@njit(cache=True, nogil=True)
def _bitmap(n, serpentine):  # pragma: no cover
    """``(offsets, words)``: the serpentine hunt's bitmap over ``n`` fast indices, all clear
    (a word for the random hunt, which has none)."""
    offsets = _bitmap_levels(n) if serpentine else np.zeros(2, dtype=np.int64)
    return offsets, np.zeros(max(offsets[-1], 1), dtype=np.int64)


_NO_BITMAP = (np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))  # the kernel makes its own


@njit(cache=True, nogil=True, _nrt=False)
def _bit_set(words, offsets, i):  # pragma: no cover
    for lv in range(offsets.shape[0] - 1):
        w = offsets[lv] + (i >> 6)
        old = words[w]
        words[w] = old | (np.int64(1) << (i & 63))
        if old != 0:
            return  # the levels above already say this word is non-empty
        i >>= 6


@njit(cache=True, nogil=True, _nrt=False)
def _bit_clear(words, offsets, i):  # pragma: no cover
    for lv in range(offsets.shape[0] - 1):
        w = offsets[lv] + (i >> 6)
        words[w] &= ~(np.int64(1) << (i & 63))
        if words[w] != 0:
            return
        i >>= 6


@njit(cache=True, nogil=True, _nrt=False)
def _bit_min(words, offsets):  # pragma: no cover
    """The smallest set bit, or -1: one word per level, top down."""
    top = offsets.shape[0] - 2
    if words[offsets[top]] == 0:
        return -1
    i = 0
    for lv in range(top, -1, -1):
        i = (i << 6) + trailing_zeros(words[offsets[lv] + i])  # type: ignore[call-arg]
    return i


@njit(cache=True, nogil=True)
def _hunt_and_kill(
    grid, geo, root, p, serpentine, edge_list, where, src, trace, slots, T, offsets, words
):  # pragma: no cover
    """The kernel, on topology ``T`` (:meth:`~mazekit.grids.Grid.kernel_topology`: the padded
    layout's offsets, a polar grid's ring table or a neighbour table), one for every grid: a
    cell's neighbours in each state are bit masks read without branches, and passages are
    carved into ``grid``, the fast layout's bytes (``F_STATE`` outside the cells), from
    ``root`` at fast index ``p``; the caller copies them out. The serpentine hunt's bitmap
    and the random hunt's list hold fast-path indices (both layouts keep row-major order);
    ``where`` stays indexed by cell. ``slots`` is :func:`~mazekit.grids.kernel.slot_count`
    of the grid (its slot count compiled in). ``offsets`` and ``words`` are the serpentine
    hunt's bitmap (:func:`_bitmap`, all clear), made here where they are empty."""
    shift = gk.high(grid)  # state bits a byte up in a two-byte layout (eight slots)
    f_state, f_edge, f_done = F_STATE << shift, F_EDGE << shift, F_DONE << shift
    n_slot = len(slots)
    off1 = gk.flat(T)
    if words.shape[0] == 0:
        offsets, words = _bitmap(grid.shape[0], serpentine)
    n_edge = 0
    recording = trace.shape[0] != 0
    p = np.uint64(p)
    t = record(trace, 0, root, VISIT, -1)
    while True:
        # ``p`` has just joined the maze: update the hunt's structure.
        if grid[p] & f_state == f_edge:
            if serpentine:
                _bit_clear(words, offsets, np.int64(p))
            else:
                i = where[gk.to_cell(T, geo, np.int64(p))]
                n_edge -= 1
                last = edge_list[n_edge]
                edge_list[i] = last
                where[gk.to_cell(T, geo, np.int64(last))] = i
        grid[p] = grid[p] & ~f_state | f_done
        fresh = gk.open_tunnels(T, geo, grid, p, gk.matching(grid, p, off1, n_slot, f_state, 0))
        free = fresh | gk.open_tunnels(T, geo, grid, p, gk.matching(grid, p, off1, n_slot, f_state, f_edge))
        while fresh:  # in slot order
            nb = gk.near(p, off1, trailing_zeros(fresh))
            fresh &= fresh - 1
            grid[nb] |= f_edge
            if serpentine:
                _bit_set(words, offsets, np.int64(nb))
            else:
                edge_list[n_edge] = nb
                where[gk.to_cell(T, geo, np.int64(nb))] = n_edge
                n_edge += 1
        kill = free != 0
        if not kill:  # stuck: hunt
            if recording:
                t = record(trace, t, gk.to_cell(T, geo, np.int64(p)), BACKTRACK, -1)
            if serpentine:
                first = _bit_min(words, offsets)
                if first < 0:
                    break
                p = np.uint64(first)
            else:
                if n_edge == 0:
                    break
                p = np.uint64(edge_list[int(uniform(src) * n_edge) if n_edge > 1 else 0])
            free = gk.open_tunnels(T, geo, grid, p, gk.matching(grid, p, off1, n_slot, f_state, f_done))
        # Kill: walk on through a random free slot; or join the hunted cell to the maze
        # through a random slot to it. One carve for both (one inlined hop_back per kernel:
        # two make numba's SSA check warn).
        k = gk.BIT_COUNT[free]
        slot = gk.NTH_BIT[free, uniform_pick(src, k)]
        back = gk.hop_back(T, geo, p, slot)
        nb = gk.near(p, off1, slot)
        grid[p] |= 1 << slot
        grid[nb] |= 1 << back
        tick(src, 1)
        if kill:
            p = nb
            if recording:
                t = record(trace, t, gk.to_cell(T, geo, np.int64(p)), CARVE, back)
        elif recording:
            t = record(trace, t, gk.to_cell(T, geo, np.int64(p)), CARVE, slot)
    return t


@njit(cache=True, nogil=True)
def _many(out, geo, mask, roots, srcs, serpentine, edge_list, where, trace, slots, T):  # pragma: no cover
    """:func:`_hunt_and_kill` on maze after maze, the fast layout made and copied out inside (the
    front door lays it out with numpy, and so compiles none of this on a first run)."""
    s = gk.high(T)  # the state bits a byte up in a two-byte layout
    blank = gk.lay_out(T, geo, mask, 0, F_STATE << s)  # laid out once, copied for each maze
    grid = np.empty_like(blank)
    offsets, words = _bitmap(blank.shape[0], serpentine)  # made once (four arrays a maze made inside)
    for k in range(out.shape[0]):
        grid[:] = blank
        words[:] = 0
        p = gk.to_fast(T, geo, roots[k])
        hunt = (serpentine, edge_list, where, srcs[k], trace, slots, T, offsets, words)
        _hunt_and_kill(grid, geo, roots[k], p, *hunt)
        gk.copy_out(T, geo, grid, ~(F_STATE << s) & 0xFFFF, out[k])


def _hunt_lists(grid: Grid, hunt: str) -> tuple[bool, np.ndarray, np.ndarray]:
    """``(serpentine, list, positions)``: the random hunt's list of cells next to the maze
    (fast-path indices: scratch's type) and their positions in it; empty for the serpentine."""
    if hunt not in HUNTS:
        raise ValueError(f"unknown hunt_and_kill hunt {hunt!r}; choose from {', '.join(HUNTS)}")
    dtype = index_dtype(grid.size)
    if hunt == "serpentine":
        return True, np.empty(0, dtype=dtype), np.empty(0, dtype=dtype)
    return False, scratch(grid), np.empty(grid.size, dtype=dtype)


def hunt_and_kill(
    grid: Grid,
    rng: np.random.Generator,
    *,
    hunt: str = "serpentine",
    root: tuple[int, int] | None = None,
    record: bool = False,
) -> Carved:
    """Carve a perfect maze on ``grid`` by hunt-and-kill.

    Parameters
    ----------
    hunt : {"serpentine", "random"}
        Where to resume when the walk is stuck: the first unvisited cell next to the maze in
        row-major order, or a uniformly random one.
    root : (int, int), optional
        The cell carving starts from, e.g. ``(0, 0)`` as the turtle tutorial does
        (``-O root=0,0``); a random cell by default.

    The trace has the root's ``VISIT``, a ``CARVE`` for every cell that joins (walked into
    or hunted), and a ``BACKTRACK`` where each walk got stuck.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grids import RectGrid
    >>> out = hunt_and_kill(RectGrid((4, 6)), np.random.default_rng(0), hunt="random")
    >>> int((out.passages > 0).sum())
    24
    """
    serpentine, edge_list, where = _hunt_lists(grid, hunt)
    passages, trace = buffers(grid, record, 2)
    first = start_cell(grid, rng, root)
    fast = grid.kernel_topology()
    with draws(rng, grid.n_cells - 1) as src:
        rest = (serpentine, edge_list, where, src, trace, gk.slot_count(grid.n_slots), fast, *_NO_BITMAP)
        used = carve_fast(_hunt_and_kill, grid, fast, first, F_STATE, ~F_STATE & 0xFF, passages, *rest)
    return carved(grid, passages, trace, used)


def many(
    out: np.ndarray, grid: Grid, srcs: np.ndarray, roots: np.ndarray, *, hunt: str = "serpentine"
) -> None:
    """:func:`hunt_and_kill` maze after maze in one compiled call: the door to many mazes
    (:func:`mazekit.generate.many_door` says what it takes and gives)."""
    serpentine, edge_list, where = _hunt_lists(grid, hunt)
    geo, mask = grid.kernel_args()
    rest = (serpentine, edge_list, where, tr.empty(), gk.slot_count(grid.n_slots), grid.kernel_topology())
    _many(out, geo, mask, roots, srcs, *rest)
