"""What every transform shares: wall helpers, the weave rule, result and replay.

A transform works on a *copy* of the input's passages and returns a
:class:`~mazekit.generate.Carved`. Its trace holds ``OPEN`` and ``CLOSE`` events (see
:mod:`mazekit.trace`) that turn the **input's** passages into the output's, so it replays
with :func:`replay_from`, not from an empty grid. Measurements of a maze (dead ends, pieces,
loops) live in :mod:`mazekit.measure`.

On a weave grid a transform that opens walls opens only plain walls (slots N, E, S, W), and
never one that would break a crossing: see :func:`crossed_cells`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
from numba import njit

from .. import trace as tr
from ..grids import Grid
from ..grids import kernel as k
from ..kernels.walls import close_wall, open_wall
from ..maze import Carved
from ..measure import degree
from ..replay import replay

if TYPE_CHECKING:
    from ..maze import Maze

__all__ = ["Carved", "close_wall", "crossed_cells", "degree", "done", "open_wall", "replay_from", "snapshot"]


wall_slots = k.wall_slots  # a transform opens walls, never a weave grid's tunnels


@njit(cache=True, nogil=True)
def _crossed(passages, cols, out):  # pragma: no cover - compiled
    n = passages.shape[0]
    for cell in range(n):
        if passages[cell] >> 5 & 1 and cell + 1 < n:  # a tunnel under the cell to the east
            out[cell + 1] = 1
        if passages[cell] >> 6 & 1 and cell + cols < n:  # under the cell to the south
            out[cell + cols] = 1


def crossed_cells(passages: np.ndarray, grid: Grid) -> np.ndarray:
    """Per-cell flags, 1 where a weave tunnel passes under the cell; empty off weave grids.

    Such a cell must stay a straight corridor across its tunnel, so a transform opens no
    wall of it (that includes the walls the tunnel's ends face it with). Every other plain
    wall can be opened without breaking a crossing.
    """
    if not grid.tunnel_slots:
        return np.zeros(0, dtype=np.uint8)
    out = np.zeros(grid.size, dtype=np.uint8)
    _crossed(np.asarray(passages).ravel(), grid.cols, out)
    return out


def start(maze: Maze, record: bool, events_per_cell: int) -> tuple[np.ndarray, np.ndarray]:
    """A flat copy of the maze's passages and a trace buffer (empty unless ``record``)."""
    passages = maze.passages.ravel().copy()
    size = maze.grid.size
    trace = tr.allocate(events_per_cell * size + 4) if record else tr.empty()
    return passages, trace


def done(grid: Grid, passages: np.ndarray, trace: np.ndarray, used: int) -> Carved:
    """The :class:`Carved` result of a transform kernel that wrote ``used`` trace rows."""
    return Carved(passages.reshape(grid.shape), trace[:used].copy() if trace.shape[0] else None)


# -- replay ---------------------------------------------------------------------------------


def replay_from(passages: np.ndarray, trace: np.ndarray, grid: Grid, upto: int | None = None) -> np.ndarray:
    """The passages after the first ``upto`` events of ``trace``, replayed from ``passages``.

    A transform's trace starts from the input maze, not from an empty grid; this is
    `mazekit.replay.replay` with that starting state. ``passages`` is not modified.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.transform import TRANSFORMS
    >>> m = mazekit.generate("kruskal", (6, 6), rng=1)
    >>> out = TRANSFORMS["braid"](m, np.random.default_rng(0), record=True)
    >>> bool((replay_from(m.passages, out.trace, m.grid) == out.passages).all())
    True
    """
    return replay(trace, grid, upto, start=passages)


@njit(cache=True, nogil=True)
def _snapshot(passages, geo, mask, out):  # pragma: no cover - compiled
    masked = mask.shape[0] != 0
    t = 0
    for cell in range(passages.shape[0]):
        if masked and mask[cell] == 0:
            continue
        for slot in range(k.n_slots(geo[0])):
            nb = k.step(geo, cell, slot)
            if nb <= cell or (masked and mask[nb] == 0):  # each wall once, from its lower cell
                continue
            event = tr.OPEN if passages[cell] >> slot & 1 else tr.CLOSE
            t = tr.record(out, t, cell, event, slot)
    return t


def snapshot(maze: Maze) -> np.ndarray:
    """A trace that sets every wall of the grid to its state in ``maze``.

    It replays to ``maze.passages`` from an empty grid *and* from an open room, so it stands
    in for the history of a maze whose generator trace was not recorded (a loaded file).
    """
    grid = maze.grid
    out = tr.allocate(grid.n_slots * grid.size // 2 + 1)  # a grid has at most that many walls
    used = _snapshot(maze.passages.ravel(), *grid.kernel_args(), out)
    return out[:used].copy()
