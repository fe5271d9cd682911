"""Breadth-first search: explore in rings of equal distance; the path found is shortest.

1. Put the start in a queue.
2. Take the oldest cell from the queue; stop if it is the goal. Otherwise queue each
   unvisited cell one open passage away, remembering where it was reached from.
3. Walk the remembered predecessors back from the goal.

Solves any maze (with or without loops) on any grid; the path is always a shortest one. Explores every
cell closer than the goal. Reference: E. F. Moore, "The shortest path through a maze" (1959).
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

import numpy as np
from numba import njit

from .. import trace as tr
from ..grids import Cell, Grid
from ..grids import kernel as gk
from ..kernels.draw import DONE, meter, report
from ..maze import Maze
from ..solution import Solution
from ._common import flat_ends, solution

#: Peak memory in bytes per cell, checked by the solve front door before it runs: the
#: maze, its copy in the fast layout, a byte a cell of marks and the 12-byte trace rows, whose
#: last third holds the queue while the search runs (and until the trace is first read).
BYTES_PER_CELL = 15
PADDED_BYTES = 2  # the copy and the marks, a byte each a cell of the fast layout (and any neighbour table)

SHORTEST = True  # always a shortest path

NOWHERE = np.empty(0, dtype=np.int64)  # _bfs's ``into`` when the path gets an array of its own


@njit(cache=True, nogil=True)
def _bfs(  # pragma: no cover
    fast, T, geo, p, start, goal, progress, came, queue, trace, slots, into, cell_off
):
    """The kernel, on topology ``T`` (:meth:`~mazekit.grids.Grid.kernel_topology`: padded
    offsets, a polar grid's ring table or a neighbour table), one for every grid: from cell
    ``start`` (at fast index ``p``) to the cell at fast index ``goal``, through the passages
    ``fast`` in the fast layout (:func:`~mazekit.grids.kernel.fast_values`, nothing open
    beyond the cells). Returns the path (cells), how many cells left the queue and how many
    entered it; ``trace`` (``(cells + 1, 3)`` int32, or no rows) gets those cells' ``VISIT``
    events, in order.

    C's layout (``../shared/limit``): one byte a fast index in ``came`` (zeros) says how to
    walk back to the parent (:func:`~mazekit.grids.kernel.came_code`; 255 at the start),
    the queue (``queue``: ``cells + 1`` uint32) holds fast indices, and each neighbour is
    queued without a branch (written at the tail, the tail moved on by 0 or 1): the passage
    bits are random, and a mispredicted branch a bit cost as much as the rest of the loop.
    The trace is written from the queue after the search when ``trace`` has rows
    (:func:`~mazekit.grids.kernel.trace_cells`: a multiply, not a division, a cell); the
    front door :func:`bfs` passes none and makes the rows from the queue when the trace is
    first read (:class:`_Trace`). Every index is
    unsigned (no negative-index fix-ups); ``slots`` is
    :func:`~mazekit.grids.kernel.slot_count` of the grid, the count compiled in. The path is
    written to the start of ``into`` (int64) where it fits, else to a new array, moved cell by
    cell by ``cell_off`` (:func:`~mazekit.grids.kernel.cell_steps`, made once by the caller:
    made here it was an array a maze)."""
    off1 = gk.flat(T)
    step = gk.held(off1, slots)  # a rectangle's offsets and marks in registers
    n_slot = len(slots)
    watched = progress.shape[0] > DONE
    one = np.uint64(1)
    first = np.uint64(p)
    end = np.uint64(goal)
    came[first] = 255
    queue[0] = np.uint32(first)
    head, tail = np.uint64(0), one
    while head < tail:
        u = np.uint64(queue[head])
        head += one
        if head & np.uint64(4095) == 0 and watched:
            progress[DONE] = head
        if u == end:
            break
        bits = fast[u]
        h = gk.around(off1, u)
        for slot in range(n_slot):
            nb = gk.near(h, step, slot)
            ok = (bits >> slot & 1) & (came[nb] == 0)
            queue[tail] = np.uint32(nb)
            came[nb] |= gk.came_code(step, geo, h, slot, ok)
            tail += np.uint64(ok)
    found = came[end] != 0
    if trace.shape[0] != 0:  # (the queue may share the trace's memory: nothing reads it after)
        gk.trace_cells(T, geo, queue, np.int64(head), trace, tr.VISIT)
    if not found:
        return np.empty(0, dtype=np.int64), np.int64(head), np.int64(tail)
    k = _walk_back(T, geo, off1, cell_off, came, first, end, start, n_slot, into)
    if k > into.shape[0]:  # no room: walked again into an array of its own
        into = np.empty(k, dtype=np.int64)
        _walk_back(T, geo, off1, cell_off, came, first, end, start, n_slot, into)
    return into[0:k], np.int64(head), np.int64(tail)


@njit(cache=True, nogil=True)
def _walk_back(T, geo, off1, cell_off, came, first, end, start, n_slot, out):  # pragma: no cover
    """The path from fast index ``first`` (cell ``start``) to ``end`` by the marks in
    ``came``, written to the start of ``out`` where it fits (else only counted); its length.
    One walk, from the goal back, then turned round: counting the steps first and writing
    them on a second walk cost 17% of a 10x10 maze's search (2026-12-07)."""
    room = out.shape[0]
    v = end
    c = gk.to_cell(T, geo, np.int64(v))  # then moved cell by cell: no division
    k = 0
    while v != first:
        if k < room:
            out[k] = c
        k += 1
        q = gk.came_from(T, off1, came, v, n_slot)
        c = gk.along(T, cell_off, c, v, np.int64(came[v]) - 1, q)
        v = q
    if k >= room:
        return k + 1
    out[k] = start
    i, j = 0, k
    while i < j:
        out[i], out[j] = out[j], out[i]
        i += 1
        j -= 1
    return k + 1


@njit(cache=True, nogil=True)
def _many(passages, geo, mask, starts, goals, lengths, cells, T, slots):  # pragma: no cover - compiled
    """:func:`_bfs` on maze after maze of a stack (each copied into one fast layout, and
    ``came`` cleared where each search went): path ``k`` goes to ``cells`` from the total so
    far, ``lengths[k]`` cells (0 when the goal is unreachable). Returns the total, or -1 when
    ``cells`` is too short."""
    fast = gk.lay_out(T, geo, mask, 0, 0)  # nothing open beyond the cells
    came = np.zeros(fast.shape[0], dtype=np.uint8)
    queue = np.empty(passages.shape[1] + 1, dtype=np.uint32)
    quiet = np.zeros(4, dtype=np.uint64)  # no progress words: the caller counts mazes
    none = np.empty((0, 3), dtype=np.int32)  # no trace
    cell_off = gk.pad_offsets(geo, geo[2])  # (cell_steps)
    at = 0
    for k in range(passages.shape[0]):
        s, g = starts[k], goals[k]
        gk.copy_in(T, geo, passages[k], fast)
        p, q = gk.to_fast(T, geo, s), gk.to_fast(T, geo, g)
        path, _, queued = _bfs(fast, T, geo, p, s, q, quiet, came, queue, none, slots, cells[at:], cell_off)
        for i in range(queued):  # the marks are on the cells queued: clear them for the next
            came[queue[i]] = 0
        n = path.shape[0]
        if at + n > cells.shape[0]:  # (then written elsewhere)
            return -1
        lengths[k] = n
        at += n
    return at


@njit(cache=True, nogil=True)
def _rows(T, geo, queue, count, trace):  # pragma: no cover - compiled
    """The trace rows of the first ``count`` fast indices of ``queue``, in place when the queue
    is ``trace``'s last third (:func:`~mazekit.grids.kernel.trace_cells`)."""
    gk.trace_cells(T, geo, queue, count, trace, tr.VISIT)


class _Trace:
    """:func:`bfs`'s trace, made when it is first read: the cells that left the queue, in
    order (:func:`_rows`), once: copies of the solution share this maker, and threads
    reading at once wait for the one making it. It keeps ``geo``, a stand-in of the
    topology's type (the rows need no more of it) and either the whole buffer, whose last
    third is the queue and whose rows are then written over it, or, when the search
    explored less than half the maze, a copy of the queue's part that was used. Pickled,
    it is the rows."""

    def __init__(self, T: np.ndarray, geo: tuple[int, int, int, int], buffer: np.ndarray, used: int) -> None:
        self.kind = np.empty((0, *T.shape[1:]), dtype=T.dtype)  # (not T: a table is 16-32 bytes a cell)
        self.geo = geo
        rows = buffer.shape[0] // 3
        queue = buffer[2 * rows :].view(np.uint32)
        self.buffer: np.ndarray | None = None if 2 * used < rows else buffer
        self.queue: np.ndarray | None = queue[:used].copy() if self.buffer is None else None
        self.used = used
        self.made: np.ndarray | None = None
        self.lock = threading.Lock()

    def __call__(self) -> np.ndarray:
        with self.lock:
            if self.made is None:
                if self.buffer is not None:  # in place: the rows over the queue
                    rows = self.buffer.shape[0] // 3
                    trace = self.buffer.reshape(rows, 3)
                    _rows(self.kind, self.geo, self.buffer[2 * rows :].view(np.uint32), self.used, trace)
                    self.made = trace[: self.used]
                else:
                    assert self.queue is not None
                    self.made = np.empty((self.used, 3), dtype=np.int32)
                    _rows(self.kind, self.geo, self.queue, self.used, self.made)
                self.buffer = self.queue = None
            return self.made

    def __reduce__(self) -> tuple[Any, ...]:
        return (_made, (self(),))


def _made(trace: np.ndarray) -> Callable[[], np.ndarray]:
    """A pickled :class:`_Trace`: its rows, as a maker that gives them."""
    return partial(np.asarray, trace)


def bfs(maze: Maze, start: Cell, goal: Cell) -> Solution:
    """Shortest path by breadth-first search.

    The trace (every cell that left the queue, in order) is kept as the queue's indices and
    made into rows the first time it is read: a solve that only wants the path does not pay
    for it (a quarter of the time on a 2000x2000 maze, 2026-12-06).

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.bfs import bfs
    >>> m = mazekit.generate("kruskal", (4, 6), rng=2)
    >>> s = bfs(m, m.start, m.goal)
    >>> s.found, s.path[0].tolist(), s.path[-1].tolist()
    (True, [0, 0], [3, 5])
    """
    s, g = flat_ends(maze, start, goal)
    grid = maze.grid
    progress = meter(grid.n_cells)  # cells explored, of at most all
    if grid.padded_cells() >= 2**32 or grid.size >= 2**31:  # (32-bit fast indices, int32 trace cells)
        raise ValueError(f"bfs solves mazes of fewer than 2**31 cells, not {grid.describe()}")
    T = grid.kernel_topology()
    geo = grid.geo
    fast = gk.fast_values(T, geo, maze.passages.ravel(), 0)
    came = np.zeros(grid.padded_cells() + 1, dtype=np.uint8)  # (+1: a table's sentinel)
    rows = grid.n_cells + 1
    buffer = np.empty(3 * rows, dtype=np.int32)  # the trace, its last third the queue meanwhile
    ends = (gk.fast_index(T, geo, s), s, gk.fast_index(T, geo, g), progress, came)
    queue = buffer[2 * rows :].view(np.uint32)
    # the path's room: the buffer's first two thirds, unused until the trace is made (a path
    # has at most ``rows - 1`` cells), so the path is walked once, not counted first
    room = buffer[: 2 * rows].view(np.int64)
    rest = (tr.empty(), gk.slot_count(grid.n_slots), room, gk.cell_steps(geo))
    path, used, _ = _bfs(fast, T, geo, *ends, queue, *rest)
    path = path.copy()  # (out of the room: the trace's rows go there)
    del came, queue, ends, fast, room
    report(progress, grid.n_cells)  # the step is over, found early or not
    return solution("bfs", maze, start, goal, path, _Trace(T, geo, buffer, int(used)))


def many(
    passages: np.ndarray, grid: Grid, starts: np.ndarray, goals: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Shortest paths of a stack of flat mazes in one compiled call: ``(cells, counts)``,
    the flat cells of every path one after the other and how many each path has (0:
    unreachable). The dataset's solver (:mod:`mazekit.dataset.batch`).

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("prim", (4, 5), rng=1)
    >>> cells, counts = many(m.passages.reshape(1, -1), m.grid, np.array([0]), np.array([19]))
    >>> int(counts[0]) == mazekit.solve(m, "bfs").path.shape[0]
    True
    """
    count = passages.shape[0]
    counts = np.zeros(count, dtype=np.int64)
    room = max(count * min(grid.size, 64), 1)
    T = grid.kernel_topology()
    geo, mask = grid.kernel_args()
    ends = (starts.astype(np.int64), goals.astype(np.int64), counts)
    while True:
        cells = np.empty(room, dtype=np.int64)
        used = _many(passages, geo, mask, *ends, cells, T, gk.slot_count(grid.n_slots))
        if used >= 0:
            return cells[:used], counts
        room *= 2
