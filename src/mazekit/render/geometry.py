"""Any grid as drawing primitives in cell units: wall lines, cell polygons, path, stair marks.

The rect renderers draw the block picture; every other grid (and a rect that wraps, whose
passages leave through its edges) is drawn from its geometry, ``grid.outline()``, by the
renderers of PNG, SVG, PDF and heat maps alike. :func:`scene` does the work they share:

1. a wall is drawn through each slot whose side is closed (``grid.open_sides``) and along
   the outer boundary, once per shared side, with gaps where the start and the goal touch
   the outside; touching wall pieces are chained into long polylines;
2. every cell gets fill polygons (for marks, explored cells and heat-map colours);
3. the solution runs through the cell centres; it breaks where it leaves the picture (a
   wrapping edge, a 3D stair) and dips out of sight under a weave crossing;
4. open slots with no wall of their own (3D stairs) get a triangle pointing up or down.

Coordinates are in cell units with y pointing down and the top-left corner at ``(0, 0)``.
Weave grids are drawn with inset cells (*Mazes for Programmers*, ch. 9), so that a passage
crossing under another shows: its walls run on in the margins while the top passage's
walls stay unbroken.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..grids import Grid
from ..maze import Maze
from ..solution import Solution

#: Margin of a weave cell, in cell widths: corridors are ``1 - 2 * WEAVE_INSET`` wide.
WEAVE_INSET = 0.2

#: Width of the solution line, in cell widths (as in the rect pictures; thinner on the
#: other grids, whose corridors turn more often).
PATH_WIDTH = 0.4
GRID_PATH_WIDTH = 0.3

#: Longest angle (radians) a straight piece of a polar wall may span, so rings look round.
ARC_STEP = np.radians(4.0)

_EPS = 1e-6


def uses_geometry(grid: Grid) -> bool:
    """Whether pictures of ``grid`` are drawn from its geometry (not the rect block picture)."""
    return not grid.square_lattice


@dataclass
class Scene:
    """What a picture of a maze shows, in cell units (see the module docstring).

    Attributes
    ----------
    width, height : float
        The drawing's size; walls are centred on lines that may lie on its border.
    fills, fill_cells : numpy.ndarray
        ``(m, V, 2)`` polygons and the flat cell each one colours (a cell may have several).
    walls : list of numpy.ndarray
        Wall polylines, each ``(k, 2)``.
    rock : numpy.ndarray
        Flat cells with no passage at all (cave rock, filled dead ends): drawn solid.
    path : list of numpy.ndarray
        Pieces of the solution line, each ``(k, 2)``; empty without a solution.
    path_width : float
        Width of the solution line.
    walk : list of numpy.ndarray
        Pieces of a walking solver's walk (``extras["walk"]``), drawn thin under the path.
    marks : dict
        ``"start"`` and ``"goal"``: the polygon (``(V, 2)``) that marks each end.
    stairs : list of numpy.ndarray
        ``(3, 2)`` triangles pointing up (a stair up) or down (a stair down).
    centers : numpy.ndarray
        ``(size, 2)`` middle of every layout cell.
    arrow_ends : numpy.ndarray
        ``(size, slots, 2)``: where an arrow for each slot points (see :func:`arrows`).
    """

    width: float
    height: float
    fills: np.ndarray
    fill_cells: np.ndarray
    walls: list[np.ndarray]
    rock: np.ndarray
    path: list[np.ndarray] = field(default_factory=list)
    path_width: float = PATH_WIDTH
    walk: list[np.ndarray] = field(default_factory=list)
    marks: dict[str, np.ndarray] = field(default_factory=dict)
    stairs: list[np.ndarray] = field(default_factory=list)
    centers: np.ndarray = field(default_factory=lambda: np.zeros((0, 2)), repr=False)
    arrow_ends: np.ndarray = field(default_factory=lambda: np.zeros((0, 0, 2)), repr=False)


def scene(maze: Maze, solution: Solution | None = None) -> Scene:
    """The drawing primitives of ``maze`` and, if found, ``solution``'s path.

    Examples
    --------
    >>> import numpy as np
    >>> from mazekit.grids import make_grid
    >>> from mazekit.maze import Maze
    >>> g = make_grid("hex", (1, 2))
    >>> p = np.zeros(g.shape, np.uint8)
    >>> p[0, 0], p[0, 1] = 1 << 2, 1 << 5  # open between the two: SE of one, NW of the other
    >>> s = scene(Maze(p, g, (0, 0), (0, 1)))
    >>> len(s.fills), round(s.width, 3), s.height, len(s.walls)
    (2, 2.021, 1.5, 2)
    """
    grid = maze.grid
    polys, walls = (np.asarray(a, dtype=float) for a in grid.outline())
    exists = np.ones(grid.size, bool) if grid.mask is None else grid.mask.ravel()
    width, height = grid.extent()
    centers = grid.centers()
    nb = grid.neighbors()
    mids = walls.mean(axis=2)  # (size, slots, 2), NaN where a slot has no wall
    back = _back_slots(nb, mids)
    passages = maze.passages.ravel()
    ends = {name: grid.flat(getattr(maze, name)) for name in ("start", "goal")}
    openings = {name: (cell, _opening(name, cell, mids, centers, nb, width, height, grid))
                for name, cell in ends.items()}  # fmt: skip
    if grid.tunnel_slots:
        pieces, fills, fill_cells = _weave(grid, passages, exists, openings)
    else:
        pieces = _wall_pieces(grid, walls, nb, back, exists, passages, openings)
        fill_cells = np.flatnonzero(exists)
        fills = _round_polygons(grid, polys[fill_cells], width)
    isolated = exists & (passages == 0)
    isolated[list(ends.values())] = False
    out = Scene(
        width=width,
        height=height,
        fills=fills,
        fill_cells=fill_cells,
        walls=_round(grid, chain(pieces), width),
        rock=np.flatnonzero(isolated),
        path_width=_path_width(grid),
        centers=centers,
        arrow_ends=_arrow_ends(grid, mids),
    )
    for name, cell in ends.items():
        out.marks[name] = _mark(out, cell, grid.mark_scale)
    out.stairs = _stairs(grid, passages, exists, centers, mids)
    if solution is not None and solution.found:
        path = solution.path[:, 0].astype(np.int64) * grid.cols + solution.path[:, 1]
        out.path = _path(grid, path, centers, mids, nb, back, openings, width)
    from .pixels import walk_cells

    walk = walk_cells(solution)
    if walk is not None:
        flat = walk[:, 0].astype(np.int64) * grid.cols + walk[:, 1]
        out.walk = _path(grid, flat, centers, mids, nb, back, openings, width)
    return out


def _path_width(grid: Grid) -> float:
    if grid.tunnel_slots:  # through the narrower corridors of a crossing
        return PATH_WIDTH * (1 - 2 * WEAVE_INSET)
    return GRID_PATH_WIDTH if grid.thin_walls else PATH_WIDTH


# -- walls ----------------------------------------------------------------------------------
def _back_slots(nb: np.ndarray, mids: np.ndarray) -> np.ndarray:
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


def _opening(
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


def _wall_pieces(
    grid: Grid,
    walls: np.ndarray,
    nb: np.ndarray,
    back: np.ndarray,
    exists: np.ndarray,
    passages: np.ndarray,
    openings: dict[str, tuple[int, int]],
) -> np.ndarray:
    """``(m, P, 2)`` wall polylines to draw: closed sides, each shared one once, and the
    outer boundary but for the openings."""
    size, slots = nb.shape
    sides = np.asarray(grid.open_sides(passages.reshape(grid.shape))).ravel().astype(np.int64)
    closed = (sides[:, None] >> np.arange(slots)) & 1 == 0
    has = exists[:, None] & ~np.isnan(walls[:, :, 0, 0])
    other_closed = closed[np.maximum(nb, 0), np.maximum(back, 0)]
    owner = np.arange(size)[:, None] < nb
    draw = has & np.where(nb < 0, True, np.where(back >= 0, closed & other_closed & owner, closed))
    mids = walls.mean(axis=2)
    for s in range(slots):  # a ring of one polar cell meets itself: no wall there
        for t in range(s + 1, slots):
            seam = (np.abs(mids[:, s] - mids[:, t]) < _EPS).all(axis=1) & (nb[:, s] < 0) & (nb[:, t] < 0)
            draw[seam, s] = draw[seam, t] = False
    for cell, slot in openings.values():
        if slot >= 0:
            draw[cell, slot] = False
    return walls[draw]


def _weave(
    grid: Grid, passages: np.ndarray, exists: np.ndarray, openings: dict[str, tuple[int, int]]
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Walls and fills of a weave grid, cells inset by :data:`WEAVE_INSET`.

    A closed side is a wall across the cell's inner square; an open one is a corridor whose
    two walls run from the inner square to the cell's edge. A cell that a tunnel passes
    under draws the tunnel's corridor walls on those two sides as well as its own walls.
    """
    rows, cols = grid.shape
    p = passages.reshape(rows, cols).astype(np.int64)
    sides = np.asarray(grid.open_sides(p)).astype(np.int64)
    for cell, slot in openings.values():
        if slot >= 0:
            sides.flat[cell] |= 1 << slot
    under = np.zeros((rows, cols), np.int64)  # side bits of tunnels passing under the cell
    across = (p[:, :-2] >> 5) & 1  # a tunnel east from (r, c) passes under (r, c + 1)
    under[:, 1:-1] |= across * 0b1010
    down = (p[:-2, :] >> 6) & 1  # a tunnel south from (r, c) passes under (r + 1, c)
    under[1:-1, :] |= down * 0b0101
    side_bits, under_bits = sides.ravel(), under.ravel()
    i = WEAVE_INSET
    r, c = np.divmod(np.arange(grid.size), cols)

    def at(dx: float, dy: float) -> np.ndarray:
        return np.stack([c + dx, r + dy], axis=1).astype(float)

    inner = np.stack([at(i, i), at(1 - i, i), at(1 - i, 1 - i), at(i, 1 - i)], axis=1)  # TL TR BR BL
    # per side N E S W: the two points on the cell's edge where its corridor walls end
    edge = np.stack(
        [
            np.stack([at(i, 0), at(1 - i, 0)], axis=1),
            np.stack([at(1, i), at(1, 1 - i)], axis=1),
            np.stack([at(1 - i, 1), at(i, 1)], axis=1),
            np.stack([at(0, 1 - i), at(0, i)], axis=1),
        ],
        axis=1,
    )
    pieces, fills, fill_cells = [], [inner[exists]], [np.flatnonzero(exists)]
    for s in range(4):
        a, b = inner[:, s], inner[:, (s + 1) % 4]
        is_open = (side_bits >> s) & 1 == 1
        corridor = exists & (is_open | ((under_bits >> s) & 1 == 1))
        wall = exists & ~is_open
        pieces.append(np.stack([a[wall], b[wall]], 1))
        pieces.append(np.stack([a[corridor], edge[corridor, s, 0]], 1))
        pieces.append(np.stack([b[corridor], edge[corridor, s, 1]], 1))
        half = exists & is_open
        fills.append(np.stack([a[half], edge[half, s, 0], edge[half, s, 1], b[half]], 1))
        fill_cells.append(np.flatnonzero(half))
    return np.concatenate(pieces), np.concatenate(fills), np.concatenate(fill_cells)


def chain(pieces: np.ndarray) -> list[np.ndarray]:
    """Join polylines that meet end to end (where only two meet) into longer ones.

    Long polylines draw with smooth joins and make smaller files; where three or more
    pieces meet, the renderers' round caps close the joint. Points where a line goes
    straight on are dropped.

    Examples
    --------
    >>> lines = chain(np.array([[[0, 0], [1, 0]], [[1, 1], [1, 0]], [[5, 5], [6, 5]]], float))
    >>> [line.tolist() for line in lines]
    [[[0.0, 0.0], [1.0, 0.0], [1.0, 1.0]], [[5.0, 5.0], [6.0, 5.0]]]
    """
    n, points = len(pieces), pieces.shape[1] if len(pieces) else 0
    if n == 0:
        return []
    # ends 0..n-1 are the pieces' first points, n..2n-1 their last; a node is a place
    ends = np.rint(np.concatenate([pieces[:, 0], pieces[:, -1]]) * 1e4).astype(np.int64)
    ends -= ends.min(axis=0)
    _, node = np.unique(ends[:, 0] * (int(ends[:, 1].max()) + 1) + ends[:, 1], return_inverse=True)
    node = node.ravel()
    degree = np.bincount(node)
    order = np.argsort(node, kind="stable")
    # the other end at the same node, where exactly two meet (-1 elsewhere)
    partner = np.full(2 * n, -1, dtype=np.int64)
    pairs = order[degree[node[order]] == 2]  # sorted by node: consecutive ends meet
    partner[pairs[0::2]], partner[pairs[1::2]] = pairs[1::2], pairs[0::2]
    partner_of = partner.tolist()
    used = [False] * n
    chains: list[list[tuple[int, bool]]] = []

    def walk(end: int) -> list[tuple[int, bool]]:
        """Pieces met going on from end ``end``: ``(piece, forward)`` in walking order."""
        out: list[tuple[int, bool]] = []
        while True:
            nxt = partner_of[end]
            if nxt < 0 or used[nxt % n]:
                return out
            piece, forward = nxt % n, nxt < n  # entered at its first point: keep its direction
            used[piece] = True
            out.append((piece, forward))
            end = piece + n if forward else piece

    for i in range(n):
        if not used[i]:
            used[i] = True
            after = walk(i + n)
            before = walk(i)
            chains.append([(p, not f) for p, f in reversed(before)] + [(i, True)] + after)
    flat = [step for c in chains for step in c]
    piece = np.array([p for p, _ in flat], dtype=np.int64)
    forward = np.array([f for _, f in flat], dtype=bool)
    lengths = np.array([len(c) for c in chains], dtype=np.int64)
    first = np.zeros(len(flat), bool)
    first[np.concatenate([[0], np.cumsum(lengths)[:-1]])] = True
    ramp = np.arange(points)
    index = piece[:, None] * points + np.where(forward[:, None], ramp, ramp[::-1])
    keep = np.ones(index.shape, bool)
    keep[~first, 0] = False  # a piece after the first repeats the joint
    xy = pieces.reshape(-1, 2)[index[keep]]
    line_id = np.repeat(np.repeat(np.arange(len(chains)), lengths), keep.sum(axis=1))
    return _simplify_all(xy, line_id)


def _simplify_all(xy: np.ndarray, line_id: np.ndarray) -> list[np.ndarray]:
    """Split points into lines by ``line_id``, dropping repeats and points where a line goes
    straight on."""
    same_line = line_id[1:] == line_id[:-1]
    repeat = np.zeros(len(xy), bool)
    repeat[1:] = same_line & (np.abs(np.diff(xy, axis=0)).sum(axis=1) <= 1e-9)
    xy, line_id = xy[~repeat], line_id[~repeat]
    a, b = xy[1:-1] - xy[:-2], xy[2:] - xy[1:-1]
    cross = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    inside = (line_id[:-2] == line_id[1:-1]) & (line_id[1:-1] == line_id[2:])
    straight = np.zeros(len(xy), bool)
    straight[1:-1] = inside & (np.abs(cross) < 1e-9) & ((a * b).sum(axis=1) > 0)
    xy, line_id = xy[~straight], line_id[~straight]
    cuts = np.flatnonzero(line_id[1:] != line_id[:-1]) + 1
    return np.split(xy, cuts)


def _simplify(line: np.ndarray) -> np.ndarray:
    """One polyline without repeated points and points where it goes straight on."""
    return _simplify_all(line, np.zeros(len(line), np.int64))[0]


# -- polar curves ---------------------------------------------------------------------------
def _round(grid: Grid, lines: list[np.ndarray], width: float) -> list[np.ndarray]:
    """A polar grid's polylines with points added along their arcs, so rings look round."""
    if not grid.rings or not lines:
        return lines
    sizes = [len(line) for line in lines]
    ids = np.repeat(np.arange(len(lines)), sizes)
    xy, ids = _resample_polar(np.concatenate(lines), ids, width / 2)
    return np.split(xy, np.flatnonzero(ids[1:] != ids[:-1]) + 1)


def _round_polygons(grid: Grid, polys: np.ndarray, width: float) -> np.ndarray:
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


# -- marks, stairs, arrows ------------------------------------------------------------------
#: A policy arrow pointing north in a unit cell, centred on the cell's middle.
ARROW = np.array([[0.5, 0.18], [0.78, 0.48], [0.59, 0.48], [0.59, 0.82], [0.41, 0.82], [0.41, 0.48],
                  [0.22, 0.48]])  # fmt: skip


def _mark(sc: Scene, cell: int, scale: float) -> np.ndarray:
    """The polygon marking an end: the cell's (inner) polygon shrunk about its centre."""
    poly = sc.fills[int(np.flatnonzero(sc.fill_cells == cell)[0])]
    centre = sc.centers[cell]
    return centre + (poly - centre) * scale


def _stairs(
    grid: Grid, passages: np.ndarray, exists: np.ndarray, centers: np.ndarray, mids: np.ndarray
) -> list[np.ndarray]:
    """Triangles for open slots that have no wall (3D stairs): up or down as the slot is named."""
    if grid.tunnel_slots:
        return []
    wall_less = [s for s in range(grid.n_slots) if np.isnan(mids[:, s, 0]).all()]
    up = [s for s in wall_less if grid.slot_names[s] == "up"]
    down = [s for s in wall_less if grid.slot_names[s] == "down"]
    if not up and not down:
        return []
    bits = passages.astype(np.int64)
    has_up = exists & ((bits >> up[0]) & 1 == 1) if up else np.zeros(grid.size, bool)
    has_down = exists & ((bits >> down[0]) & 1 == 1) if down else np.zeros(grid.size, bool)
    out = []
    for cell in np.flatnonzero(has_up | has_down).tolist():
        both = has_up[cell] and has_down[cell]
        cx, cy = centers[cell]
        if has_up[cell]:
            x = cx + 0.2 * both
            out.append(np.array([[x, cy - 0.16], [x + 0.15, cy + 0.12], [x - 0.15, cy + 0.12]]))
        if has_down[cell]:
            x = cx - 0.2 * both
            out.append(np.array([[x, cy + 0.16], [x - 0.15, cy - 0.12], [x + 0.15, cy - 0.12]]))
    return out


def _arrow_ends(grid: Grid, mids: np.ndarray) -> np.ndarray:
    """``(size, slots, 2)``: where an arrow for each slot points (the middle of the side it
    leaves through; a weave tunnel leaves through its side); NaN for stairs."""
    ends = mids.copy()
    t = grid.tunnel_slots
    if t:
        ends[:, -t:] = mids[:, -2 * t : -t]
    return ends


def arrows(sc: Scene, policy: np.ndarray) -> list[np.ndarray]:
    """``(7, 2)`` arrow polygons, one per cell whose ``policy`` (a slot per cell) has a side
    to point at; an arrow is scaled to fit its cell."""
    flat = np.asarray(policy).ravel().astype(np.int64)
    size, slots, _ = sc.arrow_ends.shape
    cells = np.flatnonzero((flat >= 0) & (flat < slots))
    end = sc.arrow_ends[cells, flat[cells]]
    ok = ~np.isnan(end[:, 0])
    cells, end = cells[ok], end[ok]
    centre = sc.centers[cells]
    d = end - centre
    reach = np.hypot(d[:, 0], d[:, 1])
    dx, dy = (d / np.maximum(reach, _EPS)[:, None]).T
    sides = sc.arrow_ends[cells] - centre[:, None]  # (m, slots, 2)
    scale = np.minimum(1.0, 2 * np.nanmin(np.hypot(sides[..., 0], sides[..., 1]), axis=1))
    shape = ARROW - 0.5  # pointing north (towards -y)
    # rotate north (0, -1) onto (dx, dy): x' = -dy x - dx y, y' = dx x - dy y
    x = (-dy[:, None] * shape[:, 0] - dx[:, None] * shape[:, 1]) * scale[:, None]
    y = (dx[:, None] * shape[:, 0] - dy[:, None] * shape[:, 1]) * scale[:, None]
    return list(np.stack([x + centre[:, :1], y + centre[:, 1:]], axis=2))


# -- the solution ---------------------------------------------------------------------------
def _path(
    grid: Grid,
    path: np.ndarray,
    centers: np.ndarray,
    mids: np.ndarray,
    nb: np.ndarray,
    back: np.ndarray,
    openings: dict[str, tuple[int, int]],
    width: float,
) -> list[np.ndarray]:
    """The solution through the centres of ``path`` (flat cells), in pieces.

    It runs out through the start's and the goal's openings; at a wrapping edge it runs to
    the edge and comes back in at the other one; under a weave crossing it stops at the
    crossed cell's edges; at a stair it ends and starts again on the other level.
    """
    pts = centers[path]
    a, b = path[:-1], path[1:]
    slot = np.argmax(nb[a] == b[:, None], axis=1)
    pieces: list[list[np.ndarray]] = [[]]
    first = 0
    for i in np.flatnonzero(back[a, slot] < 0).tolist():
        pieces[-1].append(pts[first : i + 1])
        cell, s = int(a[i]), int(slot[i])
        head = None
        if not np.isnan(mids[cell, s, 0]):  # a wrapping edge: leave, come back elsewhere
            pieces[-1].append(mids[cell, s][None])
            head = mids[int(b[i]), grid.back(grid.unflat(cell), s)][None]
        elif grid.tunnel_slots:  # under a crossing: out of sight across the middle cell
            middle = centers[nb[cell, s - grid.tunnel_slots]]
            half = (pts[i + 1] - pts[i]) / 4
            pieces[-1].append((middle - half)[None])
            head = (middle + half)[None]
        pieces.append([] if head is None else [head])
        first = i + 1
    pieces[-1].append(pts[first:])
    for name, index in (("start", 0), ("goal", -1)):
        cell, s = openings[name]
        if s >= 0 and int(path[index]) == cell:
            outside = mids[cell, s][None]
            if index == 0:
                pieces[0].insert(0, outside)
            else:
                pieces[-1].append(outside)
    return _round(grid, [_simplify(np.concatenate(p)) for p in pieces], width)


def path_lines(maze: Maze, cells: np.ndarray) -> list[np.ndarray]:
    """The line through flat ``cells`` (a path from ``maze.start`` to ``maze.goal``, or any
    walk) as :func:`scene` draws a solution, without the rest of the scene: pieces in cell
    units that leave through the openings, break at wrapped edges and stairs, dip under
    weave crossings and follow a polar grid's rings.

    Examples
    --------
    >>> import mazekit
    >>> m = mazekit.generate("backtracker", (2, 3), rng=1, ends="corners")
    >>> s = mazekit.solve(m, "bfs")
    >>> pieces = path_lines(m, s.path[:, 0] * 3 + s.path[:, 1])
    >>> len(pieces), pieces[0][0].tolist(), pieces[-1][-1].tolist()
    (1, [0.5, 0.0], [2.5, 2.0])
    """
    grid = maze.grid
    walls = np.asarray(grid.outline()[1], dtype=float)
    nb, mids, centers = grid.neighbors(), walls.mean(axis=2), grid.centers()
    width, height = grid.extent()
    openings = {}
    for name in ("start", "goal"):
        cell = grid.flat(getattr(maze, name))
        openings[name] = (cell, _opening(name, cell, mids, centers, nb, width, height, grid))
    flat = np.asarray(cells, dtype=np.int64)
    return _path(grid, flat, centers, mids, nb, _back_slots(nb, mids), openings, width)


def return_slots(nbs: np.ndarray) -> np.ndarray:
    """``(size, slots)``: for each cell and slot, the neighbour's slot that leads back to
    the cell, -1 where there is none (the neighbour table's inverse, whatever the drawing).

    >>> from mazekit.grids import make_grid
    >>> return_slots(make_grid("rect", (1, 2)).neighbors()).tolist()  # N E S W
    [[-1, 3, -1, -1], [-1, -1, -1, 1]]
    """
    size, slots = nbs.shape
    other = np.maximum(nbs, 0)
    back = np.full((size, slots), -1, dtype=np.int64)
    cells = np.arange(size)[:, None]
    for t in range(slots):
        back[(nbs >= 0) & (nbs[other, t] == cells) & (back < 0)] = t
    return back


def slot_directions(grid: Grid) -> np.ndarray:
    """``(size, slots, 2)`` unit vectors (y down) from each cell's centre to the side each
    slot leaves through; NaN for stairs. The arrow keys walk along these.

    >>> from mazekit.grids import make_grid
    >>> slot_directions(make_grid("rect", (1, 1)))[0].round(3).tolist()  # N E S W
    [[0.0, -1.0], [1.0, 0.0], [0.0, 1.0], [-1.0, 0.0]]
    """
    mids = np.asarray(grid.outline()[1], dtype=float).mean(axis=2)
    d = _arrow_ends(grid, mids) - grid.centers()[:, None]
    with np.errstate(invalid="ignore", divide="ignore"):
        return d / np.hypot(d[..., 0], d[..., 1])[..., None]
