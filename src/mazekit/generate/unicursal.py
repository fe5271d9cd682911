"""Unicursal labyrinth: one path with no branches through every cell, from a doubled maze.

1. Generate a perfect maze of half the size, ``(rows // 2) x (cols // 2)``, with the ``base``
   generator.
2. Split each of its cells into 2 x 2 cells and split each corridor into two lanes: where
   the base maze has a wall, the lanes turn back along it. Following one wall of the base
   maze all the way round (its Euler tour) visits every small cell once and comes back: a
   Hamiltonian cycle.
3. An odd last column is woven in as detours: wherever the cycle runs down the east edge, it
   steps out into the extra column and back, two cells at a time; an odd last row likewise
   along the south edge.
4. Cut the cycle next to the top-left corner: the two cut ends are the entrance and exit.
   If both sides are odd the cell count is odd and no cycle exists; the corner cell is then
   hung on the end of the path instead, and the path runs from the cell diagonally inside
   the bottom-right corner to the corner itself. A grid one cell thick is a straight line.

The result is a perfect maze (a path is a tree) with exactly two dead ends, its two ends,
found by :func:`ends`. There is nothing to solve, only to walk: the solution visits every
cell. Texture: paired parallel lanes that trace the shape of the base maze, which shows
through as the walls between the lanes. Works on rectangles only. The trace walks the path:
a ``VISIT`` of its start, then a ``CARVE`` into each next cell. Reference: the classical
construction of a unicursal maze by splitting every passage of a perfect maze of half the
size (W. D. Pullen, *Think Labyrinth!*, "Maze Algorithms").
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..grid import Cell, RectGrid
from ..trace import CARVE, VISIT, record
from ._common import Carved, buffers, carved

RECT_ONLY = True
BYTES_PER_CELL = 6  # passages + the base maze and its generator's scratch at a quarter size


@njit(cache=True, inline="always")
def _link(passages, cols, a, b):  # pragma: no cover
    """Open the passage between neighbouring cells ``a`` and ``b`` (flat indices).

    Vertical first: with one column, ``a + 1`` is the cell below.
    """
    if b == a + cols:
        passages[a] |= 4
        passages[b] |= 1
    elif b == a - cols:
        passages[a] |= 1
        passages[b] |= 4
    elif b == a + 1:
        passages[a] |= 2
        passages[b] |= 8
    else:
        passages[a] |= 8
        passages[b] |= 2


@njit(cache=True, inline="always")
def _unlink(passages, cols, a, b):  # pragma: no cover
    if b == a + 1:
        passages[a] &= ~np.uint8(2)
        passages[b] &= ~np.uint8(8)
    else:  # b == a + cols
        passages[a] &= ~np.uint8(4)
        passages[b] &= ~np.uint8(1)


@njit(cache=True, nogil=True)
def _double(base, half_rows, half_cols, passages, rows, cols):  # pragma: no cover
    """The Hamiltonian cycle around the base maze's walls, on the even top-left part."""
    for r in range(half_rows):
        for c in range(half_cols):
            bits = base[r * half_cols + c]
            tl = 2 * r * cols + 2 * c
            tr, bl, br = tl + 1, tl + cols, tl + cols + 1
            if (bits & 1) == 0:
                _link(passages, cols, tl, tr)
            if (bits & 8) == 0:
                _link(passages, cols, tl, bl)
            if bits & 2:  # two lanes east
                _link(passages, cols, tr, tr + 1)
                _link(passages, cols, br, br + 1)
            else:
                _link(passages, cols, tr, br)
            if bits & 4:  # two lanes south
                _link(passages, cols, bl, bl + cols)
                _link(passages, cols, br, br + cols)
            else:
                _link(passages, cols, bl, br)


@njit(cache=True, nogil=True)
def _weave(passages, rows, cols):  # pragma: no cover
    """Take an odd last column and row in as detours, then cut the cycle into a path."""
    er, ec = rows - rows % 2, cols - cols % 2  # the even part
    if cols % 2:
        for r in range(0, er, 2):  # east edge: (r, ec-1) - (r+1, ec-1) via column ec
            a, b = r * cols + ec - 1, (r + 1) * cols + ec - 1
            _unlink(passages, cols, a, b)
            _link(passages, cols, a, a + 1)
            _link(passages, cols, a + 1, b + 1)
            _link(passages, cols, b + 1, b)
    if rows % 2:
        for c in range(0, ec, 2):  # south edge: (er-1, c) - (er-1, c+1) via row er
            a = (er - 1) * cols + c
            _unlink(passages, cols, a, a + 1)
            _link(passages, cols, a, a + cols)
            _link(passages, cols, a + cols, a + cols + 1)
            _link(passages, cols, a + cols + 1, a + 1)
    if rows % 2 and cols % 2:  # odd cell count: hang the corner on the end
        inner = (er - 1) * cols + ec - 1
        _unlink(passages, cols, inner, inner + 1)
        _link(passages, cols, inner + 1, rows * cols - 1)
    else:
        _unlink(passages, cols, 0, 1)


@njit(cache=True, nogil=True)
def _line(passages, rows, cols):  # pragma: no cover
    for cell in range(rows * cols - 1):
        _link(passages, cols, cell, cell + 1 if rows == 1 else cell + cols)


@njit(cache=True, nogil=True)
def _walk(passages, cols, start, trace):  # pragma: no cover
    """Record the path from ``start``: a ``VISIT``, then a ``CARVE`` into each next cell."""
    t = record(trace, 0, start, VISIT, -1)
    prev, cell = -1, start
    while True:
        nxt, back = -1, -1
        for slot in range(4):
            if passages[cell] >> slot & 1:
                nb = cell + (-cols, 1, cols, -1)[slot]
                if nb != prev:
                    nxt, back = nb, (slot + 2) % 4
        if nxt < 0:
            return t
        t = record(trace, t, nxt, CARVE, back)
        prev, cell = cell, nxt


def ends(passages: np.ndarray, grid: RectGrid | None = None) -> tuple[Cell, Cell]:
    """The two ends of the path, ``(start, goal)`` in reading order (the one cell, twice, on 1x1).

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grid import RectGrid
    >>> ends(unicursal(RectGrid((4, 6)), np.random.default_rng(0)).passages)
    ((0, 0), (0, 1))
    >>> ends(unicursal(RectGrid((5, 7)), np.random.default_rng(0)).passages)
    ((3, 5), (4, 6))
    """
    p = np.asarray(passages)
    degree = np.array([bin(i).count("1") for i in range(16)], dtype=np.uint8)[p & 15]
    found = np.argwhere(degree == 1)
    if found.shape[0] == 0:
        return (0, 0), (0, 0)
    if found.shape[0] != 2:
        raise ValueError(f"not a single path: {found.shape[0]} cells have one passage, expected 2")
    (r0, c0), (r1, c1) = found.tolist()
    return (r0, c0), (r1, c1)


def unicursal(
    grid: RectGrid, rng: np.random.Generator, *, base: str = "backtracker", record: bool = False
) -> Carved:
    """Carve a unicursal labyrinth (one path through every cell) on a rectangle.

    Parameters
    ----------
    base : str
        The perfect-maze generator whose half-size maze is doubled; its texture shows
        through as the shape of the path.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grid import RectGrid
    >>> out = unicursal(RectGrid((2, 3)), np.random.default_rng(0))
    >>> out.passages.tolist()
    [[4, 2, 12], [3, 10, 9]]
    """
    from . import GENERATORS, lookup, properties

    func = lookup(GENERATORS, base, "generator")
    if not properties(func)["perfect"]:
        raise ValueError(f"unicursal needs a perfect base maze; {base!r} is not a perfect generator")
    if grid.mask is not None:
        raise ValueError("unicursal works on rectangles and needs a full rectangle; it cannot carve a mask")
    rows, cols = grid.shape
    passages, trace = buffers(grid, record, 1)
    if rows == 1 or cols == 1:
        _line(passages, rows, cols)
    else:
        half = RectGrid((rows // 2, cols // 2))
        base_passages = func(half, rng).passages.ravel()
        _double(base_passages, half.rows, half.cols, passages, rows, cols)
        del base_passages
        _weave(passages, rows, cols)
    start = grid.flat(ends(passages.reshape(grid.shape))[0])
    used = _walk(passages, cols, start, trace) if record else 0
    return carved(grid, passages, trace, used)
