"""Dead-end filling as one compiled pass: used by the ``fill_dead_ends`` transform and the
``dead_end_filling`` solver, which differ only in what they do with the result."""

from __future__ import annotations

from numba import njit

from ..measure import degree
from ..trace import CLOSE, record
from .walls import close_wall


@njit(cache=True, nogil=True)
def fill_dead_ends(passages, geo, keep_a, keep_b, queue, trace):  # pragma: no cover - compiled
    """Close dead ends of flat ``passages`` in place until none is left but ``keep_a`` and
    ``keep_b`` (-1 keeps nothing); a ``CLOSE`` event per wall goes to ``trace`` (if it has
    rows). ``queue`` is a per-cell index scratch array. Returns the trace rows written."""
    head, tail = 0, 0
    for cell in range(passages.shape[0]):
        if degree(passages[cell]) == 1 and cell != keep_a and cell != keep_b:
            queue[tail] = cell
            tail += 1
    t = 0
    while head < tail:  # a cell's degree falls to 1 at most once: the queue never overflows
        cell = queue[head]
        head += 1
        bits = passages[cell]
        if degree(bits) != 1:  # its partner was filled first (an isolated pair)
            continue
        slot = 0
        while not bits >> slot & 1:
            slot += 1
        nb = close_wall(passages, geo, cell, slot)
        t = record(trace, t, cell, CLOSE, slot)
        if degree(passages[nb]) == 1 and nb != keep_a and nb != keep_b:
            queue[tail] = nb
            tail += 1
    return t
