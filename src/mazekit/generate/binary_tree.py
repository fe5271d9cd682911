"""Binary tree: every cell opens one of two fixed walls, chosen by a coin flip.

1. Visit the cells in any order (row-major here).
2. With the default ``bias="NW"``, open the wall to the north or to the west at random. A
   cell on the top row can only open west, one on the left column only north, and the
   north-west corner opens nothing: it is the root every cell's path leads to.

Every cell but the root gets exactly one passage toward the root, so the maze is a spanning
tree, made in one pass with no memory beyond the passages. The texture is the most biased
of all: two sides (top row and left column for ``NW``) are single straight corridors and
every path runs diagonally toward the root corner. An R x C grid has exactly
``2**((R-1)*(C-1))`` binary-tree mazes, all equally likely. Works only on a full rectangle.
Reference: J. Buck, *Mazes for Programmers* (2015), ch. 1.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grid import OPPOSITE, RectGrid
from ..kernels.draw import draws, take_bits
from ..trace import CARVE, VISIT, record
from ._common import Carved, buffers, carved

BYTES_PER_CELL = 1  # passages only
RECT_ONLY = True

BIASES = ("NW", "NE", "SW", "SE")


@njit(cache=True, nogil=True)
def _binary_tree(passages, rows, cols, vslot, hslot, src, trace):  # pragma: no cover
    """``vslot`` is N or S, ``hslot`` E or W: the two walls a cell may open."""
    root_r = 0 if vslot == 0 else rows - 1
    root_c = 0 if hslot == 3 else cols - 1
    dv = -cols if vslot == 0 else cols
    dh = -1 if hslot == 3 else 1
    t = record(trace, 0, root_r * cols + root_c, VISIT, -1)
    bits = 0
    left = 0
    for r in range(rows):
        for c in range(cols):
            cell = r * cols + c
            can_v = r != root_r
            can_h = c != root_c
            if can_v and can_h:
                flip, bits, left = take_bits(src, bits, left, 1)  # 53 coins a draw
                vertical = flip == 1
            elif can_v or can_h:
                vertical = can_v
            else:
                continue  # the root
            if vertical:
                slot, nb = vslot, cell + dv
            else:
                slot, nb = hslot, cell + dh
            passages[cell] |= 1 << slot
            passages[nb] |= 1 << OPPOSITE[slot]
            t = record(trace, t, cell, CARVE, slot)
    return t


def binary_tree(
    grid: RectGrid,
    rng: np.random.Generator,
    *,
    bias: str = "NW",
    record: bool = False,
) -> Carved:
    """Carve a binary-tree maze on the full rectangle ``grid``.

    Parameters
    ----------
    bias : {"NW", "NE", "SW", "SE"}
        The two walls each cell chooses between; their corner is the root, and the two
        sides meeting there are straight corridors.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grid import RectGrid
    >>> out = binary_tree(RectGrid((3, 4)), np.random.default_rng(0))
    >>> (out.passages[0] & 0b1010).tolist()  # east/west bits: the top row is one corridor
    [2, 10, 10, 8]
    """
    if bias not in BIASES:
        raise ValueError(f"unknown binary_tree bias {bias!r}; choose from {', '.join(BIASES)}")
    if grid.mask is not None:
        raise ValueError("binary_tree works row by row and needs a full rectangle; it cannot carve a mask")
    passages, trace = buffers(grid, record, 1)
    vslot = 0 if bias[0] == "N" else 2
    hslot = 3 if bias[1] == "W" else 1
    with draws(rng) as src:
        used = _binary_tree(passages, grid.rows, grid.cols, vslot, hslot, src, trace)
    return carved(grid, passages, trace, used)
