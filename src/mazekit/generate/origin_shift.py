"""Origin shift: a perfect maze kept as a tree pointing to an origin that wanders at random.

1. Start from any perfect maze stored as pointers: every cell points to the neighbour on its
   way to the *origin*, which points nowhere. Here it is the breadth-first tree from a random
   cell (rows of combs on a rectangle).
2. Move the origin to a random neighbour: the old origin now points to the new one, and the
   new origin forgets its pointer. One passage opens (old to new origin) and one closes (new
   origin to its old pointer), so the maze is perfect after every move.
3. Repeat ``steps`` times; by default, until the origin has stood on every cell.

The origin does a simple random walk, and after it has visited every cell no pointer is left
from the starting tree: each cell points where the walk went when it last left it (this is
Aldous-Broder run backwards in time). Stopped at that moment, the cover time, the maze is a
uniform spanning tree: checked by chi-square on 2x2 to 3x4 rectangles and small masks with
10^6 mazes each, and on 3x3 in the tests. A fixed number of moves is only approximately
uniform (mixing needs about the cover time), and too few leave the starting combs visible.
Cover time grows as cells x ln(cells)^2 / pi on a square: about 10 moves per cell at 10x10,
40 at 300x300 and 110 at 10,000 x 10,000, so this is among the slower generators. Texture:
that of a uniform spanning tree (many short dead ends, winding solution, no bias).

On a weave grid the starting tree has no tunnels, and a move is skipped if it would open
a side a tunnel runs through, tunnel under anything but a bare corridor across it, or
close a crossing's corridor, so every crossing stays a straight corridor over its tunnel;
the walk also stops if it is ever hemmed in, or after ``MAX_STEPS_PER_CELL`` draws a cell.
Its mazes there are not uniform (which tunnels exist depends on the walk).

The trace holds the starting tree as ``OPEN`` events, then per move an ``OPEN`` of the new
passage and a ``CLOSE`` of the old (both omitted when the new origin pointed at the old
one, which changes nothing), and a ``VISIT`` of the new origin: after every ``VISIT`` the
replayed passages are a perfect maze. Recording is costly: the trace has about three
events per move, some 70 per cell at 100x100 and 140 at 300x300. Reference: CaptainLuma, "New Maze Generating
Algorithm (Origin Shift)" (2024); D. Aldous (1990), A. Broder (1989).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._limits import check_count
from ..grids import GRIDS as GRIDS_ALL
from ..grids import Grid
from ..grids import kernel as gk
from ..kernels.draw import bits53, draws, tick
from ..trace import CLOSE, OPEN, VISIT, record
from ._common import Carved, carved, scratch, start_cell

TRACE_BYTES_PER_CELL = 2400  # ~100-200 events per cell at 12 bytes: the walk is long
BYTES_PER_CELL = 6  # passages + pointer byte + int32 breadth-first queue
PADDED_BYTES = 1  # its padded layout: a byte a cell (see registry.memory_per_cell)
PLAIN_WEAVE = True  # on a weave grid the plain layout and a neighbour table (see _weave_ok)
UNIFORM = True
GRIDS = tuple(GRIDS_ALL)  # weave too: a move that would break a crossing is not made (_weave_ok)

ROOT = 8  # pointer value of the origin (slots are 0-7)
SEEN = 16  # pointer flag: the origin has stood here
LOW = 15  # pointer bits that hold the slot (or ROOT)
STUCK = 4096  # refused weave moves in a row that mean no move is left (1 in 8 allowed: p < 1e-200)
MAX_STEPS_PER_CELL = 10_000  # far past the cover time (about 10-60 moves per cell)
MIN_STEPS_BOUND = 10_000_000
CHUNK = 1 << 22  # trace rows per kernel call when recording (the length is not known ahead)


@njit(cache=True, nogil=True)
def _bfs_tree(geo, mask, origin, ptr, queue):  # pragma: no cover
    """Point every cell along the breadth-first tree from ``origin``; return the cell count.
    (On a weave grid by plain passages only: a tunnel needs a crossing to pass under.)"""
    ptr[origin] = ROOT | SEEN
    queue[0] = origin
    head, tail = 0, 1
    while head < tail:
        cell = queue[head]
        head += 1
        for slot in range(gk.wall_slots(geo[0])):
            nb = gk.step(geo, cell, slot)
            if nb >= 0 and ptr[nb] == 0xFF and not (mask.shape[0] != 0 and mask[nb] == 0):
                ptr[nb] = gk.back(geo, cell, slot)
                queue[tail] = nb
                tail += 1
    return tail


@njit(cache=True, nogil=True)
def _record_tree(ptr, origin, trace):  # pragma: no cover
    t = 0
    for cell in range(ptr.shape[0]):
        if (ptr[cell] & LOW) < ROOT:
            t = record(trace, t, cell, OPEN, ptr[cell] & LOW)
    return record(trace, t, origin, VISIT, -1)


@njit(cache=True, inline="always")
def _joined(geo, ptr, x, q):  # pragma: no cover - compiled
    """Whether the passage out of ``x`` through slot ``q`` is open in pointer tree ``ptr``
    (one of its two cells points along it)."""
    y = gk.step(geo, x, q)
    return y >= 0 and ((ptr[x] & LOW) == q or (ptr[y] & LOW) == gk.back(geo, x, q))


@njit(cache=True, inline="always")
def _under(geo, ptr, x):  # pragma: no cover - compiled
    """Whether a weave tunnel runs under ``x`` (from its west or north neighbour)."""
    cols = geo[2]
    c = x % cols
    return (c > 0 and _joined(geo, ptr, x - 1, 5)) or (x >= cols and _joined(geo, ptr, x - cols, 6))


@njit(cache=True)  # out of line: weave only
def _weave_ok(geo, ptr, o, slot, nb):  # pragma: no cover - compiled
    """Whether moving the origin from ``o`` through ``slot`` to ``nb`` keeps every crossing a
    straight corridor over its tunnel, with nothing else on its sides.

    - a plain move may not open a side a tunnel runs through (from ``o`` under ``nb`` or back);
    - a tunnel (slots 4-7) needs a cell between that is exactly a corridor across it, and
      ends that are not crossings themselves;
    - the passage the move closes (``nb`` to its old pointer) may not be a crossing's corridor.
    """
    if slot < 4:
        if _joined(geo, ptr, o, 4 | slot) or _joined(geo, ptr, nb, 4 | ((slot + 2) & 3)):
            return False
    else:
        mid = (o + nb) >> 1
        corridor = 5 if slot & 1 else 10  # N and S over an E-W tunnel, E and W over N-S
        for q in range(8):
            if _joined(geo, ptr, mid, q) != (corridor >> q & 1 == 1):
                return False
        if _under(geo, ptr, o) or _under(geo, ptr, nb):
            return False
    q = ptr[nb] & LOW
    if q < 4:  # a plain passage closes, unless it is the one the move opens
        p = gk.step(geo, nb, q)
        if p != o and (_under(geo, ptr, nb) or _under(geo, ptr, p)):
            return False
    return True


@njit(cache=True, nogil=True)
def _shift(geo, grid, walk, src, trace, T):  # pragma: no cover
    """Move the origin until ``walk`` says stop or the trace is nearly full; return events.

    On the grid's topology ``T`` (:meth:`~mazekit.grids.Grid.kernel_topology`: padded
    offsets, a polar grid's ring table or a neighbour table) and its pointer layout ``grid``
    (0xFF on the border, at masked cells and at a table's sentinel): a step is a few
    operations on the walk's position (:func:`~mazekit.grids.kernel.walk_try`) and one byte
    read. ``walk`` = [origin (a fast index), moves left (-1: until cover), cells not yet seen,
    random bits, bits left, draws left on a weave grid]: there a move that would break a
    crossing is not made (:func:`_weave_ok`, on the table's plain layout), and the walk stops
    when it is hemmed in (``STUCK`` refusals in a row) or has drawn ``MAX_STEPS_PER_CELL``
    times per cell, covered or not, so it always ends.
    """
    left, unseen, bits, nbits = walk[1], walk[2], walk[3], walk[4]
    n_slot = gk.n_slots(geo[0])
    width = 2 if n_slot <= 4 else 3  # random bits per step; a draw past the slots stays put
    per_draw = 52 // width
    off1 = gk.flat(T)
    recording = trace.shape[0] != 0
    weave = gk.tunnels(geo[0])
    refused = 0
    at = gk.walk_start(T, walk[0])  # the origin's walk position
    t = 0
    while (left > 0 or (left < 0 and unseen > 0)) and t + 3 <= max(trace.shape[0], 3):
        if nbits == 0:  # 26 two-bit (17 three-bit) draws from the top 52 bits of a double
            bits = bits53(src) >> 1
            nbits = per_draw
        slot, to = gk.walk_try(T, off1, at, bits & ((1 << width) - 1))
        bits >>= width
        nbits -= 1
        if slot >= n_slot:
            continue
        nb = to[0]
        entered = grid[np.uint64(nb)]  # unsigned: no fix-up
        if entered == 0xFF:
            continue
        origin = at[0]
        if weave:
            walk[5] -= 1
            ok = _weave_ok(geo, grid, gk.to_cell(T, geo, origin), slot, gk.to_cell(T, geo, nb))
            refused = 0 if ok else refused + 1
            if refused == STUCK or walk[5] <= 0:  # hemmed in, or out of draws: it stays as it is
                left, unseen = 0, 0
            if not ok:
                continue
        new = 1 - (entered >> 4)  # SEEN is bit 4
        unseen -= new
        tick(src, 1 if left > 0 else new)  # steps, or cells covered
        if recording:
            cell, old = gk.to_cell(T, geo, origin), entered & LOW
            if old != gk.back(geo, cell, slot):
                t = record(trace, t, cell, OPEN, slot)
                t = record(trace, t, gk.to_cell(T, geo, nb), CLOSE, old)
            t = record(trace, t, gk.to_cell(T, geo, nb), VISIT, -1)
        grid[np.uint64(origin)] = slot | SEEN
        grid[np.uint64(nb)] = ROOT | SEEN
        at = to
        if left > 0:
            left -= 1
    walk[0], walk[1], walk[2], walk[3], walk[4] = at[0], left, unseen, bits, nbits
    return t


@njit(cache=True, nogil=True)
def _passages(ptr, geo, passages):  # pragma: no cover
    for cell in range(ptr.shape[0]):
        slot = ptr[cell] & LOW
        if slot < ROOT:
            passages[cell] |= 1 << slot
            passages[gk.through(geo, cell, slot)] |= 1 << gk.back(geo, cell, slot)


def origin_shift(
    grid: Grid,
    rng: np.random.Generator,
    *,
    steps: int | None = None,
    root: tuple[int, int] | None = None,
    record: bool = False,
) -> Carved:
    """Carve a perfect maze on ``grid`` by shifting the origin of a pointer tree.

    Parameters
    ----------
    steps : int, optional
        How many times to move the origin. By default, until it has visited every cell (the
        cover time), which makes the maze a uniform spanning tree; ``steps=0`` returns the
        starting breadth-first tree.
    root : (int, int), optional
        Where the origin starts (``-O root=0,0``); a random cell by default.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grids import RectGrid
    >>> out = origin_shift(RectGrid((4, 4)), np.random.default_rng(0), steps=50)
    >>> int((out.passages > 0).sum())
    16
    """
    if steps is not None:
        bound = max(MAX_STEPS_PER_CELL * grid.n_cells, MIN_STEPS_BOUND)
        why = f"{MAX_STEPS_PER_CELL:,} per cell; the default walks until every cell is seen"
        steps = check_count("origin_shift steps", steps, bound, why=why)
    geo, mask = grid.kernel_args()
    ptr = np.full(grid.size, 0xFF, dtype=np.uint8)
    origin = start_cell(grid, rng, root)
    n_cells = _bfs_tree(geo, mask, origin, ptr, scratch(grid))
    left = -1 if steps is None else int(steps)
    if n_cells == 1:
        left = 0  # nowhere to go
    walk = np.array([origin, left, n_cells - 1, 0, 0, MAX_STEPS_PER_CELL * n_cells], dtype=np.int64)
    chunks = []
    if record:
        start = np.zeros((n_cells, 3), dtype=np.int32)
        chunks.append(start[: _record_tree(ptr, origin, start)])
    # (a weave grid's crossing checks read the pointers by cell: the plain layout there)
    topology = grid.plain_topology() if grid.tunnel_slots else grid.kernel_topology()
    ptr = gk.fast_values(topology, geo, ptr, 0xFF)  # (masked cells are 0xFF already)
    walk[0] = gk.fast_index(topology, geo, origin)
    total, unit = (int(steps), "steps") if steps is not None else (n_cells - 1, "cells covered")
    if n_cells == 1:
        total = 0  # nothing to do, nothing to show
    with draws(rng, total, unit, steady=steps is not None) as src:
        while True:
            trace = np.zeros((CHUNK if record else 0, 3), dtype=np.int32)
            used = _shift(geo, ptr, walk, src, trace, topology)
            if record:
                chunks.append(trace[:used].copy())
            if walk[1] == 0 or (walk[1] < 0 and walk[2] == 0):
                break
    flat = np.empty(grid.size, dtype=np.uint8)
    gk.fast_passages(topology, geo, ptr, 0xFF, flat)
    ptr = flat
    passages = np.zeros(grid.size, dtype=np.uint8)
    _passages(ptr, geo, passages)
    full = np.concatenate(chunks) if record else np.zeros((0, 3), dtype=np.int32)
    return carved(grid, passages, full, full.shape[0])
