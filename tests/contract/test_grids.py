"""Contract of every grid: neighbours agree with the drawing, slots are symmetric, files round-trip.

The kernel's neighbour arithmetic (``grids/kernel/``) and each grid's geometry
(``_outline``) are written independently; here each checks the other: two cells are
neighbours exactly when they share a wall in the picture (tunnels and stairs aside).
"""

from __future__ import annotations

import numpy as np
import pytest

import mazekit
from mazekit.grids import GRIDS, from_dict, make_grid

SHAPES = {"3d": [(1, 1, 1), (2, 3, 4), (3, 2, 5)], "polar": [(1, 1), (1, 3), (4, 1), (5, 2), (6, 6)]}
DEFAULT_SHAPES = [(1, 1), (1, 5), (5, 1), (2, 3), (6, 7)]
SHAPES["triangle"] = [(1, 1), (1, 5), (2, 1), (5, 2), (2, 3), (6, 7)]
CASES = [(kind, shape) for kind in GRIDS for shape in SHAPES.get(kind, DEFAULT_SHAPES)]
CASES += [("rect", (4, 5), "x"), ("rect", (4, 5), "y"), ("rect", (5, 6), "xy")]  # type: ignore[list-item]


def build(case):
    kind, shape, *wrap = case
    return make_grid(kind, shape, wrap=wrap[0] if wrap else None)


def _key(path: np.ndarray) -> tuple:
    pts = [tuple(np.round(p, 6)) for p in path]
    return tuple(min(pts, pts[::-1]))


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c)))
def test_neighbours_are_symmetric(case):
    grid = build(case)
    nb = grid.neighbors()
    for cell in grid.cell_indices():
        for slot in range(grid.n_slots):
            other = nb[cell, slot]
            if other >= 0:
                assert other != cell, "a cell is its own neighbour"
                assert nb[other, grid.back(grid.unflat(cell), slot)] == cell
    edges = grid.edges()
    assert len({tuple(e) for e in edges.tolist()}) == len(edges), "a pair joined twice"
    assert (nb >= 0).sum() == 2 * len(edges)


@pytest.mark.parametrize("case", [c for c in CASES if c[0] not in ("3d", "weave") and len(c) == 2],
                         ids=lambda c: "-".join(map(str, c)))  # fmt: skip
def test_neighbours_share_a_wall_in_the_picture(case):
    """Every wall drawn between two cells belongs to exactly the two cells the kernel pairs."""
    grid = build(case)
    _, walls = grid.outline()
    owners: dict[tuple, list[int]] = {}
    for cell in grid.cell_indices():
        for slot in range(grid.n_slots):
            w = walls[cell, slot]
            if not np.isnan(w).any():
                owners.setdefault(_key(w), []).append(int(cell))
    shared = {tuple(sorted(v)) for v in owners.values() if len(v) == 2}
    assert all(len(v) <= 2 for v in owners.values()), "three cells share one wall"
    assert shared == {tuple(e) for e in grid.edges().tolist()}


def test_stairs_and_tunnels():
    cube = make_grid("3d", (3, 2, 2))
    assert cube.neighbor((0, 0), 4) == (2, 0) and cube.neighbor((4, 1), 5) == (2, 1)
    assert cube.neighbor((1, 0), 2) is None, "south of a level's last row is not the next level"
    weave = make_grid("weave", (5, 5))
    assert weave.neighbor((2, 0), 5) == (2, 2) and weave.neighbor((0, 4), 6) == (2, 4)


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c)))
def test_round_trip_and_heuristic(case):
    grid = build(case)
    assert from_dict(grid.to_dict()) == grid
    cells = grid.cell_indices()
    # the estimate never exceeds the true distance on the grid graph (breadth-first)
    src = int(cells[0])
    dist = {src: 0}
    frontier = [src]
    nb = grid.neighbors()
    while frontier:
        nxt = []
        for a in frontier:
            for b in nb[a]:
                if b >= 0 and b not in dist:
                    dist[int(b)] = dist[a] + 1
                    nxt.append(int(b))
        frontier = nxt
    assert len(dist) == len(cells), "the grid graph is not connected"
    for b, d in dist.items():
        assert grid.heuristic(grid.unflat(src), grid.unflat(b)) <= d


@pytest.mark.parametrize(
    "kind, shape, message",
    [
        ("hex", (0, 3), "at least 1x1"),
        ("polar", (3, -1), "at least 1x1"),
        ("3d", (2, 3), "triple of integers"),
        ("rect", (2.0, 3), "pair of integers"),
        ("rect", (True, 3), "pair of integers"),
        ("octagon", (2, 3), "unknown grid 'octagon'"),
    ],
)
def test_bad_grids(kind, shape, message):
    with pytest.raises(ValueError, match=message):
        make_grid(kind, shape)


def test_masks_where_cells_have_a_place():
    mask = np.ones((4, 5), bool)
    mask[0, 0] = False
    for kind in ("rect", "hex", "triangle", "upsilon", "weave"):
        assert make_grid(kind, (4, 5), mask=mask).n_cells == 19
    # 3d: a level's mask cuts every level alike, a layout's mask each cell
    assert make_grid("3d", (3, 4, 5), mask=mask).n_cells == 57
    layout = np.ones((12, 5), bool)
    layout[11, 4] = False
    assert make_grid("3d", (3, 4, 5), mask=layout).n_cells == 59
    with pytest.raises(ValueError, match="only rect grids wrap"):
        make_grid("hex", (4, 5), wrap="x")


def test_polar_masks_cut_the_disc():
    disc = make_grid("polar", (4, 6))  # rings of 6, 12, 12, 24 cells
    layout = disc.mask.copy()
    cut = layout.copy()
    cut[3, :6] = False  # a quarter of the outer ring
    g = make_grid("polar", (4, 6), mask=cut)
    assert g.cut and not disc.cut
    assert g.n_cells == disc.n_cells - 6 == int(g.mask.sum())
    assert g.row_counts().tolist() == [6, 12, 12, 18]
    with pytest.raises(ValueError, match="masked-out cell"):
        g.check_cell((3, 0))
    with pytest.raises(ValueError, match="not a cell of this polar grid"):
        g.check_cell((0, 10))  # a tail of the layout
    assert from_dict(g.to_dict()) == g and from_dict(disc.to_dict()) == disc
    assert "mask" not in disc.to_dict()
    with pytest.raises(ValueError, match="polar mask is of the .rings, widest ring. layout"):
        make_grid("polar", (4, 6), mask=np.ones((4, 6), bool))
    ring = layout.copy()
    ring[1] = False  # ring 1 cut away: ring 0 is an island
    with pytest.raises(ValueError, match="2 separate regions"):
        make_grid("polar", (4, 6), mask=ring)


def test_weave_masks_take_no_tunnel_under_a_hole():
    mask = np.ones((3, 3), bool)
    mask[1, 1] = False
    g = make_grid("weave", (3, 3), mask=mask)
    assert g.neighbor((1, 0), 5) is None  # under (1, 1), which is not there
    assert make_grid("weave", (3, 3)).neighbor((1, 0), 5) == (1, 2)
    pairs = {tuple(e) for e in g.edges().tolist()}
    assert (3, 5) not in pairs and (1, 7) not in pairs and (0, 2) in pairs
    # a maze whose tunnel runs under the hole is refused, and so is a path along it
    import mazekit
    from mazekit.validate import check_path

    p = np.zeros((3, 3), np.uint8)
    p[1, 0], p[1, 2] = 1 << 5, 1 << 7
    with pytest.raises(ValueError, match="a tunnel runs under a masked-out cell"):
        mazekit.Maze(passages=p, grid=g, start=(1, 0), goal=(1, 2))
    bad = mazekit.Maze(passages=p, grid=g, start=(1, 0), goal=(1, 2), trusted=True)  # (unchecked)
    with pytest.raises(ValueError, match="is not between neighbours"):
        check_path(bad, [(1, 0), (1, 2)], (1, 0), (1, 2))
    # connected by their four sides, not by tunnels
    bar = np.ones((3, 3), bool)
    bar[:, 1] = False
    with pytest.raises(ValueError, match="2 separate regions"):
        make_grid("weave", (3, 3), mask=bar)


@pytest.mark.parametrize("kind, shape", [(k, s) for k, s in [("rect", (6, 8)), ("hex", (6, 8)),
                         ("triangle", (6, 8)), ("upsilon", (6, 8)), ("polar", (5, 6)),
                         ("3d", (2, 6, 8)), ("weave", (6, 8))]])  # fmt: skip
def test_fit_keeps_the_cells_on_the_picture(kind, shape):
    """A picture stretched over the grid keeps the cells whose centre lands on it: all of
    them for an all-True picture, the left half's for a left-half picture."""
    g = make_grid(kind, shape)
    assert np.array_equal(g.fit(np.ones((3, 3), bool)), np.ones(g.shape, bool) if g.mask is None else g.mask)
    left = np.zeros((1, 2), bool)
    left[0, 0] = True
    kept = g.fit(left)
    points, (width, _) = g.plane_points()
    on = (points[:, 0] < width / 2).reshape(g.shape) & (True if g.mask is None else g.mask)
    assert np.array_equal(kept, on) and 0 < kept.sum() < g.n_cells
    with pytest.raises(ValueError, match="non-empty 2-D"):
        g.fit(np.ones(4, bool))


MIDDLE_CASES = [
    ("hex", (5, 6)),
    ("triangle", (5, 6)),
    ("upsilon", (5, 6)),
    ("polar", (6, 6)),
    ("3d", (2, 3, 4)),
]


@pytest.mark.parametrize("kind, shape", [*MIDDLE_CASES, ("weave", (3, 4))])
def test_plane_points_are_the_drawn_cells_middles(kind, shape):
    """The points a mask picture is read at (formulas, no outline built) lie in the middle of
    each cell as drawn: within a tenth of a cell of its polygon's mean (an arc's points
    pull a polar cell's mean a little inward); on 3d within its level."""
    g = make_grid(kind, shape)
    points, (width, height) = g.plane_points()
    polys = g.outline()[0]
    middle = polys.mean(axis=1)
    if kind == "3d":
        middle[:, 0] -= np.arange(g.size) // g.cols // g.level_rows * (g.cols + 1)
    assert np.abs(points - middle).max() < 0.1
    assert (points >= 0).all() and (points[:, 0] <= width).all() and (points[:, 1] <= height).all()


def test_boolean_arrays_do_not_guess_a_polar_or_3d_shape():
    import mazekit

    with pytest.raises(ValueError, match="for a polar grid pass the grid"):
        mazekit.generate("wilson", np.ones((3, 16), bool), grid="polar")
    with pytest.raises(ValueError, match="for a 3d grid pass the grid"):
        mazekit.generate("wilson", np.ones((4, 4), bool), grid="3d")


@pytest.mark.parametrize("kind", ["rect", "hex", "weave", "polar"])
def test_fit_can_keep_only_the_largest_region(kind):
    """Two blobs, a big one and a small one apart from it: largest=True keeps the big one,
    which is then one region, and drops the other; without it both stay (and the grid
    refuses them)."""
    picture = np.zeros((20, 20), bool)
    picture[2:16, 2:12] = True  # big
    picture[16:19, 15:18] = True  # small, apart
    shape = (5, 8) if kind == "polar" else (20, 20)
    g = make_grid(kind, shape)
    both, big = g.fit(picture), g.fit(picture, largest=True)
    assert big.sum() < both.sum() and not (big & ~both).any()
    assert make_grid(kind, shape, mask=big).n_cells == int(big.sum())
    with pytest.raises(ValueError, match="2 separate regions"):
        make_grid(kind, shape, mask=both)
    assert np.array_equal(g.largest_region(big), big)


def test_fit_is_the_identity_on_a_picture_of_the_grid_size():
    pic = np.random.default_rng(1).random((7, 9)) < 0.6
    assert np.array_equal(make_grid("rect", (7, 9)).fit(pic), pic)
    cube = make_grid("3d", (2, 7, 9))
    assert np.array_equal(cube.fit(pic), np.tile(pic, (2, 1)))


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c)))
def test_cell_counts_agree_with_the_cells(case):
    """``n_cells`` and ``row_counts()`` (which polar grids answer from their ring sizes, not
    the mask) count the cells that ``contains`` admits."""
    grid = build(case)
    inside = np.array([[grid.contains((r, c)) for c in range(grid.cols)] for r in range(grid.rows)])
    assert grid.n_cells == inside.sum()
    assert grid.row_counts().tolist() == inside.sum(axis=1).tolist()


def test_masked_grids_count_their_cells_by_row():
    mask = np.ones((4, 5), bool)
    mask[0, :2] = mask[3, 4] = False
    grid = make_grid("rect", (4, 5), mask=mask)
    assert grid.row_counts().tolist() == [3, 5, 5, 4] and grid.n_cells == 17


def test_polar_ring_table_is_made_once_per_grid():
    from mazekit.grids import kernel as gk

    grid = make_grid("polar", (7, 5))
    table = grid.fast_topology()
    assert table is grid.fast_topology() and np.array_equal(table, gk.polar_rings(grid.geo))


def test_polar_rings_never_more_than_double():
    for inner in range(1, 12):
        counts = make_grid("polar", (30, inner)).counts
        ratios = counts[1:] // counts[:-1]
        assert set(ratios.tolist()) <= {1, 2}, inner
        assert (counts[1:] % counts[:-1] == 0).all()


def test_triangle_column_refused():
    with pytest.raises(ValueError, match="at least 2 columns"):
        make_grid("triangle", (5, 1))


@pytest.mark.parametrize("case", CASES, ids=lambda c: "-".join(map(str, c)))
def test_layout_extent_is_the_drawings(case):
    grid = build(case)
    assert grid.layout_extent() == pytest.approx(grid.extent())


@pytest.mark.parametrize("command", ["generate", "dataset", "compare", "gallery"])
def test_the_command_lines_grid_names_are_the_registrys(command, tmp_path):
    """``--grid`` offers exactly the kinds in ``GRIDS``, read from it when asked: a grid added
    there needs no second list for the command line."""
    from click.testing import CliRunner

    from mazekit.cli import main

    r = CliRunner().invoke(main, [command, "--grid", "nope", "-o", str(tmp_path / "x")])
    assert r.exit_code == 2 and "'nope' is not one of" in r.output
    offered = r.output.split("is not one of")[1]
    assert [kind for kind in GRIDS if f"'{kind}'" in offered] == list(GRIDS)
    assert "nope" not in {p.name for p in tmp_path.iterdir()} and not list(tmp_path.iterdir())


# -- table grids: what a grid module declares ------------------------------------------------


@pytest.mark.parametrize("kind", list(GRIDS))
def test_the_parity_a_grid_names_is_the_kernels(kind):
    """``Grid.parity`` (read by the environment's parity plane) says which cells share
    offsets exactly as the kernel does."""
    from mazekit.grids import kernel as k

    grid = make_grid(kind, (2, 3, 4) if kind == "3d" else (4, 5))
    r, c = np.divmod(np.arange(grid.size), grid.cols)
    expected = [int(k.parity(grid.geo, cell)) for cell in range(grid.size)]
    assert np.asarray(grid.parity_of(r, c)).tolist() == expected


@pytest.mark.parametrize(
    "args, says",
    [
        (([[(-1, 0), (0, 1)]], "none"), "needs exactly one slot back"),
        (([[(-1, 0), (1, 0)]], "row"), "needs 2 list"),
        (([[(-1, 0), (1, 0)], [(-1, 0)]], "col"), "the same 1..8 slots"),
        (([[(-1, 0), (1, 0)]], "diagonal"), "parity must be one of"),
        (([[(-1, 0), (0, -1), (1, 0), (0, 1)]], "none", [[0, 270, 180, 90]]), "numbered clockwise"),
    ],
)
def test_declare_refuses_offsets_no_grid_could_have(args, says):
    from mazekit.grids import kernel as k

    with pytest.raises(ValueError, match=says):
        k.declare(14, *args)
    with pytest.raises(ValueError, match="code must be 7..15"):
        k.declare(3, [[(-1, 0), (1, 0)]])


def test_a_table_grid_lives_in_the_package():
    """numba freezes the tables into compiled kernels and caches them by the package's
    sources, so a table grid declared elsewhere is refused at once."""
    from mazekit.grids.base import Grid

    with pytest.raises(TypeError, match="lives in the mazekit.grids package"):

        class Outside(Grid):  # noqa: F841 - refused as it is defined
            kind = "outside"
            code = 14
            offsets = ([(-1, 0), (0, 1), (1, 0), (0, -1)],)


def brick_like(name: str, swap: bool = False) -> dict:
    """The class body of a brick grid (docs/grids.md) as a module of the package would write
    it, with its two upper slots swapped if ``swap`` (offsets and drawing alike)."""
    order = [1, 0, 2, 3, 4, 5] if swap else list(range(6))
    even = [(-1, -1), (-1, 0), (0, 1), (1, 0), (1, -1), (0, -1)]
    odd = [(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (0, -1)]

    def _outline(self):
        r, c = np.divmod(np.arange(self.size), self.cols)
        x, y = 2.0 * c + (r & 1), r.astype(float)
        polys = np.stack(
            [x[:, None] + np.array([0, 1, 2, 2, 1, 0]), y[:, None] + np.array([0, 0, 0, 1, 1, 1])], 2
        )
        walls = np.stack([polys[:, [i, (i + 1) % 6]] for i in order], axis=1)
        return polys, walls

    return {"__module__": f"mazekit.grids.{name}", "kind": name, "code": 13, "parity": "row",
            "slot_names": tuple("NW NE E SE SW W".split()[i] for i in order),
            "offsets": ([even[i] for i in order], [odd[i] for i in order]), "_outline": _outline}  # fmt: skip


def test_a_table_grid_comes_with_the_package_or_not_at_all():
    """Once a kernel may have frozen the tables, a new table grid is refused (it would be
    silently wrong), whatever order its slots are numbered in."""
    from mazekit.grids import kernel as k
    from mazekit.grids.base import Grid

    assert make_grid("rect", (2, 2)).geo[0] == k.RECT  # a grid handed to the kernels
    assert k.SEALED[0]
    for name, swap in (("late", False), ("swapped", True)):
        with pytest.raises(RuntimeError, match="declared after kernels ran"):
            type(f"{name.title()}Grid", (Grid,), brick_like(name, swap=swap))
    assert int(k.SLOT_COUNT[13]) == 0  # neither wrote a table


def test_walls_in_a_line_turn_in_the_order_they_are_drawn_whatever_their_numbers():
    """Two walls of a brick face north; numbered against the clock (NE before NW), the turns
    still go round the cell as drawn: the order comes from the walls' middles."""
    from mazekit.grids import kernel as k
    from mazekit.grids.base import Grid, _compass

    turns = []
    for swap in (False, True):
        body = brick_like("drawn", swap=swap)
        cls = type("DrawnGrid", (Grid,), {**body, "offsets": None})  # not declared: only drawn
        headings, order = _compass(cls)
        rows = k.table_rows(body["offsets"], "row", headings, order)
        names = body["slot_names"]
        turns.append({names[s]: names[rows["turn"][0, s, 1]] for s in range(6)})  # clockwise
    assert turns[0] == turns[1] == {"NW": "NE", "NE": "E", "E": "SE", "SE": "SW", "SW": "W", "W": "NW"}


JOIN_SHAPES = {"polar": (6, 8), "3d": (2, 6, 7)}
JOIN_CASES = [*GRIDS, "rect-xy"]


def _parts(grid, cells):
    """Each cell's part (-1 where none) by a plain breadth-first search over the grid's
    neighbour table: an independent count of what join_regions joins."""
    nb = grid.neighbors()
    label = np.full(grid.size, -1)
    flat = cells.ravel()
    parts = 0
    for s in np.flatnonzero(flat):
        if label[s] >= 0:
            continue
        label[s], todo = parts, [s]
        while todo:
            c = todo.pop()
            for n in nb[c]:
                if n >= 0 and flat[n] and label[n] < 0:
                    label[n] = parts
                    todo.append(n)
        parts += 1
    return label, parts


def _gap(grid, a, b):
    """The fewest cells outside two parts that a path from part ``a`` to part ``b`` crosses."""
    nb = grid.neighbors()
    dist = np.full(grid.size, -1)
    todo = list(np.flatnonzero(a.ravel()))
    dist[todo] = 0
    head = 0
    while head < len(todo):
        c = todo[head]
        head += 1
        for n in nb[c]:
            if n >= 0 and dist[n] < 0:
                dist[n] = dist[c] + 1
                todo.append(n)
    return int(dist[b.ravel()].min()) - 1


@pytest.mark.parametrize("case", JOIN_CASES)
@pytest.mark.parametrize("seed", range(4))
def test_join_regions_keeps_every_part_by_the_shortest_bridges(case, seed):
    """A picture of scattered blobs stretched over every grid: the joined mask keeps every
    cell of the picture, is one region a maze fills, adds only the cells it says it adds,
    and with two parts adds exactly the fewest cells any path between them crosses."""
    kind, wrap = (case.split("-") + [None])[:2]
    grid = make_grid(kind, JOIN_SHAPES.get(kind, (9, 11)), wrap=wrap)
    rng = np.random.default_rng(seed)
    picture = np.zeros((24, 24), bool)
    for _ in range(2 + seed):
        r, c = rng.integers(0, 20, 2)
        picture[r : r + 4, c : c + 4] = True
    cells = grid.fit(picture)
    plain = make_grid("rect", grid.shape) if kind == "weave" else grid  # a weave's regions: a rect's
    before, parts = _parts(plain, cells)
    joined, said, added = grid.join_regions(cells)
    assert said == parts and (joined & cells).sum() == cells.sum()
    assert added == int((joined & ~cells).sum())
    assert _parts(plain, joined)[1] == 1
    label = before.reshape(cells.shape)
    if parts == 2:
        assert added == _gap(plain, label == 0, label == 1)
    if parts > 2:  # no more than a spanning tree of the parts by their pairwise gaps (Prim's)
        gaps = [[_gap(plain, label == a, label == b) for b in range(parts)] for a in range(parts)]
        tree, done = 0, {0}
        while len(done) < parts:
            g, b = min((gaps[a][b], b) for a in done for b in range(parts) if b not in done)
            tree, done = tree + g, done | {b}
        assert added <= tree
    if parts == 1:
        assert added == 0 and np.array_equal(joined, cells)
    maze = mazekit.generate("kruskal", make_grid(kind, grid.made_shape, mask=joined, wrap=wrap), rng=seed)
    assert maze.is_perfect() and maze.grid.n_cells == int(joined.sum())
