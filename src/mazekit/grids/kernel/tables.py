"""The kernel tables: kind codes, slot counts and the offset tables every grid kind's
compiled arithmetic reads, and :func:`declare`, which adds a table grid's rows."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._compile import fresh_cache, start_numba

fresh_cache()  # before any kernel loads from numba's cache: kernels inline the helpers below
start_numba()  # (the command line's quick start)

#: The kinds whose neighbours no table describes (wrapped edges, rings, stairs, tunnels) are
#: branches in the kernels; codes from :data:`TABLE` on are table grids (:func:`declare`),
#: the built-in hex, triangle and upsilon grids first.
RECT, POLAR, CUBE, WEAVE = 0, 1, 2, 3
HEX, TRIANGLE, UPSILON = 4, 5, 6

#: Slots per built-in grid kind with branches, indexed by the kind code.
SLOTS_OF = (4, 5, 6, 8)

#: The most slots any grid has: one bit each in a ``uint8`` cell.
MAX_SLOTS = 8

#: The first code of a table grid (see :func:`declare`), the first one free for a new grid,
#: and room for that many kinds.
TABLE, FIRST_FREE, MAX_KINDS = 4, 7, 16

#: How :func:`~mazekit.grids.kernel.estimate` bounds a table grid's steps between two cells,
#: by metric code: the longest offset's reach in rows or columns (Chebyshev); rows plus
#: columns (each step moves one of them by one); the hexagonal distance of a lattice whose
#: odd columns sit half a cell lower (hex).
METRICS = ("reach", "taxicab", "offset_columns")

#: Which cells share a set of offsets on a table grid, by rule code: all; by the column's
#: parity; by the row's; by the checkerboard's (``row + col``).
PARITY_RULES = ("none", "col", "row", "checker")

_TWO_PI = 6.283185307179586

#: The row offset of a slot a cell does not have: it always lands off the grid.
_NOWHERE = 1 << 40


def _offset_tables() -> tuple[np.ndarray, np.ndarray]:
    """Row and column offsets ``[kind, parity, slot]`` of the kinds with branches whose
    neighbours are offsets (the rest are declared, see :func:`declare`); a slot a cell does
    not have gets an offset that always lands off the grid. Tables, not branches: a walk
    that picks slots at random would mispredict a branch on every step.
    """
    dr = np.full((MAX_KINDS, 2, MAX_SLOTS), _NOWHERE, dtype=np.int64)
    dc = np.zeros((MAX_KINDS, 2, MAX_SLOTS), dtype=np.int64)
    for kind in (RECT, CUBE, WEAVE):
        dr[kind, :, :4] = (-1, 0, 1, 0)
        dc[kind, :, :4] = (0, 1, 0, -1)
    dr[WEAVE, :, 4:] = (-2, 0, 2, 0)
    dc[WEAVE, :, 4:] = (0, 2, 0, -2)
    return dr, dc


_DR, _DC = _offset_tables()
_RECT_DR = _DR[RECT, 0, :4].copy()
_RECT_DC = _DC[RECT, 0, :4].copy()

# The rest of a table grid's row, filled by declare(): its parity rule, slot count, the slot
# back from each neighbour, the next slot either way round (index 0 counter-clockwise, 1
# clockwise), which slots a cell has, the longest step and the metric (for estimate), each
# slot's compass heading in degrees (-1 if the grid does not lie flat: see declare), whether
# some cells lack slots, whether two slots of a cell head the same way, and whether the grid
# has a padded layout (see padded.paddable).
_RULE = np.zeros(MAX_KINDS, dtype=np.int64)
SLOT_COUNT = np.zeros(MAX_KINDS, dtype=np.int64)
SLOT_COUNT[:TABLE] = SLOTS_OF
_BACK = np.zeros((MAX_KINDS, 2, MAX_SLOTS), dtype=np.int64)
_TURN = np.zeros((MAX_KINDS, 2, MAX_SLOTS, 2), dtype=np.int64)
_HAS = np.zeros((MAX_KINDS, 2, MAX_SLOTS), dtype=np.bool_)
_REACH = np.ones(MAX_KINDS, dtype=np.int64)
_METRIC = np.zeros(MAX_KINDS, dtype=np.int64)
_LACKS = np.zeros(MAX_KINDS, dtype=np.bool_)
_SHARED = np.zeros(MAX_KINDS, dtype=np.bool_)
_PADDED = np.zeros(MAX_KINDS, dtype=np.bool_)
#: Bit 0: the slot back, bit 1: the turns, bit 2: the headings are the same for both
#: parities, so the kernels need not work out a cell's parity (a division) to read them.
_SAME = np.zeros(MAX_KINDS, dtype=np.int64)
HEADING = np.full((MAX_KINDS, 2, MAX_SLOTS), -1, dtype=np.int64)
_DECLARED: dict[int, str] = {}


#: Set once a grid hands itself to a kernel (:attr:`~mazekit.grids.base.Grid.geo`): from then
#: on kernels may have frozen the tables, and :func:`declare` refuses new grids.
SEALED = [False]


def table_rows(
    offsets: Any, parity: str = "none", headings: Any = None, order: Any = None, metric: str = "reach"
) -> dict[str, Any]:
    """A table grid's rows of the kernel tables, worked out from its declaration.

    ``offsets`` lists, for each parity class (one list for ``parity="none"``, two otherwise:
    even, odd), the ``(drow, dcol)`` step through each slot, ``None`` where such cells lack
    the slot. ``order`` (one list per parity) gives a cell's slots clockwise round it as
    drawn (y down); without it the slots must be numbered clockwise. ``headings`` (the
    shape of ``offsets``, degrees clockwise from north) makes the grid flat for the solvers
    that need the plane; :class:`~mazekit.grids.base.Grid` derives them and the order from
    the drawing. ``metric`` (one of :data:`METRICS`) is how A* bounds the steps between two
    cells. Everything else is derived: the way back (the slot of the neighbour whose offset
    is the opposite one, an error if there is not exactly one), the turns, the slot count,
    whether some cells lack slots, whether two slots head the same way, which rows are the
    same for both parities, and whether the grid has a padded layout (at most 6 slots
    that every cell has, or 7 or 8 slots, some of which cells may lack; the way back the
    same from either parity, a parity that a padded index's last bit can tell: none, the
    column's or the checkerboard's, and no step longer than one cell: the border is one;
    with four slots, the same steps for both parities, since the kernels take a padded
    grid of four slots for a rectangle and read one parity's offsets).

    Examples
    --------
    >>> rows = table_rows([[(-1, 0), (0, 1), (1, 0), (0, -1)]])  # a plain square grid
    >>> rows["back"][0, :4].tolist(), rows["turn"][0, 3].tolist(), rows["slots"], rows["reach"]
    ([2, 3, 0, 1], [2, 0], 4, 1)
    >>> bool(rows["padded"]), bool(rows["lacks"])
    (True, False)
    """
    if parity not in PARITY_RULES:
        raise ValueError(f"parity must be one of {', '.join(PARITY_RULES)}, got {parity!r}")
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(METRICS)}, got {metric!r}")
    rows: list[list[Any]] = [[None if step is None else tuple(step) for step in row] for row in offsets]
    if len(rows) != (1 if parity == "none" else 2):
        raise ValueError(f"parity {parity!r} needs {1 if parity == 'none' else 2} list(s) of offsets")
    n = len(rows[0])
    if not (1 <= n <= MAX_SLOTS) or any(len(row) != n for row in rows):
        counts = [len(row) for row in rows]
        raise ValueError(f"every parity must list the same 1..{MAX_SLOTS} slots, got {counts}")
    rows = rows * (3 - len(rows))
    rule = PARITY_RULES.index(parity)
    out: dict[str, Any] = {
        "dr": np.full((2, MAX_SLOTS), _NOWHERE, dtype=np.int64),
        "dc": np.zeros((2, MAX_SLOTS), dtype=np.int64),
        "back": np.zeros((2, MAX_SLOTS), dtype=np.int64),
        "turn": np.zeros((2, MAX_SLOTS, 2), dtype=np.int64),
        "has": np.zeros((2, MAX_SLOTS), dtype=np.bool_),
        "heading": np.full((2, MAX_SLOTS), -1, dtype=np.int64),
        "reach": 1,
        "rule": rule,
        "slots": n,
        "metric": METRICS.index(metric),
        "lacks": False,
        "shared": False,
        "padded": False,
        "same": 0,
    }
    rounds: list[list[int]] = []  # each parity's slots, clockwise
    for p in range(2):
        present = [s for s in range(n) if rows[p][s] is not None]
        if not present:
            raise ValueError("every cell needs at least one slot")
        if order is not None:
            given = [int(s) for s in (list(order) * (3 - len(order)))[p]]
            if sorted(given) != present:
                raise ValueError(f"order must list each slot a cell has once: got {given}, slots {present}")
            present = given
        rounds.append(present)
    pairs: list[tuple[int, int, int, int]] = []  # (parity, slot) and (parity, slot) back
    for p in range(2):
        present = rounds[p]
        for i, s in enumerate(present):
            out["turn"][p, s] = present[i - 1], present[(i + 1) % len(present)]
        for s in range(n):
            out["has"][p, s] = rows[p][s] is not None
            if rows[p][s] is None:  # the next slots it has either way, in slot order
                had = sorted(present)
                later = [t for t in had if t > s] + had
                earlier = [t for t in had if t < s][::-1] + had[::-1]
                out["turn"][p, s] = earlier[0], later[0]
                continue
            dr, dc = rows[p][s]
            out["dr"][p, s], out["dc"][p, s] = dr, dc
            flip = (0, dc, dr, dr + dc)[rule] & 1
            ways = [t for t in range(n) if rows[p ^ flip][t] == (-dr, -dc)]
            if len(ways) != 1:
                raise ValueError(
                    f"slot {s} (offset {(dr, dc)}) needs exactly one slot back with offset {(-dr, -dc)}, "
                    f"found {len(ways)}"
                )
            out["back"][p, s] = ways[0]
            pairs.append((p, s, p ^ flip, ways[0]))
            out["reach"] = max(out["reach"], abs(dr), abs(dc))
    if headings is not None:
        turns = [list(row) for row in headings]
        h = out["heading"]
        for p, row in enumerate(turns * (3 - len(turns))):
            h[p, :n] = [-1 if v is None else int(v) % 360 for v in row]
        if all(h[p, s] >= 0 and h[q, t] == (h[p, s] + 180) % 360 for p, s, q, t in pairs):
            for p in range(2):  # walkers need the slots in clockwise order: once round
                seen = [int(h[p, s]) for s in rounds[p]]
                steps = [(b - a) % 360 for a, b in zip(seen, seen[1:] + seen[:1], strict=True)]
                if len(seen) > 1 and sum(steps) != 360:
                    raise ValueError(f"slots must be numbered clockwise round a cell; headings {seen}")
                out["shared"] |= len(set(seen)) < len(seen)
        else:
            h[:] = -1  # ways back not half a turn round: it does not lie flat
    out["lacks"] = not out["has"][:, :n].all()
    both = out["has"][0] & out["has"][1]  # a slot's way back matters only where it is one
    out["same"] = (
        int(bool((out["back"][0][both] == out["back"][1][both]).all()))
        + 2 * int(bool((out["turn"][0] == out["turn"][1]).all()))
        + 4 * int(bool((out["heading"][0] == out["heading"][1]).all()))
    )
    alike = bool((out["dr"][0] == out["dr"][1]).all() and (out["dc"][0] == out["dc"][1]).all())
    out["padded"] = (  # (seven or eight slots: two bytes a cell, the slots a cell lacks masked)
        (n > 6 or not out["lacks"])
        and rule != PARITY_RULES.index("row")
        and bool(out["same"] & 1)
        and out["reach"] == 1  # (one blocked cell of border: a longer step would read past it)
        and (n != 4 or alike)  # four slots: the kernels read a rectangle's, parity-free
    )
    return out


def declare(
    code: int,
    offsets: Any,
    parity: str = "none",
    headings: Any = None,
    order: Any = None,
    metric: str = "reach",
) -> None:
    """Write table grid ``code``'s rows (:func:`table_rows`) into the kernel tables.

    The tables are constants of every compiled kernel (numba freezes global arrays), so a
    grid is declared when its module is imported, with the package, before any kernel runs:
    once a grid has been handed to a kernel (:data:`SEALED`) a new declaration is refused.
    The disk cache is dropped when a package source changes (:func:`mazekit._compile.fresh_cache`).
    """
    if not (TABLE <= code < MAX_KINDS):
        raise ValueError(
            f"a table grid's code must be {FIRST_FREE}..{MAX_KINDS - 1} ({TABLE}..{FIRST_FREE - 1} are the"
            f" built-in hex, triangle and upsilon), got {code!r}"
        )
    rows = table_rows(offsets, parity, headings, order, metric)
    key = repr(sorted((name, np.asarray(value).tolist()) for name, value in rows.items()))
    if _DECLARED.get(code, key) != key:
        raise ValueError(f"grid code {code} is declared twice, with other offsets")
    if code in _DECLARED:
        return
    if SEALED[0]:
        raise RuntimeError(
            f"grid code {code} is declared after kernels ran, which cannot see it: a table grid is "
            f"imported with the package (its line in mazekit.grids.GRIDS)"
        )
    _DR[code], _DC[code], _BACK[code], _TURN[code] = rows["dr"], rows["dc"], rows["back"], rows["turn"]
    _HAS[code], HEADING[code] = rows["has"], rows["heading"]
    _REACH[code], _RULE[code], SLOT_COUNT[code] = rows["reach"], rows["rule"], rows["slots"]
    _METRIC[code], _LACKS[code] = rows["metric"], rows["lacks"]
    _SHARED[code], _PADDED[code], _SAME[code] = rows["shared"], rows["padded"], rows["same"]
    _DECLARED[code] = key
