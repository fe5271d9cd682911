"""A cursor over a trace: what every cell looks like, and which passages are open, after any
number of events.

The animations (:mod:`mazekit.render.animate`), the game window (:mod:`mazekit.game`) and
the web page (``web/static/app.js``, which follows the same rules in JavaScript) replay the
traces that kernels record (:mod:`mazekit.trace`). They all read the same per-cell state, a
class of :mod:`mazekit.cell_classes`, changed by each event as :func:`transition` says:

generation (``solving=False``)
    Cells start ``UNVISITED`` (``ROAD`` when the generator starts from an open room).
    ``CARVE`` and ``OPEN`` put both ends of the opened passage in the maze, ``VISIT`` puts
    its cell in; a cell that joins the maze takes ``in_maze``: ``STACK`` when the generator
    backtracks from every cell once (a stack or active list to show), else ``ROAD``.
    ``BACKTRACK`` makes a cell ``ROAD``; ``FRONTIER`` makes an unvisited cell ``FRONTIER``;
    ``CLOSE`` with no slot turns a cell back to rock (``UNVISITED``).
solving (``solving=True``)
    Cells start ``ROAD`` and the passages are the maze's. ``VISIT`` makes a cell
    ``EXPLORED``, ``BACKTRACK`` makes it ``BACKTRACKED``.

``CARVE``, ``OPEN`` and ``CLOSE`` with a slot open or close the passage through it (on a
masked grid, only towards a cell that exists).

Examples
--------
>>> import mazekit
>>> from mazekit.cell_classes import CLASS_NAMES
>>> m = mazekit.generate("backtracker", (3, 4), rng=1, record=True)
>>> r = Replay.of_generation(m, starts_open=False)
>>> CLASS_NAMES[r.state[0]], r.pos, r.current
('unvisited', 0, -1)
>>> events = r.advance(5)
>>> len(events), r.current == int(events[-1, 0]), CLASS_NAMES[r.state[r.current]]
(5, True, 'stack')
>>> _ = r.advance(len(m.trace))
>>> r.done, r.current, bool((r.passages == m.passages.ravel()).all())
(True, -1, True)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from . import trace as tr
from .cell_classes import BACKTRACKED, EXPLORED, FRONTIER, ROAD, STACK, UNVISITED
from .grids import Grid
from .grids import kernel as k

__all__ = ["Replay", "replay", "transition"]


@njit(cache=True, inline="always")
def transition(state, passages, geo, mask, c, ev, slot, solving, in_maze):  # pragma: no cover
    """Apply one trace event (cell ``c``, event ``ev``, ``slot``) to the cell states and the
    passages (both flat); return the neighbour through the event's slot (-1 if none).

    ``in_maze`` is the state a generator's new cell takes; while ``solving``, visits and
    backtracks tint cells (see the module docstring).
    """
    nb = -1
    if slot >= 0:
        nb = k.step(geo, c, slot)
        if nb >= 0 and mask.shape[0] != 0 and mask[nb] == 0:
            nb = -1
    new = state[c] == UNVISITED or state[c] == FRONTIER
    if ev == tr.CARVE or ev == tr.OPEN or ev == tr.CLOSE:
        if nb >= 0:
            back = k.back(geo, c, slot)
            if ev == tr.CLOSE:
                passages[c] &= ~np.uint8(1 << slot)
                passages[nb] &= ~np.uint8(1 << back)
            else:
                passages[c] |= np.uint8(1 << slot)
                passages[nb] |= np.uint8(1 << back)
        if ev == tr.CLOSE and slot < 0 and not solving:  # a cell turned back to rock
            state[c] = UNVISITED
        if ev != tr.CLOSE:  # both ends of an opened passage are in the maze now
            if new:
                state[c] = in_maze
            if nb >= 0 and (state[nb] == UNVISITED or state[nb] == FRONTIER):
                state[nb] = in_maze
    elif ev == tr.VISIT:
        if solving:
            state[c] = EXPLORED
        elif new:
            state[c] = in_maze
    elif ev == tr.BACKTRACK:
        state[c] = BACKTRACKED if solving else ROAD
    elif ev == tr.FRONTIER and state[c] == UNVISITED:
        state[c] = FRONTIER
    return nb


@njit(cache=True, nogil=True)
def _advance(state, passages, geo, mask, events, solving, in_maze):  # pragma: no cover - compiled
    """Apply ``events`` in order; return the cell of the last one (-1 if none)."""
    last = -1
    for i in range(events.shape[0]):
        c = events[i, 0]
        transition(state, passages, geo, mask, c, events[i, 1], events[i, 2], solving, in_maze)
        last = c
    return last


#: A kernel that applies events as :meth:`Replay.advance` does (calling :func:`transition`
#: on each, in order) and may do more as it goes: ``kernel(state, passages, geo, mask,
#: events, solving, in_maze, *args)`` returning the cell of the last event.
Applier = Callable[..., Any]


class Replay:
    """A cursor over ``trace``: the per-cell :attr:`state` and the :attr:`passages` after the
    first :attr:`pos` events.

    Parameters
    ----------
    trace : numpy.ndarray
        ``(n, 3)`` events ``(cell, event, arg)`` (see :mod:`mazekit.trace`).
    grid : Grid
    passages : numpy.ndarray
        The passages before the first event (copied).
    state : int
        Every cell's state before the first event (a class of :mod:`mazekit.cell_classes`).
    solving : bool
        Replay a solver's trace (visits tint cells) rather than a generator's.
    in_maze : int
        The state a generator's new cell takes (``STACK`` or ``ROAD``).

    :meth:`of_generation` and :meth:`of_solution` make the two usual cursors.
    """

    def __init__(
        self, trace: np.ndarray, grid: Grid, passages: np.ndarray, *, state: int, solving: bool,
        in_maze: int = ROAD,
    ) -> None:  # fmt: skip
        self.trace = np.asarray(trace, dtype=np.int32).reshape(-1, 3)
        self.grid = grid
        self.geo, self.mask = grid.kernel_args()
        self.passages = np.array(passages, dtype=np.uint8).ravel()
        self.state = np.full(self.passages.size, state, dtype=np.uint8)
        self.solving, self.in_maze = bool(solving), int(in_maze)
        self.pos = 0
        self.last = -1

    @classmethod
    def of_generation(cls, maze: Any, trace: np.ndarray | None = None, *, starts_open: bool) -> Replay:
        """A cursor over the generation of ``maze`` (its ``trace`` unless another is given).

        ``starts_open`` (required) starts from a room with every inner wall gone: pass what
        the maze's generator says, :func:`mazekit.generate.starts_open` ``(maze.algorithm)``
        (true for recursive division, which raises walls). The replay sits below the
        generators, so it is told rather than asking them; a caller that forgets gets a
        ``TypeError``, never a replay from the wrong start.
        """
        grid = maze.grid
        trace = maze.trace if trace is None else trace
        trace = tr.empty() if trace is None else trace
        is_open = bool(starts_open)
        first = tr.open_room(grid) if is_open else np.zeros(grid.shape, np.uint8)
        # a stack or active list pops every cell once; other backtracks (hunt-and-kill's end
        # of a walk) leave no stack to show
        stack = int((np.asarray(trace)[:, 1] == tr.BACKTRACK).sum()) >= grid.n_cells
        return cls(trace, grid, first, state=ROAD if is_open else UNVISITED, solving=False,
                   in_maze=STACK if stack else ROAD)  # fmt: skip

    @classmethod
    def of_solution(cls, maze: Any, solution: Any) -> Replay:
        """A cursor over ``solution``'s trace, on ``maze``'s passages."""
        return cls(solution.trace, maze.grid, maze.passages, state=ROAD, solving=True)

    def __len__(self) -> int:
        return len(self.trace)

    @property
    def done(self) -> bool:
        """Whether every event has been applied."""
        return self.pos >= len(self.trace)

    @property
    def current(self) -> int:
        """The flat cell of the latest event, or -1 before the first and after the last."""
        return -1 if self.done else self.last

    def advance(self, count: int, kernel: Applier | None = None, *args: Any) -> np.ndarray:
        """Apply the next ``count`` events (fewer at the end); return them.

        ``kernel`` applies them instead of the plain replay: a compiled function that calls
        :func:`transition` on each event in order and may paint as it goes (see
        :data:`Applier`); ``args`` are passed on to it.
        """
        events = self.trace[self.pos : self.pos + max(0, int(count))]
        run = _advance if kernel is None else kernel
        last = run(self.state, self.passages, self.geo, self.mask, events, self.solving, self.in_maze, *args)
        if len(events):
            self.last = int(last)
        self.pos += len(events)
        return events

    def finish(self) -> None:
        """Apply every event left."""
        self.advance(len(self.trace) - self.pos)


def replay(
    trace: np.ndarray,
    grid: Grid,
    upto: int | None = None,
    *,
    starts_open: bool = False,
    start: np.ndarray | None = None,
) -> np.ndarray:
    """The passages after the first ``upto`` events of a trace (all by default).

    They start empty, or from the open room if ``starts_open``, or from ``start`` (a
    transform's trace starts from its input maze; ``start`` is not modified). This is
    :class:`Replay` run to ``upto``.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("prim", (5, 5), rng=1, record=True)
    >>> bool((replay(m.trace, m.grid) == m.passages).all())
    True
    """
    if start is None:
        start = tr.open_room(grid) if starts_open else np.zeros(grid.shape, dtype=np.uint8)
    cursor = Replay(trace, grid, start, state=0, solving=False)  # only the passages are asked for
    cursor.advance(trace.shape[0] if upto is None else int(upto))
    return cursor.passages.reshape(grid.shape)
