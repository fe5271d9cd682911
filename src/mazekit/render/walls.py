"""The wall model: every wall a grid can show, and when each one stands.

One list serves every picture. A still picture (:func:`mazekit.render.geometry.scene`: PNG,
SVG, PDF, heat maps) draws the walls that stand in the finished maze; an animation and the
game window (:class:`mazekit.render.frames.CellPainter`) rasterise every wall once and show
those that stand in each frame; the web page receives the list and does the same in the
browser (:mod:`mazekit.web.geometry`). What stands is decided in one place, :func:`standing`.

Walls, in cell units with y pointing down:

- a side of a cell (``grid.outline()``), once per shared side, standing while closed
  (``grid.open_sides``); the outer boundary always, but for the start's and goal's gaps
  (``opening`` items, standing only while the ends are walled in);
- on a weave grid, cells inset by :data:`WEAVE_INSET` (*Mazes for Programmers*, ch. 9): a wall
  across the inner square while a side is closed, and two corridor walls while it is open or
  a tunnel passes under the cell;
- on a 3D grid, a triangle in the cell for each stair, up or down (side by side for both).

Examples
--------
>>> import mazekit
>>> m = mazekit.generate("backtracker", (2, 3), rng=1)
>>> w = wall_model(m.grid, ends=(0, 5))
>>> up = standing(w, m.passages, openings=True)
>>> int(up.sum()), len(w.pieces)  # a perfect 2x3 maze: 7 sides closed of 17 possible
(10, 17)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from ..grids import Grid

#: Margin of a weave cell, in cell widths: corridors are ``1 - 2 * WEAVE_INSET`` wide.
WEAVE_INSET = 0.2

#: Longest angle (radians) a straight piece of a polar wall may span, so rings look round.
ARC_STEP = np.radians(4.0)

_EPS = 1e-6

# What decides whether a wall stands, evaluated per frame.
_ALWAYS, _CLOSED, _CORRIDOR, _OPENING, _UP, _UP_BOTH, _DOWN, _DOWN_BOTH = range(8)

#: The kinds of wall items by name (the first column of :attr:`WallModel.items`): a wall
#: that ``always`` stands, one that stands while its side is ``closed``, a weave
#: ``corridor`` side, the start's or goal's ``opening``, and 3D stair marks.
ITEM_KINDS = {"always": _ALWAYS, "closed": _CLOSED, "corridor": _CORRIDOR, "opening": _OPENING,
              "up": _UP, "up_both": _UP_BOTH, "down": _DOWN, "down_both": _DOWN_BOTH}  # fmt: skip


@dataclass
class WallModel:
    """Everything that can be drawn of a grid, in cell units, and when each wall stands.

    Attributes
    ----------
    grid : Grid
        The grid it draws.
    openings : list of (int, int)
        ``(cell, slot)`` of the start's and goal's gaps in the outer wall.
    regions : numpy.ndarray
        ``(m, V, 2)`` polygons, coloured by the class of ``region_cell``.
    region_cell, region_side : numpy.ndarray
        The cell of each region, and the side it is the corridor end of (a weave cell has an
        inner square and a corridor end per side, shown when that side is open), or -1.
    pieces : numpy.ndarray
        ``(len(items), P, 2)`` wall polylines as the grid draws them, one per item
        (:attr:`lines` has them with polar arcs rounded: what painters draw).
    items : numpy.ndarray
        ``(len(pieces), 4)`` rows ``kind, cell, slot, other`` saying when each wall stands
        (kinds: :data:`ITEM_KINDS`; ``other`` is the cell whose tunnel passes under).
    tris, tri_items : numpy.ndarray
        ``(t, 3, 2)`` 3D stair triangles and their items.
    nb, mids, centers : numpy.ndarray
        The grid's geometry they were made from: neighbours ``(size, slots)``, the middle of
        each side ``(size, slots, 2)`` (NaN without a wall) and of each cell ``(size, 2)``.

    Examples
    --------
    >>> from mazekit.grids import make_grid
    >>> w = wall_model(make_grid("rect", (2, 3)), ends=(0, 5))
    >>> w.openings, len(w.regions), len(w.pieces) == len(w.lines) == len(w.items), len(w.tris)
    ([(0, 0), (5, 2)], 6, True, 0)
    """

    grid: Grid
    openings: list[tuple[int, int]]
    regions: np.ndarray
    region_cell: np.ndarray
    region_side: np.ndarray
    pieces: np.ndarray
    items: np.ndarray
    tris: np.ndarray
    tri_items: np.ndarray
    nb: np.ndarray
    mids: np.ndarray
    centers: np.ndarray

    @cached_property
    def lines(self) -> list[np.ndarray]:
        """:attr:`pieces` with a polar grid's arcs rounded (:func:`round_lines`)."""
        return round_lines(self.grid, list(self.pieces), self.grid.extent()[0])

    @cached_property
    def back(self) -> np.ndarray:
        """:func:`back_slots` of the grid: where each side is drawn again from the other cell."""
        return back_slots(self.nb, self.mids)

    @cached_property
    def every_item(self) -> np.ndarray:
        """``items`` then ``tri_items``: the rows :func:`standing` answers for, in order."""
        return np.concatenate([self.items, self.tri_items])

    @cached_property
    def by_kind(self) -> dict[int, np.ndarray]:
        """The indices into :attr:`every_item` of each kind (a painter asks every frame)."""
        kinds = self.every_item[:, 0]
        return {kind: np.flatnonzero(kinds == kind) for kind in ITEM_KINDS.values()}

    @cached_property
    def partners(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """``(items, cells, slots)``: the ``closed`` walls that two cells share, and the
        other cell's side of each (a shared wall stands only while both sides are closed,
        so a maze whose two cells disagree about a passage shows it open, as it walks)."""
        i = self.by_kind[_CLOSED]
        if self.grid.tunnel_slots:  # a weave cell's inner walls are its own
            i = i[:0]
        cell, slot = self.every_item[i, 1], self.every_item[i, 2]
        other, back = self.nb[cell, slot], self.back[cell, slot]
        shared = (other >= 0) & (back >= 0)
        return i[shared], other[shared], back[shared]


def wall_model(grid: Grid, ends: Any = ()) -> WallModel:
    """The :class:`WallModel` of ``grid``; ``ends`` are the flat start and goal cells, whose
    sides on the outside become walls that can open (``"opening"`` items)."""
    width, height = grid.extent()
    exists = np.ones(grid.size, bool) if grid.mask is None else grid.mask.ravel()
    polys, walls = (np.asarray(a, dtype=float) for a in grid.outline())
    nb = grid.neighbors()
    mids = walls.mean(axis=2)
    centers = grid.centers()
    openings = []
    for name, c in zip(("start", "goal"), ends, strict=False):
        slot = opening(name, int(c), mids, centers, nb, width, height, grid)
        if slot >= 0:
            openings.append((int(c), int(slot)))
    back = None
    if grid.tunnel_slots:
        regions, region_cell, region_side, pieces, items = _weave_parts(grid, exists)
    else:
        cells = np.flatnonzero(exists)
        regions = round_polygons(grid, polys[cells], width)
        region_cell, region_side = cells, np.full(len(cells), -1, np.int64)
        back = back_slots(nb, mids)
        pieces, items = _wall_parts(walls, nb, back, exists, openings)
    tris, tri_items = _stair_parts(grid, nb, exists, centers)
    model = WallModel(grid, openings, regions, region_cell, region_side, pieces, items, tris, tri_items,
                      nb, mids, centers)  # fmt: skip
    if back is not None:
        model.__dict__["back"] = back  # made already: the cached property's value
    return model


def back_slots(nb: np.ndarray, mids: np.ndarray) -> np.ndarray:
    """``(size, slots)``: the neighbour's slot whose wall is this one (drawn in the same
    place), or -1 where there is no neighbour or the two sides are apart (a wrapping edge,
    a stair, a weave tunnel)."""
    size, slots = nb.shape
    out = np.full((size, slots), -1, dtype=np.int64)
    other = np.maximum(nb, 0)
    for t in range(slots):
        same = (np.abs(mids[other, t] - mids) < _EPS).all(axis=2) & (nb >= 0) & (out < 0)
        out[same] = t
    return out


def opening(
    name: str,
    cell: int,
    mids: np.ndarray,
    centers: np.ndarray,
    nb: np.ndarray,
    width: float,
    height: float,
    grid: Grid,
) -> int:
    """The slot of ``cell`` left open as the way in (``name="start"``) or out, or -1.

    Only a side facing the outside of the picture qualifies (not the hole in the middle of a
    polar grid): the start takes the topmost such side, then the leftmost; the goal the
    bottommost, then the rightmost, as the rect pictures do.
    """
    middle = np.array([width / 2, height / 2])
    side = mids[cell]
    outward = np.linalg.norm(side - middle, axis=1) > np.linalg.norm(centers[cell] - middle) + _EPS
    free = (nb[cell] < 0) & ~np.isnan(side[:, 0]) & outward
    free[grid.wall_slots :] = False  # a tunnel opens through its side's slot
    slots = np.flatnonzero(free)
    if len(slots) == 0:
        return -1
    x, y = np.round(side[slots], 6).T
    sign = 1 if name == "start" else -1
    return int(slots[np.lexsort((sign * x, sign * y))[0]])


# -- polar curves ---------------------------------------------------------------------------
def round_lines(grid: Grid, lines: list[np.ndarray], width: float) -> list[np.ndarray]:
    """A polar grid's polylines with points added along their arcs, so rings look round."""
    if not grid.rings or not lines:
        return lines
    sizes = [len(line) for line in lines]
    ids = np.repeat(np.arange(len(lines)), sizes)
    xy, ids = _resample_polar(np.concatenate(lines), ids, width / 2)
    return np.split(xy, np.flatnonzero(ids[1:] != ids[:-1]) + 1)


def round_polygons(grid: Grid, polys: np.ndarray, width: float) -> np.ndarray:
    """A polar grid's cell polygons, their arcs rounded (all with as many corners)."""
    if not grid.rings or len(polys) == 0:
        return polys
    m, v, _ = polys.shape
    closed = np.concatenate([polys, polys[:, :1]], axis=1)
    xy, ids = _resample_polar(closed.reshape(-1, 2), np.repeat(np.arange(m), v + 1), width / 2)
    last = np.r_[ids[1:] != ids[:-1], True]
    xy, ids = xy[~last], ids[~last]  # drop each ring's closing point again
    counts = np.bincount(ids, minlength=m)
    most = int(counts.max())
    at = np.arange(len(ids)) - np.repeat(np.cumsum(counts) - counts, counts)
    out = np.repeat(xy[np.cumsum(counts) - 1][:, None], most, axis=1)  # pad with the last corner
    out[ids, at] = xy
    return out


def _resample_polar(xy: np.ndarray, ids: np.ndarray, middle: float) -> tuple[np.ndarray, np.ndarray]:
    """Points of polylines (``ids`` says which) with their pieces split so that none turns
    more than :data:`ARC_STEP` about ``(middle, middle)``; new points are spaced evenly in
    angle and radius, so arcs stay on their circle and radial lines stay straight."""
    rel = xy - middle
    radius = np.hypot(rel[:, 0], rel[:, 1])
    angle = np.arctan2(rel[:, 1], rel[:, 0])
    same = ids[1:] == ids[:-1]
    turn = (np.diff(angle) + np.pi) % (2 * np.pi) - np.pi  # the short way round
    splits = np.where(same, np.maximum(1, np.ceil(np.abs(turn) / ARC_STEP - 1e-9)), 1).astype(np.int64)
    if (splits == 1).all():
        return xy, ids
    # piece i (from point i to i + 1) gives k = splits[i] points at t = 0, 1/k, ...; a
    # "piece" from one line to the next has k = 1: just its start, the first line's end
    seg = np.repeat(np.arange(len(splits)), splits)
    t = (np.arange(len(seg)) - np.repeat(np.cumsum(splits) - splits, splits)) / splits[seg]
    r = radius[seg] + (radius[seg + 1] - radius[seg]) * t
    a = angle[seg] + turn[seg] * t
    new = np.stack([middle + r * np.cos(a), middle + r * np.sin(a)], axis=1)
    return np.concatenate([new, xy[-1:]]), np.concatenate([ids[seg], ids[-1:]])


def _items(kind: Any, cell: Any, slot: Any, other: Any = -1) -> np.ndarray:
    """``(n, 4)`` rows ``kind, cell, slot, other`` of walls that may stand (``other``: the
    cell whose tunnel passes under a weave cell)."""
    return np.stack(np.broadcast_arrays(kind, cell, slot, other), axis=1).astype(np.int64).reshape(-1, 4)


def _wall_parts(
    walls: np.ndarray, nb: np.ndarray, back: np.ndarray, exists: np.ndarray, openings: list[tuple[int, int]]
) -> tuple[np.ndarray, np.ndarray]:
    """Every wall that can stand and when: the outer boundary always (but for the openings),
    a shared side once, when closed."""
    size, slots = nb.shape
    has = exists[:, None] & ~np.isnan(walls[:, :, 0, 0])
    boundary = has & (nb < 0)
    mids = walls.mean(axis=2)
    for s in range(slots):  # a ring of one polar cell meets itself: no wall there
        for t in range(s + 1, slots):
            seam = (np.abs(mids[:, s] - mids[:, t]) < 1e-6).all(axis=1) & (nb[:, s] < 0) & (nb[:, t] < 0)
            boundary[seam, s] = boundary[seam, t] = False
    inner = has & (nb >= 0) & ((back < 0) | (np.arange(size)[:, None] < nb))
    kind = np.where(boundary, _ALWAYS, _CLOSED)
    for cell, slot in openings:
        if boundary[cell, slot]:
            kind[cell, slot] = _OPENING
    cells, where = np.nonzero(boundary | inner)
    return walls[cells, where], _items(kind[cells, where], cells, where)


def _weave_parts(
    grid: Grid, exists: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Regions and walls of a weave grid, cells inset: an inner square per cell and a corridor
    end per side (shown when that side is open); per side a wall across the inner square
    (when closed) and two corridor walls (when open, or when a tunnel passes under the cell)."""
    i = WEAVE_INSET
    cols = grid.shape[1]
    cells = np.flatnonzero(exists)
    r, c = np.divmod(cells, cols)

    def at(dx: float, dy: float) -> np.ndarray:
        return np.stack([c + dx, r + dy], axis=1).astype(float)

    inner = np.stack([at(i, i), at(1 - i, i), at(1 - i, 1 - i), at(i, 1 - i)], axis=1)
    edge = [(at(i, 0), at(1 - i, 0)), (at(1, i), at(1, 1 - i)),
            (at(1 - i, 1), at(i, 1)), (at(0, 1 - i), at(0, i))]  # fmt: skip
    regions, region_cell, region_side = [inner], [cells], [np.full(len(cells), -1)]
    lines, items = [], []
    for s in range(4):
        a, b = inner[:, s], inner[:, (s + 1) % 4]
        e0, e1 = edge[s]
        regions.append(np.stack([a, e0, e1, b], axis=1))
        region_cell.append(cells)
        region_side.append(np.full(len(cells), s))
        # a tunnel east from (r, c - 1), or south from (r - 1, c), passes under this cell
        other = np.where(c >= 1, cells - 1, -1) if s % 2 else np.where(r >= 1, cells - cols, -1)
        lines += [np.stack([a, b], axis=1), np.stack([a, e0], axis=1), np.stack([b, e1], axis=1)]
        corridor = _items(_CORRIDOR, cells, s, other)
        items += [_items(_CLOSED, cells, s), corridor, corridor]
    return (np.concatenate(regions), np.concatenate(region_cell), np.concatenate(region_side),
            np.concatenate(lines), np.concatenate(items))  # fmt: skip


def _stair_parts(
    grid: Grid, nb: np.ndarray, exists: np.ndarray, centers: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The triangles of 3D stairs: up
    or down in the middle of a cell, or both side by side; ``(m, 3, 2)`` and their items."""
    tris, items = [np.zeros((0, 3, 2))], [np.zeros((0, 4), np.int64)]
    for name, kind, both, sign in (("up", _UP, _UP_BOTH, 1), ("down", _DOWN, _DOWN_BOTH, -1)):
        if name not in grid.slot_names:
            continue
        slot = grid.slot_names.index(name)
        cells = np.flatnonzero(exists & (nb[:, slot] >= 0))
        for k, shift in ((kind, 0.0), (both, 0.2 * sign)):
            shape = np.array([[0, -0.16], [0.15, 0.12], [-0.15, 0.12]]) * sign + [shift, 0]
            tris.append(centers[cells, None] + shape)
            items.append(_items(k, cells, slot))
    return np.concatenate(tris), np.concatenate(items)


def sides_of(grid: Grid, passages: np.ndarray, openings: list[tuple[int, int]] | None = None) -> np.ndarray:
    """Per flat cell, the bits of the sides whose wall is open (``grid.open_sides``), with the
    ``openings`` gaps opened on a weave grid (where they are corridor ends, not items)."""
    sides = np.asarray(grid.open_sides(np.asarray(passages).reshape(grid.shape))).ravel().astype(np.int64)
    if openings and grid.tunnel_slots:
        sides = sides.copy()
        for cell, slot in openings:
            sides[cell] |= 1 << slot
    return sides


def standing(
    model: WallModel, passages: np.ndarray, *, openings: bool, sides: np.ndarray | None = None
) -> np.ndarray:
    """Which items of ``model`` stand over ``passages``: ``bool``, the walls' items first,
    then the stair triangles' (``model.items``, ``model.tri_items``).

    ``openings``: whether the start's and goal's gaps are open. ``sides`` (from
    :func:`sides_of`) saves working them out again.
    """
    bits = np.asarray(passages).ravel().astype(np.int64)
    if sides is None:
        sides = sides_of(model.grid, passages, model.openings if openings else None)
    _, cell, slot, other = model.every_item.T
    groups = model.by_kind
    out = np.zeros(len(cell), dtype=bool)
    out[groups[_ALWAYS]] = True
    out[groups[_OPENING]] = not openings
    i = groups[_CLOSED]
    out[i] = (sides[cell[i]] >> slot[i]) & 1 == 0
    i, partner, back = model.partners
    out[i] &= (sides[partner] >> back) & 1 == 0
    i = groups[_CORRIDOR]
    under = np.r_[bits, 0][other[i]] >> 5 + (slot[i] % 2 == 0) & 1  # tunnels E, S
    out[i] = ((sides[cell[i]] >> slot[i]) & 1 == 1) | (under == 1)
    names = model.grid.slot_names
    if "up" in names and "down" in names:  # a stair mark: which of the two stairs are open
        up_bit, down_bit = names.index("up"), names.index("down")
        for k, up, down in ((_UP, 1, 0), (_UP_BOTH, 1, 1), (_DOWN, 0, 1), (_DOWN_BOTH, 1, 1)):
            i = groups[k]
            out[i] = ((bits[cell[i]] >> up_bit) & 1 == up) & ((bits[cell[i]] >> down_bit) & 1 == down)
    return out
