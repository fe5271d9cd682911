"""Turning: the slots around a cell in order, for wall followers and slips."""

from __future__ import annotations

from numba import njit

from .cells import _parity, parity, polar_doubles
from .tables import _HAS, _TURN, CUBE, HEX, POLAR, RECT, TABLE, TRIANGLE, UPSILON, WEAVE

# -- turning: the slots around a cell, in order (wall followers, slips) -----------------------


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
