"""Contract of every grid: neighbours agree with the drawing, slots are symmetric, files round-trip.

The kernel's neighbour arithmetic (``grids/kernel.py``) and each grid's geometry
(``_outline``) are written independently; here each checks the other: two cells are
neighbours exactly when they share a wall in the picture (tunnels and stairs aside).
"""

from __future__ import annotations

import numpy as np
import pytest

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
    for kind in ("rect", "hex", "triangle", "upsilon"):
        assert make_grid(kind, (4, 5), mask=mask).n_cells == 19
    with pytest.raises(ValueError, match="cannot be masked"):
        make_grid("polar", (4, 5), mask=mask)
    with pytest.raises(ValueError, match="only rect grids wrap"):
        make_grid("hex", (4, 5), wrap="x")


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


def test_the_command_lines_grid_names_are_the_registrys():
    """``parsing.GRID_KINDS`` repeats the registry so that ``--help`` need not import numba:
    a grid added to one must be added to the other."""
    from mazekit.parsing import GRID_KINDS

    assert tuple(GRID_KINDS) == tuple(GRIDS)
