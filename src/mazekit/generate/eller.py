"""Eller: build the maze one row at a time, tracking only which cells of the row are joined.

1. Give every cell of the first row its own set.
2. Join neighbouring cells of the row that are in different sets, each with probability
   ``p_join`` (opening the wall between them and merging the sets).
3. Drop passages south: each cell with probability ``p_down``, and at least one cell of
   every set (a set with no drop gets one at a random member, or it would be cut off).
   Cells below a drop inherit its set; the others start new sets. Go to 2 for the next row.
4. On the last row, join every pair of neighbours in different sets, with no drops.

Only the current row's set labels are kept (a few integers per column), so mazes of any
height can be streamed in O(width) memory: :func:`eller_rows` yields one row of passage bits
at a time for as long as the caller wants, and ``finish()`` closes the maze at any height.
Textures depend on the probabilities: the defaults give about 30% dead ends and a slight
vertical grain (some 60% of passages run north-south, because every set must drop); high
``p_join`` makes long horizontal corridors, high ``p_down`` vertical ones. Not uniform.
Works only on a full rectangle. References: M. Eller (1982), described by W. D. Pullen,
*Think Labyrinth!*; J. Buck, *Mazes for Programmers* (2015), ch. 12.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
from numba import njit

from .._rng import RngLike, as_rng
from ..grid import RectGrid
from ..kernels.draw import bits53, draws, tick, uniform, uniform_when
from ..trace import OPEN, record
from ._common import Carved, buffers, carved

TRACE_BYTES_PER_CELL = 12  # one event (12 bytes) per cell
BYTES_PER_CELL = 1  # passages; the sets take O(width)
RECT_ONLY = True

# Rows of the per-row state (int32, shape (6, cols)). The cells of each set in the current
# row form a circular doubly linked list in column order (``_LEFT``/``_RIGHT``). Sets never
# cross (the maze above is planar), so c and c+1 are in one set exactly when c's right
# neighbour in its list is c+1, and joining two sets is a splice (as in ../shared/limit).
# ``_HEAD`` is each cell's leftmost set member; ``_COUNT`` and ``_DROPPED`` are kept there.
_LEFT, _RIGHT, _DOWN, _HEAD, _COUNT, _DROPPED = range(6)


def _new_state(cols: int) -> np.ndarray:
    """State before the first row: every cell in its own set, nothing opened from above."""
    state = np.zeros((6, cols), dtype=np.int32)
    state[_LEFT] = state[_RIGHT] = np.arange(cols)
    return state


@njit(cache=True, inline="always")
def _join(out, left, right, down, c, j, west):  # pragma: no cover - compiled
    """Join cells c and c+1 if ``j`` (0 or 1), splicing their sets' cycles (a join that
    does not happen rewrites each value in place: no branch on a coin); write c's passage
    bits: north (the row above dropped into it), east, and ``west``. Returns the next west."""
    p, q = np.uint32(right[c]), np.uint32(left[c + 1])
    rq, lp = right[q], left[p]
    right[c] = p + (c + 1 - p) * j
    left[c + 1] = q + (c - q) * j
    right[q] = rq + (p - rq) * j
    left[p] = lp + (q - lp) * j
    out[c] = down[c] | (j << 1) | west
    return j << 3


@njit(cache=True, nogil=True)
def _eller_row(out, state, last, p_join, p_down, src, trace, t, base):  # pragma: no cover
    """Make one row: write its passage bits to ``out`` and advance ``state`` to the next row.

    ``base`` is the flat index of the row's first cell (for the trace only). Returns ``t``.
    A probability of exactly 0.5 (the default) flips a fair coin: one random bit, 52 of them
    from each draw (one bit per coin, like the C reference), instead of a whole draw per flip.
    The join pass holds no test that is the same for the whole row (the last row, a fair
    coin, recording): each case has its loop, and the trace is written from the row's bits
    after each pass, in the same order (11% quicker than one loop testing them per cell;
    numba compiled the drop pass's ``fair_down`` test out of its loop already).
    """
    cols = out.shape[0]
    left, right, down = state[_LEFT], state[_RIGHT], state[_DOWN]
    head, count, dropped = state[_HEAD], state[_COUNT], state[_DROPPED]
    # Horizontal joins between different sets (all of them on the last row). List indices
    # are cast unsigned: they are never negative, and numba then skips its negative-index
    # fix-up.
    west = np.int32(0)
    bits, avail = 0, 0  # fair coins: one random bit each, 52 from a draw
    if last:  # (no coins: no draw)
        for c in range(cols - 1):
            west = _join(out, left, right, down, c, np.int32(right[c] != c + 1), west)
    elif p_join == 0.5:
        for c in range(cols - 1):
            apart = right[c] != c + 1
            if avail == 0 and apart:
                bits, avail = bits53(src), 52
            j = np.int32(apart & (bits & 1 != 0))
            bits >>= apart
            avail -= apart
            west = _join(out, left, right, down, c, j, west)
    else:
        for c in range(cols - 1):
            apart = right[c] != c + 1
            j = np.int32(apart & (uniform_when(src, apart) < p_join))
            west = _join(out, left, right, down, c, j, west)
    out[cols - 1] = down[cols - 1] | west
    if trace.shape[0] != 0:
        for c in range(cols - 1):
            if out[c] & 2:
                t = record(trace, t, base + c, OPEN, 1)
    if last:
        down[:] = 0
        return t
    # Drops: each cell at random; every set's members and drops are counted at its leftmost
    # member, which a cell finds through its left neighbour in the list (an earlier column).
    # The head is read whether or not it is needed, and chosen without a branch: whether a
    # cell is its set's leftmost is a coin flip to the CPU (a branch cost 14% of the kernel).
    fair_down = p_down == 0.5
    for c in range(cols):
        lc = left[c]
        hl = head[np.uint32(lc)]
        h = np.int64(c) + np.int64(lc < c) * (hl - np.int64(c))
        head[c] = h
        if fair_down:
            if avail == 0:
                bits, avail = bits53(src), 52
            d = np.int32(bits & 1)
            bits >>= 1
            avail -= 1
        else:
            d = np.int32(uniform(src) < p_down)
        down[c] = d
        more = np.int32(h != c)
        at = np.uint32(h)
        count[at] = count[at] * more + 1
        dropped[at] = (dropped[at] & more) | d
    # One forced drop in every set that has none, at a random member drawn when the set's
    # leftmost member comes up; a cell that does not drop leaves its set.
    for c in range(cols):
        if head[c] == c and not dropped[c]:
            x = c
            for _ in range(int(uniform(src) * count[c]) if count[c] > 1 else 0):
                x = right[x]
            down[x] = 1
        # Unlink a cell that does not drop, by masks: ``a ^ ((a ^ b) & m)`` is b where the mask
        # m is all ones (the cell drops) and a where it is 0. A multiply by d (sub, imul, add)
        # was 10% slower; a select (``b if d else a``) is turned into a branch on the coin.
        d = down[c]
        m = -d
        lc, rc, c32 = left[c], right[c], np.int32(c)
        right[np.uint32(lc)] = rc ^ ((rc ^ c32) & m)
        left[np.uint32(rc)] = lc ^ ((lc ^ c32) & m)
        left[c] = c32 ^ ((c32 ^ lc) & m)
        right[c] = c32 ^ ((c32 ^ rc) & m)
        out[c] |= d << 2
    if trace.shape[0] != 0:
        for c in range(cols):
            if out[c] & 4:
                t = record(trace, t, base + c, OPEN, 2)
    return t


@njit(cache=True, nogil=True)
def _eller(passages, rows, cols, state, p_join, p_down, src, trace):  # pragma: no cover
    t = 0
    for r in range(rows):
        base = r * cols
        row = passages[base : base + cols]
        t = _eller_row(row, state, r == rows - 1, p_join, p_down, src, trace, t, base)
        tick(src, 1)
    return t


def _check_probabilities(p_join: float, p_down: float) -> tuple[float, float]:
    for name, p in (("p_join", p_join), ("p_down", p_down)):
        try:
            ok = 0.0 <= float(p) <= 1.0
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise ValueError(f"eller {name} must be a probability between 0 and 1, got {p!r}")
    return float(p_join), float(p_down)


def eller(
    grid: RectGrid,
    rng: np.random.Generator,
    *,
    p_join: float = 0.5,
    p_down: float = 0.5,
    record: bool = False,
) -> Carved:
    """Carve a maze on the full rectangle ``grid`` with Eller's algorithm.

    Parameters
    ----------
    p_join : float
        Probability of joining two neighbouring cells of a row that are not yet connected.
    p_down : float
        Probability of an extra passage south from a cell (every set gets at least one).

    The result equals the rows of :func:`eller_stream` ``(cols, rows, rng)`` stacked, for the
    same seed and options. The trace is one ``OPEN`` per passage, row by row.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grid import RectGrid
    >>> out = eller(RectGrid((5, 6)), np.random.default_rng(3))
    >>> rows = np.stack(list(eller_stream(6, 5, np.random.default_rng(3))))
    >>> bool((rows == out.passages).all())
    True
    """
    p_join, p_down = _check_probabilities(p_join, p_down)
    if grid.mask is not None:
        raise ValueError("eller works row by row and needs a full rectangle; it cannot carve a mask")
    passages, trace = buffers(grid, record, 1)
    with draws(rng, grid.rows, "rows") as src:
        used = _eller(passages, grid.rows, grid.cols, _new_state(grid.cols), p_join, p_down, src, trace)
    return carved(grid, passages, trace, used)


class EllerRows(Iterator[np.ndarray]):
    """An endless stream of Eller rows; ``finish()`` makes the closing row.

    Each ``next()`` returns the passage bits (``uint8``, length ``cols``, the maze's
    encoding) of one more row that leaves the maze open below; ``finish()`` returns a last
    row that joins every remaining set, after which the stacked rows are a perfect maze and
    the stream is exhausted. Memory stays O(cols) however many rows are made.

    Examples
    --------
    >>> rows = eller_rows(8, rng=1)
    >>> top, middle = next(rows), next(rows)
    >>> bottom = rows.finish()
    >>> rows.rows_made, bottom.dtype, bottom.shape
    (3, dtype('uint8'), (8,))
    >>> next(rows)
    Traceback (most recent call last):
    ...
    StopIteration
    """

    def __init__(self, cols: int, rng: RngLike = None, *, p_join: float = 0.5, p_down: float = 0.5) -> None:
        if isinstance(cols, bool) or not isinstance(cols, int | np.integer) or cols < 1:
            raise ValueError(f"eller_rows cols must be a positive integer, got {cols!r}")
        self.cols = int(cols)
        self.p_join, self.p_down = _check_probabilities(p_join, p_down)
        self.rng, self.seed = as_rng(rng)
        self.rows_made = 0
        self.finished = False
        self._state = _new_state(self.cols)
        self._trace = np.zeros((0, 3), dtype=np.int32)

    def _row(self, last: bool) -> np.ndarray:
        if self.finished:
            raise StopIteration
        out = np.zeros(self.cols, dtype=np.uint8)
        _eller_row(out, self._state, last, self.p_join, self.p_down, self.rng, self._trace, 0, 0)
        self.rows_made += 1
        self.finished = last
        return out

    def __iter__(self) -> EllerRows:
        return self

    def __next__(self) -> np.ndarray:
        """The next row, leaving the maze open below."""
        return self._row(False)

    def finish(self) -> np.ndarray:
        """The last row: joins every set left, closing the maze. Then the stream ends."""
        if self.finished:
            raise ValueError("this Eller stream is already finished")
        return self._row(True)


def eller_rows(cols: int, rng: RngLike = None, *, p_join: float = 0.5, p_down: float = 0.5) -> EllerRows:
    """An endless iterator of Eller rows ``cols`` wide; call ``.finish()`` for the last row.

    ``rng`` is a seed, a ``numpy.random.Generator`` or None, as for :func:`mazekit.generate`.
    """
    return EllerRows(cols, rng, p_join=p_join, p_down=p_down)


def eller_stream(
    cols: int, rows: int, rng: RngLike = None, *, p_join: float = 0.5, p_down: float = 0.5
) -> Iterator[np.ndarray]:
    """Yield the ``rows`` rows of an Eller maze ``cols`` wide, one ``uint8`` row at a time.

    Stacked, they equal ``eller(RectGrid((rows, cols)), rng)``'s passages for the same seed,
    in O(cols) memory whatever the height.

    Examples
    --------
    >>> [row.tolist() for row in eller_stream(3, 1, rng=0)]
    [[2, 10, 8]]
    """
    if isinstance(rows, bool) or not isinstance(rows, int | np.integer) or rows < 1:
        raise ValueError(f"eller_stream rows must be a positive integer, got {rows!r}")
    stream = eller_rows(cols, rng, p_join=p_join, p_down=p_down)
    for _ in range(int(rows) - 1):
        yield next(stream)
    yield stream.finish()
