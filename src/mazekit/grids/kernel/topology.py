"""Fast-path topologies (padded offsets, a polar ring table or a neighbour table) and the
random-walk and neighbourhood helpers the fast generator kernels take them through."""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from .cells import (
    _parity,
    _wrap_move,
    back,
    exists,
    move,
    n_slots,
    neighbours,
    polar_doubles,
    ring_shift,
    step,
    tunnel_ok,
    tunnels,
)
from .padded import (
    _U1,
    _U2,
    _U3,
    _U4,
    _U5,
    MAGIC_LIMIT,
    below,
    magic,
    pad,
    pad_index,
    pad_offsets,
    pad_row,
    pad_rows,
    pad_top,
    pad_width,
    unpad,
    unpad_index,
)  # fmt: skip
from .tables import _BACK, _DC, _DR, _HAS, _RECT_DC, _RECT_DR, _RULE, CUBE, MAX_SLOTS, POLAR, TABLE

_U6, _U7 = np.uint64(6), np.uint64(7)  # (slots past _U5)
_ROW3 = np.uint64(3 * MAX_SLOTS)  # where flat offsets keep each parity's slots

# -- fast-path topologies: padded offsets or a ring table ------------------------------------
# The fast generator kernels take a topology ``T`` with the grid: on the grids with a padded
# layout, the ``(2, MAX_SLOTS)`` offsets of :func:`pad_offsets` (int64) and a third row, the
# slot back of each slot (:func:`offset_topology`); on a polar grid,
# whose neighbours are no fixed offsets (rings wrap round and double), a ring table (uint64,
# :func:`polar_rings`): a few words per *ring*, from which a cell's neighbours are a handful
# of integer operations, over the plain layout plus one blocked sentinel cell at the end that
# every missing neighbour is.
# A grid of seven or eight slots with a padded layout (upsilon) takes the same offsets as
# ``uint64`` (their bits; the kernels read them through :func:`flat` as int64), a fourth
# row holding the slots of each parity: the type tells numba to lay it out in two bytes a
# cell (:func:`high`). Measured at 700x700 (benchmarks/grids.py, 2026-12-06, ns a cell,
# neighbour table -> offsets): upsilon backtracker 71 -> 33 (the table's 32 bytes a cell
# missed the cache at every step).
# A wrapped rectangle takes a record of its own (:func:`wrap_topology`: its neighbours by
# arithmetic, see there). Every other grid (a table grid with the row's
# parity) takes a neighbour table (int32, or uint32 where eight slots' passages fill the
# byte and the layout takes two: :func:`neighbour_topology`, :func:`high`): a row of
# neighbours a cell over the plain layout and its sentinel. Measured at 500x500
# (benchmarks/grids.py, 2026-12-06, ns a cell, plain kernels -> table): upsilon backtracker
# 174 -> 45, prim 194 -> 83, growing_tree 159 -> 70; wrapped rectangle 100 -> 36, 137 -> 68,
# 101 -> 57 (until its record); making the table is 14 (upsilon) and 5 ns a cell of that.
# The helpers below are chosen when numba types ``T`` (by its dtype), so a kernel is compiled
# once per kind of topology and the offset grids keep their code unchanged.
# They are compiled as functions of their own, not inlined into each kernel's numba IR
# (``inline="always"``, as they were until 2026-12-05): LLVM inlines them all the same, so
# the kernels run as fast (benchmarks/grids.py, backtracker, prim, growing_tree and wilson
# on rect, hex, polar and 3d, within 1-2 ns a cell of before), but numba no longer types
# and rewrites the same helper's IR again inside every kernel: the first
# ``mazekit.generate`` on an empty cache fell from 9.6 to 5.6 s (with the draw helpers of
# mazekit.kernels.draw and the padded-layout helpers alike). The exception is
# :func:`table_back`, a jitted function of its own that LLVM left as a call a carve on
# neighbour tables: inlined again, the wrapped rectangle's kernels ran 8-15% faster
# (2026-12-07; a cold compile of five generators on wrap took no longer).
# Measured on a 456-ring polar grid (2026-12-02, kernels through ``mazekit.generate``, best of
# 7, alternating): the plain kernels recompute a ring's size in floating point at every step;
# a table of every cell's neighbours (20 bytes a cell, until 2026-12-02) made them 1.8-4.6x
# faster, but missed the cache; the ring table stays in it: backtracker 61 -> 50 ns a cell,
# prim 132 -> 92, growing_tree 67 -> 56, kruskal 213 -> 155. The walkers, whose steps
# depend on each other, were 10-20% quicker with the neighbour table's single load (wilson
# 155 against 190, aldous_broder 1351 against 1486): not worth a second layout.


def _table(T: object) -> bool:
    """Whether numba type ``T`` is a neighbour table (int32 or uint32, 2-D: see
    :func:`neighbour_topology`); as :func:`flat` gives it, too."""
    return getattr(T, "dtype", None) in (types.int32, types.uint32)


def _rings(T: object) -> bool:
    """Whether numba type ``T`` is a ring table (uint64, 1-D) rather than padded offsets (int64
    or uint64, 2-D as kernels take them, int64 1-D as :func:`flat` gives them to :func:`near`)."""
    return getattr(T, "dtype", None) == types.uint64 and getattr(T, "ndim", 0) == 1


def _wide(T: object) -> bool:
    """Whether numba type ``T`` is the offsets of a grid of seven or eight slots (uint64,
    2-D): a padded layout of two bytes a cell, some slots lacking (see above)."""
    return getattr(T, "dtype", None) == types.uint64 and getattr(T, "ndim", 0) == 2


def _wrapped(T: object) -> bool:
    """Whether numba type ``T`` is a wrapped rectangle's record (:func:`wrap_topology`)."""
    return isinstance(getattr(T, "dtype", None), types.Record)


def _plain(T: object) -> bool:
    """Whether numba type ``T`` lays its grid out plain (the cells, then one sentinel): a
    ring table, a neighbour table or a wrapped rectangle's record; else padded offsets."""
    return _rings(T) or _table(T) or _wrapped(T)


#: Where a ring table's words are: the row divisor's magic multiplier and shift, the row
#: length, the sentinel's index, the number of rings, then one word per ring
#: (``cells << 2 | inward halves << 1 | outward doubles``), then a walk's moves: for each ring
#: and each 3 random bits ``v``, a word read as a signed one, ``8 * rows moved << 56 |
#: ring cells << 16 | column step << 8 | column halves << 5 | column doubles << 4 | slot``,
#: the steps signed bytes, and the ring's cells 0 where the column changes scale or the ring
#: has no way round, so that a single compare sends those moves the slow way (see
#: :func:`walk_try`).
_MAGIC, _SHIFT, _COLS, _SENT, _ROWS, RING_HEAD = range(6)
_COUNT = (1 << 40) - 1  # a walk word's ring cells, above its low 16 bits

#: The slot a walk's move has when it goes nowhere (past the cell's slots, or off the grid).
MISS = 7

#: Ring tables find a cell's ring by a multiply and a shift, exact below ``2**31``: polar
#: layouts of this many cells or more have none (the carving kernels refuse them).
RING_CELLS = 1 << 31


def polar_rings(geo: tuple[int, int, int, int]) -> np.ndarray:
    """The ring table of a polar grid (see above), for layouts under ``RING_CELLS`` cells.

    Examples
    --------
    >>> T = polar_rings((POLAR, 3, 12, 6))   # rings of 6, 12 and 12 cells
    >>> [int(w) >> 2 for w in T[RING_HEAD : RING_HEAD + 3]], int(T[_SENT])
    ([6, 12, 12], 36)
    """
    rows, cols, inner = geo[1], geo[2], geo[3]
    shift = [ring_shift(inner, r) for r in range(rows)] + [0]
    words = [
        (inner << shift[r]) << 2
        | (r > 0 and shift[r] > shift[r - 1]) << 1
        | (r + 1 < rows and shift[r + 1] > shift[r])
        for r in range(rows)
    ]
    # floor(p / cols) == p * magic >> (31 + l) for every p < 2**31 (the round-up method of
    # Granlund and Montgomery with an exact 32-bit multiplier, the product under 2**63): one
    # multiply, not a division.
    low = max(cols - 1, 1).bit_length()
    magic = (1 << (31 + low)) // cols + 1
    moves = []
    for r in range(rows):
        count, doubles, halves = words[r] >> 2, words[r] & 1, words[r] >> 1 & 1
        for v in range(8):
            slot = v if doubles else v & 3  # as walk_slot
            dr, a, b, dc = 0, 0, 0, 0
            if slot == 0 or slot == 1:
                dc = 1 - 2 * slot
            elif slot == 2 and r > 0:
                dr, b = -1, halves
            elif (slot == 3 or slot == 4) and r + 1 < rows:
                dr, a, dc = 1, doubles, slot - 3
            else:
                slot = MISS
            odd = slot != MISS and (a or b or count <= 2)  # the column changes scale, or no wrap
            word = (8 * dr & 255) << 56 | (0 if odd else count) << 16 | (dc & 255) << 8
            moves.append(word | b << 5 | a << 4 | slot)
    return np.array([magic, 31 + low, cols, rows * cols, rows, *words, *moves], dtype=np.uint64)


# -- random walks: a step is a slot drawn from random bits ----------------------------------
# A walk draws ``2`` bits a step on grids of up to 4 slots, else 3; a draw that names no slot
# of the cell, or a slot with nothing behind it, stays put, so that a move is uniform over
# the cell's real neighbours. On a polar grid most cells have 4 slots (no out2 where the
# ring outside does not double): there the 3 bits name a slot modulo 4 rather than waste
# half the draws on out2 and past the slots (:func:`walk_slot`).
# The fast kernels keep a walk's position as :func:`walk_start` makes it (the fast-path index,
# and on a ring table where the ring's walk words start and the index in the ring) and step
# it with :func:`walk_try`. On a ring table a step is then one load at the position it
# already has and a few additions: the word names the slot and the steps in ring and column.
# The rare steps that change the column's scale or go round the ring take one branch, well
# predicted, to an out-of-line function. A bare walk went from 11-13 ns a step (finding the
# ring again by a multiply, picking the slot's neighbour from all five) to 7-8 (the position
# kept, branch-free arithmetic for every step) to 4.3-5.6 (this); a rectangle's is 3-3.4
# (benchmarks/walk_step.py, 2026-12-02). The table's words must be read by unsigned index:
# numba's fix-up of a negative one sits on the step's chain of dependent operations and cost
# more than a nanosecond.


@njit(cache=True, inline="always")
def walk_slot(geo, r, v):  # pragma: no cover - compiled
    """The slot that random bits ``v`` name at a cell of row ``r`` (``v`` itself but on a
    polar ring that does not double outward: ``v`` modulo 4)."""
    if geo[0] == POLAR and not polar_doubles(geo, r):
        return v & 3
    return v


@njit(cache=True, inline="always")
def _ring_position(T, p):  # pragma: no cover - compiled
    """``(p, ring, index in the ring)`` of plain index ``p`` on ring table ``T``: the ring by
    one multiply and shift (no division), signed from here (the table's words are small)."""
    q = np.int64(p)
    r = (q * np.int64(T[_MAGIC])) >> np.int64(T[_SHIFT])
    return q, r, q - r * np.int64(T[_COLS])


@njit(cache=True)  # out of line: the rare step, off the walk's hot path
def _walk_odd(T, at, e):  # pragma: no cover - compiled
    """:func:`walk_try`'s step by walk word ``e`` where the column changes scale (a ring that
    doubles or halves) or goes round the ring (none round a ring of one or two cells)."""
    p, k, c = at
    slot, dr = e & 7, e >> 59
    count = np.int64(T[RING_HEAD + ((k - RING_HEAD - np.int64(T[_ROWS])) >> 3)]) >> 2
    nc = ((c << (e >> 4 & 1)) >> (e >> 5 & 1)) + ((e << 48) >> 56)
    if dr == 0 and (nc == count or nc < 0):
        if count <= 2:
            slot = MISS
        nc = 0 if nc == count else count - 1
    return slot, (p - c + dr * np.int64(T[_COLS]) + nc, k + (e >> 56), nc)


@njit(cache=True, inline="always")
def _walk_position(T, p):  # pragma: no cover - compiled
    """A walk's position at plain index ``p`` on ring table ``T``: ``(p, where the ring's walk
    words start, index in the ring)``."""
    q, r, c = _ring_position(T, p)
    return q, RING_HEAD + np.int64(T[_ROWS]) + (r << 3), c


def walk_start(T, p):  # pragma: no cover - replaced in compiled code
    """A walk's position at fast-path index ``p``, as :func:`walk_try` takes it:
    ``(p, index of the ring's first walk word, index in the ring)`` on a ring table,
    ``(p, row, column)`` on a wrapped rectangle, ``(p, 0, 0)`` on offsets and tables."""
    raise NotImplementedError("walk_start() runs inside numba kernels only")


@overload(walk_start)
def _walk_start(T, p):  # type: ignore[no-untyped-def]
    if _rings(T):
        return lambda T, p: _walk_position(T, p)
    if _wrapped(T):
        return lambda T, p: _wrap_position(T, p)
    return lambda T, p: (np.int64(p), np.int64(0), np.int64(0))


def walk_try(T, off1, at, v):  # pragma: no cover - replaced in compiled code
    """``(slot, position)``: where random bits ``v`` take a walk at position ``at``
    (:func:`walk_start`); a slot of ``n_slots`` or more means it stays put (``MISS`` on a ring
    table, where the position is then meaningless). ``off1`` as for :func:`near`."""
    raise NotImplementedError("walk_try() runs inside numba kernels only")


@overload(walk_try)
def _walk_try(T, off1, at, v):  # type: ignore[no-untyped-def]
    if _rings(T):

        def impl(T, off1, at, v):  # type: ignore[no-untyped-def]
            p, k, c = at
            e = np.int64(T[np.uint64(k + v)])  # unsigned: no negative-index fix-up
            nc = c + ((e << 48) >> 56)
            if np.uint64(nc) >= np.uint64(e >> 16 & _COUNT):  # (always where odd: a count of 0)
                return _walk_odd(T, at, e)
            return e & 7, (p + (e >> 59) * np.int64(T[_COLS]) + nc - c, k + (e >> 56), nc)

        return impl

    if _wrapped(T):  # the row and column kept: no division a step

        def wrap(T, off1, at, v):  # type: ignore[no-untyped-def]
            w = T[0]
            cols = np.int64(w.cols)
            r, c = at[1] + _RECT_DR[v], at[2] + _RECT_DC[v]
            if np.uint64(r) >= w.rows or np.uint64(c) >= w.cols:  # an edge: rare, move's (out of line)
                joins = np.int64(w.join_cols) | np.int64(w.join_rows) << 1
                r, c = _wrap_move(np.int64(w.rows), cols, joins, at[1], at[2], np.int64(v))
                if r < 0:  # an edge that does not join: the sentinel (blocked, the walk stays)
                    return v, (np.int64(w.cells), at[1], at[2])
                return v, (r * cols + c, r, c)
            return v, (at[0] + _RECT_DR[v] * cols + _RECT_DC[v], r, c)

        return wrap
    if _table(T):
        return lambda T, off1, at, v: (v, (np.int64(T[np.uint64(at[0]), np.uint64(v)]), at[1], at[2]))

    if _wide(T):  # a slot the cell lacks (offset 0) names no move: past the slots, it stays

        def wide(T, off1, at, v):  # type: ignore[no-untyped-def]
            p = at[0]
            lacks = 1 - (off1[24 + (p & 1)] >> v & 1)
            return v + (lacks << 3), (p + off1[(p & 1) << 3 | v], at[1], at[2])

        return wide

    def offsets(T, off1, at, v):  # type: ignore[no-untyped-def]
        p = at[0]
        return v, (p + off1[(p & 1) << 3 | v], at[1], at[2])

    return offsets


def walk_back(T, geo, at, slot):  # pragma: no cover - replaced in compiled code
    """The slot that leads back from the neighbour of walk position ``at`` through ``slot``
    (:func:`hop_back` without finding the ring again)."""
    raise NotImplementedError("walk_back() runs inside numba kernels only")


@overload(walk_back)
def _walk_back(T, geo, at, slot):  # type: ignore[no-untyped-def]
    if _rings(T):

        def impl(T, geo, at, slot):  # type: ignore[no-untyped-def]
            halves = np.int64(T[np.uint64(at[1] + 2)]) >> 5 & 1  # the ring's inward walk word
            # cw <-> ccw, out and out2 lead in, in leads to out or out2: without branches
            # (numba's SSA check trips on them when two of these are inlined in one kernel)
            sideways = np.int64(slot < 2)
            return sideways * (1 - slot) + (1 - sideways) * 2 + np.int64(slot == 2) * (1 + (at[2] & halves))

        return impl
    if _wrapped(T):
        return lambda T, geo, at, slot: _wrap_back(slot)
    if _table(T):
        return lambda T, geo, at, slot: table_back(T, geo, at[0], slot)
    return lambda T, geo, at, slot: np.int64(T[2, slot])  # the offsets' row of slots back


@njit(cache=True, _nrt=False, inline="always")  # no refcounts, no call: ~10% a carve on wrap
def table_back(T, geo, p, slot):  # pragma: no cover - compiled
    """The slot back from fast index ``p``'s neighbour through ``slot`` on neighbour table
    ``T``: its row for the cell's parity, found (a division) only where the two differ."""
    last = T.shape[0] - 1
    b = np.int64(T[last - 1, slot])
    if b == np.int64(T[last, slot]):
        return b
    q = np.int64(p)
    r = q // geo[2]
    return np.int64(T[last - 1 + _parity(geo[0], r, q - r * geo[2]), slot])


def flat(T):  # pragma: no cover - replaced in compiled code
    """The topology as :func:`near` and :func:`matching` take it: offsets flattened, or the
    ring table itself."""
    raise NotImplementedError("flat() runs inside numba kernels only")


@overload(flat)
def _flat(T):  # type: ignore[no-untyped-def]
    if _plain(T):
        return lambda T: T
    if _wide(T):  # the offsets' bits, as int64
        return lambda T: T.ravel().view(np.int64)
    return lambda T: T.ravel()


def hop(T, p, slot):  # pragma: no cover - replaced in compiled code
    """The fast-path index next to ``p`` through ``slot``."""
    raise NotImplementedError("hop() runs inside numba kernels only")


@overload(hop)
def _hop(T, p, slot):  # type: ignore[no-untyped-def]
    if _rings(T):

        def impl(T, p, slot):  # type: ignore[no-untyped-def]
            cw, ccw, inward, out, out2 = _ring_all(T, p)
            nb = cw + np.int64(slot == 1) * (ccw - cw)  # no branches: the slot is a random pick
            nb += np.int64(slot == 2) * (inward - nb)
            nb += np.int64(slot == 3) * (out - nb)
            return nb + np.int64(slot == 4) * (out2 - nb)

        return impl
    if _wrapped(T):
        return lambda T, p, slot: np.int64(_wrap_pick(_wrap_hood(T, p), slot))
    if _table(T):
        return lambda T, p, slot: np.int64(T[p, slot])
    return lambda T, p, slot: p + np.int64(T[p & 1, slot])


def hop_back(T, geo, p, slot):  # pragma: no cover - replaced in compiled code
    """The slot of ``p``'s neighbour through ``slot`` that leads back to ``p``."""
    raise NotImplementedError("hop_back() runs inside numba kernels only")


@overload(hop_back)
def _hop_back(T, geo, p, slot):  # type: ignore[no-untyped-def]
    if _wrapped(T):
        return lambda T, geo, p, slot: _wrap_back(slot)
    if isinstance(p, types.BaseTuple):  # around() on a ring table: cw <-> ccw, out(2) <-> in

        def hood(T, geo, p, slot):  # type: ignore[no-untyped-def]
            sideways = np.int64(slot < 2)
            return sideways * (1 - slot) + (1 - sideways) * 2 + np.int64(slot == 2) * (np.int64(p[5]) - 2)

        return hood
    if _rings(T):
        return lambda T, geo, p, slot: walk_back(T, geo, _walk_position(T, p), slot)
    if _table(T):
        return lambda T, geo, p, slot: table_back(T, geo, p, slot)
    return lambda T, geo, p, slot: np.int64(T[2, slot])  # the offsets' row of slots back


def cell_step(T, geo, cell, slot):  # pragma: no cover - replaced in compiled code
    """:func:`step` for kernels that keep the plain layout: on a ring table (whose indices are
    the cells') by its arithmetic, ``-1`` for its sentinel; with any other ``T``, ``step``."""
    raise NotImplementedError("cell_step() runs inside numba kernels only")


@overload(cell_step)
def _cell_step(T, geo, cell, slot):  # type: ignore[no-untyped-def]
    if _rings(T):

        def impl(T, geo, cell, slot):  # type: ignore[no-untyped-def]
            nb = hop(T, cell, slot)
            return nb - np.int64(nb == np.int64(T[_SENT])) * (nb + 1)

        return impl
    if _wrapped(T):

        def wrap(T, geo, cell, slot):  # type: ignore[no-untyped-def]
            nb = hop(T, cell, slot)
            return nb - np.int64(nb == np.int64(T[0].cells)) * (nb + 1)

        return wrap
    if _table(T):

        def table(T, geo, cell, slot):  # type: ignore[no-untyped-def]
            nb = np.int64(T[cell, slot])
            return nb - np.int64(nb == T.shape[0] - 3) * (nb + 1)

        return table
    return lambda T, geo, cell, slot: step(geo, cell, slot)


def cell_hood(T, geo, cell, out):  # pragma: no cover - replaced in compiled code
    """``out[slot] = cell_step(T, geo, cell, slot)`` for every slot of the cell's kind (see
    :func:`~.cells.neighbours`: one division a cell, not one a slot); returns the count."""
    raise NotImplementedError("cell_hood() runs inside numba kernels only")


@overload(cell_hood)
def _cell_hood(T, geo, cell, out):  # type: ignore[no-untyped-def]
    if _rings(T):  # the five worked out at once (a hop a slot finds the ring five times)

        def rings(T, geo, cell, out):  # type: ignore[no-untyped-def]
            h = _ring_all(T, cell)
            sent = np.int64(T[_SENT])
            for slot in range(5):
                nb = np.int64(h[slot])
                out[slot] = nb - np.int64(nb == sent) * (nb + 1)
            return 5

        return rings
    if _wrapped(T):  # the four worked out at once

        def wrap(T, geo, cell, out):  # type: ignore[no-untyped-def]
            h = _wrap_hood(T, cell)
            n = np.int64(T[0].cells)
            for slot in range(4):
                nb = np.int64(h[slot])
                out[slot] = nb - np.int64(nb == n) * (nb + 1)
            return 4

        return wrap
    if _plain(T):

        def impl(T, geo, cell, out):  # type: ignore[no-untyped-def]
            n = n_slots(geo[0])
            for slot in range(n):
                out[slot] = cell_step(T, geo, cell, slot)
            return n

        return impl
    return lambda T, geo, cell, out: neighbours(geo, np.int64(cell), out)


def cell_back(T, geo, cell, slot):  # pragma: no cover - replaced in compiled code
    """:func:`back` by the topology, as :func:`cell_step` (inline it once per kernel: two
    inlined copies of a ring table's make numba's SSA check warn)."""
    raise NotImplementedError("cell_back() runs inside numba kernels only")


@overload(cell_back)
def _cell_back(T, geo, cell, slot):  # type: ignore[no-untyped-def]
    if _plain(T):
        return lambda T, geo, cell, slot: hop_back(T, geo, cell, slot)
    return lambda T, geo, cell, slot: back(geo, cell, slot)


def offset_topology(geo: tuple[int, int, int, int]) -> np.ndarray:
    """The fast kernels' topology of a padded grid: ``(4, MAX_SLOTS)``, the offsets of
    :func:`pad_offsets` by the padded index's last bit, then the slot back of each slot (a
    padded grid's does not depend on the cell): :func:`hop_back` reads it instead of
    compiling :func:`back`'s branches for every grid kind into each kernel (0.7 s of a first
    run, 2026-12-05), then in its first two columns the slots each of the two have (a bit a
    slot). int64; uint64 (the same bits) on a grid of more than six slots, whose layout takes
    two bytes a cell (:func:`high`). Worked out in Python: compiling :func:`pad_offsets` for
    it took 0.26 s of a first run.

    Examples
    --------
    >>> from mazekit.grids.kernel import UPSILON
    >>> T = offset_topology((UPSILON, 3, 3, 0))   # padded rows of 5: octagons at even indices
    >>> T.dtype, T[0, :3].astype(np.int64).tolist(), T[1, :3].astype(np.int64).tolist()
    (dtype('uint64'), [-5, -4, 1], [-5, 0, 1])
    >>> [hex(v) for v in T[3, :2]], T[2].tolist()   # octagons have all eight, squares four
    (['0xff', '0x55'], [4, 5, 6, 7, 0, 1, 2, 3])
    """
    kind, n = geo[0], n_slots.py_func(geo[0])
    rule = _RULE[kind]
    offsets = pad_offsets.py_func(geo, pad_width.py_func(geo))
    parities = [q ^ 1 if rule == 1 else q if rule == 3 else 0 for q in range(2)]  # as pad_offsets
    if kind < TABLE:
        has = [(1 << n) - 1] * 2
    else:
        has = [sum(int(_HAS[kind, parity, slot]) << slot for slot in range(n)) for parity in parities]
    backs = [int(_BACK[kind, 0 if _HAS[kind, 0, slot] else 1, slot]) if kind >= TABLE else
             back.py_func(geo, 0, slot) if slot < n else 0 for slot in range(MAX_SLOTS)]  # fmt: skip
    out = np.vstack([offsets, np.array([backs, has + [0] * (MAX_SLOTS - 2)], dtype=np.int64)])
    return out.view(np.uint64) if n > 6 else out


#: A stand-in topology (offsets, all zero) for kernels that take one where the grid has none
#: to give (kruskal's and growing_forest's): :func:`cell_step` and :func:`cell_back` then call
#: the plain :func:`step` and :func:`back`.
NO_TOPOLOGY = np.zeros((3, MAX_SLOTS), dtype=np.int64)


def around(off1, u):  # pragma: no cover - replaced in compiled code
    """Padded index ``u``'s neighbourhood, worked out once, for :func:`matching`,
    :func:`near` and :func:`hop_back` to take in place of ``u``: ``u`` itself on offsets, and
    on a ring table its five neighbours and the slot back from the inward one.

    A kernel that stores between those calls (a draw, a carve) should take it: numba
    reloads a ring table's words after every store (the table might alias the maze), so
    each call would find the ring again. On a 456x8 polar grid prim went from 79 to 60 ns a
    cell and the backtracker from 43 to 41 (2026-12-03); on offsets nothing changes.
    """
    raise NotImplementedError("around() runs inside numba kernels only")


@overload(around)
def _around(off1, u):  # type: ignore[no-untyped-def]
    if _rings(off1):

        def impl(off1, u):  # type: ignore[no-untyped-def]
            n0, n1, n2, n3, n4, b = _ring_hood(off1, u)  # b: the slot back from inward
            return np.uint64(n0), np.uint64(n1), np.uint64(n2), np.uint64(n3), np.uint64(n4), np.uint64(b)

        return impl
    if _wrapped(off1):
        return lambda off1, u: _wrap_hood(off1, u)
    return lambda off1, u: u


def near(u, off1, slot):  # pragma: no cover - replaced in compiled code
    """The padded index next to padded index ``u`` (a ``uint64``) through ``slot``.

    ``off1`` is :func:`pad_offsets` flattened (``off.ravel()``: slot ``s`` of parity ``q`` at
    ``q * 8 + s``), or a ring table. Unsigned indices all the way: numba then adds no
    negative-index fix-up to the loads, which hot loops feel (with the slot count compiled
    in, prim's kernel went from 50-56 to 45-53 ns a cell).
    """
    raise NotImplementedError("near() runs inside numba kernels only")


@overload(near)
def _near(u, off1, slot):  # type: ignore[no-untyped-def]
    if isinstance(off1, types.UniTuple):  # held(): a rectangle's offsets in registers
        return lambda u, off1, slot: u + off1[slot]
    if _wrapped(off1):
        if isinstance(u, types.BaseTuple):  # around()'s four
            return lambda u, off1, slot: _wrap_pick(u, slot)
        return lambda u, off1, slot: _wrap_pick(_wrap_hood(off1, u), slot)
    if isinstance(u, types.BaseTuple):  # around() on a ring table

        def hood(u, off1, slot):  # type: ignore[no-untyped-def]
            nb = u[0] + np.uint64(slot == 1) * (u[1] - u[0])  # no branches: a random pick
            nb += np.uint64(slot == 2) * (u[2] - nb)
            nb += np.uint64(slot == 3) * (u[3] - nb)
            return nb + np.uint64(slot == 4) * (u[4] - nb)

        return hood
    if _rings(off1):
        return lambda u, off1, slot: np.uint64(hop(off1, u, slot))
    if _table(off1):
        return lambda u, off1, slot: np.uint64(off1[u, np.uint64(slot)])
    return lambda u, off1, slot: u + np.uint64(off1[(u & np.uint64(1)) << np.uint64(3) | np.uint64(slot)])


def matching(padded, u, off1, n_slot, field, value):  # pragma: no cover - replaced in compiled code
    """Bit ``slot`` set for each slot of padded cell ``u`` (a ``uint64``) whose neighbour's
    byte ``& field`` equals ``value`` (one state of several kept in the high bits); ``off1``
    as for :func:`near`. Let ``n_slot`` be a compile-time constant in the kernel
    (:func:`slot_count`): once LLVM inlines this, the branches on it go."""
    raise NotImplementedError("matching() runs inside numba kernels only")


@overload(matching)
def _matching(padded, u, off1, n_slot, field, value):  # type: ignore[no-untyped-def]
    if _wrapped(off1):
        tupled = isinstance(u, types.BaseTuple)  # around()'s four, or worked out here

        def wrap(padded, u, off1, n_slot, field, value):  # type: ignore[no-untyped-def]
            h = u if tupled else _wrap_hood(off1, u)
            m = ((padded[h[0]] & field) == value) | ((padded[h[1]] & field) == value) << 1
            return m | ((padded[h[2]] & field) == value) << 2 | ((padded[h[3]] & field) == value) << 3

        return wrap
    if isinstance(u, types.BaseTuple):  # around() on a ring table

        def hood(padded, u, off1, n_slot, field, value):  # type: ignore[no-untyped-def]
            m = ((padded[u[0]] & field) == value) | ((padded[u[1]] & field) == value) << 1
            m |= ((padded[u[2]] & field) == value) << 2
            m |= ((padded[u[3]] & field) == value) << 3
            return m | ((padded[u[4]] & field) == value) << 4

        return hood
    if _rings(off1):

        def impl(padded, u, off1, n_slot, field, value):  # type: ignore[no-untyped-def]
            n0, n1, n2, n3, n4 = _ring_all(off1, u)
            n0, n1, n2, n3, n4 = np.uint64(n0), np.uint64(n1), np.uint64(n2), np.uint64(n3), np.uint64(n4)
            m = ((padded[n0] & field) == value) | ((padded[n1] & field) == value) << 1
            m |= ((padded[n2] & field) == value) << 2
            m |= ((padded[n3] & field) == value) << 3
            return m | ((padded[n4] & field) == value) << 4

        return impl
    if _table(off1):

        def table(padded, u, off1, n_slot, field, value):  # type: ignore[no-untyped-def]
            m = 0
            for slot in range(n_slot):  # a constant count: unrolled
                m |= ((padded[np.uint64(off1[u, slot])] & field) == value) << slot
            return m

        return table

    def offsets(padded, u, off1, n_slot, field, value):  # type: ignore[no-untyped-def]
        # Six slots read, those past n_slot masked off: no branches (a slot a grid lacks has
        # offset 0, the cell itself), and with n_slot a constant the compiler drops the
        # reads whose bits are masked.
        # Only a rectangle has 4 slots, and its offsets do not depend on the parity: with a
        # constant n_slot the compiler then drops it, the offsets' addresses are fixed and
        # their loads leave the path from one cell to the next (prim: about 5% a cell).
        # (A multiply, not a branch: a branch in an inlined overload upsets numba's SSA check.)
        q = ((u & np.uint64(1)) << np.uint64(3)) * np.uint64(n_slot != 4)
        a = ((padded[u + np.uint64(off1[q])] & field) == value) | (
            (padded[u + np.uint64(off1[q + _U1])] & field) == value
        ) << 1
        b = ((padded[u + np.uint64(off1[q + _U2])] & field) == value) << 2 | (
            (padded[u + np.uint64(off1[q + _U3])] & field) == value
        ) << 3
        c = ((padded[u + np.uint64(off1[q + _U4])] & field) == value) << 4 | (
            (padded[u + np.uint64(off1[q + _U5])] & field) == value
        ) << 5
        if n_slot > 6:  # (a constant) eight read, the slots of the cell's parity kept (row 3)
            d = ((padded[u + np.uint64(off1[q + _U6])] & field) == value) << 6 | (
                (padded[u + np.uint64(off1[q + _U7])] & field) == value
            ) << 7
            return (a | b | c | d) & off1[_ROW3 + (u & np.uint64(1))]
        return (a | b | c) & ((1 << n_slot) - 1)

    return offsets


@njit(cache=True, inline="always")
def _ring_hood(T, p):  # pragma: no cover - compiled
    """All five neighbours of plain index ``p`` on ring table ``T`` (the sentinel where there
    is none), and the slot that leads back from the inward one. Arithmetic only, no branches:
    a walk's slots are random (and numba's SSA check trips on the branches of a conditional
    expression inlined into an inlined overload)."""
    q, r, c = _ring_position(T, p)
    cols, sent = np.int64(T[_COLS]), np.int64(T[_SENT])
    w = np.int64(T[np.uint64(RING_HEAD + r)])  # unsigned: no negative-index fix-up
    start = q - c
    count = w >> 2
    small = np.int64(count <= 2)  # a ring of one or two cells does not wrap round
    top = np.int64(c + 1 == count)
    bottom = np.int64(c == 0)
    cw = q + 1 - top * count
    cw += (top & small) * (sent - cw)
    ccw = q - 1 + bottom * count
    ccw += (bottom & small) * (sent - ccw)
    halves = w >> 1 & 1
    inward = start - cols + (c >> halves)
    inward += np.int64(r == 0) * (sent - inward)
    doubles = w & 1  # never on the outermost ring
    out = start + cols + (c << doubles)
    out += np.int64(r + 1 == np.int64(T[_ROWS])) * (sent - out)
    out2 = sent + doubles * (out + 1 - sent)
    return cw, ccw, inward, out, out2, 3 + (c & halves)  # inward: back by out, or out2


@njit(cache=True, inline="always")
def _ring_all(T, p):  # pragma: no cover - compiled
    """The five neighbours of :func:`_ring_hood`."""
    cw, ccw, inward, out, out2, _ = _ring_hood(T, p)
    return cw, ccw, inward, out, out2


def free_slots(padded, p, T, n_slot, limit):  # pragma: no cover - replaced in compiled code
    """:func:`below` on either topology: bit ``slot`` set where the neighbour's byte is below
    ``limit``."""
    raise NotImplementedError("free_slots() runs inside numba kernels only")


@overload(free_slots)
def _free_slots(padded, p, T, n_slot, limit):  # type: ignore[no-untyped-def]
    if _rings(T):

        def impl(padded, p, T, n_slot, limit):  # type: ignore[no-untyped-def]
            n0, n1, n2, n3, n4 = _ring_all(T, p)
            n0, n1, n2, n3, n4 = np.uint64(n0), np.uint64(n1), np.uint64(n2), np.uint64(n3), np.uint64(n4)
            m = (padded[n0] < limit) | (padded[n1] < limit) << 1
            m |= (padded[n2] < limit) << 2
            m |= (padded[n3] < limit) << 3
            return m | (padded[n4] < limit) << 4

        return impl
    if _wrapped(T):

        def wrap(padded, p, T, n_slot, limit):  # type: ignore[no-untyped-def]
            h = _wrap_hood(T, p)
            m = (padded[h[0]] < limit) | (padded[h[1]] < limit) << 1
            return m | (padded[h[2]] < limit) << 2 | (padded[h[3]] < limit) << 3

        return wrap
    if _table(T):

        def table(padded, p, T, n_slot, limit):  # type: ignore[no-untyped-def]
            m = 0
            for slot in range(n_slot):
                m |= (padded[np.uint64(T[np.uint64(p), slot])] < limit) << slot
            return m

        return table
    return lambda padded, p, T, n_slot, limit: below(padded, p, T, n_slot, limit)


def row_start(T, geo, r):  # pragma: no cover - replaced in compiled code
    """The fast-path index of row ``r``'s first cell (the next ones follow it)."""
    raise NotImplementedError("row_start() runs inside numba kernels only")


@overload(row_start)
def _row_start(T, geo, r):  # type: ignore[no-untyped-def]
    if _plain(T):
        return lambda T, geo, r: r * geo[2]
    return lambda T, geo, r: pad_row(geo, r) * pad_width(geo) + 1


def cell_steps(geo: tuple[int, int, int, int]) -> np.ndarray:
    """:func:`along`'s ``cell_off``: the slots' offsets in the plain layout (:func:`pad_offsets`
    with the row length), worked out in Python for a caller in Python (called from there the
    compiled one would load or compile a kernel of its own); a kernel making it once for many
    mazes calls ``pad_offsets(geo, geo[2])``."""
    return pad_offsets.py_func(geo, geo[2])  # type: ignore[no-any-return]


def along(T, cell_off, cell, p, slot, nb):  # pragma: no cover - replaced in compiled code
    """The cell at fast-path index ``nb``, one step through ``slot`` from ``p`` (at ``cell``): on
    offsets, moved by ``cell_off`` (:func:`cell_steps`), no division."""
    raise NotImplementedError("along() runs inside numba kernels only")


@overload(along)
def _along(T, cell_off, cell, p, slot, nb):  # type: ignore[no-untyped-def]
    if _plain(T):
        return lambda T, cell_off, cell, p, slot, nb: nb
    return lambda T, cell_off, cell, p, slot, nb: cell + cell_off[p & 1, slot]


def lay_out(T, geo, mask, inside, outside):  # pragma: no cover - replaced in compiled code
    """The fast path's byte per cell: :func:`pad` on offsets; on a ring table, the plain layout
    plus the blocked sentinel (``inside`` at every cell, ``outside`` elsewhere)."""
    raise NotImplementedError("lay_out() runs inside numba kernels only")


@overload(lay_out)
def _lay_out(T, geo, mask, inside, outside):  # type: ignore[no-untyped-def]
    if _plain(T):
        wide = getattr(T, "dtype", None) == types.uint32  # eight slots: state bits in a second byte
        byte = np.uint16 if wide else np.uint8

        def impl(T, geo, mask, inside, outside):  # type: ignore[no-untyped-def]
            n = geo[1] * geo[2]
            out = np.empty(n + 1, dtype=byte)
            for cell in range(n):
                out[cell] = inside if exists(mask, cell) else outside
            out[n] = outside
            return out

        return impl
    byte = np.uint16 if _wide(T) else np.uint8
    return lambda T, geo, mask, inside, outside: pad(geo, mask, inside, outside, byte)


def to_fast(T, geo, cell):  # pragma: no cover - replaced in compiled code
    """The fast-path index of ``cell``."""
    raise NotImplementedError("to_fast() runs inside numba kernels only")


@njit(cache=True)  # out of line: inlined into an inlined overload, numba's SSA check warns
def _padded_index(geo, cell):  # pragma: no cover - compiled
    return pad_index(geo, cell)


@njit(cache=True)  # out of line, as _padded_index
def _unpadded_index(geo, p):  # pragma: no cover - compiled
    return unpad_index(geo, p)


@overload(to_fast)
def _to_fast(T, geo, cell):  # type: ignore[no-untyped-def]
    if _plain(T):
        return lambda T, geo, cell: cell
    return lambda T, geo, cell: _padded_index(geo, cell)


def to_cell(T, geo, p):  # pragma: no cover - replaced in compiled code
    """The cell at fast-path index ``p``."""
    raise NotImplementedError("to_cell() runs inside numba kernels only")


@overload(to_cell)
def _to_cell(T, geo, p):  # type: ignore[no-untyped-def]
    if _plain(T):
        return lambda T, geo, p: p
    return lambda T, geo, p: _unpadded_index(geo, p)


def trace_cells(T, geo, fast, count, trace, event):  # pragma: no cover - replaced in compiled code
    """``trace[i] = (cell at fast index fast[i], event, -1)`` for ``i < count``: a search's
    order of fast indices turned into trace rows after the search, not in it. On offsets a
    cell's row is a multiply and a shift (:func:`~mazekit.grids.kernel.padded.magic`), not a
    division; ``fast`` may be the last third of ``trace``'s own memory (row ``i`` is written
    after entry ``i`` is read, and ends before entry ``i + 1`` starts)."""
    raise NotImplementedError("trace_cells() runs inside numba kernels only")


@njit(cache=True, nogil=True)
def _unpad_run(geo, fast, count, trace, event):  # pragma: no cover - compiled
    """:func:`trace_cells` on padded offsets."""
    w = pad_width(geo)
    cols, band = np.uint64(geo[2]), np.uint64(geo[3] + 1)
    one = np.uint64(1)
    if pad_rows(geo) * w > MAGIC_LIMIT:  # (past 2**31 fast indices: divisions)
        for i in range(count):
            trace[i, 0] = unpad_index(geo, fast[i])
            trace[i, 1] = event
            trace[i, 2] = -1
        return
    wm, ws = magic(w)
    bm, bs = magic(geo[3] + 1)
    uw = np.uint64(w)
    cube = geo[0] == CUBE
    top = np.uint64(pad_top(geo))  # blocked rows above the cells (2-D)
    rows_a_level = np.uint64(geo[3])
    for i in range(count):
        p = np.uint64(fast[i])
        pr = p * wm >> ws
        c = p - pr * uw - one
        q = pr - one
        if cube:  # levels are bands of R + 1 padded rows, after a first blocked band
            b = q * bm >> bs
            r = (b - one) * rows_a_level + q - b * band
        else:
            r = pr - top
        trace[i, 0] = r * cols + c
        trace[i, 1] = event
        trace[i, 2] = -1


@overload(trace_cells)
def _trace_cells(T, geo, fast, count, trace, event):  # type: ignore[no-untyped-def]
    if _plain(T):

        def impl(T, geo, fast, count, trace, event):  # type: ignore[no-untyped-def]
            for i in range(count):
                trace[i, 0] = fast[i]
                trace[i, 1] = event
                trace[i, 2] = -1

        return impl
    return lambda T, geo, fast, count, trace, event: _unpad_run(geo, fast, count, trace, event)


def copy_in(T, geo, cells, fast):  # pragma: no cover - replaced in compiled code
    """``fast[index of cell] = cells[cell]`` for every cell, the rest of ``fast`` (a
    :func:`lay_out`) untouched: a stack's mazes one after the other in one fast layout."""
    raise NotImplementedError("copy_in() runs inside numba kernels only")


@overload(copy_in)
def _copy_in(T, geo, cells, fast):  # type: ignore[no-untyped-def]
    if _plain(T):

        def impl(T, geo, cells, fast):  # type: ignore[no-untyped-def]
            for cell in range(cells.shape[0]):
                fast[cell] = cells[cell]

        return impl

    def padded(T, geo, cells, fast):  # type: ignore[no-untyped-def]
        rows, cols = geo[1], geo[2]
        w = pad_width(geo)
        for r in range(rows):  # (no slices: a view made twice a row cost more than the copy on small mazes)
            base = np.uint64(pad_row(geo, r) * w + 1)
            at = np.uint64(r * cols)
            for c in range(np.uint64(cols)):
                fast[base + c] = cells[at + c]

    return padded


def copy_out(T, geo, fast, bits, out):  # pragma: no cover - replaced in compiled code
    """``out[cell] = fast[index of cell] & bits`` for every cell (:func:`unpad` on offsets)."""
    raise NotImplementedError("copy_out() runs inside numba kernels only")


@overload(copy_out)
def _copy_out(T, geo, fast, bits, out):  # type: ignore[no-untyped-def]
    if _plain(T):

        def impl(T, geo, fast, bits, out):  # type: ignore[no-untyped-def]
            for cell in range(out.shape[0]):
                out[cell] = fast[cell] & bits

        return impl
    return lambda T, geo, fast, bits, out: unpad(geo, fast, bits, out)


def held(off1, slots):  # pragma: no cover - replaced in compiled code
    """What a search reads at every step, taken out of memory once: on a rectangle's offsets
    (four slots, both parities alike: :func:`~.tables.table_rows` gives a declared grid of
    four slots whose steps hang on the parity a neighbour table) a tuple of its four offsets
    and the four marks :func:`came_code` leaves, which :func:`near` and :func:`came_code` then
    take in place of ``off1``; ``off1`` itself on every other layout.

    numba cannot tell that a store into the maze's marks leaves the offsets alone, so a
    loop reloads them after every store; held in registers, bfs's search of a 1000x1000
    rectangle went from 15.5 to 12.9 ns an explored cell (C: 10.2; ``benchmarks/vs_limit.py
    --same-maze``, 2026-12-07). Other grids keep the loads: their slot's offset hangs on the
    cell's parity, and a tuple picked at run time cost more than the loads (hex, upsilon
    and weave slowed, 2026-12-06)."""
    raise NotImplementedError("held() runs inside numba kernels only")


@overload(held, inline="always")
def _held(off1, slots):  # type: ignore[no-untyped-def]
    if _rings(off1) or _table(off1) or off1.dtype != types.int64 or len(slots) != 4:
        return lambda off1, slots: off1

    def rect(off1, slots):  # type: ignore[no-untyped-def]
        o0, o1, o2, o3 = np.uint64(off1[0]), np.uint64(off1[1]), np.uint64(off1[2]), np.uint64(off1[3])
        c0, c1, c2, c3 = off1[16] + 1, off1[17] + 1, off1[18] + 1, off1[19] + 1
        return o0, o1, o2, o3, np.uint64(c0), np.uint64(c1), np.uint64(c2), np.uint64(c3)

    return rect


def came_code(step, geo, h, slot, ok):  # pragma: no cover - replaced in compiled code
    """What a search marks on the cell it meets through ``slot`` from the cell whose
    :func:`around` is ``h``, where ``ok`` (0 or 1; 0 elsewhere), for :func:`came_from` to
    walk back by: the slot back plus 1 on offsets, ring tables and a wrapped rectangle's
    record (a load, or arithmetic), the slot itself plus 1 on neighbour tables (whose slot back may take a
    division). ``step`` is :func:`held`'s: the tuple on a rectangle, else :func:`flat`'s
    topology. No branch and no array: a mispredicted branch on random passage bits, or the
    reference counting of an array passed in, cost more than the rest of a step."""
    raise NotImplementedError("came_code() runs inside numba kernels only")


@overload(came_code, inline="always")
def _came_code(step, geo, h, slot, ok):  # type: ignore[no-untyped-def]
    if isinstance(step, types.UniTuple):  # held(): the marks in its second half
        return lambda step, geo, h, slot, ok: np.int64(step[4 + slot]) * ok
    if _wrapped(step):
        return lambda step, geo, h, slot, ok: (_wrap_back(slot) + 1) * ok
    if _table(step):
        return lambda step, geo, h, slot, ok: (slot + 1) * ok
    if _rings(step):
        return lambda step, geo, h, slot, ok: (hop_back(step, geo, h, slot) + 1) * ok
    return lambda step, geo, h, slot, ok: (np.int64(step[16 + slot]) + 1) * ok  # row 2 of the offsets


def came_from(T, off1, came, v, n_slot):  # pragma: no cover - replaced in compiled code
    """The fast index a search reached ``v`` from, by the mark :func:`came_code` left on it
    (``came``: one byte a fast index, 0 where the search never went; ``off1``:
    :func:`flat` of ``T``, made once)."""
    raise NotImplementedError("came_from() runs inside numba kernels only")


@overload(came_from)
def _came_from(T, off1, came, v, n_slot):  # type: ignore[no-untyped-def]
    if _table(T):

        def impl(T, off1, came, v, n_slot):  # type: ignore[no-untyped-def]
            slot = np.int64(came[v]) - 1  # the parent's slot: the one neighbour it leads here from
            for s in range(n_slot):
                q = np.uint64(T[v, s])
                if came[q] != 0 and np.uint64(T[q, slot]) == v:
                    return q
            return v  # pragma: no cover - every mark has its parent

        return impl
    return lambda T, off1, came, v, n_slot: near(v, off1, np.int64(came[v]) - 1)


# -- the fast layout made and read back from Python ------------------------------------------
# numpy lays out and copies back what :func:`lay_out` and :func:`copy_out` do inside a
# kernel: a front door that calls one kernel per maze then compiles neither (nor
# :func:`pad` and :func:`unpad` under them), which was 1.7 s of the first ``mazekit
# generate``'s 6.2 s of compiling (2026-12-05). Drivers that run many mazes in one compiled
# call keep the compiled pair.


def _blocks(geo: tuple[int, int, int, int], fast: np.ndarray) -> list[tuple[slice, np.ndarray]]:
    """``(cells, view)`` pairs: a run of layout rows (flat cell slice) and where they sit in
    the padded layout ``fast``, as a 2-D view (one run, or one a level on a 3d grid)."""
    rows, cols, w = geo[1], geo[2], pad_width.py_func(geo)
    grid = fast.reshape(-1, w)
    runs = [(r, r + geo[3]) for r in range(0, rows, geo[3])] if geo[0] == CUBE else [(0, rows)]
    return [
        (slice(a * cols, b * cols), grid[pad_row.py_func(geo, a) :][: b - a, 1 : cols + 1]) for a, b in runs
    ]


def fast_layout(
    T: np.ndarray, geo: tuple[int, int, int, int], mask: np.ndarray, inside: int, outside: int
) -> np.ndarray:
    """:func:`lay_out` from Python: the fast path's byte per cell, ``inside`` at every cell
    and ``outside`` elsewhere (the padded layout's border, a ring table's sentinel). No
    array but the layout is made (the memory the kernels declare holds).

    Examples
    --------
    >>> geo = (0, 2, 3, 0)
    >>> T = offset_topology(geo)
    >>> fast_layout(T, geo, np.zeros(0, dtype=np.uint8), 0, 9).reshape(4, 5)[1]
    array([9, 0, 0, 0, 9], dtype=uint8)
    """
    plain = not padded_topology(T)  # a ring or neighbour table: the cells, then the sentinel
    size = geo[1] * geo[2] + 1 if plain else pad_rows.py_func(geo) * pad_width.py_func(geo)
    out = np.full(size, outside, dtype=layout_dtype(T))
    for cells, view in [(slice(0, size - 1), out[:-1])] if plain else _blocks(geo, out):
        if mask.shape[0] == 0:
            view[...] = inside
        else:  # mask * (inside - outside) + outside, in place: 0 -> outside, 1 -> inside
            view[...] = mask[cells].reshape(view.shape)
            view *= out.dtype.type((inside - outside) % (1 << 8 * out.itemsize))
            view += out.dtype.type(outside)
    return out


def padded_topology(T: np.ndarray) -> bool:
    """Whether ``T`` is the offsets of a padded layout (:func:`offset_topology`), not a ring
    table (1-D) or a neighbour table (32-bit)."""
    return T.ndim == 2 and T.dtype.itemsize == 8


def layout_dtype(T: np.ndarray) -> type:
    """The fast layout's item: a byte, two on a grid of eight slots (a uint32 neighbour table,
    uint64 offsets), where the kernels' state bits sit in the second byte (:func:`high`)."""
    return np.uint16 if T.dtype == np.uint32 or (T.dtype == np.uint64 and T.ndim == 2) else np.uint8


def fast_values(T: np.ndarray, geo: tuple[int, int, int, int], cells: np.ndarray, outside: int) -> np.ndarray:
    """The flat per-cell ``uint8`` array ``cells`` in the fast layout, ``outside`` beyond
    the cells (:func:`pad_values` from Python)."""
    if not padded_topology(T):
        return np.append(cells, np.uint8(outside))
    out = np.full(pad_rows.py_func(geo) * pad_width.py_func(geo), outside, dtype=np.uint8)
    for part, view in _blocks(geo, out):
        view[...] = cells[part].reshape(view.shape)
    return out


def fast_passages(
    T: np.ndarray, geo: tuple[int, int, int, int], fast: np.ndarray, bits: int, out: np.ndarray
) -> None:
    """:func:`copy_out` from Python: ``out[cell] = fast[index of cell] & bits``."""
    if not padded_topology(T):
        np.bitwise_and(fast[: out.shape[0]], bits, out=out, casting="unsafe")
        return
    for cells, view in _blocks(geo, fast):
        np.bitwise_and(view, bits, out=out[cells].reshape(view.shape))


def fast_index(T: np.ndarray, geo: tuple[int, int, int, int], cell: int) -> int:
    """:func:`to_fast` from Python."""
    if not padded_topology(T):
        return cell
    r, c = divmod(cell, geo[2])
    return int(pad_row.py_func(geo, r)) * pad_width.py_func(geo) + c + 1


def high(grid):  # pragma: no cover - replaced in compiled code
    """How far a kernel's state bits move up in the fast layout ``grid``: 0 in a byte layout
    (bits 6-7 above six slots' passages), 8 in a two-byte one (eight slots' passages below).
    Given a topology, that of the layout it makes (a uint32 neighbour table: two bytes)."""
    raise NotImplementedError("high() runs inside numba kernels only")


@overload(high)
def _high(grid):  # type: ignore[no-untyped-def]
    if grid.dtype in (types.uint16, types.uint32) or _wide(grid):  # two bytes, or what makes them
        return lambda grid: 8
    return lambda grid: 0


def state_bits(T: np.ndarray, outside: int, bits: int) -> tuple[int, int]:
    """``(outside, bits)`` as a kernel's byte-layout constants become in ``T``'s layout
    (:func:`high`): the state bits (those ``bits`` leaves out) moved up a byte where it has
    two."""
    if layout_dtype(T) is np.uint8:
        return outside, bits
    return outside << 8, 0xFFFF & ~((~bits & 0xFF) << 8)


_LACKING = -(1 << 62)  # an offset table's entry for a slot the cell lacks


@njit(cache=True, nogil=True)
def _neighbour_rows(geo, offs, margin, out):  # pragma: no cover - compiled
    """Fill neighbour table ``out`` (see :func:`neighbour_topology`). Cells ``margin`` or
    more from every edge take their parity's ``offs`` (a slot the cell lacks:
    ``_LACKING``), the others :func:`move`; by row and column, no division a cell (30 -> 12
    ns a cell on upsilon, 2026-12-06). The slots back are read off the first ``2 * margin +
    2`` rows, which hold both parities and a cell with each slot's neighbour; False where
    they differ between cells of one parity (no grid kind does that)."""
    rows, cols = geo[1], geo[2]
    n = rows * cols
    k = n_slots(geo[0])
    out[:, k:] = n
    for r in range(rows):
        inner = margin <= r < rows - margin
        for c in range(cols):
            cell = r * cols + c
            if inner and margin <= c < cols - margin:
                q = _parity(geo[0], r, c)
                for slot in range(k):
                    d = offs[q, slot]
                    out[cell, slot] = n if d == _LACKING else cell + d
                continue
            for slot in range(k):
                nr, nc = move(geo, r, c, slot)
                out[cell, slot] = n if nr < 0 else nr * cols + nc
    out[n, :] = n
    out[n + 1 :, :] = MAX_SLOTS  # no way back seen yet
    for cell in range(min((2 * margin + 2) * cols, n)):
        q = _parity(geo[0], cell // cols, cell % cols)
        for slot in range(k):
            if out[cell, slot] != n:
                b = back(geo, cell, slot)
                if out[n + 1 + q, slot] != MAX_SLOTS and out[n + 1 + q, slot] != b:
                    return False
                out[n + 1 + q, slot] = b
    for slot in range(out.shape[1]):  # a slot one parity lacks takes the other's way back
        if out[n + 1, slot] == MAX_SLOTS:
            out[n + 1, slot] = out[n + 2, slot]
        if out[n + 2, slot] == MAX_SLOTS:
            out[n + 2, slot] = out[n + 1, slot]
    return True


def table_bytes(slots: int) -> int:
    """Bytes a cell of a neighbour table (:func:`neighbour_topology`) on a grid of ``slots``."""
    return 4 * (4 if slots <= 4 else MAX_SLOTS)


def neighbour_topology(geo: tuple[int, int, int, int]) -> np.ndarray | None:
    """The fast kernels' topology of a grid whose neighbours are no fixed offsets (a table
    grid with the row's parity; upsilon and weave for the kernels that keep the plain
    layout, :meth:`~mazekit.grids.Grid.plain_topology`): every cell's neighbour through
    each slot (the sentinel cell ``cells`` where there is none; a masked one is blocked in
    the layout), a row for the sentinel, and two last rows with each slot's slot back, by
    parity (:func:`table_back`); 4 columns on grids of up to 4 slots (a walk draws 2 bits a
    step there), else 8. Its type says the
    layout: int32 a byte a cell, uint32 (eight slots) two. ``None`` where the table's
    indices would not fit, or a slot's way back depends on more than the cell's parity.

    Examples
    --------
    >>> from mazekit.grids import RectGrid
    >>> T = neighbour_topology(RectGrid((2, 3), wrap="x").geo)
    >>> T[0].tolist(), T[-1].tolist()   # N, E, S, W of cell 0; the slots back (parity 1)
    ([6, 1, 3, 2], [2, 3, 0, 1])
    """
    n = geo[1] * geo[2]
    if n + 3 >= 1 << 31:
        return None
    slots = n_slots.py_func(geo[0])
    dr, dc = _DR[geo[0], :, :slots], _DC[geo[0], :, :slots]
    real = (np.abs(dr) < 1 << 20) & (np.abs(dc) < 1 << 20)  # a slot the cell lacks: far off
    margin = int(max(np.abs(dr[real]).max(initial=0), np.abs(dc[real]).max(initial=0)))
    offs = np.where(real, dr * geo[2] + dc, _LACKING)
    out = np.empty((n + 3, table_bytes(slots) // 4), dtype=np.uint32 if slots > 6 else np.int32)
    return out if _neighbour_rows(geo, offs, max(margin, 1), out) else None


# -- a wrapped rectangle ---------------------------------------------------------------------
# A rectangle whose edges join has no padded layout (a neighbour across an edge is no fixed
# offset), and until 2026-12-07 took a neighbour table: 16 bytes a cell, which a step to
# another row or kruskal's shuffled walls read from beyond the cache (wrap cost 1.4-2.2x the
# rectangle a cell, benchmarks/grids.py). Its neighbours are arithmetic: the row by a
# multiply and a shift (:func:`~.padded.magic`), an edge's neighbour by a select. The
# kernels take that as one record (:func:`wrap_topology`), its own numba type, over the
# plain layout and its sentinel, as the table was: the same mazes for the same seeds.

#: A wrapped rectangle's topology, one record: the row length, the cell count (the
#: sentinel's index), the row divisor's magic multiplier and shift, whether the left and
#: right edges join (``1``) and the top and bottom (see :func:`~.cells.move`: a side shorter
#: than 3 cells does not wrap), and the row count.
WRAP = np.dtype(
    [("cols", np.uint64), ("cells", np.uint64), ("magic", np.uint64), ("shift", np.uint64),
     ("join_cols", np.uint64), ("join_rows", np.uint64), ("rows", np.uint64)]
)  # fmt: skip


def wrap_topology(geo: tuple[int, int, int, int]) -> np.ndarray | None:
    """The fast kernels' topology of a wrapped rectangle: a :data:`WRAP` record (an array of
    one), from which :func:`around` and :func:`near` work out a cell's neighbours; ``None``
    where its layout has ``2**31`` cells or more (the multiply and shift then fall short).

    Examples
    --------
    >>> W = wrap_topology((0, 4, 5, 1))   # 4 rows of 5, left and right edges joined
    >>> int(W[0]["cols"]), int(W[0]["cells"]), int(W[0]["join_cols"]), int(W[0]["join_rows"])
    (5, 20, 1, 0)
    """
    rows, cols, wrap = geo[1], geo[2], geo[3]
    n = rows * cols
    if n + 1 >= MAGIC_LIMIT:
        return None
    shift = 32 + (cols - 1).bit_length()  # as magic(): ceil(log2(cols)) past 32
    out = np.zeros(1, dtype=WRAP)
    out[0] = (
        cols,
        n,
        ((1 << shift) + cols - 1) // cols,
        shift,
        wrap & 1 and cols > 2,
        wrap & 2 and rows > 2,
        rows,
    )
    return out


@njit(cache=True, inline="always")
def _pick(yes, a, b):  # pragma: no cover - compiled
    """``a`` where ``yes`` (True or False) else ``b``, by arithmetic (uint64, modulo
    ``2**64``): no branch on a slot drawn at random."""
    return b + np.uint64(yes) * (a - b)


@njit(cache=True, inline="always")
def _wrap_hood(W, p):  # pragma: no cover - compiled
    """The four neighbours (N, E, S, W) of plain index ``p`` on wrapped rectangle ``W``
    (:func:`wrap_topology`), ``uint64``: across an edge that joins, the cell on the far side;
    across one that does not, the sentinel. One multiply for the column, then selects."""
    w = W[0]
    q = np.uint64(p)
    cols, n, one = w.cols, w.cells, np.uint64(1)
    c = q - (q * w.magic >> w.shift) * cols
    up, down = q - cols, q + cols
    north = _pick(q >= cols, up, _pick(w.join_rows, up + n, n))
    south = _pick(down < n, down, _pick(w.join_rows, down - n, n))
    east = _pick(c + one < cols, q + one, _pick(w.join_cols, q + one - cols, n))
    west = _pick(c != 0, q - one, _pick(w.join_cols, q + cols - one, n))
    return north, east, south, west


@njit(cache=True, inline="always")
def _wrap_position(W, p):  # pragma: no cover - compiled
    """A walk's position at plain index ``p`` on wrapped rectangle ``W``: ``(p, row, col)``."""
    w = W[0]
    q = np.uint64(p)
    r = q * w.magic >> w.shift
    return np.int64(p), np.int64(r), np.int64(q - r * w.cols)


@njit(cache=True, inline="always")
def _wrap_back(slot):  # pragma: no cover - compiled
    """The slot back on a wrapped rectangle: N <-> S, E <-> W."""
    return (np.int64(slot) + 2) & 3


@njit(cache=True, inline="always")
def _wrap_pick(h, slot):  # pragma: no cover - compiled
    """Neighbour ``slot`` of :func:`_wrap_hood`'s four, without a branch."""
    s = np.uint64(slot)
    nb = _pick(s == 1, h[1], h[0])
    nb = _pick(s == 2, h[2], nb)
    return _pick(s == 3, h[3], nb)


# -- weave tunnels ---------------------------------------------------------------------------
# A weave grid's tunnel slots (4-7) lead two cells over, and a generator may dig one only
# under a straight corridor across it (:func:`~mazekit.grids.kernel.tunnel_ok`): a fact of
# the maze being carved, not of the topology. The fast kernels filter the slots they found
# free through :func:`open_tunnels` (or ask :func:`tunnel_open` of one slot): nothing on
# one-byte offsets and ring tables, whose grids have no tunnels; on two-byte offsets (weave's
# padded layout) and eight-slot neighbour tables a test of the grid kind, then of the cell
# between, on grids that have them.


def open_tunnels(T, geo, passages, p, free):  # pragma: no cover - replaced in compiled code
    """``free`` (a bit a slot) less the tunnel slots of fast index ``p`` that no straight
    corridor crosses; ``passages`` holds the passages in its low byte (the fast layout, or
    the plain passages where a kernel keeps them)."""
    raise NotImplementedError("open_tunnels() runs inside numba kernels only")


@overload(open_tunnels, jit_options={"_nrt": False})  # type: ignore[typeddict-unknown-key]
def _open_tunnels(T, geo, passages, p, free):  # type: ignore[no-untyped-def]
    if _wide(T):  # a weave grid's padded layout: a tunnel's middle is halfway between its ends

        def wide(T, geo, passages, p, free):  # type: ignore[no-untyped-def]
            if not tunnels(geo[0]):
                return free
            # the four cells a tunnel would pass under, one slot away, each a corridor across
            # its tunnel (E and W open over N-S, N and S over E-W): no branch on random bits
            u = np.uint64(p)
            ok = ((passages[u + np.uint64(T[0, 0])] & 0xFF) == 10) << 4
            ok |= ((passages[u + np.uint64(T[0, 1])] & 0xFF) == 5) << 5
            ok |= ((passages[u + np.uint64(T[0, 2])] & 0xFF) == 10) << 6
            ok |= ((passages[u + np.uint64(T[0, 3])] & 0xFF) == 5) << 7
            return free & (ok | 15)

        return wide
    if getattr(T, "dtype", None) != types.uint32:  # only eight slots can hold tunnels
        return lambda T, geo, passages, p, free: free

    def table(T, geo, passages, p, free):  # type: ignore[no-untyped-def]
        if free < 16 or not tunnels(geo[0]):
            return free
        q = np.int64(p)
        for slot in range(4, 8):
            if free >> slot & 1 and not tunnel_ok(geo, passages, q, slot, np.int64(T[p, slot])):
                free &= ~(1 << slot)
        return free

    return table


def tunnel_open(T, geo, passages, p, slot):  # pragma: no cover - replaced in compiled code
    """Whether a kernel may go from fast index ``p`` through ``slot``: :func:`open_tunnels`
    for one slot (a walker's step)."""
    raise NotImplementedError("tunnel_open() runs inside numba kernels only")


@overload(tunnel_open, jit_options={"_nrt": False})  # type: ignore[typeddict-unknown-key]
def _tunnel_open(T, geo, passages, p, slot):  # type: ignore[no-untyped-def]
    if not _eight(T):
        return lambda T, geo, passages, p, slot: True
    return lambda T, geo, passages, p, slot: tunnel_ok(
        geo, passages, np.int64(p), slot, hop(T, np.int64(p), slot)
    )


def _eight(T: object) -> bool:
    """Whether numba type ``T`` is a topology of eight slots, the only ones with room for
    tunnels: two-byte offsets or a uint32 neighbour table (:func:`hop` reads either)."""
    return _wide(T) or getattr(T, "dtype", None) == types.uint32


def crosses_under(T, geo, state, start, done):  # pragma: no cover - replaced in compiled code
    """Whether a loop-erased walk from fast index ``start`` (each cell's last exit in
    ``state``, ``done`` where the maze is) tunnels under the maze cell it ends at and then
    enters that cell from the side: carved, it would open a side of a cell a tunnel runs
    under (Wilson's walk on a weave grid is then made again). False but on a weave grid."""
    raise NotImplementedError("crosses_under() runs inside numba kernels only")


@overload(crosses_under)
def _crosses_under(T, geo, state, start, done):  # type: ignore[no-untyped-def]
    if not _eight(T):
        return lambda T, geo, state, start, done: False

    def eight(T, geo, state, start, done):  # type: ignore[no-untyped-def]
        if not tunnels(geo[0]):
            return False
        before, prev, cell = np.int64(-1), np.int64(-1), np.int64(start)
        while state[cell] != done:
            before, prev, cell = prev, cell, hop(T, cell, state[cell])
        last = np.int64(state[prev])  # the step into the maze, from prev (the path has one)
        # the path came to prev from across the maze cell: a tunnel under it (two cells apart
        # in a line, so no other step could join them)
        return last < 4 and before >= 0 and before == hop(T, prev, last | 4)

    return eight
