"""Sidewinder: carve each row into runs and close every run with one passage north.

1. Open the whole first row (the top row with the default ``bias="N"``) as one corridor.
2. On each following row, walk west to east adding cells to the current run. After each
   cell flip a coin (always at the east edge): heads, close the run by opening the wall to
   the north from one of its cells chosen at random and start a new run; tails, open the
   wall to the east and extend the run.

Every run joins the finished rows above through exactly one passage, so the maze is a
spanning tree, made row by row. The first row is one straight corridor, and the path from
any cell to it never steps away from it, which makes mazes easy to solve toward that side.
``bias="S"`` mirrors it (the bottom row is the corridor and runs close south). Works only
on a full rectangle. Reference: J. Buck, *Mazes for Programmers*
(2015), ch. 1.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grid import OPPOSITE, RectGrid
from ..kernels.draw import draws, take_bits, uniform
from ..trace import CARVE, VISIT, record
from ._common import Carved, buffers, carved

BYTES_PER_CELL = 1  # passages only
RECT_ONLY = True

BIASES = ("N", "S")


@njit(cache=True, nogil=True)
def _sidewinder(passages, rows, cols, north, src, trace):  # pragma: no cover
    first = 0 if north else rows - 1
    vslot = 0 if north else 2
    dv = -cols if north else cols
    t = record(trace, 0, first * cols, VISIT, -1)
    bits, left = 0, 0  # coin flips, 53 to a draw: one random() per cell would dominate
    for i in range(rows):
        r = i if north else rows - 1 - i
        base = r * cols
        run_start = 0
        for c in range(cols):
            cell = base + c
            at_east = c == cols - 1
            if r == first:
                close = False
            elif at_east:
                close = True
            else:
                flip, bits, left = take_bits(src, bits, left, 1)
                close = flip == 1
            if close:
                member = base + run_start
                size = c - run_start + 1
                if size > 1:
                    member += int(uniform(src) * size)
                passages[member] |= 1 << vslot
                passages[member + dv] |= 1 << OPPOSITE[vslot]
                t = record(trace, t, member, CARVE, vslot)
                run_start = c + 1
            elif not at_east:
                passages[cell] |= 2  # east
                passages[cell + 1] |= 8  # west
                t = record(trace, t, cell, CARVE, 1)
    return t


def sidewinder(
    grid: RectGrid,
    rng: np.random.Generator,
    *,
    bias: str = "N",
    record: bool = False,
) -> Carved:
    """Carve a sidewinder maze on the full rectangle ``grid``.

    Parameters
    ----------
    bias : {"N", "S"}
        Which side the runs close to; that side's row is one open corridor.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grid import RectGrid
    >>> out = sidewinder(RectGrid((3, 4)), np.random.default_rng(0))
    >>> (out.passages[0] & 0b1010).tolist()  # east/west bits: the top row is one corridor
    [2, 10, 10, 8]
    """
    if bias not in BIASES:
        raise ValueError(f"unknown sidewinder bias {bias!r}; choose from {', '.join(BIASES)}")
    if grid.mask is not None:
        raise ValueError("sidewinder works row by row and needs a full rectangle; it cannot carve a mask")
    passages, trace = buffers(grid, record, 1)
    with draws(rng) as src:
        used = _sidewinder(passages, grid.rows, grid.cols, bias == "N", src, trace)
    return carved(grid, passages, trace, used)
