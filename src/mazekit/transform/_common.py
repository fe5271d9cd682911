"""What every transform shares, and measurements of a maze's shape (dead ends, pieces, loops).

A transform works on a *copy* of the input's passages and returns a
:class:`~mazekit.generate.Carved`. Its trace holds ``OPEN`` and ``CLOSE`` events (see
:mod:`mazekit.trace`) that turn the **input's** passages into the output's, so it replays
with :func:`replay_from`, not from an empty grid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from .. import trace as tr
from ..generate._common import Carved
from ..grid import RectGrid, through

if TYPE_CHECKING:
    from ..maze import Maze


@njit(cache=True, inline="always")
def degree(bits):  # pragma: no cover - compiled
    """Open passages of one cell (the number of set bits among the four slots)."""
    return (bits & 1) + (bits >> 1 & 1) + (bits >> 2 & 1) + (bits >> 3 & 1)


@njit(cache=True, inline="always")
def open_wall(passages, cols, cell, slot):  # pragma: no cover - compiled
    """Open the wall through ``slot`` of ``cell`` on both sides (the neighbour must exist)."""
    nb = through(cols, cell, slot)
    passages[cell] |= np.uint8(1 << slot)
    passages[nb] |= np.uint8(1 << ((slot + 2) & 3))
    return nb


@njit(cache=True, inline="always")
def close_wall(passages, cols, cell, slot):  # pragma: no cover - compiled
    """Put up the wall through ``slot`` of ``cell`` on both sides."""
    nb = through(cols, cell, slot)
    passages[cell] &= ~np.uint8(1 << slot)
    passages[nb] &= ~np.uint8(1 << ((slot + 2) & 3))
    return nb


def start(maze: Maze, record: bool, events_per_cell: int) -> tuple[np.ndarray, np.ndarray]:
    """A flat copy of the maze's passages and a trace buffer (empty unless ``record``)."""
    passages = maze.passages.ravel().copy()
    size = maze.grid.size
    trace = tr.allocate(events_per_cell * size + 4) if record else tr.empty()
    return passages, trace


def done(grid: RectGrid, passages: np.ndarray, trace: np.ndarray, used: int) -> Carved:
    """The :class:`Carved` result of a transform kernel that wrote ``used`` trace rows."""
    return Carved(passages.reshape(grid.shape), trace[:used].copy() if trace.shape[0] else None)


# -- replay ---------------------------------------------------------------------------------


def replay_from(
    passages: np.ndarray, trace: np.ndarray, grid: RectGrid, upto: int | None = None
) -> np.ndarray:
    """The passages after the first ``upto`` events of ``trace``, replayed from ``passages``.

    A transform's trace starts from the input maze, not from an empty grid; this is
    :func:`mazekit.trace.replay` with that starting state. ``passages`` is not modified.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.transform import TRANSFORMS
    >>> m = mazekit.generate("kruskal", (6, 6), rng=1)
    >>> out = TRANSFORMS["braid"](m, np.random.default_rng(0), record=True)
    >>> bool((replay_from(m.passages, out.trace, m.grid) == out.passages).all())
    True
    """
    p = np.array(passages, dtype=np.uint8).reshape(grid.shape)
    n = trace.shape[0] if upto is None else min(int(upto), trace.shape[0])
    tr._replay(p.ravel(), *grid.kernel_args(), trace, n)
    return p


@njit(cache=True)
def _snapshot(passages, rows, cols, mask, out):  # pragma: no cover - compiled
    t = 0
    for cell in range(rows * cols):
        if mask.shape[0] != 0 and mask[cell] == 0:
            continue
        r = cell // cols
        c = cell - r * cols
        for slot in (1, 2):
            if slot == 1 and c == cols - 1:
                continue
            if slot == 2 and r == rows - 1:
                continue
            nb = through(cols, cell, slot)
            if mask.shape[0] != 0 and mask[nb] == 0:
                continue
            event = tr.OPEN if passages[cell] >> slot & 1 else tr.CLOSE
            t = tr.record(out, t, cell, event, slot)
    return t


def snapshot(maze: Maze) -> np.ndarray:
    """A trace that sets every wall of the grid to its state in ``maze``.

    It replays to ``maze.passages`` from an empty grid *and* from an open room, so it stands
    in for the history of a maze whose generator trace was not recorded (a loaded file).
    """
    out = tr.allocate(2 * maze.grid.size)
    used = _snapshot(maze.passages.ravel(), *maze.grid.kernel_args(), out)
    return out[:used].copy()


# -- measurements ---------------------------------------------------------------------------


@njit(cache=True)
def _dead_ends(passages, out):  # pragma: no cover - compiled
    """Count cells with exactly one open passage; write their flat indices to ``out`` if it
    has room (pass a zero-length array just to count)."""
    k = 0
    for cell in range(passages.shape[0]):
        if degree(passages[cell]) == 1:
            if k < out.shape[0]:
                out[k] = cell
            k += 1
    return k


def dead_ends(maze: Maze) -> int:
    """Number of dead ends: cells with exactly one open passage.

    Examples
    --------
    >>> import mazekit
    >>> dead_ends(mazekit.generate("backtracker", (1, 5), rng=0))
    2
    """
    return int(_dead_ends(maze.passages.ravel(), np.zeros(0, dtype=np.int64)))


def dead_end_cells(maze: Maze) -> np.ndarray:
    """Flat indices (``row * cols + col``, ascending) of the dead ends."""
    flat = maze.passages.ravel()
    out = np.empty(flat.shape[0], dtype=np.int64)
    k = _dead_ends(flat, out)
    return out[:k].copy()


@njit(cache=True)
def _components(passages, cols, exists):  # pragma: no cover - compiled
    n = passages.shape[0]
    seen = np.zeros(n, dtype=np.uint8)
    stack = np.empty(n, dtype=np.int64)
    count = 0
    for s in range(n):
        if seen[s] or (exists.shape[0] != 0 and exists[s] == 0):
            continue
        count += 1
        seen[s] = 1
        top = 0
        stack[0] = s
        while top >= 0:
            cell = stack[top]
            top -= 1
            bits = passages[cell]
            for slot in range(4):
                if bits >> slot & 1:
                    nb = through(cols, cell, slot)
                    if not seen[nb]:
                        seen[nb] = 1
                        top += 1
                        stack[top] = nb
    return count


def components(maze: Maze) -> int:
    """Number of separate pieces the passages join the cells into (1 for a connected maze;
    every passage-less cell, e.g. one filled by a dead-end filler, is a piece of its own).

    Examples
    --------
    >>> import mazekit
    >>> components(mazekit.generate("prim", (4, 4), rng=0))
    1
    """
    _, cols, mask = maze.grid.kernel_args()
    return int(_components(maze.passages.ravel(), cols, mask))


def loops(maze: Maze) -> int:
    """Number of independent loops (the cycle rank): passages - cells + pieces.

    0 for a perfect maze; every wall a braid or a loop-adder opens adds one.
    """
    return maze.n_passages - maze.grid.n_cells + components(maze)
