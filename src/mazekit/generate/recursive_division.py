"""Recursive division: start from an open room and split it with walls that have one gap.

1. Open every inner wall: the whole grid is one chamber.
2. Take a chamber from the stack. If it is one cell thick, it stays a corridor. Otherwise put
   up a wall across it, horizontal if the chamber is taller than wide, vertical if wider than
   tall (a coin decides for a square), at a random position, leaving one random gap.
3. Push the two halves and repeat until the stack is empty.

Each wall has exactly one gap, so every chamber stays connected and the halves meet only
there: the result is a spanning tree. Mazes are boxy, with long straight walls that run the
width of a chamber and a visible hierarchy of rooms; the solution usually crosses the big
walls through their single gaps. Biased, not uniform. The stack holds at most
``rows + cols`` chambers, so there is no recursion. Works row by row on rectangles only.

The trace starts from the open room (``STARTS_OPEN``): a ``VISIT`` at the top-left cell of
each chamber as it is divided, then a ``CLOSE`` for every wall segment put up. Reference:
J. Buck, *Mazes for Programmers* (2015), ch. 13.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grid import RectGrid
from ..trace import CLOSE, VISIT, record
from ._common import Carved, buffers, carved

BYTES_PER_CELL = 1  # passages only: the stack of chambers is O(rows + cols)
RECT_ONLY = True
STARTS_OPEN = True


@njit(cache=True, nogil=True)
def _open_room(passages, rows, cols):  # pragma: no cover
    for r in range(rows):
        for c in range(cols):
            b = 0
            if r > 0:
                b |= 1
            if c < cols - 1:
                b |= 2
            if r < rows - 1:
                b |= 4
            if c > 0:
                b |= 8
            passages[r * cols + c] = b


@njit(cache=True, nogil=True)
def _division(passages, rows, cols, rng, trace):  # pragma: no cover
    _open_room(passages, rows, cols)
    stack = np.empty((rows + cols + 2, 4), dtype=np.int64)  # (top, left, height, width)
    stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3] = 0, 0, rows, cols
    top, t = 0, 0
    while top >= 0:
        r0, c0, h, w = stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3]
        top -= 1
        if h < 2 or w < 2:
            continue  # a corridor: already a path
        t = record(trace, t, r0 * cols + c0, VISIT, -1)
        horizontal = h > w or (h == w and rng.random() < 0.5)
        if horizontal:  # wall below row r0 + k, gap at column c0 + gap
            k = int(rng.random() * (h - 1))
            gap = int(rng.random() * w)
            row = (r0 + k) * cols
            for j in range(w):
                if j != gap:
                    cell = row + c0 + j
                    passages[cell] &= ~np.uint8(4)
                    passages[cell + cols] &= ~np.uint8(1)
                    t = record(trace, t, cell, CLOSE, 2)
            halves = ((r0, c0, k + 1, w), (r0 + k + 1, c0, h - k - 1, w))
        else:  # wall right of column c0 + k, gap at row r0 + gap
            k = int(rng.random() * (w - 1))
            gap = int(rng.random() * h)
            for i in range(h):
                if i != gap:
                    cell = (r0 + i) * cols + c0 + k
                    passages[cell] &= ~np.uint8(2)
                    passages[cell + 1] &= ~np.uint8(8)
                    t = record(trace, t, cell, CLOSE, 1)
            halves = ((r0, c0, h, k + 1), (r0, c0 + k + 1, h, w - k - 1))
        for half in halves:
            top += 1
            stack[top, 0], stack[top, 1], stack[top, 2], stack[top, 3] = half
    return t


def recursive_division(grid: RectGrid, rng: np.random.Generator, *, record: bool = False) -> Carved:
    """Carve a perfect maze on a rectangle by recursive division (with an explicit stack).

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grid import RectGrid
    >>> from mazekit import trace as tr
    >>> grid = RectGrid((4, 5))
    >>> out = recursive_division(grid, np.random.default_rng(0), record=True)
    >>> from mazekit.replay import replay
    >>> bool((replay(out.trace, grid, starts_open=True) == out.passages).all())
    True
    """
    if grid.mask is not None:
        raise ValueError(
            "recursive_division works row by row and needs a full rectangle; it cannot carve a mask"
        )
    passages, trace = buffers(grid, record, 2)
    used = _division(passages, grid.rows, grid.cols, rng, trace)
    return carved(grid, passages, trace, used)
