"""Padded layouts: a grid of pure offsets copied into a bordered byte array, so that a
neighbour is one addition (:func:`pad`, :func:`pad_offsets`, :func:`unpad`)."""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.cpython.unsafe.numbers import leading_zeros

from .cells import n_slots
from .tables import _DC, _DR, _NOWHERE, _PADDED, _RULE, CUBE, MAX_SLOTS, RECT, TABLE, WEAVE

# -- padded layouts ---------------------------------------------------------------------
# The grids whose neighbours are pure offsets (a plain rectangle, 3d, weave, and the table
# grids whose parity the last bit of an index can tell and whose cells have every slot or
# eight of them: hex, triangle, upsilon; see tables.table_rows) can be
# copied into a byte array with one blocked cell of border all round: row r, col c sits at
# ``p = pad_row(r) * W + c + 1``, and the neighbour through a slot is ``p + offset``, with no
# bounds check, no division and no mask test (masked cells are blocked like the border).
# The width ``W`` is chosen so that ``p & 1`` tells a cell's parity: even for the column's
# (hex), odd for the checkerboard's (triangle: whether it points down; upsilon: whether it
# is a square). Hot walks and searches run there 1.5-2x faster.
# A grid of seven or eight slots (upsilon) takes two bytes a cell there, the passages in the
# low byte and the kernels' state bits in the high one (:func:`~.topology.high`); a slot a
# cell lacks (a square's diagonals) has offset 0, the cell itself, and the kernels' reads
# of neighbours mask it off by the parity's slots (row 3 of :func:`~.topology.offset_topology`).
# A weave grid's tunnels lead two cells over: its layout has two blocked rows above and
# below the cells, so that a tunnel off the top or bottom lands on them; one blocked
# column each side is enough across (a tunnel off the east edge lands on the next row's
# west border, off the west edge on the row before's east border). Two bytes a cell, as
# for eight slots; a tunnel's middle cell is halfway between its ends' padded indices.
# A 3d grid's levels (bands of ``R`` rows in the plain layout) are laid out one above the
# other with a blocked row between them and a blocked band of ``R + 1`` rows below the
# first and above the last: a level is then ``(R + 1) * W`` away, up or down, and a stair
# off the top or bottom level lands in a blocked band, as a step off a level's edge lands
# on a blocked row.


@njit(cache=True)
def paddable(geo):  # pragma: no cover - compiled
    """Whether the grid has a padded layout (plain rect, 3d, weave, table grids that allow
    it: hex, triangle, upsilon)."""
    kind = geo[0]
    return (kind == RECT and geo[3] == 0) or kind in (CUBE, WEAVE) or (kind >= TABLE and _PADDED[kind])


@njit(cache=True)
def pad_width(geo):  # pragma: no cover - compiled
    """The padded row length: ``cols + 2``, made even where cells take their column's
    parity (hex) and odd where they take the checkerboard's (triangle)."""
    w = geo[2] + 2
    rule = _RULE[geo[0]]  # 0 on the kinds no table describes
    if (rule == 1 and w & 1) or (rule == 3 and w & 1 == 0):
        w += 1
    return w


@njit(cache=True)
def pad_top(geo):  # pragma: no cover - compiled
    """Blocked rows above the first row of cells (and below the last) on a 2-D grid: two
    on a weave grid (a tunnel's reach), else one."""
    return 2 if geo[0] == WEAVE else 1


@njit(cache=True)
def pad_row(geo, r):  # pragma: no cover - compiled
    """The padded row of layout row ``r``: ``r + 1`` (``r + 2`` on a weave grid); on a 3d grid
    (``geo[3]`` rows a level) ``(level + 1) * (R + 1) + row in the level + 1``."""
    if geo[0] == CUBE:
        return r + r // geo[3] + geo[3] + 2
    return r + pad_top(geo)


@njit(cache=True)
def pad_rows(geo):  # pragma: no cover - compiled
    """How many rows the padded layout has (``pad_rows(geo) * pad_width(geo)`` bytes)."""
    if geo[0] == CUBE:
        return (geo[1] // geo[3] + 2) * (geo[3] + 1)
    return geo[1] + 2 * pad_top(geo)


#: Fast indices below this divide by :func:`magic` exactly (see there).
MAGIC_LIMIT = 1 << 31


@njit(cache=True)
def magic(d):  # pragma: no cover - compiled
    """``(m, s)``, two ``uint64``, such that ``x * m >> s == x // d`` for every ``x`` below
    :data:`MAGIC_LIMIT` and ``d`` from 1 to ``2**31``: a division by a number known only at
    run time as a multiply and a shift (the round-up method of T. Granlund and P. Montgomery,
    "Division by invariant integers using multiplication", 1994), 1 cycle against 20-40.
    ``m`` is below ``2**33``, so the product fits in 64 bits."""
    bits = 64 - leading_zeros(np.uint64(d - 1)) if d > 1 else 0  # ceil(log2(d))
    s = np.uint64(32 + bits)
    return ((np.uint64(1) << s) + np.uint64(d - 1)) // np.uint64(d), s


@njit(cache=True)
def pad_index(geo, cell):  # pragma: no cover - compiled
    """The padded index of ``cell``."""
    r = cell // geo[2]
    return pad_row(geo, r) * pad_width(geo) + cell - r * geo[2] + 1


@njit(cache=True)
def unpad_index(geo, p):  # pragma: no cover - compiled
    """The cell at padded index ``p`` (divisions: keep it off hot paths)."""
    w = pad_width(geo)
    pr = p // w
    c = p - pr * w - 1
    if geo[0] == CUBE:
        band = geo[3] + 1
        r = ((pr - 1) // band - 1) * geo[3] + (pr - 1) % band
    else:
        r = pr - pad_top(geo)
    return r * geo[2] + c


@njit(cache=True, nogil=True)
def pad_offsets(geo, width):  # pragma: no cover - compiled
    """``(2, MAX_SLOTS)`` index offsets of each slot, by ``p & 1`` of the padded index.

    With ``width = pad_width(geo)`` they move a padded index; with ``width = cols`` they move
    the flat cell index alongside (the same step, in the unpadded layout; a 3d grid's levels
    are then ``R`` rows apart, not ``R + 1``). A slot the cell lacks has offset 0.
    """
    kind = geo[0]
    rule = _RULE[kind]
    out = np.zeros((2, MAX_SLOTS), dtype=np.int64)
    for q in range(2):
        parity = 0
        if rule == 1:
            parity = q ^ 1  # W is even: p & 1 is (col + 1) & 1
        elif rule == 3:
            parity = q  # W is odd: p & 1 is (row + col) & 1
        for slot in range(n_slots(kind)):
            if kind == CUBE and slot >= 4:
                level = (geo[3] + (width != geo[2])) * width
                out[q, slot] = level if slot == 4 else -level
            elif _DR[kind, parity, slot] != _NOWHERE:  # (0, the cell itself, where it lacks the slot)
                out[q, slot] = _DR[kind, parity, slot] * width + _DC[kind, parity, slot]
    return out


def slot_count(n: int) -> tuple[int, ...]:
    """``n`` slots as an argument whose *type* holds the number: a tuple of ``n`` zeros.

    A kernel that reads ``len()`` of it gets a compile-time constant (numba compiles one
    specialisation per slot count) and so no branches on the count in its hot loop; a plain
    int is a runtime value, and ``numba.literally`` would re-type every call from Python
    (about a second each).
    """
    return (0,) * n


_U1, _U2, _U3, _U4, _U5 = (np.uint64(k) for k in range(1, 6))  # unsigned slot offsets


@njit(cache=True, nogil=True, _nrt=False)
def below(padded, p, off, n_slot, limit):  # pragma: no cover - compiled
    """Bit ``slot`` set for each slot of padded cell ``p`` whose neighbour's byte is below
    ``limit`` (e.g. not yet visited), on offsets ``off`` (:func:`~.topology.offset_topology`:
    past six slots only the slots of the cell's parity, row 3). Branch-free; no reference
    counting (a helper that takes arrays costs ~10 ns a call otherwise)."""
    u = np.uint64(p)  # unsigned indices: numba then skips its negative-index fix-up
    q = (u & np.uint64(1)) * np.uint64(n_slot != 4)  # a rectangle's: both the same (_matching)
    m = (padded[u + np.uint64(off[q, 0])] < limit) | (padded[u + np.uint64(off[q, 1])] < limit) << 1
    m |= (padded[u + np.uint64(off[q, 2])] < limit) << 2
    if n_slot > 3:
        m |= (padded[u + np.uint64(off[q, 3])] < limit) << 3
        if n_slot > 4:
            m |= (padded[u + np.uint64(off[q, 4])] < limit) << 4
            m |= (padded[u + np.uint64(off[q, 5])] < limit) << 5
            if n_slot > 6:
                m |= (padded[u + np.uint64(off[q, 6])] < limit) << 6
                m |= (padded[u + np.uint64(off[q, 7])] < limit) << 7
                m &= np.int64(off[3, q])
    return m


def _bit_tables() -> tuple[np.ndarray, np.ndarray]:
    count = np.array([bin(m).count("1") for m in range(256)], dtype=np.int64)
    nth = np.zeros((256, MAX_SLOTS), dtype=np.int64)
    for m in range(256):
        bits = [b for b in range(MAX_SLOTS) if m >> b & 1]
        nth[m, : len(bits)] = bits
    return count, nth


#: ``BIT_COUNT[m]`` set bits of an 8-bit mask (a slot a bit); ``NTH_BIT[m, i]`` its ``i``-th set bit, lowest
#: first: the ``i``-th free slot in slot order, as a list of free slots would give it.
BIT_COUNT, NTH_BIT = _bit_tables()


@njit(cache=True, nogil=True)
def pad(geo, mask, inside, outside, dtype):  # pragma: no cover - compiled
    """A padded layout of ``dtype`` (``np.uint8``, or ``np.uint16`` for eight slots):
    ``inside`` at every cell, ``outside`` on the border and at masked cells."""
    rows, cols = geo[1], geo[2]
    w = pad_width(geo)
    out = np.full(pad_rows(geo) * w, outside, dtype=dtype)
    masked = mask.shape[0] != 0
    for r in range(rows):
        base = pad_row(geo, r) * w + 1
        if not masked:
            out[base : base + cols] = inside
            continue
        for c in range(cols):
            if mask[r * cols + c] != 0:
                out[base + c] = inside
    return out


@njit(cache=True, nogil=True)
def pad_values(geo, values, outside):  # pragma: no cover - compiled
    """A padded copy of the flat per-cell ``uint8`` array ``values``, ``outside`` on the border."""
    rows, cols = geo[1], geo[2]
    w = pad_width(geo)
    out = np.full(pad_rows(geo) * w, outside, dtype=np.uint8)
    for r in range(rows):
        base = pad_row(geo, r) * w + 1
        out[base : base + cols] = values[r * cols : (r + 1) * cols]
    return out


@njit(cache=True, nogil=True)
def unpad(geo, padded, bits, out):  # pragma: no cover - compiled
    """``out[cell] = padded[p] & bits`` for every cell (the passage bits back in place)."""
    rows, cols = geo[1], geo[2]
    w = pad_width(geo)
    for r in range(rows):
        base = pad_row(geo, r) * w + 1
        for c in range(cols):
            out[r * cols + c] = padded[base + c] & bits


def padded_size(geo: tuple[int, int, int, int]) -> int:
    """Bytes of the padded layout of ``geo``, from Python (no compilation)."""
    return int(pad_rows.py_func(geo) * pad_width.py_func(geo))
