"""Turning: the slots around a cell in order, for wall followers and slips."""

from __future__ import annotations

from numba import njit

from .cells import parity, polar_doubles, ring_shift
from .tables import _HAS, _LACKS, _SAME, _SHARED, _TURN, CUBE, HEADING, POLAR, RECT, TABLE, WEAVE

# -- turning: the slots around a cell, in order (wall followers, slips) -----------------------


@njit(cache=True, inline="always")
def turn(geo, cell, slot, d):  # pragma: no cover - compiled
    """The slot of ``cell`` next to ``slot``: clockwise for ``d = 1``, counter-clockwise for -1."""
    kind = geo[0]
    if kind == RECT:
        return (slot + d) & 3
    if kind == CUBE:
        return (slot + d + 6) % 6
    if kind >= TABLE:  # the cell's parity (a division) only where the turns depend on it
        return _TURN[kind, 0 if _SAME[kind] & 2 else parity(geo, cell), slot, (d + 1) >> 1]
    if kind == WEAVE:  # position 2 * side + under in the cycle N uN E uE S uS W uW
        p = (2 * (slot & 3) + (slot >> 2) + d) & 7
        return (p >> 1) | (p & 1) << 2
    r = cell // geo[2]
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
    if kind == POLAR and slot == 4:
        return polar_doubles(geo, cell // geo[2])
    if kind >= TABLE:
        return not _LACKS[kind] or _HAS[kind, parity(geo, cell), slot]
    return True


@njit(cache=True, inline="always")
def lacks_slots(kind):  # pragma: no cover - compiled
    """Whether some cells of the kind lack some of its slots (:func:`is_slot` is not always
    true): polar cells without out2, upsilon squares (a table grid's declared fact)."""
    return kind == POLAR or (kind >= TABLE and _LACKS[kind])


@njit(cache=True, inline="always")
def slips_round(kind):  # pragma: no cover - compiled
    """Whether a slip goes to the next slot round (:func:`sideways` is :func:`turn`): not
    on 3d grids (a stair's slip stays a stair) or weave grids (a slip keeps its level)."""
    return kind != CUBE and kind != WEAVE


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


# -- headings: the compass direction of each slot (Pledge's turn count) -----------------------


@njit(cache=True, inline="always")
def shared_headings(kind):  # pragma: no cover - compiled
    """Whether two slots of a cell may head the same way (a table grid's walls in a line),
    so that only the turn order tells them apart."""
    return kind >= TABLE and _SHARED[kind]


@njit(cache=True, inline="always")
def full_turn(geo):  # pragma: no cover - compiled
    """Units of :func:`heading` in a whole turn on a flat grid."""
    kind = geo[0]
    if kind == POLAR:
        return 4 * geo[2]
    if kind >= TABLE:  # degrees
        return 360
    return 4


@njit(cache=True, nogil=True)
def heading(geo, cell, slot):  # pragma: no cover - compiled
    """Compass direction of leaving ``cell`` through ``slot`` on a flat grid, clockwise from
    north in units of ``full_turn(geo)``; the way back from the neighbour is half a turn
    round. Polar directions are those of the walls' middles (``4 * cols`` units a turn), a
    table grid's its walls' outward normals in degrees."""
    kind = geo[0]
    if kind == RECT:
        return slot
    if kind >= TABLE:
        return HEADING[kind, 0 if _SAME[kind] & 4 else parity(geo, cell), slot]
    cols = geo[2]
    r = cell // cols
    c = cell - r * cols
    inner = geo[3]
    n = inner << ring_shift(inner, r)
    full = 4 * cols
    if slot == 0:  # the side at angle (c + 1) / n, facing a quarter turn on
        return ((c + 1) * full // n + cols) % full
    if slot == 1:
        return (c * full // n - cols + full) % full
    if slot == 2:  # towards the centre, from the middle of the cell
        return ((2 * c + 1) * (full // 2) // n + 2 * cols) % full
    ratio = 2 if polar_doubles(geo, r) else 1  # outward, to the middle of the cell outside
    outer = c * ratio + (slot - 3)
    return (2 * outer + 1) * (full // 2) // (n * ratio)
