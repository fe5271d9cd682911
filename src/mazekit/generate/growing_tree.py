"""Growing tree: keep a list of active cells and grow from one chosen by a rule.

1. Put a random cell in the active list.
2. Choose a cell from the list by the rule. If it has unvisited neighbours, open the wall to
   one at random and add that neighbour to the list; otherwise remove the cell.
3. Repeat until the list is empty.

The rule sets the texture: ``newest`` is the recursive backtracker (long winding corridors),
``oldest`` grows like a randomized breadth-first frontier (long straight corridors radiating
from the root), ``random`` behaves like simplified Prim (short dead ends), and ``mix`` takes
the newest cell with probability ``p`` and a random one otherwise: the "DFS that sometimes
gives up and resumes elsewhere". Biased, not uniform. Reference: J. Buck, *Mazes for
Programmers* (2015), ch. 11.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .. import trace as tr
from ..grids import Grid
from ..grids import kernel as gk
from ..kernels.draw import draws, tick, uniform, uniform_pick
from ..trace import BACKTRACK, CARVE, VISIT, record
from ._common import Carved, buffers, carve_fast, carved, scratch, start_cell

BYTES_PER_CELL = 6  # passages + visited + int32 active list
PADDED_BYTES = 1  # its padded layout: a byte a cell (see registry.memory_per_cell)

RULES = ("newest", "oldest", "random", "mix")

SEEN = 128  # padded layout: bits 0-5 are the passages, this bit marks visited and border


@njit(cache=True, nogil=True, _nrt=False)
def _pick(rule, p, lo, hi, src):  # pragma: no cover
    """The index of the active cell to grow from (no reference counting: called per step)."""
    if rule == 0:
        return hi - 1
    if rule == 1:
        return lo
    if rule == 3 and uniform(src) < p:
        return hi - 1
    return lo + int(uniform(src) * (hi - lo))


@njit(cache=True, nogil=True)
def _growing_tree(grid, geo, root, q, active, rule, p, src, trace, T):  # pragma: no cover
    """The kernel, on topology ``T`` (:meth:`~mazekit.grids.Grid.kernel_topology`: the padded
    layout's offsets, a polar grid's ring table or a neighbour table), one for every grid:
    the unvisited neighbours are a bit mask read without branches (the ``k``-th set bit is
    the ``k``-th slot in slot order), the active list holds fast-path indices, and passages
    are carved into ``grid``, the fast layout's bytes (``SEEN`` outside the cells), from
    ``root`` at fast index ``q``; the caller copies them out."""
    shift = gk.high(grid)  # state bits a byte up in a two-byte layout (eight slots)
    seen = SEEN << shift
    n_slot = gk.n_slots(geo[0])
    recording = trace.shape[0] != 0
    grid[q] = seen
    active[0] = q
    lo, hi = 0, 1
    t = record(trace, 0, root, VISIT, -1)
    while hi > lo:
        i = _pick(rule, p, lo, hi, src)
        q = active[i]
        free = gk.open_tunnels(T, geo, grid, q, gk.free_slots(grid, q, T, n_slot, seen))
        if free == 0:  # retire the cell; keep the list contiguous in O(1)
            if i == lo:
                lo += 1
            else:
                hi -= 1
                active[i] = active[hi]
            if recording:
                t = record(trace, t, gk.to_cell(T, geo, q), BACKTRACK, -1)
            continue
        k = gk.BIT_COUNT[free]
        slot = gk.NTH_BIT[free, uniform_pick(src, k)]
        back = gk.hop_back(T, geo, q, slot)
        grid[q] |= 1 << slot
        q = gk.hop(T, q, slot)
        grid[q] |= seen | (1 << back)
        tick(src, 1)
        active[hi] = q
        hi += 1
        if recording:
            t = record(trace, t, gk.to_cell(T, geo, q), CARVE, back)
    return t


@njit(cache=True, nogil=True)
def _many(out, geo, mask, roots, srcs, active, rule, p, trace, T):  # pragma: no cover
    """:func:`_growing_tree` on maze after maze, the fast layout made and copied out inside (the
    front door lays it out with numpy, and so compiles none of this on a first run)."""
    s = gk.high(T)  # the state bits a byte up in a two-byte layout
    blank = gk.lay_out(T, geo, mask, 0, SEEN << s)  # laid out once, copied for each maze
    grid = np.empty_like(blank)
    for k in range(out.shape[0]):
        grid[:] = blank
        _growing_tree(grid, geo, roots[k], gk.to_fast(T, geo, roots[k]), active, rule, p, srcs[k], trace, T)
        gk.copy_out(T, geo, grid, (SEEN << s) - 1, out[k])


def _check(rule: str, p: float) -> None:
    if rule not in RULES:
        raise ValueError(f"unknown growing_tree rule {rule!r}; choose from {', '.join(RULES)}")
    if not 0.0 <= float(p) <= 1.0:
        raise ValueError(f"growing_tree p must be between 0 and 1, got {p}")


def growing_tree(
    grid: Grid,
    rng: np.random.Generator,
    *,
    rule: str = "newest",
    p: float = 0.5,
    root: tuple[int, int] | None = None,
    record: bool = False,
) -> Carved:
    """Carve a perfect maze on ``grid`` with the growing-tree algorithm.

    Parameters
    ----------
    rule : {"newest", "oldest", "random", "mix"}
        Which active cell to grow from.
    p : float
        For ``rule="mix"``: probability of taking the newest cell (else a random one).
    root : (int, int), optional
        The cell carving starts from, e.g. ``(0, 0)`` as the turtle tutorial does
        (``-O root=0,0``); a random cell by default.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grids import RectGrid
    >>> out = growing_tree(RectGrid((4, 4)), np.random.default_rng(0), rule="oldest")
    >>> int((out.passages > 0).sum())
    16
    """
    _check(rule, p)
    passages, trace = buffers(grid, record, 2)
    first = start_cell(grid, rng, root)
    fast = grid.kernel_topology()
    rest = (scratch(grid), RULES.index(rule), float(p))
    with draws(rng, grid.n_cells - 1) as src:
        used = carve_fast(_growing_tree, grid, fast, first, SEEN, SEEN - 1, passages, *rest, src, trace, fast)
    return carved(grid, passages, trace, used)


def many(
    out: np.ndarray, grid: Grid, srcs: np.ndarray, roots: np.ndarray, *, rule: str = "newest", p: float = 0.5
) -> None:
    """:func:`growing_tree` maze after maze in one compiled call: the door to many mazes
    (:func:`mazekit.generate.many_door` says what it takes and gives)."""
    _check(rule, p)
    geo, mask = grid.kernel_args()
    rest = (scratch(grid), RULES.index(rule), float(p), tr.empty(), grid.kernel_topology())
    _many(out, geo, mask, roots, srcs, *rest)
