"""The kernel tables: kind codes, slot counts and the offset tables every grid kind's
compiled arithmetic reads, and :func:`declare`, which adds a table grid's rows."""

from __future__ import annotations

from typing import Any

import numpy as np

from ..._compile import fresh_cache

fresh_cache()  # before any kernel loads from numba's cache: kernels inline the helpers below

RECT, HEX, TRIANGLE, POLAR, UPSILON, CUBE, WEAVE = 0, 1, 2, 3, 4, 5, 6

#: Slots per built-in grid kind, indexed by the kind code.
SLOTS_OF = (4, 6, 3, 5, 8, 6, 8)

#: The most slots any grid has: one bit each in a ``uint8`` cell.
MAX_SLOTS = 8

#: The first code of a table grid (see :func:`declare`), and room for that many kinds.
TABLE, MAX_KINDS = 7, 16

#: Which cells share a set of offsets on a table grid, by rule code: all; by the column's
#: parity; by the row's; by the checkerboard's (``row + col``).
PARITY_RULES = ("none", "col", "row", "checker")

_TWO_PI = 6.283185307179586

#: The row offset of a slot a cell does not have: it always lands off the grid.
_NOWHERE = 1 << 40


def _offset_tables() -> tuple[np.ndarray, np.ndarray]:
    """Row and column offsets ``[kind, parity, slot]`` of the grids that are pure offsets.

    Parity is the column's (hex) or the checkerboard's (triangle, upsilon); a slot a cell does
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
    # hex, flat-topped, odd columns half a cell lower: N NE SE S SW NW
    dr[HEX, 0, :6] = (-1, -1, 0, 1, 0, -1)
    dr[HEX, 1, :6] = (-1, 0, 1, 1, 1, 0)
    dc[HEX, :, :6] = (0, 1, 1, 0, -1, -1)
    # triangle: W E base; parity 0 points up (base below), 1 points down (base above)
    dr[TRIANGLE, 0, :3] = (0, 0, 1)
    dr[TRIANGLE, 1, :3] = (0, 0, -1)
    dc[TRIANGLE, :, :3] = (-1, 1, 0)
    # upsilon: N NE E SE S SW W NW on octagons (parity 0); squares only N E S W
    dr[UPSILON, 0] = (-1, -1, 0, 1, 1, 1, 0, -1)
    dc[UPSILON, 0] = (0, 1, 1, 1, 0, -1, -1, -1)
    dr[UPSILON, 1, ::2] = (-1, 0, 1, 0)
    dc[UPSILON, 1, ::2] = (0, 1, 0, -1)
    return dr, dc


_DR, _DC = _offset_tables()
_RECT_DR = _DR[RECT, 0, :4].copy()
_RECT_DC = _DC[RECT, 0, :4].copy()

# The rest of a table grid's row, filled by declare(): its parity rule, slot count, the slot
# back from each neighbour, the next slot either way round (index 0 counter-clockwise, 1
# clockwise), which slots a cell has, the longest step (for estimate) and each slot's
# compass heading in degrees (-1 if the grid does not lie flat: see declare).
_RULE = np.zeros(MAX_KINDS, dtype=np.int64)
SLOT_COUNT = np.zeros(MAX_KINDS, dtype=np.int64)
SLOT_COUNT[:TABLE] = SLOTS_OF
_BACK = np.zeros((MAX_KINDS, 2, MAX_SLOTS), dtype=np.int64)
_TURN = np.zeros((MAX_KINDS, 2, MAX_SLOTS, 2), dtype=np.int64)
_HAS = np.zeros((MAX_KINDS, 2, MAX_SLOTS), dtype=np.bool_)
_REACH = np.ones(MAX_KINDS, dtype=np.int64)
HEADING = np.full((MAX_KINDS, 2, MAX_SLOTS), -1, dtype=np.int64)
_DECLARED: dict[int, str] = {}


#: Set once a grid hands itself to a kernel (:attr:`~mazekit.grids.base.Grid.geo`): from then
#: on kernels may have frozen the tables, and :func:`declare` refuses new grids.
SEALED = [False]


def table_rows(offsets: Any, parity: str = "none", headings: Any = None) -> dict[str, Any]:
    """A table grid's rows of the kernel tables, worked out from its declaration.

    ``offsets`` lists, for each parity class (one list for ``parity="none"``, two otherwise:
    even, odd), the ``(drow, dcol)`` step through each slot, ``None`` where such cells lack
    the slot; slots are numbered clockwise round the cell (as drawn, y down). ``headings``
    (the same shape, degrees clockwise from north) makes the grid flat for the solvers that
    need the plane; :class:`~mazekit.grids.base.Grid` derives them from the drawing.
    Everything else is derived: the way back (the slot of the neighbour whose offset is the
    opposite one, an error if there is not exactly one), the turns, the slot count.

    Examples
    --------
    >>> rows = table_rows([[(-1, 0), (0, 1), (1, 0), (0, -1)]])  # a plain square grid
    >>> rows["back"][0, :4].tolist(), rows["turn"][0, 3].tolist(), rows["slots"], rows["reach"]
    ([2, 3, 0, 1], [2, 0], 4, 1)
    """
    if parity not in PARITY_RULES:
        raise ValueError(f"parity must be one of {', '.join(PARITY_RULES)}, got {parity!r}")
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
    }
    pairs: list[tuple[int, int, int, int]] = []  # (parity, slot) and (parity, slot) back
    for p in range(2):
        present = [s for s in range(n) if rows[p][s] is not None]
        if not present:
            raise ValueError("every cell needs at least one slot")
        for s in range(n):
            out["has"][p, s] = s in present
            later = [t for t in present if t > s] + present
            earlier = [t for t in present if t < s][::-1] + present[::-1]
            out["turn"][p, s] = earlier[0], later[0]
            if rows[p][s] is None:
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
                seen = [int(h[p, s]) for s in range(n) if out["has"][p, s]]
                steps = [(b - a) % 360 for a, b in zip(seen, seen[1:] + seen[:1], strict=True)]
                if len(seen) > 1 and sum(steps) != 360:
                    raise ValueError(f"slots must be numbered clockwise round a cell; headings {seen}")
        else:
            h[:] = -1  # ways back not half a turn round: it does not lie flat
    return out


def declare(code: int, offsets: Any, parity: str = "none", headings: Any = None) -> None:
    """Write table grid ``code``'s rows (:func:`table_rows`) into the kernel tables.

    The tables are constants of every compiled kernel (numba freezes global arrays), so a
    grid is declared when its module is imported, with the package, before any kernel runs:
    once a grid has been handed to a kernel (:data:`SEALED`) a new declaration is refused.
    The disk cache is dropped when a package source changes (:func:`mazekit._compile.fresh_cache`).
    """
    if not (TABLE <= code < MAX_KINDS):
        raise ValueError(f"a table grid's code must be {TABLE}..{MAX_KINDS - 1}, got {code!r}")
    rows = table_rows(offsets, parity, headings)
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
    _DECLARED[code] = key
