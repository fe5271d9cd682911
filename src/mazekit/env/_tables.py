"""The compiled side of the environment: one maze's transition table and distances, at reset.

A step then costs a few array reads: where action ``a`` from cell ``c`` lands is
``dest[c, a, j]``, ``j = 0`` for the move as meant and ``j = 1, 2`` for the two ways it can
slip (clockwise and counter-clockwise, as :mod:`mazekit.solve._mdp` defines them, so the
environment and mazekit's MDP solvers agree on every grid). A move into a wall, through a
side the cell does not have, or from a cell that does not exist stays put.

No gymnasium here: :mod:`mazekit.env.export` builds its MDP from the same tables.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..distances import distances_kernel as _distances
from ..grids import kernel as k
from ..grids.kernel import is_slot, sideways
from ..kernels.draw import uniform


@njit(cache=True, nogil=True)
def transitions(passages, geo, slip, dest):  # pragma: no cover - compiled
    """Fill ``dest`` (``(cells, slots, 3)`` int) with where each action lands, each way.

    A slot that is not open (a wall, a side the cell lacks, a cell that does not exist) is
    never crossed, so only the meant action needs the "is it a side at all" question: a
    push through a side the cell does not have stays put, slips included."""
    kind = geo[0]
    n_slot = k.n_slots(kind)
    odd = k.lacks_slots(kind)
    if kind == k.RECT and geo[3] == 0:  # the common case without branches or calls
        cols = geo[2]
        for cell in range(passages.shape[0]):
            bits = np.int64(passages[cell])
            dest[cell, 0, 0] = cell - cols * (bits & 1)
            dest[cell, 1, 0] = cell + (bits >> 1 & 1)
            dest[cell, 2, 0] = cell + cols * (bits >> 2 & 1)
            dest[cell, 3, 0] = cell - (bits >> 3 & 1)
    else:  # k.step, out of line: inlining every grid's moves here costs seconds of compile
        for cell in range(passages.shape[0]):
            bits = passages[cell]
            for a in range(n_slot):
                dest[cell, a, 0] = k.step(geo, cell, a) if bits >> a & 1 else cell
    plain = kind == k.RECT
    for cell in range(passages.shape[0]):
        bits = passages[cell]
        for a in range(n_slot):
            if slip == 0.0:
                dest[cell, a, 1] = dest[cell, a, 0]
                dest[cell, a, 2] = dest[cell, a, 0]
            elif bits == 0 or (odd and not is_slot(geo, cell, a)):
                dest[cell, a, 1] = cell
                dest[cell, a, 2] = cell
            elif plain:  # the perpendiculars, without a call
                dest[cell, a, 1] = dest[cell, (a + 1) & 3, 0]
                dest[cell, a, 2] = dest[cell, (a + 3) & 3, 0]
            else:
                dest[cell, a, 1] = dest[cell, sideways(geo, bits, cell, a, 1), 0]
                dest[cell, a, 2] = dest[cell, sideways(geo, bits, cell, a, -1), 0]


@njit(cache=True, nogil=True)
def prepare(passages, geo, slip, goal, dest):  # pragma: no cover - compiled
    """:func:`transitions` into ``dest``, and the steps from every cell to ``goal`` (-1:
    cannot get there), in one call (one dispatch per reset)."""
    transitions(passages, geo, slip, dest)
    return _distances(passages, geo, goal)


@njit(cache=True, nogil=True)
def draw_index(src, n):  # pragma: no cover - compiled
    """A uniform integer in ``[0, n)`` from a kernel draw source."""
    return min(int(uniform(src) * n), n - 1)
