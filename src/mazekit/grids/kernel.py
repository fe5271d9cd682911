"""The compiled side of every grid: who neighbours whom, as scalar arithmetic.

Kernels receive a grid as ``geo = (kind, rows, cols, param)``, a tuple of four integers
(no array, so numba adds no reference counting in hot loops), plus a flat ``uint8`` mask
that is empty when every cell exists. Cells are numbered ``row * cols + col`` on every grid;
each grid lays its cells out in a ``(rows, cols)`` array (polar rings are rows, 3D levels are
stacked bands of rows).

- :func:`step` gives the neighbour through a slot (-1 off the grid), :func:`through` the
  same across a passage that is known to be open, and :func:`back` the neighbour's slot that
  leads back. :func:`n_slots` is how many slots a grid kind has.
- The built-in kinds (codes below :data:`TABLE`) are branches here, tuned for speed. A grid
  whose every neighbour is a fixed ``(row, col)`` offset (chosen by a parity of the cell)
  needs no code here: its module declares the offsets and :func:`declare` fills a row of
  the tables below, from which :func:`move`, :func:`back`, :func:`turn`, :func:`is_slot`,
  :func:`n_slots` and :func:`estimate` answer for its code.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit, types
from numba.cpython.unsafe.numbers import leading_zeros
from numba.extending import overload

from .._compile import fresh_cache

fresh_cache()  # before any kernel loads from numba's cache: kernels inline the helpers below

RECT, HEX, TRIANGLE, POLAR, UPSILON, CUBE, WEAVE = 0, 1, 2, 3, 4, 5, 6

#: Slots per built-in grid kind, indexed by the kind code.
SLOTS_OF = (4, 6, 3, 5, 8, 6, 8)

#: The most slots any grid has: one bit each in a ``uint8`` cell.
MAX_SLOTS = 8

#: The first code of a table grid (see :func:`declare`), and room for that many kinds.
TABLE, MAX_KINDS = 7, 16

#: Which cells share a set of offsets on a table grid, by rule code: all; by the column's
#: parity; by the row's; by the checkerboard's (``row + col``).
PARITY_RULES = ("none", "col", "row", "checker")

_TWO_PI = 6.283185307179586

#: The row offset of a slot a cell does not have: it always lands off the grid.
_NOWHERE = 1 << 40


@njit(cache=True, inline="always")
def n_slots(kind):  # pragma: no cover - compiled
    if kind == RECT:
        return 4
    if kind == HEX or kind == CUBE:
        return 6
    if kind == TRIANGLE:
        return 3
    if kind == POLAR:
        return 5
    if kind >= TABLE:
        return SLOT_COUNT[kind]
    return 8


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


def _offset_tables() -> tuple[np.ndarray, np.ndarray]:
    """Row and column offsets ``[kind, parity, slot]`` of the grids that are pure offsets.

    Parity is the column's (hex) or the checkerboard's (triangle, upsilon); a slot a cell does
    not have gets an offset that always lands off the grid. Tables, not branches: a walk
    that picks slots at random would mispredict a branch on every step.
    """
    dr = np.full((MAX_KINDS, 2, MAX_SLOTS), _NOWHERE, dtype=np.int64)
    dc = np.zeros((MAX_KINDS, 2, MAX_SLOTS), dtype=np.int64)
    for kind in (RECT, CUBE, WEAVE):
        dr[kind, :, :4] = (-1, 0, 1, 0)
        dc[kind, :, :4] = (0, 1, 0, -1)
    dr[WEAVE, :, 4:] = (-2, 0, 2, 0)
    dc[WEAVE, :, 4:] = (0, 2, 0, -2)
    # hex, flat-topped, odd columns half a cell lower: N NE SE S SW NW
    dr[HEX, 0, :6] = (-1, -1, 0, 1, 0, -1)
    dr[HEX, 1, :6] = (-1, 0, 1, 1, 1, 0)
    dc[HEX, :, :6] = (0, 1, 1, 0, -1, -1)
    # triangle: W E base; parity 0 points up (base below), 1 points down (base above)
    dr[TRIANGLE, 0, :3] = (0, 0, 1)
    dr[TRIANGLE, 1, :3] = (0, 0, -1)
    dc[TRIANGLE, :, :3] = (-1, 1, 0)
    # upsilon: N NE E SE S SW W NW on octagons (parity 0); squares only N E S W
    dr[UPSILON, 0] = (-1, -1, 0, 1, 1, 1, 0, -1)
    dc[UPSILON, 0] = (0, 1, 1, 1, 0, -1, -1, -1)
    dr[UPSILON, 1, ::2] = (-1, 0, 1, 0)
    dc[UPSILON, 1, ::2] = (0, 1, 0, -1)
    return dr, dc


_DR, _DC = _offset_tables()
_RECT_DR = _DR[RECT, 0, :4].copy()
_RECT_DC = _DC[RECT, 0, :4].copy()

# The rest of a table grid's row, filled by declare(): its parity rule, slot count, the slot
# back from each neighbour, the next slot either way round (index 0 counter-clockwise, 1
# clockwise), which slots a cell has, the longest step (for estimate) and each slot's
# compass heading in degrees (-1 if the grid does not lie flat: see declare).
_RULE = np.zeros(MAX_KINDS, dtype=np.int64)
SLOT_COUNT = np.zeros(MAX_KINDS, dtype=np.int64)
SLOT_COUNT[:TABLE] = SLOTS_OF
_BACK = np.zeros((MAX_KINDS, 2, MAX_SLOTS), dtype=np.int64)
_TURN = np.zeros((MAX_KINDS, 2, MAX_SLOTS, 2), dtype=np.int64)
_HAS = np.zeros((MAX_KINDS, 2, MAX_SLOTS), dtype=np.bool_)
_REACH = np.ones(MAX_KINDS, dtype=np.int64)
HEADING = np.full((MAX_KINDS, 2, MAX_SLOTS), -1, dtype=np.int64)
_DECLARED: dict[int, str] = {}


#: Set once a grid hands itself to a kernel (:attr:`~mazekit.grids.base.Grid.geo`): from then
#: on kernels may have frozen the tables, and :func:`declare` refuses new grids.
SEALED = [False]


def table_rows(offsets: Any, parity: str = "none", headings: Any = None) -> dict[str, Any]:
    """A table grid's rows of the kernel tables, worked out from its declaration.

    ``offsets`` lists, for each parity class (one list for ``parity="none"``, two otherwise:
    even, odd), the ``(drow, dcol)`` step through each slot, ``None`` where such cells lack
    the slot; slots are numbered clockwise round the cell (as drawn, y down). ``headings``
    (the same shape, degrees clockwise from north) makes the grid flat for the solvers that
    need the plane; :class:`~mazekit.grids.base.Grid` derives them from the drawing.
    Everything else is derived: the way back (the slot of the neighbour whose offset is the
    opposite one, an error if there is not exactly one), the turns, the slot count.

    Examples
    --------
    >>> rows = table_rows([[(-1, 0), (0, 1), (1, 0), (0, -1)]])  # a plain square grid
    >>> rows["back"][0, :4].tolist(), rows["turn"][0, 3].tolist(), rows["slots"], rows["reach"]
    ([2, 3, 0, 1], [2, 0], 4, 1)
    """
    if parity not in PARITY_RULES:
        raise ValueError(f"parity must be one of {', '.join(PARITY_RULES)}, got {parity!r}")
    rows: list[list[Any]] = [[None if step is None else tuple(step) for step in row] for row in offsets]
    if len(rows) != (1 if parity == "none" else 2):
        raise ValueError(f"parity {parity!r} needs {1 if parity == 'none' else 2} list(s) of offsets")
    n = len(rows[0])
    if not (1 <= n <= MAX_SLOTS) or any(len(row) != n for row in rows):
        counts = [len(row) for row in rows]
        raise ValueError(f"every parity must list the same 1..{MAX_SLOTS} slots, got {counts}")
    rows = rows * (3 - len(rows))
    rule = PARITY_RULES.index(parity)
    out: dict[str, Any] = {
        "dr": np.full((2, MAX_SLOTS), _NOWHERE, dtype=np.int64),
        "dc": np.zeros((2, MAX_SLOTS), dtype=np.int64),
        "back": np.zeros((2, MAX_SLOTS), dtype=np.int64),
        "turn": np.zeros((2, MAX_SLOTS, 2), dtype=np.int64),
        "has": np.zeros((2, MAX_SLOTS), dtype=np.bool_),
        "heading": np.full((2, MAX_SLOTS), -1, dtype=np.int64),
        "reach": 1,
        "rule": rule,
        "slots": n,
    }
    pairs: list[tuple[int, int, int, int]] = []  # (parity, slot) and (parity, slot) back
    for p in range(2):
        present = [s for s in range(n) if rows[p][s] is not None]
        if not present:
            raise ValueError("every cell needs at least one slot")
        for s in range(n):
            out["has"][p, s] = s in present
            later = [t for t in present if t > s] + present
            earlier = [t for t in present if t < s][::-1] + present[::-1]
            out["turn"][p, s] = earlier[0], later[0]
            if rows[p][s] is None:
                continue
            dr, dc = rows[p][s]
            out["dr"][p, s], out["dc"][p, s] = dr, dc
            flip = (0, dc, dr, dr + dc)[rule] & 1
            ways = [t for t in range(n) if rows[p ^ flip][t] == (-dr, -dc)]
            if len(ways) != 1:
                raise ValueError(
                    f"slot {s} (offset {(dr, dc)}) needs exactly one slot back with offset {(-dr, -dc)}, "
                    f"found {len(ways)}"
                )
            out["back"][p, s] = ways[0]
            pairs.append((p, s, p ^ flip, ways[0]))
            out["reach"] = max(out["reach"], abs(dr), abs(dc))
    if headings is not None:
        turns = [list(row) for row in headings]
        h = out["heading"]
        for p, row in enumerate(turns * (3 - len(turns))):
            h[p, :n] = [-1 if v is None else int(v) % 360 for v in row]
        if all(h[p, s] >= 0 and h[q, t] == (h[p, s] + 180) % 360 for p, s, q, t in pairs):
            for p in range(2):  # walkers need the slots in clockwise order: once round
                seen = [int(h[p, s]) for s in range(n) if out["has"][p, s]]
                steps = [(b - a) % 360 for a, b in zip(seen, seen[1:] + seen[:1], strict=True)]
                if len(seen) > 1 and sum(steps) != 360:
                    raise ValueError(f"slots must be numbered clockwise round a cell; headings {seen}")
        else:
            h[:] = -1  # ways back not half a turn round: it does not lie flat
    return out


def declare(code: int, offsets: Any, parity: str = "none", headings: Any = None) -> None:
    """Write table grid ``code``'s rows (:func:`table_rows`) into the kernel tables.

    The tables are constants of every compiled kernel (numba freezes global arrays), so a
    grid is declared when its module is imported, with the package, before any kernel runs:
    once a grid has been handed to a kernel (:data:`SEALED`) a new declaration is refused.
    The disk cache is dropped when a package source changes (:func:`mazekit._compile.fresh_cache`).
    """
    if not (TABLE <= code < MAX_KINDS):
        raise ValueError(f"a table grid's code must be {TABLE}..{MAX_KINDS - 1}, got {code!r}")
    rows = table_rows(offsets, parity, headings)
    key = repr(sorted((name, np.asarray(value).tolist()) for name, value in rows.items()))
    if _DECLARED.get(code, key) != key:
        raise ValueError(f"grid code {code} is declared twice, with other offsets")
    if code in _DECLARED:
        return
    if SEALED[0]:
        raise RuntimeError(
            f"grid code {code} is declared after kernels ran, which cannot see it: a table grid is "
            f"imported with the package (its line in mazekit.grids.GRIDS)"
        )
    _DR[code], _DC[code], _BACK[code], _TURN[code] = rows["dr"], rows["dc"], rows["back"], rows["turn"]
    _HAS[code], HEADING[code] = rows["has"], rows["heading"]
    _REACH[code], _RULE[code], SLOT_COUNT[code] = rows["reach"], rows["rule"], rows["slots"]
    _DECLARED[code] = key


@njit(cache=True, inline="always")
def _parity(kind, r, c):  # pragma: no cover - compiled
    if kind == HEX:
        return c & 1
    if kind == TRIANGLE or kind == UPSILON:
        return (r + c) & 1
    if kind >= TABLE:
        rule = _RULE[kind]
        if rule == 0:
            return 0
        return (c if rule == 1 else (r if rule == 2 else r + c)) & 1
    return 0


@njit(cache=True, inline="always")
def parity(geo, cell):  # pragma: no cover - compiled
    """The parity class of ``cell`` (0 or 1): which offsets it has on a table grid."""
    cols = geo[2]
    r = cell // cols
    return _parity(geo[0], r, cell - r * cols)


@njit(cache=True)  # out of line: inlined at every call site it made compiles minutes long
def _wrap_move(rows, cols, wrap, r, c, slot):  # pragma: no cover - compiled
    nr = r + _DR[RECT, 0, slot]
    nc = c + _DC[RECT, 0, slot]
    if wrap & 2 and rows > 2:
        nr = (nr + rows) % rows
    if wrap & 1 and cols > 2:
        nc = (nc + cols) % cols
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


@njit(cache=True, inline="always")
def tunnel_ok(geo, passages, cell, slot, nb):  # pragma: no cover - compiled
    """Whether a generator carving ``passages`` may go from ``cell`` through ``slot`` to its
    neighbour ``nb``: always, but on a weave grid a tunnel (slots 4-7) only under a straight
    corridor across it, the cell between open on exactly its two other sides (N and S under
    an E-W tunnel). Generators that only ever join a new cell to the maze keep that corridor
    as it is: both its sides are in the maze once the tunnel is carved."""
    if not tunnels(geo[0]) or slot < 4:
        return True
    return passages[(cell + nb) >> 1] == (10 if (slot & 1) == 0 else 5)


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
    if kind == HEX:
        return slot + 3 if slot < 3 else slot - 3
    if kind == TRIANGLE:
        return slot ^ 1 if slot < 2 else 2
    if kind == UPSILON:
        return (slot + 4) & 7
    if kind == CUBE:
        return slot ^ 1 if slot >= 4 else (slot + 2) & 3
    if kind == WEAVE:
        return ((slot + 2) & 3) | (slot & 4)
    if kind >= TABLE:
        return _BACK[kind, parity(geo, cell), slot]
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


# -- padded layouts ---------------------------------------------------------------------
# The grids whose neighbours are pure offsets (a plain rectangle, hex, triangle) can be
# copied into a byte array with one blocked cell of border all round: row r, col c sits at
# ``p = (r + 1) * W + c + 1``, and the neighbour through a slot is ``p + offset``, with no
# bounds check, no division and no mask test (masked cells are blocked like the border).
# The width ``W`` is chosen so that ``p & 1`` tells a cell's parity (hex: its column's;
# triangle: whether it points down). Hot walks and searches run there 1.5-2x faster.


@njit(cache=True, inline="always")
def paddable(geo):  # pragma: no cover - compiled
    """Whether the grid has a padded layout (plain rect, hex, triangle)."""
    return (geo[0] == RECT and geo[3] == 0) or geo[0] == HEX or geo[0] == TRIANGLE


@njit(cache=True, inline="always")
def pad_width(geo):  # pragma: no cover - compiled
    """The padded row length: ``cols + 2``, made even on hex and odd on triangle grids."""
    w = geo[2] + 2
    if (geo[0] == HEX and w & 1) or (geo[0] == TRIANGLE and w & 1 == 0):
        w += 1
    return w


@njit(cache=True, inline="always")
def pad_index(geo, cell):  # pragma: no cover - compiled
    """The padded index of ``cell``."""
    r = cell // geo[2]
    return cell + r * (pad_width(geo) - geo[2]) + pad_width(geo) + 1


@njit(cache=True, inline="always")
def unpad_index(geo, p):  # pragma: no cover - compiled
    """The cell at padded index ``p`` (one division: keep it off hot paths)."""
    w = pad_width(geo)
    r = p // w - 1
    return r * geo[2] + p - (r + 1) * w - 1


@njit(cache=True, nogil=True)
def pad_offsets(geo, width):  # pragma: no cover - compiled
    """``(2, MAX_SLOTS)`` index offsets of each slot, by ``p & 1`` of the padded index.

    With ``width = pad_width(geo)`` they move a padded index; with ``width = cols`` they move
    the flat cell index alongside (the same step, in the unpadded layout).
    """
    kind = geo[0]
    out = np.zeros((2, MAX_SLOTS), dtype=np.int64)
    for q in range(2):
        parity = 0
        if kind == HEX:
            parity = q ^ 1  # W is even: p & 1 is (col + 1) & 1
        elif kind == TRIANGLE:
            parity = q  # W is odd: p & 1 is (row + col) & 1
        for slot in range(n_slots(kind)):
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
    ``limit`` (e.g. not yet visited). Slots 0-5; branch-free; no reference counting (a
    helper that takes arrays costs ~10 ns a call otherwise)."""
    u = np.uint64(p)  # unsigned indices: numba then skips its negative-index fix-up
    q = (u & np.uint64(1)) * np.uint64(n_slot != 4)  # a rectangle's: both the same (_matching)
    m = (padded[u + np.uint64(off[q, 0])] < limit) | (padded[u + np.uint64(off[q, 1])] < limit) << 1
    m |= (padded[u + np.uint64(off[q, 2])] < limit) << 2
    if n_slot > 3:
        m |= (padded[u + np.uint64(off[q, 3])] < limit) << 3
        if n_slot > 4:
            m |= (padded[u + np.uint64(off[q, 4])] < limit) << 4
            m |= (padded[u + np.uint64(off[q, 5])] < limit) << 5
    return m


def _bit_tables() -> tuple[np.ndarray, np.ndarray]:
    count = np.array([bin(m).count("1") for m in range(64)], dtype=np.int64)
    nth = np.zeros((64, 6), dtype=np.int64)
    for m in range(64):
        bits = [b for b in range(6) if m >> b & 1]
        nth[m, : len(bits)] = bits
    return count, nth


#: ``BIT_COUNT[m]`` set bits of a 6-bit mask; ``NTH_BIT[m, i]`` its ``i``-th set bit, lowest
#: first: the ``i``-th free slot in slot order, as a list of free slots would give it.
BIT_COUNT, NTH_BIT = _bit_tables()


@njit(cache=True, nogil=True)
def pad(geo, mask, inside, outside):  # pragma: no cover - compiled
    """A padded ``uint8`` layout: ``inside`` at every cell, ``outside`` on the border and at
    masked cells."""
    rows, cols = geo[1], geo[2]
    w = pad_width(geo)
    out = np.full((rows + 2) * w, outside, dtype=np.uint8)
    masked = mask.shape[0] != 0
    for r in range(rows):
        base = (r + 1) * w + 1
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
    out = np.full((rows + 2) * w, outside, dtype=np.uint8)
    for r in range(rows):
        out[(r + 1) * w + 1 : (r + 1) * w + 1 + cols] = values[r * cols : (r + 1) * cols]
    return out


@njit(cache=True, nogil=True)
def unpad(geo, padded, bits, out):  # pragma: no cover - compiled
    """``out[cell] = padded[p] & bits`` for every cell (the passage bits back in place)."""
    rows, cols = geo[1], geo[2]
    w = pad_width(geo)
    for r in range(rows):
        base = (r + 1) * w + 1
        for c in range(cols):
            out[r * cols + c] = padded[base + c] & bits


# -- fast-path topologies: padded offsets or a ring table ------------------------------------
# The fast generator kernels take a topology ``T`` with the grid: on the grids with a padded
# layout, the ``(2, MAX_SLOTS)`` offsets of :func:`pad_offsets` (int64); on a polar grid,
# whose neighbours are no fixed offsets (rings wrap round and double), a ring table (uint64,
# :func:`polar_rings`): a few words per *ring*, from which a cell's neighbours are a handful
# of integer operations, over the plain layout plus one blocked sentinel cell at the end that
# every missing neighbour is.
# The helpers below are chosen when numba types ``T`` (by its dtype), so a kernel is compiled
# once per kind of topology and the offset grids keep their code unchanged.
# Measured on a 456-ring polar grid (2026-12-02, kernels through ``mazekit.generate``, best of
# 7, alternating): the plain kernels recompute a ring's size in floating point at every step;
# a table of every cell's neighbours (20 bytes a cell, until 2026-12-02) made them 1.8-4.6x
# faster, but missed the cache; the ring table stays in it: backtracker 61 -> 50 ns a cell,
# prim 132 -> 92, growing_tree 67 -> 56, kruskal 213 -> 155. The walkers, whose steps
# depend on each other, were 10-20% quicker with the neighbour table's single load (wilson
# 155 against 190, aldous_broder 1351 against 1486): not worth a second layout.


def _rings(T: object) -> bool:
    """Whether numba type ``T`` is a ring table (uint64) rather than padded offsets (int64, 2-D
    as kernels take them, 1-D as :func:`flat` gives them to :func:`near`)."""
    return getattr(T, "dtype", None) == types.uint64


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

#: Ring tables find a cell's ring by a multiply and a shift, exact below ``2**30``: polar
#: layouts of this many cells or more have none (the plain kernels run).
RING_CELLS = 1 << 30


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
    # floor(p / cols) == p * magic >> (30 + l) for every p < 2**30 (the round-up method of
    # Granlund and Montgomery with an exact 31-bit multiplier): one multiply, not a division.
    low = max(cols - 1, 1).bit_length()
    magic = (1 << (30 + low)) // cols + 1
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
    return np.array([magic, 30 + low, cols, rows * cols, rows, *words, *moves], dtype=np.uint64)


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
    ``(p, 0, 0)`` on offsets."""
    raise NotImplementedError("walk_start() runs inside numba kernels only")


@overload(walk_start, inline="always")
def _walk_start(T, p):  # type: ignore[no-untyped-def]
    if _rings(T):
        return lambda T, p: _walk_position(T, p)
    return lambda T, p: (np.int64(p), np.int64(0), np.int64(0))


def walk_try(T, off1, at, v):  # pragma: no cover - replaced in compiled code
    """``(slot, position)``: where random bits ``v`` take a walk at position ``at``
    (:func:`walk_start`); a slot of ``n_slots`` or more means it stays put (``MISS`` on a ring
    table, where the position is then meaningless). ``off1`` as for :func:`near`."""
    raise NotImplementedError("walk_try() runs inside numba kernels only")


@overload(walk_try, inline="always")
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

    def offsets(T, off1, at, v):  # type: ignore[no-untyped-def]
        p = at[0]
        return v, (p + off1[(p & 1) << 3 | v], at[1], at[2])

    return offsets


def walk_back(T, geo, at, slot):  # pragma: no cover - replaced in compiled code
    """The slot that leads back from the neighbour of walk position ``at`` through ``slot``
    (:func:`hop_back` without finding the ring again)."""
    raise NotImplementedError("walk_back() runs inside numba kernels only")


@overload(walk_back, inline="always")
def _walk_back(T, geo, at, slot):  # type: ignore[no-untyped-def]
    if _rings(T):

        def impl(T, geo, at, slot):  # type: ignore[no-untyped-def]
            halves = np.int64(T[np.uint64(at[1] + 2)]) >> 5 & 1  # the ring's inward walk word
            # cw <-> ccw, out and out2 lead in, in leads to out or out2: without branches
            # (numba's SSA check trips on them when two of these are inlined in one kernel)
            sideways = np.int64(slot < 2)
            return sideways * (1 - slot) + (1 - sideways) * 2 + np.int64(slot == 2) * (1 + (at[2] & halves))

        return impl
    return lambda T, geo, at, slot: back(geo, 0, slot)


def flat(T):  # pragma: no cover - replaced in compiled code
    """The topology as :func:`near` and :func:`matching` take it: offsets flattened, or the
    ring table itself."""
    raise NotImplementedError("flat() runs inside numba kernels only")


@overload(flat, inline="always")
def _flat(T):  # type: ignore[no-untyped-def]
    if _rings(T):
        return lambda T: T
    return lambda T: T.ravel()


def hop(T, p, slot):  # pragma: no cover - replaced in compiled code
    """The fast-path index next to ``p`` through ``slot``."""
    raise NotImplementedError("hop() runs inside numba kernels only")


@overload(hop, inline="always")
def _hop(T, p, slot):  # type: ignore[no-untyped-def]
    if _rings(T):

        def impl(T, p, slot):  # type: ignore[no-untyped-def]
            cw, ccw, inward, out, out2 = _ring_all(T, p)
            nb = cw + np.int64(slot == 1) * (ccw - cw)  # no branches: the slot is a random pick
            nb += np.int64(slot == 2) * (inward - nb)
            nb += np.int64(slot == 3) * (out - nb)
            return nb + np.int64(slot == 4) * (out2 - nb)

        return impl
    return lambda T, p, slot: p + T[p & 1, slot]


def hop_back(T, geo, p, slot):  # pragma: no cover - replaced in compiled code
    """The slot of ``p``'s neighbour through ``slot`` that leads back to ``p``."""
    raise NotImplementedError("hop_back() runs inside numba kernels only")


@overload(hop_back, inline="always")
def _hop_back(T, geo, p, slot):  # type: ignore[no-untyped-def]
    if isinstance(p, types.BaseTuple):  # around() on a ring table: cw <-> ccw, out(2) <-> in

        def hood(T, geo, p, slot):  # type: ignore[no-untyped-def]
            sideways = np.int64(slot < 2)
            return sideways * (1 - slot) + (1 - sideways) * 2 + np.int64(slot == 2) * (np.int64(p[5]) - 2)

        return hood
    if _rings(T):
        return lambda T, geo, p, slot: walk_back(T, geo, _walk_position(T, p), slot)
    return lambda T, geo, p, slot: back(geo, 0, slot)


def cell_step(T, geo, cell, slot):  # pragma: no cover - replaced in compiled code
    """:func:`step` for kernels that keep the plain layout: on a ring table (whose indices are
    the cells') by its arithmetic, ``-1`` for its sentinel; with any other ``T``, ``step``."""
    raise NotImplementedError("cell_step() runs inside numba kernels only")


@overload(cell_step, inline="always")
def _cell_step(T, geo, cell, slot):  # type: ignore[no-untyped-def]
    if _rings(T):

        def impl(T, geo, cell, slot):  # type: ignore[no-untyped-def]
            nb = hop(T, cell, slot)
            return nb - np.int64(nb == np.int64(T[_SENT])) * (nb + 1)

        return impl
    return lambda T, geo, cell, slot: step(geo, cell, slot)


def cell_back(T, geo, cell, slot):  # pragma: no cover - replaced in compiled code
    """:func:`back` by the topology, as :func:`cell_step` (inline it once per kernel: two
    inlined copies of a ring table's make numba's SSA check warn)."""
    raise NotImplementedError("cell_back() runs inside numba kernels only")


@overload(cell_back, inline="always")
def _cell_back(T, geo, cell, slot):  # type: ignore[no-untyped-def]
    if _rings(T):
        return lambda T, geo, cell, slot: hop_back(T, geo, cell, slot)
    return lambda T, geo, cell, slot: back(geo, cell, slot)


#: A stand-in topology (offsets, all zero) for kernels that take one where the grid has none
#: to give or the fast path does not run: :func:`cell_step` and :func:`cell_back` then call
#: the plain :func:`step` and :func:`back`, and the dataset drivers their plain kernels.
NO_TOPOLOGY = np.zeros((2, MAX_SLOTS), dtype=np.int64)


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


@overload(around, inline="always")
def _around(off1, u):  # type: ignore[no-untyped-def]
    if _rings(off1):

        def impl(off1, u):  # type: ignore[no-untyped-def]
            n0, n1, n2, n3, n4, b = _ring_hood(off1, u)  # b: the slot back from inward
            return np.uint64(n0), np.uint64(n1), np.uint64(n2), np.uint64(n3), np.uint64(n4), np.uint64(b)

        return impl
    return lambda off1, u: u


def near(u, off1, slot):  # pragma: no cover - replaced in compiled code
    """The padded index next to padded index ``u`` (a ``uint64``) through ``slot``.

    ``off1`` is :func:`pad_offsets` flattened (``off.ravel()``: slot ``s`` of parity ``q`` at
    ``q * 8 + s``), or a ring table. Unsigned indices all the way: numba then adds no
    negative-index fix-up to the loads, which hot loops feel (with the slot count compiled
    in, prim's kernel went from 50-56 to 45-53 ns a cell).
    """
    raise NotImplementedError("near() runs inside numba kernels only")


@overload(near, inline="always")
def _near(u, off1, slot):  # type: ignore[no-untyped-def]
    if isinstance(u, types.BaseTuple):  # around() on a ring table

        def hood(u, off1, slot):  # type: ignore[no-untyped-def]
            nb = u[0] + np.uint64(slot == 1) * (u[1] - u[0])  # no branches: a random pick
            nb += np.uint64(slot == 2) * (u[2] - nb)
            nb += np.uint64(slot == 3) * (u[3] - nb)
            return nb + np.uint64(slot == 4) * (u[4] - nb)

        return hood
    if _rings(off1):
        return lambda u, off1, slot: np.uint64(hop(off1, u, slot))
    return lambda u, off1, slot: u + np.uint64(off1[(u & np.uint64(1)) << np.uint64(3) | np.uint64(slot)])


def matching(padded, u, off1, n_slot, field, value):  # pragma: no cover - replaced in compiled code
    """Bit ``slot`` set for each slot of padded cell ``u`` (a ``uint64``) whose neighbour's
    byte ``& field`` equals ``value`` (one state of several kept in the high bits); ``off1``
    as for :func:`near`. Inlined: let ``n_slot`` be a compile-time constant
    (:func:`slot_count`), or the branches on it cost more than the loads."""
    raise NotImplementedError("matching() runs inside numba kernels only")


@overload(matching, inline="always")
def _matching(padded, u, off1, n_slot, field, value):  # type: ignore[no-untyped-def]
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


@njit(cache=True, inline="always")
def ring_neighbours(T, p):  # pragma: no cover - compiled
    """The five neighbours of plain index ``p`` on ring table ``T``, by slot, as a tuple (the
    sentinel ``T[_SENT]`` where there is none)."""
    return _ring_all(T, p)


def free_slots(padded, p, T, n_slot, limit):  # pragma: no cover - replaced in compiled code
    """:func:`below` on either topology: bit ``slot`` set where the neighbour's byte is below
    ``limit``."""
    raise NotImplementedError("free_slots() runs inside numba kernels only")


@overload(free_slots, inline="always")
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
    return lambda padded, p, T, n_slot, limit: below(padded, p, T, n_slot, limit)


def row_start(T, geo, r):  # pragma: no cover - replaced in compiled code
    """The fast-path index of row ``r``'s first cell (the next ones follow it)."""
    raise NotImplementedError("row_start() runs inside numba kernels only")


@overload(row_start, inline="always")
def _row_start(T, geo, r):  # type: ignore[no-untyped-def]
    if _rings(T):
        return lambda T, geo, r: r * geo[2]
    return lambda T, geo, r: (r + 1) * pad_width(geo) + 1


def along(T, cell_off, cell, p, slot, nb):  # pragma: no cover - replaced in compiled code
    """The cell at fast-path index ``nb``, one step through ``slot`` from ``p`` (at ``cell``): on
    offsets, moved by ``cell_off`` (:func:`pad_offsets` with the plain row length), no division."""
    raise NotImplementedError("along() runs inside numba kernels only")


@overload(along, inline="always")
def _along(T, cell_off, cell, p, slot, nb):  # type: ignore[no-untyped-def]
    if _rings(T):
        return lambda T, cell_off, cell, p, slot, nb: nb
    return lambda T, cell_off, cell, p, slot, nb: cell + cell_off[p & 1, slot]


def lay_out(T, geo, mask, inside, outside):  # pragma: no cover - replaced in compiled code
    """The fast path's byte per cell: :func:`pad` on offsets; on a ring table, the plain layout
    plus the blocked sentinel (``inside`` at every cell, ``outside`` elsewhere)."""
    raise NotImplementedError("lay_out() runs inside numba kernels only")


@overload(lay_out, inline="always")
def _lay_out(T, geo, mask, inside, outside):  # type: ignore[no-untyped-def]
    if _rings(T):

        def impl(T, geo, mask, inside, outside):  # type: ignore[no-untyped-def]
            n = geo[1] * geo[2]
            out = np.empty(n + 1, dtype=np.uint8)
            for cell in range(n):
                out[cell] = inside if exists(mask, cell) else outside
            out[n] = outside
            return out

        return impl
    return lambda T, geo, mask, inside, outside: pad(geo, mask, inside, outside)


def to_fast(T, geo, cell):  # pragma: no cover - replaced in compiled code
    """The fast-path index of ``cell``."""
    raise NotImplementedError("to_fast() runs inside numba kernels only")


@njit(cache=True)  # out of line: inlined into an inlined overload, numba's SSA check warns
def _padded_index(geo, cell):  # pragma: no cover - compiled
    return pad_index(geo, cell)


@njit(cache=True)  # out of line, as _padded_index
def _unpadded_index(geo, p):  # pragma: no cover - compiled
    return unpad_index(geo, p)


@overload(to_fast, inline="always")
def _to_fast(T, geo, cell):  # type: ignore[no-untyped-def]
    if _rings(T):
        return lambda T, geo, cell: cell
    return lambda T, geo, cell: _padded_index(geo, cell)


def to_cell(T, geo, p):  # pragma: no cover - replaced in compiled code
    """The cell at fast-path index ``p``."""
    raise NotImplementedError("to_cell() runs inside numba kernels only")


@overload(to_cell, inline="always")
def _to_cell(T, geo, p):  # type: ignore[no-untyped-def]
    if _rings(T):
        return lambda T, geo, p: p
    return lambda T, geo, p: _unpadded_index(geo, p)


def copy_out(T, geo, fast, bits, out):  # pragma: no cover - replaced in compiled code
    """``out[cell] = fast[index of cell] & bits`` for every cell (:func:`unpad` on offsets)."""
    raise NotImplementedError("copy_out() runs inside numba kernels only")


@overload(copy_out, inline="always")
def _copy_out(T, geo, fast, bits, out):  # type: ignore[no-untyped-def]
    if _rings(T):

        def impl(T, geo, fast, bits, out):  # type: ignore[no-untyped-def]
            for cell in range(out.shape[0]):
                out[cell] = fast[cell] & bits

        return impl
    return lambda T, geo, fast, bits, out: unpad(geo, fast, bits, out)


@njit(cache=True, nogil=True)
def neighbor_table(geo, mask):  # pragma: no cover - compiled
    """``(cells, slots)`` neighbours of every cell (-1 where none): for drawing and tests."""
    rows, cols = geo[1], geo[2]
    k = n_slots(geo[0])
    out = np.full((rows * cols, k), -1, dtype=np.int64)
    for cell in range(rows * cols):
        if not exists(mask, cell):
            continue
        for slot in range(k):
            nb = step(geo, cell, slot)
            if nb >= 0 and exists(mask, nb) and bridged(geo, mask, cell, slot, nb):
                out[cell, slot] = nb
    return out


@njit(cache=True, nogil=True)
def count_components(geo, mask):  # pragma: no cover - compiled
    """Connected regions of the grid graph (the cells a maze could join into one).

    A depth-first search that keeps its stack in the cells themselves, one byte each: the
    slot back to the parent (low 4 bits, 15 at a root) and the next slot to try (high 4
    bits). So checking a mask costs no more memory than the maze it is for.
    """
    n = geo[1] * geo[2]
    k = n_slots(geo[0])
    state = np.zeros(n, dtype=np.uint8)  # 0: not reached
    components = 0
    for s in range(n):
        if state[s] or not exists(mask, s):
            continue
        components += 1
        state[s] = 15
        cell = s
        while True:
            slot = state[cell] >> 4
            if slot < k:
                state[cell] += 16
                nb = step(geo, cell, slot)
                if nb >= 0 and state[nb] == 0 and exists(mask, nb):
                    state[nb] = back(geo, cell, slot)
                    cell = nb
                continue
            up = state[cell] & 15
            if up == 15:
                break
            cell = step(geo, cell, up)
    return components


@njit(cache=True, nogil=True)
def largest_component(geo, mask):  # pragma: no cover - compiled
    """The flat ``uint8`` mask of the largest connected region of the cells (the first of
    equal ones), by breadth-first search with a queue of int64 cells."""
    n = geo[1] * geo[2]
    k = n_slots(geo[0])
    label = np.full(n, -1, dtype=np.int64)
    queue = np.empty(n, dtype=np.int64)
    best, best_size = -1, 0
    for s in range(n):
        if label[s] >= 0 or not exists(mask, s):
            continue
        label[s] = s
        queue[0] = s
        head, tail = 0, 1
        while head < tail:
            cell = queue[head]
            head += 1
            for slot in range(k):
                nb = step(geo, cell, slot)
                if nb >= 0 and label[nb] < 0 and exists(mask, nb):
                    label[nb] = s
                    queue[tail] = nb
                    tail += 1
        if tail > best_size:
            best, best_size = s, tail
    out = np.zeros(n, dtype=np.uint8)
    for cell in range(n):
        out[cell] = label[cell] == best
    return out


@njit(cache=True)  # out of line: inlined at every call site it made compiles minutes long
def estimate(geo, a, b):  # pragma: no cover - compiled
    """A lower bound on the steps from cell ``a`` to cell ``b`` (A*'s admissible heuristic)."""
    kind, rows, cols, param = geo
    ra = a // cols
    ca = a - ra * cols
    rb = b // cols
    cb = b - rb * cols
    dr = abs(ra - rb)
    dc = abs(ca - cb)
    if kind == RECT:
        if param & 1 and cols > 2:
            dc = min(dc, cols - dc)
        if param & 2 and rows > 2:
            dr = min(dr, rows - dr)
        return dr + dc
    if kind == HEX:  # offset columns to cube coordinates, then the hex distance
        za = ra - (ca - (ca & 1)) // 2
        zb = rb - (cb - (cb & 1)) // 2
        return max(dc, abs(za - zb), abs((-ca - za) - (-cb - zb)))
    if kind == TRIANGLE:
        return dr + dc
    if kind == POLAR:
        return dr
    if kind == UPSILON:
        return max(dr, dc)
    if kind == CUBE:
        la = ra // param
        lb = rb // param
        return abs(la - lb) + abs((ra - la * param) - (rb - lb * param)) + dc
    if kind >= TABLE:  # a step moves at most the longest offset either way
        reach = _REACH[kind]
        return (max(dr, dc) + reach - 1) // reach
    return (dr + dc + 1) // 2  # WEAVE: a step under a cell covers two


# -- turning: the slots around a cell, in order (wall followers, slips) -----------------------


@njit(cache=True, nogil=True)
def polar_doubles(geo, r):  # pragma: no cover - compiled
    """Whether the polar ring outside ring ``r`` has twice its cells (so out2 exists)."""
    inner = geo[3]
    return r + 1 < geo[1] and ring_shift(inner, r + 1) > ring_shift(inner, r)


@njit(cache=True, inline="always")
def turn(geo, cell, slot, d):  # pragma: no cover - compiled
    """The slot of ``cell`` next to ``slot``: clockwise for ``d = 1``, counter-clockwise for -1."""
    kind = geo[0]
    if kind == RECT:
        return (slot + d) & 3
    if kind == HEX or kind == CUBE:
        return (slot + d + 6) % 6
    cols = geo[2]
    r = cell // cols
    c = cell - r * cols
    if kind == UPSILON:
        return (slot + (2 * d if (r + c) & 1 else d)) & 7
    if kind == TRIANGLE:
        return (slot + (d if (r + c) & 1 == 0 else -d) + 3) % 3
    if kind == WEAVE:  # position 2 * side + under in the cycle N uN E uE S uS W uW
        p = (2 * (slot & 3) + (slot >> 2) + d) & 7
        return (p >> 1) | (p & 1) << 2
    if kind >= TABLE:
        return _TURN[kind, _parity(kind, r, c), slot, (d + 1) >> 1]
    # POLAR: cycle cw in ccw out (out2); positions swap slots 1 and 2
    n = 5 if polar_doubles(geo, r) else 4
    p = slot ^ 3 if slot == 1 or slot == 2 else slot
    p = (p + d + n) % n
    return p ^ 3 if p == 1 or p == 2 else p


@njit(cache=True, nogil=True)
def is_slot(geo, cell, slot):  # pragma: no cover - compiled
    """Whether ``slot`` is one of ``cell``'s sides (a wall or not): upsilon squares have no
    diagonal slots, polar cells no out2 where the ring outside does not double."""
    kind = geo[0]
    if kind == UPSILON:
        cols = geo[2]
        r = cell // cols
        return not (slot & 1 and (r + cell - r * cols) & 1)
    if kind == POLAR and slot == 4:
        return polar_doubles(geo, cell // geo[2])
    if kind >= TABLE:
        return _HAS[kind, parity(geo, cell), slot]
    return True


@njit(cache=True, nogil=True)
def sideways(geo, bits, cell, action, d):  # pragma: no cover - compiled
    """Where a move meant through ``action`` slips: clockwise for ``d = 1``, else the other
    side (``bits``: the cell's open slots, which pick a weave slip's level)."""
    kind = geo[0]
    if kind == CUBE:
        return (action + d) & 3 if action < 4 else action
    if kind == WEAVE:
        side = (action + d) & 3
        return side | 4 if bits >> (side | 4) & 1 else side
    return turn(geo, cell, action, d)
