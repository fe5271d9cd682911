"""Cellular-automaton caves: random rock smoothed by a life-like rule into open caverns.

1. Make each cell rock with probability ``fill``, floor otherwise.
2. ``steps`` times, update every cell at once by counting rock among its eight neighbours
   (cells off the grid or masked out count as rock): floor turns to rock if the count is in
   the rule's birth set, rock stays rock if it is in the survival set. The default
   ``B5678/S45678`` is the classic "4-5 rule" (rock if 5 or more neighbours are rock, or if
   it was rock and 4 or more are).
3. With ``connect`` (the default), keep only the largest floor region; the rest becomes rock.
4. Open a passage between every two edge-adjacent floor cells.

This is **not** a perfect maze and not a spanning tree: floor cells form open caverns full
of loops, and rock cells have no passages at all. Texture: rounded caves with ragged walls
and narrow necks; higher ``fill`` or more ``steps`` of rock-favouring rules close the caves
up. Other rules in the same notation work, e.g. ``B678/S345678`` (rock is born only in
thick rock but survives on three neighbours: it smooths less, leaving thinner, ragged
rock and narrower, twistier passages). With ``connect``, if fewer than two connected floor
cells would remain (a tiny grid, ``fill`` near 1) the cave is the single cell nearest the
centre. :func:`ends` picks start and goal on the floor.

The trace starts from solid rock: a ``VISIT`` turns a cell into floor and a ``CLOSE``
with slot -1 turns it back into rock (the random fill, then every change of every step and
of ``connect``), then an ``OPEN`` per passage. Reference: RogueBasin, "Cellular Automata
Method for Generating Random Cave-Like Levels"; J. Johnson, G. N. Yannakakis, J. Togelius,
"Cellular automata for real-time generation of infinite cave levels" (2010).
"""

from __future__ import annotations

import re

import numpy as np
from numba import njit

from .. import trace as tr
from .._limits import check_count
from ..grid import Cell, RectGrid
from ..grids import kernel as gk
from ..trace import CLOSE, OPEN, VISIT, record
from ._common import Carved, carved

PERFECT = False
GRIDS = ("rect",)  # the birth/survival rule counts the eight cells around a square
BYTES_PER_CELL = 11  # passages + two rock grids + int32 region labels + int32 stack

RULE = "B5678/S45678"
_RULE_RE = re.compile(r"^B([0-8]*)/S([0-8]*)$", re.IGNORECASE)


def parse_rule(rule: str) -> tuple[np.ndarray, np.ndarray]:
    """``(birth, survive)`` lookup tables over 0-8 rock neighbours from ``"B.../S..."``.

    Examples
    --------
    >>> born, stays = parse_rule("B5678/S45678")
    >>> born.nonzero()[0].tolist(), stays.nonzero()[0].tolist()
    ([5, 6, 7, 8], [4, 5, 6, 7, 8])
    """
    match = _RULE_RE.match(rule.strip()) if isinstance(rule, str) else None
    if match is None:
        raise ValueError(f"cellular_automaton rule must look like 'B5678/S45678' (counts 0-8), got {rule!r}")
    tables = np.zeros((2, 9), dtype=np.uint8)
    for i, digits in enumerate(match.groups()):
        tables[i, [int(d) for d in digits]] = 1
    return tables[0], tables[1]


@njit(cache=True, nogil=True)
def _fill(rows, cols, mask, fill, rock, rng):  # pragma: no cover
    for cell in range(rows * cols):
        if mask.shape[0] != 0 and mask[cell] == 0:
            rock[cell] = 1
        else:
            rock[cell] = 1 if rng.random() < fill else 0


@njit(cache=True, nogil=True)
def _step(rows, cols, mask, rock, out, born, stays):  # pragma: no cover
    """One synchronous update of ``rock`` into ``out``; return how many cells changed."""
    changed = 0
    for r in range(rows):
        for c in range(cols):
            cell = r * cols + c
            if mask.shape[0] != 0 and mask[cell] == 0:
                out[cell] = 1
                continue
            count = 0
            for dr in range(-1, 2):
                for dc in range(-1, 2):
                    if dr == 0 and dc == 0:
                        continue
                    rr, cc = r + dr, c + dc
                    if rr < 0 or rr >= rows or cc < 0 or cc >= cols:
                        count += 1
                    else:
                        count += rock[rr * cols + cc]
            out[cell] = stays[count] if rock[cell] else born[count]
            changed += out[cell] != rock[cell]
    return changed


@njit(cache=True, nogil=True)
def _largest_region(rows, cols, mask, rock, label, stack):  # pragma: no cover
    """Label floor regions (edge-adjacent); return ``(label, size)`` of the largest, first on ties."""
    label[:] = -1
    geo = (gk.RECT, rows, cols, 0)
    masked = mask.shape[0] != 0
    best, best_size, n = -1, 0, 0
    for s in range(rows * cols):
        if rock[s] or label[s] >= 0:
            continue
        label[s] = n
        stack[0] = s
        top, size = 0, 0
        while top >= 0:
            cell = stack[top]
            top -= 1
            size += 1
            for slot in range(4):
                nb = gk.step(geo, cell, slot)
                if nb >= 0 and not (masked and mask[nb] == 0) and rock[nb] == 0 and label[nb] < 0:
                    label[nb] = n
                    top += 1
                    stack[top] = nb
        if size > best_size:
            best, best_size = n, size
        n += 1
    return best, best_size


@njit(cache=True, nogil=True)
def _keep(rock, label, best):  # pragma: no cover
    for cell in range(rock.shape[0]):
        if rock[cell] == 0 and label[cell] != best:
            rock[cell] = 1


@njit(cache=True, nogil=True)
def _centre(rows, cols, mask):  # pragma: no cover
    """The existing cell nearest the centre (first in reading order on ties)."""
    best, best_d = -1, 1 << 62
    for cell in range(rows * cols):
        if mask.shape[0] != 0 and mask[cell] == 0:
            continue
        dr, dc = 2 * (cell // cols) - (rows - 1), 2 * (cell % cols) - (cols - 1)
        if dr * dr + dc * dc < best_d:
            best, best_d = cell, dr * dr + dc * dc
    return best


@njit(cache=True, nogil=True)
def _open(rows, cols, rock, passages, trace, t):  # pragma: no cover
    """Open every passage between neighbouring floor cells; trace each, east before south
    (``trace`` empty: nothing recorded). Returns the next trace row."""
    for r in range(rows):
        for c in range(cols):
            cell = r * cols + c
            if rock[cell]:
                continue
            if c + 1 < cols and rock[cell + 1] == 0:
                passages[cell] |= 2
                passages[cell + 1] |= 8
                t = record(trace, t, cell, OPEN, 1)
            if r + 1 < rows and rock[cell + cols] == 0:
                passages[cell] |= 4
                passages[cell + cols] |= 1
                t = record(trace, t, cell, OPEN, 2)
    return t


@njit(cache=True, nogil=True)
def _changes(before, after, trace, t):  # pragma: no cover
    """Trace the cells whose rock changed from ``before`` (empty: all rock) to ``after``:
    ``VISIT`` where one becomes floor, ``CLOSE`` where it becomes rock."""
    for cell in range(after.shape[0]):
        was = before[cell] if before.shape[0] else 1
        if was != after[cell]:
            t = record(trace, t, cell, CLOSE if after[cell] else VISIT, -1)
    return t


_ALL_ROCK = np.zeros(0, dtype=np.uint8)  # "before" of the first fill: solid rock


def _events(steps: object) -> int:
    """Events a cell at most: one for the first floor, one per step, one for cutting off small
    caverns, two passages (``steps`` not yet checked: a bad value counts as the default, and
    the generator then refuses it with its own message)."""
    ok = isinstance(steps, int | np.integer) and not isinstance(steps, bool) and steps >= 0
    return 4 + (int(steps) if ok else 4)  # type: ignore[call-overload]


def trace_bytes_per_cell(steps: object = 4, **_: object) -> int:
    """Bytes a cell that recording adds at most: 12 per event (:func:`_events`; many steps of a
    rule that never settles could each change every cell) and the rock before ``connect``."""
    return 12 * _events(steps) + 1


def _room(trace: np.ndarray, t: int, need: int, most: int) -> np.ndarray:
    """``trace`` (if recording) with room for ``need`` events after row ``t``: doubled in
    place when full, never past ``most`` rows (what the declaration allows)."""
    if trace.shape[0] and trace.shape[0] < t + need:
        trace.resize((min(most, max(2 * trace.shape[0], t + need)), 3), refcheck=False)
    return trace


#: Most rounds of the rule: a cave settles (or cycles, as Life's B3/S23 does) within a few
#: hundred; and at most :data:`MAX_UPDATES` cell updates in all, so that a big grid's bound
#: keeps the run to about a minute.
MAX_STEPS = 10_000
MAX_UPDATES = 1 << 32


def max_steps(cells: int) -> int:
    """The most ``steps`` a grid of ``cells`` cells takes (:data:`MAX_STEPS`, fewer on grids
    of over 429,496 cells).

    >>> max_steps(30 * 20), max_steps(10_000 * 10_000)
    (10000, 42)
    """
    return max(1, min(MAX_STEPS, MAX_UPDATES // max(cells, 1)))


def _steps_why(cells: int) -> str:
    if max_steps(cells) == MAX_STEPS:
        return "a cave settles or cycles within a few hundred rounds"
    return f"{MAX_UPDATES:,} cell updates in all, on {cells:,} cells"


def cellular_automaton(
    grid: RectGrid,
    rng: np.random.Generator,
    *,
    fill: float = 0.45,
    steps: int = 4,
    rule: str = RULE,
    connect: bool = True,
    record: bool = False,
) -> Carved:
    """Carve a cave (not a perfect maze) on ``grid`` with a cellular automaton.

    Parameters
    ----------
    fill : float
        Probability that a cell starts as rock, from 0 to 1.
    steps : int
        Rounds of the rule, at least 0 and at most :func:`max_steps` (10,000; fewer on grids
        of over 429,496 cells). Stops early at a fixed point.
    rule : str
        Birth and survival counts of rock among the eight neighbours, ``"B.../S..."``.
    connect : bool
        Keep only the largest floor region, so that any two floor cells are connected.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grid import RectGrid
    >>> out = cellular_automaton(RectGrid((20, 30)), np.random.default_rng(1))
    >>> out.passages.shape, bool(out.passages.any())
    ((20, 30), True)
    """
    if isinstance(fill, bool) or not isinstance(fill, int | float | np.number) or not 0.0 <= fill <= 1.0:
        raise ValueError(f"cellular_automaton fill must be a number from 0 to 1, got {fill!r}")
    steps = check_count("cellular_automaton steps", steps, max_steps(grid.size), why=_steps_why(grid.size))
    if not isinstance(connect, bool | np.bool_):
        raise ValueError(f"cellular_automaton connect must be True or False, got {connect!r}")
    born, stays = parse_rule(rule)
    (_, rows, cols, _), mask = grid.kernel_args()
    rock = np.empty(grid.size, dtype=np.uint8)
    _fill(rows, cols, mask, float(fill), rock, rng)
    n = grid.size
    most = n * _events(steps) + 4
    trace = tr.allocate(n + 4) if record else tr.empty()  # grown as events come (_room)
    t = _changes(_ALL_ROCK, rock, trace, 0) if record else 0
    spare = np.empty_like(rock)
    for _ in range(int(steps)):
        changed = _step(rows, cols, mask, rock, spare, born, stays)
        if record:
            trace = _room(trace, t, n, most)
            t = _changes(rock, spare, trace, t)
        rock, spare = spare, rock
        if changed == 0:
            break  # a fixed point: further steps change nothing
    if connect:
        before = rock.copy() if record else None
        label = np.empty(n, dtype=np.int32 if n < 2**31 else np.int64)
        best, size = _largest_region(rows, cols, mask, rock, label, np.empty_like(label))
        if size < 2:  # no cave worth the name: one floor cell, in the middle
            rock[:] = 1
            rock[_centre(rows, cols, mask)] = 0
        else:
            _keep(rock, label, best)
        del label
        if before is not None:
            trace = _room(trace, t, n, most)
            t = _changes(before, rock, trace, t)
    del spare
    passages = np.zeros(n, dtype=np.uint8)
    trace = _room(trace, t, 2 * n, most)
    t = _open(rows, cols, rock, passages, trace, t)
    return carved(grid, passages, trace, t)


def ends(passages: np.ndarray, grid: RectGrid) -> tuple[Cell, Cell]:
    """Start and goal on the floor of a cave: the floor cells nearest the top-left and the
    bottom-right corners, within the largest cavern (all of the floor when ``connect``).

    With no passages at all, both are the cell nearest the centre (the one floor cell that
    ``connect`` keeps when nothing else survives).

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grid import RectGrid
    >>> grid = RectGrid((20, 30))
    >>> out = cellular_automaton(grid, np.random.default_rng(1))
    >>> start, goal = ends(out.passages, grid)
    >>> bool(out.passages[start]) and bool(out.passages[goal])
    True
    """
    (_, rows, cols, _), mask = grid.kernel_args()
    flat = np.ascontiguousarray(passages).ravel()
    if not flat.any():
        centre = grid.unflat(int(_centre(rows, cols, mask)))
        return centre, centre
    rock = (flat == 0).view(np.uint8)
    label = np.empty(flat.size, dtype=np.int32 if flat.size < 2**31 else np.int64)
    best, _ = _largest_region(rows, cols, mask, rock, label, np.empty_like(label))
    first, last = _corners(label, best, cols)
    return grid.unflat(int(first)), grid.unflat(int(last))


@njit(cache=True, nogil=True)
def _corners(label, best, cols):  # pragma: no cover
    """The cells labelled ``best`` with the least and the greatest ``(row + col, row)``: the
    ones nearest the top-left and the bottom-right corners, found in one pass (sorting the
    cave's cells took some 25 bytes a cell)."""
    first = last = -1
    lo_key = hi_key = 0
    for cell in range(label.shape[0]):
        if label[cell] != best:
            continue
        r = cell // cols
        key = (r + cell - r * cols) * (cols + label.shape[0]) + r  # (r + c, r), in order
        if first < 0 or key < lo_key:
            first, lo_key = cell, key
        if last < 0 or key > hi_key:
            last, hi_key = cell, key
    return first, last
