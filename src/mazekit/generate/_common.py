"""What every generator shares: buffers in, a :class:`Carved` result out."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from numba import njit

from .. import trace as tr
from .._memory import index_scratch
from ..grids import Grid
from ..grids import kernel as gk
from ..maze import Carved


def buffers(grid: Grid, record: bool, events_per_cell: int) -> tuple[np.ndarray, np.ndarray]:
    """A zeroed flat passage array and a trace buffer (empty unless ``record``)."""
    passages = np.zeros(grid.size, dtype=np.uint8)
    trace = tr.allocate(events_per_cell * grid.size + 4) if record else tr.empty()
    return passages, trace


#: A per-cell index scratch array (kept under its old name for the generators).
scratch = index_scratch


def random_cell(grid: Grid, rng: np.random.Generator) -> int:
    """Flat index of a uniformly chosen existing cell.

    The same draw as indexing the list of existing cells, without building that list (8
    bytes a cell): count the cells row by row, then look in the one row.
    """
    if grid.mask is None:
        return int(rng.integers(grid.size))
    i = int(rng.integers(grid.n_cells))
    before = np.cumsum(grid.row_counts())
    r = int(np.searchsorted(before, i, side="right"))
    return r * grid.cols + int(np.flatnonzero(grid.mask[r])[i - (int(before[r - 1]) if r else 0)])


def start_cell(grid: Grid, rng: np.random.Generator, root: Any = None) -> int:
    """Flat index of the cell carving starts from: ``root`` (a ``(row, col)`` cell, or
    ``"row,col"`` as ``-O root=0,0`` gives it), checked in one line, else
    :func:`random_cell` (``root`` given, no number is drawn for it)."""
    if root is None:
        return random_cell(grid, rng)
    if isinstance(root, str):
        parts = root.replace("(", "").replace(")", "").split(",")
        try:
            root = tuple(int(v) for v in parts)
        except ValueError:
            raise ValueError(f"root must be ROW,COL, got {root!r}") from None
    return grid.flat(grid.check_cell(root, "root"))


def carved(grid: Grid, passages: np.ndarray, trace: np.ndarray, used: int) -> Carved:
    """The result: passages in the grid's shape, the trace cut to the ``used`` events.

    The trace buffer is shrunk in place (a copy would double the trace's peak memory, which
    ``TRACE_BYTES_PER_CELL`` does not allow for).
    """
    if not trace.shape[0]:
        return Carved(passages.reshape(grid.shape), None)
    if trace.base is None and trace.flags.owndata:
        trace.resize((used, 3), refcheck=False)
    else:
        trace = trace[:used].copy()
    return Carved(passages.reshape(grid.shape), trace)


@njit(cache=True, nogil=True)
def unavailable(n, mask):  # pragma: no cover - compiled
    """Per-cell flags, 1 where a cell does not exist: a "visited" array that keeps a
    generator out of masked cells without a mask check in its hot loop."""
    if mask.shape[0] == 0:
        return np.zeros(n, dtype=np.uint8)
    return (mask == 0).astype(np.uint8)


def carve_fast(
    kernel: Callable[..., int],
    grid: Grid,
    fast: np.ndarray,
    root: int,
    outside: int,
    bits: int | None,
    passages: np.ndarray,
    *rest: object,
) -> int:
    """Run a fast kernel, ``kernel(laid_out, geo, root, fast index of root, *rest)``, on the
    fast layout of ``grid`` made with numpy (:func:`~mazekit.grids.kernel.fast_layout`:
    ``outside`` beyond the cells) and copy its passage ``bits`` out into ``passages``
    (unless ``bits`` is None: a kernel that writes ``passages`` itself); return what the
    kernel returns. Laying out in numpy keeps the layout's code out of a
    first run's compiling (the module's ``_many``, for many mazes in one call, compiles it)."""
    geo, mask = grid.kernel_args()
    if bits is not None:  # the kernel's state bits: a byte up in a two-byte layout
        outside, bits = gk.state_bits(fast, outside, bits)
    laid = gk.fast_layout(fast, geo, mask, 0, outside)
    used = kernel(laid, geo, root, gk.fast_index(fast, geo, root), *rest)
    if bits is not None:
        gk.fast_passages(fast, geo, laid, bits, passages)
    return used
