"""Per-kind arithmetic: a cell's neighbour through a slot (:func:`step`, :func:`move`), the
slot back (:func:`back`), parity, and whether cells and tunnels exist."""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros

from .tables import (
    _BACK,
    _DC,
    _DR,
    _RECT_DC,
    _RECT_DR,
    _RULE,
    _SAME,
    _TWO_PI,
    CUBE,
    POLAR,
    RECT,
    SLOT_COUNT,
    TABLE,
    WEAVE,
)


@njit(cache=True, inline="always")
def n_slots(kind):  # pragma: no cover - compiled
    if kind == RECT:
        return 4
    if kind == CUBE:
        return 6
    if kind == POLAR:
        return 5
    if kind >= TABLE:
        return SLOT_COUNT[kind]
    return 8  # WEAVE


@njit(cache=True, inline="always")
def wall_slots(kind):  # pragma: no cover - compiled
    """The slots with a wall of their own (:attr:`Grid.wall_slots`): all but a weave grid's
    four tunnels, which come last."""
    return 4 if kind == WEAVE else n_slots(kind)


@njit(cache=True, inline="always")
def tunnels(kind):  # pragma: no cover - compiled
    """Whether slots past :func:`wall_slots` pass under a cell (:attr:`Grid.tunnel_slots`)."""
    return kind == WEAVE


@njit(cache=True, inline="always")
def ring_shift(inner, ring):  # pragma: no cover - compiled
    """``log2`` of how many times more cells polar ring ``ring`` has than the innermost one.

    A ring's cells double whenever they would become twice as wide as they are deep: ring
    ``r`` sits at radius ``inner / 2pi + r`` (in ring depths), so its cells stay roughly
    square with ``inner * 2**k`` of them, ``k = floor(log2(1 + 2 pi r / inner))``, but at
    most ``r`` so that a ring never has more than twice the cells of the one inside it.

    Every polar step asks this, so it is branch-light arithmetic: the floor of ``log2`` is the
    top bit of the integer part, and the quotient comes from the reciprocal (an ulp or two
    off) unless that lands so close to a power of two that only the exact quotient decides.
    """
    if ring <= 0:
        return 0
    x = 1.0 + _TWO_PI * ring * (1.0 / inner)
    k = 63 - leading_zeros(np.uint64(x))
    low = float(np.int64(1) << k)
    if x - low < 1e-9 * x or 2.0 * low - x < 1e-9 * x:
        k = 63 - leading_zeros(np.uint64(1.0 + _TWO_PI * ring / inner))
    return min(k, ring)


@njit(cache=True, inline="always")
def _parity(kind, r, c):  # pragma: no cover - compiled
    if kind >= TABLE:  # without branches: rule bit 0 counts the column, bit 1 the row
        rule = _RULE[kind]
        return ((c & rule) ^ (r & (rule >> 1))) & 1
    return 0


@njit(cache=True, inline="always")
def parity(geo, cell):  # pragma: no cover - compiled
    """The parity class of ``cell`` (0 or 1): which offsets it has on a table grid."""
    cols = geo[2]
    r = cell // cols
    return _parity(geo[0], r, cell - r * cols)


@njit(cache=True)  # out of line: inlined at every call site it made compiles minutes long
def _wrap_move(rows, cols, wrap, r, c, slot):  # pragma: no cover - compiled
    # A step moves one row or one column: an edge is crossed by a compare, not a modulo
    # (two divisions a move were 24 of kruskal's 26 ns a cell listing a torus's walls).
    nr = r + _DR[RECT, 0, slot]
    nc = c + _DC[RECT, 0, slot]
    if wrap & 2 and rows > 2:
        nr += rows * ((nr < 0) - (nr == rows))
    if wrap & 1 and cols > 2:
        nc += cols * ((nc < 0) - (nc == cols))
    if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
        return -1, 0
    return nr, nc


@njit(cache=True)  # out of line: inlined at every call site it made compiles minutes long
def _polar_move(rows, cols, inner, r, c, slot):  # pragma: no cover - compiled
    # Ring sizes are ``inner`` times powers of two: shifts, not divisions.
    k = ring_shift(inner, r)
    count = inner << k
    if slot == 0:  # clockwise, around the ring
        if c + 1 < count:
            return r, c + 1
        return (r, 0) if count > 2 else (-1, 0)
    if slot == 1:  # counter-clockwise
        if c > 0:
            return r, c - 1
        return (r, count - 1) if count > 2 else (-1, 0)
    if slot == 2:  # inward
        if r == 0:
            return -1, 0
        return r - 1, c >> (k - ring_shift(inner, r - 1))
    if r + 1 >= rows:
        return -1, 0
    split = ring_shift(inner, r + 1) - k  # 1 where the ring outside has twice the cells
    if slot == 3:
        return r + 1, c << split
    if split == 1:
        return r + 1, c * 2 + 1
    return -1, 0


@njit(cache=True, inline="always")
def move(geo, r, c, slot):  # pragma: no cover - compiled
    """``(row, col)`` of the neighbour of ``(r, c)`` through ``slot``; row -1 if none.

    Walks that keep their position as ``(r, c)`` call this and skip a division per step.
    """
    kind, rows, cols, param = geo
    if kind == RECT and param == 0:  # the common case first, on flat tables
        nr = r + _RECT_DR[slot]
        nc = c + _RECT_DC[slot]
        if np.uint64(nr) >= np.uint64(rows) or np.uint64(nc) >= np.uint64(cols):
            return -1, 0
        return nr, nc
    if kind == POLAR:  # plain int64 arguments: one compilation (see step)
        return _polar_move(np.int64(rows), np.int64(cols), np.int64(param), np.int64(r), np.int64(c),
                           np.int64(slot))  # fmt: skip
    if kind == RECT and param != 0:
        return _wrap_move(np.int64(rows), np.int64(cols), np.int64(param), np.int64(r), np.int64(c),
                          np.int64(slot))  # fmt: skip
    if kind == CUBE and slot >= 4:
        nr = r + param if slot == 4 else r - param
        return (nr, c) if 0 <= nr < rows else (-1, 0)
    parity = _parity(kind, r, c)
    nr = r + _DR[kind, parity, slot]
    nc = c + _DC[kind, parity, slot]
    if np.uint64(nr) >= np.uint64(rows) or np.uint64(nc) >= np.uint64(cols):
        return -1, 0  # (a negative index wraps to a huge unsigned one)
    if kind == CUBE and nr // param != r // param:
        return -1, 0  # off the edge of a level
    return nr, nc


@njit(cache=True, inline="always")
def step(geo, cell, slot):  # pragma: no cover - compiled
    """Flat index of ``cell``'s neighbour through ``slot``, or -1 (ignores the mask).

    Its arguments are made plain ``int64`` here, inlined, before the out-of-line
    :func:`_step`: numba compiles a function once per type of argument it is called with,
    and callers pass ``uint8``, ``int32`` and literal slots (eleven compilations of it and
    nine of :func:`_polar_move` in a warmup, 20 s, before)."""
    return _step((np.int64(geo[0]), np.int64(geo[1]), np.int64(geo[2]), np.int64(geo[3])),
                 np.int64(cell), np.int64(slot))  # fmt: skip


@njit(cache=True)  # out of line: inlined at every call site it made compiles minutes long
def _step(geo, cell, slot):  # pragma: no cover - compiled
    cols = geo[2]
    r = cell // cols
    nr, nc = move(geo, r, cell - r * cols, slot)
    return nr * cols + nc if nr >= 0 else -1


_HALF32 = 1 << 31  # below it an index fits 32 bits, signed or not


@njit(cache=True, nogil=True, _nrt=False)  # (no reference counting: called a cell)
def neighbours(geo, cell, out):  # pragma: no cover - compiled
    """``out[slot] = step(geo, cell, slot)`` for each of the cell's kind's slots, with one
    division a cell where :func:`step` takes one a slot (and a 3d grid's level check two
    more); -1 where there is no neighbour (the mask ignored). Returns the slot count."""
    kind, rows, cols, param = geo[0], geo[1], geo[2], geo[3]
    n = n_slots(kind)
    if kind == POLAR or (kind == RECT and param != 0):  # rings and wraps: step's arithmetic
        for slot in range(n):
            out[slot] = _step(geo, cell, slot)
        return n
    if 0 <= cell < _HALF32 and cols < _HALF32:  # a 32-bit division where the numbers fit: quicker
        r = np.int64(np.uint32(cell) // np.uint32(cols))
    else:
        r = cell // cols
    c = cell - r * cols
    q = _parity(kind, r, c)
    lo, hi, flat = 0, rows, n  # the rows a move in the plane may reach: on 3d the level's
    if kind == CUBE:
        if 0 <= r < _HALF32 and param < _HALF32:
            lo = r - np.int64(np.uint32(r) % np.uint32(param))  # type: ignore[assignment]
        else:
            lo = r - r % param
        hi = lo + param
        flat = 4
        out[4] = cell + param * cols if r + param < rows else -1
        out[5] = cell - param * cols if r >= param else -1
    for slot in range(flat):  # (a slot the cell lacks is far off the grid in the tables)
        nr = r + _DR[kind, q, slot]
        nc = c + _DC[kind, q, slot]
        out[slot] = nr * cols + nc if lo <= nr < hi and 0 <= nc < cols else -1
    return n


@njit(cache=True, inline="always")
def tunnel_ok(geo, passages, cell, slot, nb):  # pragma: no cover - compiled
    """Whether a generator carving ``passages`` may go from ``cell`` through ``slot`` to its
    neighbour ``nb``: always, but on a weave grid a tunnel (slots 4-7) only under a straight
    corridor across it, the cell between open on exactly its two other sides (N and S under
    an E-W tunnel). Generators that only ever join a new cell to the maze keep that corridor
    as it is: both its sides are in the maze once the tunnel is carved. The passages are the
    low byte of ``passages`` (a fast kernel's two-byte layout keeps its state above them)."""
    if not tunnels(geo[0]) or slot < 4:
        return True
    return (passages[(cell + nb) >> 1] & 0xFF) == (10 if (slot & 1) == 0 else 5)


@njit(cache=True, inline="always")
def through(geo, cell, slot):  # pragma: no cover - compiled
    """The neighbour across an *open* passage: no bounds check on a plain rectangle."""
    if geo[0] == RECT and geo[3] == 0:
        cols = geo[2]
        if slot == 0:
            return cell - cols
        if slot == 1:
            return cell + 1
        if slot == 2:
            return cell + cols
        return cell - 1
    return step(geo, cell, slot)


@njit(cache=True, inline="always")
def back(geo, cell, slot):  # pragma: no cover - compiled
    """The slot of ``cell``'s neighbour through ``slot`` that leads back to ``cell``."""
    kind = geo[0]
    if kind == RECT:
        return (slot + 2) & 3
    if kind == CUBE:
        return slot ^ 1 if slot >= 4 else (slot + 2) & 3
    if kind == WEAVE:
        return ((slot + 2) & 3) | (slot & 4)
    if kind >= TABLE:
        return _BACK[kind, 0 if _SAME[kind] & 1 else parity(geo, cell), slot]
    # POLAR
    if slot < 2:
        return slot ^ 1
    if slot > 2:
        return 2
    cols, inner = geo[2], geo[3]
    r = cell // cols
    c = cell - r * cols
    split = ring_shift(inner, r) - ring_shift(inner, r - 1)
    return 3 + (c & 1) if split == 1 else 3


@njit(cache=True, inline="always")
def exists(mask, cell):  # pragma: no cover - compiled
    """Whether ``cell`` (a valid index) is a cell, given the flat mask (empty: all are)."""
    return mask.shape[0] == 0 or mask[cell] != 0


@njit(cache=True, inline="always")
def block_exists(geo, mask, mid):  # pragma: no cover - compiled
    """Whether ``mid`` and the eight cells around it all exist: what a weave crossing needs
    on a mask so that every side its tunnel closes has a way round, past a corner."""
    rows, cols = geo[1], geo[2]
    r = mid // cols
    c = mid - r * cols
    if r < 1 or r > rows - 2 or c < 1 or c > cols - 2:
        return False
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            if not exists(mask, mid + dr * cols + dc):
                return False
    return True


@njit(cache=True, inline="always")
def bridged(geo, mask, cell, slot, nb):  # pragma: no cover - compiled
    """Whether the way from ``cell`` through ``slot`` to its neighbour ``nb`` has every cell
    it needs besides the two: on a weave grid a tunnel needs the cell it passes under (a
    masked-out one has none); everywhere else, always."""
    return geo[0] != WEAVE or slot < 4 or exists(mask, (cell + nb) >> 1)


@njit(cache=True, nogil=True)
def polar_doubles(geo, r):  # pragma: no cover - compiled
    """Whether the polar ring outside ring ``r`` has twice its cells (so out2 exists)."""
    inner = geo[3]
    return r + 1 < geo[1] and ring_shift(inner, r + 1) > ring_shift(inner, r)
