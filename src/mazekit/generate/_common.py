"""What every generator shares: buffers in, a :class:`Carved` result out."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from .. import trace as tr
from .._memory import index_dtype
from ..grids import Grid


class Carved(NamedTuple):
    """A generator's output: the ``uint8`` passage array and its trace (None if not recorded)."""

    passages: np.ndarray
    trace: np.ndarray | None


def buffers(grid: Grid, record: bool, events_per_cell: int) -> tuple[np.ndarray, np.ndarray]:
    """A zeroed flat passage array and a trace buffer (empty unless ``record``)."""
    passages = np.zeros(grid.size, dtype=np.uint8)
    trace = tr.allocate(events_per_cell * grid.size + 4) if record else tr.empty()
    return passages, trace


def scratch(grid: Grid) -> np.ndarray:
    """An uninitialised per-cell index array of the narrowest fitting type."""
    return np.empty(grid.size, dtype=index_dtype(grid.size))


def max_edges(grid: Grid) -> int:
    """An upper bound on the neighbouring pairs of ``grid`` (each counted once)."""
    if grid.kind == "rect" and not grid.params():
        return 2 * grid.size
    return (grid.n_slots * grid.size + 1) // 2


def random_cell(grid: Grid, rng: np.random.Generator) -> int:
    """Flat index of a uniformly chosen existing cell."""
    if grid.mask is None:  # the same draw as indexing arange(size), without building it
        return int(rng.integers(grid.size))
    cells = grid.cell_indices()
    return int(cells[rng.integers(cells.size)])


def carved(grid: Grid, passages: np.ndarray, trace: np.ndarray, used: int) -> Carved:
    return Carved(passages.reshape(grid.shape), trace[:used].copy() if trace.shape[0] else None)


@njit(cache=True)
def unavailable(n, mask):  # pragma: no cover - compiled
    """Per-cell flags, 1 where a cell does not exist: a "visited" array that keeps a
    generator out of masked cells without a mask check in its hot loop."""
    if mask.shape[0] == 0:
        return np.zeros(n, dtype=np.uint8)
    return (mask == 0).astype(np.uint8)
