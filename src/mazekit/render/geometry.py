"""Any grid as drawing primitives in cell units: wall lines, cell polygons, path, stair marks.

The rect renderers draw the block picture; every other grid (and a rect that wraps, whose
passages leave through its edges) is drawn from its geometry, ``grid.outline()``, by the
renderers of PNG, SVG, PDF and heat maps alike. :func:`scene` does the work they share:

1. the walls that stand in the maze, from the one wall model every picture shares
   (:func:`mazekit.render.walls.wall_model`, :func:`~mazekit.render.walls.standing`): each
   closed side once, the outer boundary with gaps where the start and the goal touch the
   outside; touching wall pieces are chained into long polylines;
2. every cell gets fill polygons (for marks, explored cells and heat-map colours);
3. the solution runs through the cell centres; it breaks where it leaves the picture (a
   wrapping edge, a 3D stair) and dips out of sight under a weave crossing;
4. open slots with no wall of their own (3D stairs) get a triangle pointing up or down.

Coordinates are in cell units with y pointing down and the top-left corner at ``(0, 0)``.
Weave grids are drawn with inset cells (see :mod:`mazekit.render.walls`), so that a passage
crossing under another shows.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..grids import Grid
from ..maze import Maze
from ..solution import Solution
from .walls import _EPS, WEAVE_INSET, back_slots, opening, round_lines, sides_of, standing, wall_model

#: Width of the solution line, in cell widths (as in the rect pictures; thinner on the
#: other grids, whose corridors turn more often).
PATH_WIDTH = 0.4
GRID_PATH_WIDTH = 0.3


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
    exists = np.ones(grid.size, bool) if grid.mask is None else grid.mask.ravel()
    width, height = grid.extent()
    passages = maze.passages.ravel()
    ends = {name: grid.flat(getattr(maze, name)) for name in ("start", "goal")}
    model = wall_model(grid, tuple(ends.values()))
    nb, mids, centers, back = model.nb, model.mids, model.centers, model.back
    openings = {name: (cell, opening(name, cell, mids, centers, nb, width, height, grid))
                for name, cell in ends.items()}  # fmt: skip
    sides = sides_of(grid, passages, model.openings)
    up = standing(model, passages, openings=True, sides=sides)
    walls_up, stairs_up = up[: len(model.items)], np.flatnonzero(up[len(model.items) :])
    shown = (model.region_side < 0) | (
        (sides[model.region_cell] >> np.maximum(model.region_side, 0)) & 1 == 1
    )
    isolated = exists & (passages == 0)
    isolated[list(ends.values())] = False
    out = Scene(
        width=width,
        height=height,
        fills=model.regions[shown],
        fill_cells=model.region_cell[shown],
        walls=round_lines(grid, chain(model.pieces[walls_up]), width),
        rock=np.flatnonzero(isolated),
        path_width=_path_width(grid),
        centers=centers,
        arrow_ends=_arrow_ends(grid, mids),
    )
    for name, cell in ends.items():
        out.marks[name] = _mark(out, cell, grid.mark_scale)
    by_cell = np.lexsort((model.tri_items[stairs_up, 2], model.tri_items[stairs_up, 1]))  # up first
    out.stairs = list(model.tris[stairs_up[by_cell]])
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


# -- marks, stairs, arrows ------------------------------------------------------------------
#: A policy arrow pointing north in a unit cell, centred on the cell's middle.
ARROW = np.array([[0.5, 0.18], [0.78, 0.48], [0.59, 0.48], [0.59, 0.82], [0.41, 0.82], [0.41, 0.48],
                  [0.22, 0.48]])  # fmt: skip


def _mark(sc: Scene, cell: int, scale: float) -> np.ndarray:
    """The polygon marking an end: the cell's (inner) polygon shrunk about its centre."""
    poly = sc.fills[int(np.flatnonzero(sc.fill_cells == cell)[0])]
    centre = sc.centers[cell]
    return centre + (poly - centre) * scale


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
    return round_lines(grid, [_simplify(np.concatenate(p)) for p in pieces], width)


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
        openings[name] = (cell, opening(name, cell, mids, centers, nb, width, height, grid))
    flat = np.asarray(cells, dtype=np.int64)
    return _path(grid, flat, centers, mids, nb, back_slots(nb, mids), openings, width)


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
