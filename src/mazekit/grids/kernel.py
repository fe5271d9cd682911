"""The compiled side of every grid: who neighbours whom, as scalar arithmetic.

Kernels receive a grid as ``geo = (kind, rows, cols, param)``, a tuple of four integers
(no array, so numba adds no reference counting in hot loops), plus a flat ``uint8`` mask
that is empty when every cell exists. Cells are numbered ``row * cols + col`` on every grid;
each grid lays its cells out in a ``(rows, cols)`` array (polar rings are rows, 3D levels are
stacked bands of rows).

- :func:`step` gives the neighbour through a slot (-1 off the grid), :func:`through` the
  same across a passage that is known to be open, and :func:`back` the neighbour's slot that
  leads back. :func:`n_slots` is how many slots a grid kind has.
- A new grid kind adds a code below, one branch in each of these four functions, and a
  module in :mod:`mazekit.grids` for its geometry.
"""

from __future__ import annotations

import numpy as np
from numba import njit

RECT, HEX, TRIANGLE, POLAR, UPSILON, CUBE, WEAVE = 0, 1, 2, 3, 4, 5, 6

#: Slots per grid kind, indexed by the kind code.
SLOTS_OF = (4, 6, 3, 5, 8, 6, 8)

#: The most slots any grid has: one bit each in a ``uint8`` cell.
MAX_SLOTS = 8

_TWO_PI = 6.283185307179586


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
    return 8


@njit(cache=True)
def ring_shift(inner, ring):  # pragma: no cover - compiled
    """``log2`` of how many times more cells polar ring ``ring`` has than the innermost one.

    A ring's cells double whenever they would become twice as wide as they are deep: ring
    ``r`` sits at radius ``inner / 2pi + r`` (in ring depths), so its cells stay roughly
    square with ``inner * 2**k`` of them, ``k = floor(log2(1 + 2 pi r / inner))``.
    """
    x = 1.0 + _TWO_PI * ring / inner
    k = 0
    while float(2 << k) <= x:
        k += 1
    return k


@njit(cache=True, inline="always")
def _rect_step(rows, cols, wrap, r, c, cell, slot):  # pragma: no cover - compiled
    if slot == 0:
        if r > 0:
            return cell - cols
        return cell + (rows - 1) * cols if wrap & 2 and rows > 2 else -1
    if slot == 1:
        if c < cols - 1:
            return cell + 1
        return cell - c if wrap & 1 and cols > 2 else -1
    if slot == 2:
        if r < rows - 1:
            return cell + cols
        return c if wrap & 2 and rows > 2 else -1
    if c > 0:
        return cell - 1
    return cell + cols - 1 if wrap & 1 and cols > 2 else -1


@njit(cache=True, inline="always")
def _polar_step(rows, cols, inner, r, c, slot):  # pragma: no cover - compiled
    count = inner << ring_shift(inner, r)
    if slot == 0:  # clockwise, around the ring
        if c + 1 < count:
            return r * cols + c + 1
        return r * cols if count > 2 else -1
    if slot == 1:  # counter-clockwise
        if c > 0:
            return r * cols + c - 1
        return r * cols + count - 1 if count > 2 else -1
    if slot == 2:  # inward
        if r == 0:
            return -1
        ratio = count // (inner << ring_shift(inner, r - 1))
        return (r - 1) * cols + c // ratio
    if r + 1 >= rows:
        return -1
    ratio = (inner << ring_shift(inner, r + 1)) // count
    if slot == 3:
        return (r + 1) * cols + c * ratio
    if ratio == 2:
        return (r + 1) * cols + c * 2 + 1
    return -1


@njit(cache=True, inline="always")
def step(geo, cell, slot):  # pragma: no cover - compiled
    """Flat index of ``cell``'s neighbour through ``slot``, or -1 (ignores the mask)."""
    kind, rows, cols, param = geo
    r = cell // cols
    c = cell - r * cols
    if kind == RECT:
        return _rect_step(rows, cols, param, r, c, cell, slot)
    if kind == HEX:  # flat-topped, odd columns half a cell lower: N NE SE S SW NW
        if slot == 0:
            return cell - cols if r > 0 else -1
        if slot == 3:
            return cell + cols if r < rows - 1 else -1
        dc = 1 if slot < 3 else -1
        if c + dc < 0 or c + dc >= cols:
            return -1
        nr = r - 1 + (c & 1) + (1 if slot == 2 or slot == 4 else 0)
        if nr < 0 or nr >= rows:
            return -1
        return nr * cols + c + dc
    if kind == TRIANGLE:  # (r + c) even points up: W E and the base (S if up, N if down)
        if slot == 0:
            return cell - 1 if c > 0 else -1
        if slot == 1:
            return cell + 1 if c < cols - 1 else -1
        if (r + c) & 1 == 0:
            return cell + cols if r < rows - 1 else -1
        return cell - cols if r > 0 else -1
    if kind == POLAR:
        return _polar_step(rows, cols, param, r, c, slot)
    if kind == UPSILON:  # octagons where (r + c) is even, squares between: N NE E SE S SW W NW
        if slot & 1 and (r + c) & 1:
            return -1
        dr = -1 if slot == 0 or slot == 1 or slot == 7 else (1 if 3 <= slot <= 5 else 0)
        dc = 1 if 1 <= slot <= 3 else (-1 if slot >= 5 else 0)
        nr = r + dr
        nc = c + dc
        if nr < 0 or nr >= rows or nc < 0 or nc >= cols:
            return -1
        return nr * cols + nc
    if kind == CUBE:  # levels of ``param`` rows stacked: N E S W up down
        if slot == 4:
            return cell + param * cols if r + param < rows else -1
        if slot == 5:
            return cell - param * cols if r >= param else -1
        if slot == 0 and r % param == 0:
            return -1
        if slot == 2 and r % param == param - 1:
            return -1
        return _rect_step(rows, cols, 0, r, c, cell, slot)
    # WEAVE: N E S W, then the same four passing under the next cell to the one beyond
    if slot < 4:
        return _rect_step(rows, cols, 0, r, c, cell, slot)
    s = slot - 4
    if s == 0:
        return cell - 2 * cols if r > 1 else -1
    if s == 1:
        return cell + 2 if c < cols - 2 else -1
    if s == 2:
        return cell + 2 * cols if r < rows - 2 else -1
    return cell - 2 if c > 1 else -1


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
    # POLAR
    if slot < 2:
        return slot ^ 1
    if slot > 2:
        return 2
    cols, inner = geo[2], geo[3]
    r = cell // cols
    c = cell - r * cols
    ratio = (inner << ring_shift(inner, r)) // (inner << ring_shift(inner, r - 1))
    return 3 + (c & 1) if ratio == 2 else 3


@njit(cache=True, inline="always")
def exists(mask, cell):  # pragma: no cover - compiled
    """Whether ``cell`` (a valid index) is a cell, given the flat mask (empty: all are)."""
    return mask.shape[0] == 0 or mask[cell] != 0


@njit(cache=True)
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
            if nb >= 0 and exists(mask, nb):
                out[cell, slot] = nb
    return out


@njit(cache=True)
def count_components(geo, mask):  # pragma: no cover - compiled
    """Connected regions of the grid graph (the cells a maze could join into one)."""
    n = geo[1] * geo[2]
    k = n_slots(geo[0])
    seen = np.zeros(n, dtype=np.uint8)
    stack = np.empty(n, dtype=np.int64)
    components = 0
    for s in range(n):
        if seen[s] or not exists(mask, s):
            continue
        components += 1
        seen[s] = 1
        top = 0
        stack[0] = s
        while top >= 0:
            cell = stack[top]
            top -= 1
            for slot in range(k):
                nb = step(geo, cell, slot)
                if nb >= 0 and not seen[nb] and exists(mask, nb):
                    seen[nb] = 1
                    top += 1
                    stack[top] = nb
    return components


@njit(cache=True, inline="always")
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
    return (dr + dc + 1) // 2  # WEAVE: a step under a cell covers two
