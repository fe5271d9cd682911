"""Rooms: carve open rooms into a maze, dungeon style (rectangles; sectors on polar grids).

1. Choose a room size: height and width uniform in ``min_size..max_size`` cells (no larger
   than the grid).
2. Choose a random existing cell and place the rectangle at random so that it covers that
   cell and stays on the grid. If it overlaps a room carved earlier, try again (up to
   ``TRIES`` times; after that the room is skipped, so ``count`` is the most rooms made).
3. Open every wall between two existing cells inside the rectangle.

The work is at most ``count * TRIES`` placements, so ``count`` is bounded by how many
rooms of ``min_size`` could fit on the grid (see :func:`max_rooms`; the default 5 is always
allowed): more is refused, not clipped.

The room's outer walls are left as they were, so each room is entered through the maze
passages that already crossed its edge. Only opens walls: a connected maze stays connected,
and over a perfect maze every room becomes an open area joined to the rest. On a mask only
cells that exist are opened (a room crossing a notch of the shape may come out L-shaped or
in two pieces), on a cut polar disc too. Rooms are rectangles of the grid's layout: on hex,
triangle and upsilon grids they come out with ragged edges, on a 3D grid each stays on one level, and on a
wrapped rect grid a room as wide as the grid joins around the seam. On a polar grid a room
is a sector of an annulus: ``height`` rings, and the angle of ``width`` cells of the ring
it is placed from (the anchor's); in each ring the cells that overlap that angle (fewer
towards the centre, more outward, one at least, across the north seam too). Weave grids are
refused: a room would open the sides of its crossings (see :data:`GRIDS`). Reference:
B. Nystrom, "Rooms and Mazes" (2014), for the dungeon look.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._limits import check_count
from ..grids import GRIDS as ALL_GRIDS
from ..grids import Grid
from ..grids import kernel as k
from ..maze import Maze
from ..trace import OPEN, record
from ._common import Carved, done, open_wall, start

OPENS_ONLY = True
BYTES_PER_CELL = 10  # passages copy + taken flags + int64 cell list
TRIES = 100
DEFAULT_COUNT = 5
#: Rooms per kernel call: a chunk of failing rooms takes well under a second.
CHUNK = 4096
#: Largest room side asked for (rooms are cut to the grid anyway; this keeps the draws in range).
MAX_SIDE = 2**31 - 1

#: Grids rooms are carved on: layout rectangles, and sectors of rings on a polar grid. A room
#: on a weave grid would open the sides of its crossings.
GRIDS = tuple(kind for kind, cls in ALL_GRIDS.items() if not cls.tunnel_slots)


@njit(cache=True, nogil=True)
def _rooms(passages, geo, mask, band, cells, taken, count, lo, hi, tries, rng, trace, t):  # pragma: no cover
    """Place ``count`` more rooms; ``taken`` and the trace position ``t`` carry over calls."""
    cols = geo[2]
    slots = k.n_slots(geo[0])
    masked = mask.shape[0] != 0
    made = 0
    for _ in range(count):
        for _attempt in range(tries):
            h = min(lo + int(rng.random() * (hi - lo + 1)), band)
            w = min(lo + int(rng.random() * (hi - lo + 1)), cols)
            anchor = cells[int(rng.random() * cells.shape[0])]
            ar = anchor // cols
            ac = anchor - ar * cols
            floor = ar - ar % band  # the first row of the anchor's band (its level in 3D)
            top = min(max(ar - int(rng.random() * h), floor), floor + band - h)
            left = min(max(ac - int(rng.random() * w), 0), cols - w)
            free = True
            for r in range(top, top + h):
                for c in range(left, left + w):
                    if taken[r * cols + c]:
                        free = False
                        break
                if not free:
                    break  # a failed try on a full grid costs one look, not a whole rectangle
            if not free:
                continue
            for r in range(top, top + h):
                for c in range(left, left + w):
                    cell = r * cols + c
                    taken[cell] = 1
                    if masked and mask[cell] == 0:
                        continue
                    for slot in range(slots):
                        nb = k.step(geo, cell, slot)
                        if nb <= cell or (masked and mask[nb] == 0) or passages[cell] >> slot & 1:
                            continue  # each wall once, from its lower cell
                        nr = nb // cols
                        nc = nb - nr * cols
                        if top <= nr < top + h and left <= nc < left + w:
                            open_wall(passages, geo, cell, slot)
                            t = record(trace, t, cell, OPEN, slot)
            made += 1
            break
    return t, made


@njit(cache=True, inline="always")
def _sector(inner, ring, left, width, count):  # pragma: no cover - compiled
    """``(n, first, m)``: polar ring ``ring`` has ``n`` cells, and cells ``first .. first + m``
    (modulo ``n``) overlap the angle of cells ``left .. left + width`` of a ring of ``count``
    cells. Integers only: cell ``c`` spans ``[c / n, (c + 1) / n)``. Every ring gets one cell
    at least, and each cell of a ring lies within one of the ring inside it, so the room is
    one piece."""
    n = inner << k.ring_shift(inner, ring)
    first = (left * n) // count  # floor: the first cell whose span ends past the angle's start
    end = -((-(left + width) * n) // count)  # ceil: past the last cell that starts before its end
    return n, first, min(end - first, n)


@njit(cache=True, nogil=True)
def _polar_rooms(passages, geo, mask, cells, taken, count, lo, hi, tries, rng, trace, t):  # pragma: no cover
    """:func:`_rooms` on a polar grid: a room is ``h`` rings and the angle of ``w`` cells of
    the anchor's ring (:func:`_sector`); on a cut disc only its cells that exist open."""
    rows, cols, inner = geo[1], geo[2], geo[3]
    made = 0
    for _ in range(count):
        for _attempt in range(tries):
            h = min(lo + int(rng.random() * (hi - lo + 1)), rows)
            w = lo + int(rng.random() * (hi - lo + 1))
            anchor = cells[int(rng.random() * cells.shape[0])]
            ar = anchor // cols
            ac = anchor - ar * cols
            n_a = inner << k.ring_shift(inner, ar)
            w = min(w, n_a)
            top = min(max(ar - int(rng.random() * h), 0), rows - h)
            left = ac - int(rng.random() * w)
            free = True
            for r in range(top, top + h):
                n, first, m = _sector(inner, r, left, w, n_a)
                for i in range(m):
                    if taken[r * cols + (first + i) % n]:
                        free = False
                        break
                if not free:
                    break
            if not free:
                continue
            for r in range(top, top + h):  # mark the room's cells (that exist)
                n, first, m = _sector(inner, r, left, w, n_a)
                for i in range(m):
                    cell = r * cols + (first + i) % n
                    taken[cell] = 2 if k.exists(mask, cell) else 1
            for r in range(top, top + h):  # open every wall between two of them
                n, first, m = _sector(inner, r, left, w, n_a)
                for i in range(m):
                    cell = r * cols + (first + i) % n
                    if taken[cell] != 2:
                        continue
                    for slot in range(5):
                        nb = k.step(geo, cell, slot)
                        if nb < 0 or nb <= cell or taken[nb] != 2 or passages[cell] >> slot & 1:
                            continue  # each wall once, from its lower cell
                        open_wall(passages, geo, cell, slot)
                        t = record(trace, t, cell, OPEN, slot)
            for r in range(top, top + h):  # taken, like every room's
                n, first, m = _sector(inner, r, left, w, n_a)
                for i in range(m):
                    taken[r * cols + (first + i) % n] = 1
            made += 1
            break
    return t, made


def max_rooms(grid: Grid, band: int, min_size: int) -> int:
    """The most rooms of ``min_size`` a side that could fit on ``grid`` (at least the default).

    Asking for more can only repeat failed placements (``TRIES`` each), so it is refused.
    """
    smallest = min(min_size, band) * min(min_size, grid.cols)
    return max(grid.size // smallest, DEFAULT_COUNT)


def rooms(
    maze: Maze,
    rng: np.random.Generator,
    *,
    count: int = DEFAULT_COUNT,
    min_size: int = 2,
    max_size: int = 5,
    record: bool = False,
) -> Carved:
    """Carve up to ``count`` non-overlapping rooms of ``min_size..max_size`` cells a side.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("backtracker", (12, 12), rng=0)
    >>> out = rooms(m, np.random.default_rng(0), count=1, min_size=3, max_size=3)
    >>> m.replace(passages=out.passages).n_passages > m.n_passages
    True
    """
    grid = maze.grid
    if grid.kind not in GRIDS:
        kinds = ", ".join(GRIDS)
        raise ValueError(f"rooms carves rooms of cells on {kinds} grids, not on a {grid.kind} grid")
    min_size = check_count("rooms min_size", min_size, MAX_SIDE, low=None)
    max_size = check_count("rooms max_size", max_size, MAX_SIDE, low=None)
    if min_size < 1 or max_size < min_size:
        raise ValueError(
            f"rooms need 1 <= min_size <= max_size, got min_size={min_size}, max_size={max_size}"
        )
    band = grid.band_rows  # a 3D room stays on one level
    count = check_count("rooms count", count, max_rooms(grid, band, min_size), why=(
        f"as many {min(min_size, band)}x{min(min_size, grid.cols)} rooms as fit on the grid"
    ))  # fmt: skip
    passages, trace = start(maze, record, 2)
    geo, mask = grid.kernel_args()
    cells, taken = grid.cell_indices(), np.zeros(grid.size, dtype=np.uint8)
    used = 0
    for first in range(0, count, CHUNK):  # Python sees Ctrl-C between chunks
        n = min(CHUNK, count - first)
        if grid.rings:
            used, _made = _polar_rooms(
                passages, geo, mask, cells, taken, n, min_size, max_size, TRIES, rng, trace, used
            )
        else:
            used, _made = _rooms(
                passages, geo, mask, band, cells, taken, n, min_size, max_size, TRIES, rng, trace, used
            )
    return done(maze.grid, passages, trace, used)
