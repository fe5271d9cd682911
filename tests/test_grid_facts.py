"""What a grid kind says about itself, asked of every grid in the registry: how its size is
typed and described, whether it lies flat, where the opposite ends go, which algorithms run
on it. Consumers (the CLI, the web API, the window, the solvers) ask the class, so these
facts are tested once here, for every grid, including one added later."""

from __future__ import annotations

import itertools
import re

import numpy as np
import pytest

import mazekit
from mazekit.generate import GENERATORS
from mazekit.grids import GRIDS, flat_kinds, make_grid
from mazekit.grids import kernel as gk
from mazekit.parsing import grid_shape
from mazekit.registry import flat_only, runs_on, runs_on_grid
from mazekit.solve import SOLVERS
from mazekit.transform import TRANSFORMS

KINDS = list(GRIDS)


def _shape(cls, numbers):
    return cls.shape_of_size(tuple(numbers[: len(cls.size_words)]))


@pytest.mark.parametrize("kind", KINDS)
def test_a_typed_size_reads_back_and_makes_the_grid_it_describes(kind):
    cls = GRIDS[kind]
    for numbers in [(3, 4, 2), (1, 1, 1), (7, 2, 5)]:
        shape = _shape(cls, numbers)
        typed = cls.size_of(shape)
        assert typed == "x".join(str(n) for n in numbers[: len(cls.size_words)])
        assert cls.parse_size(typed) == shape == grid_shape(kind, typed, None, None)
        grid = make_grid(kind, shape)
        assert grid.made_shape == shape and make_grid(kind, grid.made_shape) == grid
        assert grid.describe() == cls.describe_shape(shape)
        assert cls.layout_cells(shape) == grid.size  # known before the grid is built
    assert cls.parse_size(cls.default_size) == grid_shape(kind, None, None, None)
    cls.parse_size(cls.size_example)
    words = "x".join(cls.size_words)
    for bad in ["", "big", "0x" * len(cls.size_words) + "1", "1x2x3x4"]:
        with pytest.raises(ValueError, match=rf"^size must (look like {words}|be at least)"):
            cls.parse_size(bad)
    if len(cls.size_words) == 2:
        assert cls.parse_size("5") == _shape(cls, (5, 5))


@pytest.mark.parametrize("kind", KINDS)
def test_rows_and_cols_are_for_grids_typed_as_width_and_height(kind):
    cls = GRIDS[kind]
    if cls.size_words == ("WIDTH", "HEIGHT"):
        assert grid_shape(kind, None, 3, 5) == (3, 5)
    else:
        with pytest.raises(ValueError, match=rf"^a {kind} grid takes --size {'x'.join(cls.size_words)}"):
            grid_shape(kind, None, 3, 5)


@pytest.mark.parametrize("kind", KINDS)
def test_flatness_directions_and_straight_pairs(kind):
    cls = GRIDS[kind]
    grid = make_grid(kind, _shape(cls, (4, 5, 2)))
    assert grid.is_flat == cls.lies_flat() == (kind in flat_kinds())
    names = cls.directions()
    assert len(set(names)) == len(names) and names[0] == "N"
    for a, b in cls.straight_pairs():
        assert 0 <= a < b < grid.n_slots
    assert all(set(slots) <= set(cls.slot_names) for slots in cls.walking_keys().values())
    assert cls.walking_help() and all("\t" in line for line in cls.walking_help())
    if kind == "rect":
        assert not make_grid("rect", (3, 4), wrap="x").is_flat


@pytest.mark.parametrize("kind", KINDS)
def test_the_opposite_corners_are_cells_of_the_candidates(kind):
    cls = GRIDS[kind]
    grid = make_grid(kind, _shape(cls, (5, 4, 2)))
    start, goal = grid.opposite_corners(None)
    assert grid.contains(start) and grid.contains(goal) and start != goal
    ok = np.zeros(grid.shape, dtype=bool)
    ok[grid.unflat(int(grid.cell_indices()[-1]))] = ok[grid.unflat(int(grid.cell_indices()[0]))] = True
    assert set(grid.opposite_corners(ok)) <= {tuple(map(int, np.argwhere(ok)[i])) for i in range(2)}


@pytest.mark.parametrize("kind", KINDS)
def test_tunnel_slots_have_no_wall_and_lead_past_the_next_cell(kind):
    grid = make_grid(kind, _shape(GRIDS[kind], (5, 5, 2)))
    t = grid.tunnel_slots
    assert grid.wall_slots + t == grid.n_slots
    assert gk.wall_slots(grid.code) == grid.wall_slots and gk.tunnels(grid.code) == bool(t)
    _, walls = grid.outline()
    assert np.isnan(walls[:, grid.wall_slots :]).all()
    for cell in map(grid.unflat, grid.cell_indices()):
        for slot in range(grid.wall_slots, grid.n_slots):
            side = grid.neighbor(cell, slot - t)
            beyond = None if side is None else grid.neighbor(side, slot - t)
            assert grid.neighbor(cell, slot) == beyond


@pytest.mark.parametrize("kind", KINDS)
def test_the_kernels_know_where_cells_lack_slots_and_where_slips_go_round(kind):
    grid = make_grid(kind, _shape(GRIDS[kind], (4, 6, 2)))
    geo, cells, slots = grid.geo, grid.cell_indices().tolist(), range(grid.n_slots)
    missing = any(not gk.is_slot(geo, c, s) for c in cells for s in slots)
    assert gk.lacks_slots(grid.code) == missing  # a table grid's too: declared from its offsets
    turned = all(
        gk.sideways(geo, 0, c, s, d) == gk.turn(geo, c, s, d) for c in cells for s in slots for d in (1, -1)
    )
    assert gk.slips_round(grid.code) == turned


@pytest.mark.parametrize("kind", KINDS)
def test_bends_count_turns_only_where_no_sides_face_each_other(kind):
    cls = GRIDS[kind]
    bends = cls.bend_table()
    assert (bends.shape[0] == 0) == bool(cls.straight_pairs())
    if bends.shape[0]:  # a bend and the way back bend opposite ways
        assert (bends == -bends.transpose(0, 2, 1)).all() and set(np.unique(bends)) == {-1, 0, 1}


@pytest.mark.parametrize("kind", KINDS)
def test_rings_are_rows_of_different_lengths(kind):
    grid = make_grid(kind, _shape(GRIDS[kind], (4, 6, 2)))
    assert grid.rings == (len(set(grid.row_counts().tolist())) > 1)


@pytest.mark.parametrize("kind", KINDS)
def test_the_largest_layout_holds_every_shape_of_a_range(kind):
    cls = GRIDS[kind]
    low, high = _shape(cls, (3, 4, 1)), _shape(cls, (6, 5, 3))  # polar: 4 inner cells are widest
    ranges = [range(a, b + 1) for a, b in zip(low, high, strict=True)]
    shapes = [make_grid(kind, shape).shape for shape in itertools.product(*ranges)]
    rows, cols = cls.largest_layout(low, high)
    assert (rows, cols) == (max(r for r, _ in shapes), max(c for _, c in shapes))


@pytest.mark.parametrize("kind", KINDS)
def test_a_stored_grid_passes_its_own_check_and_a_wrong_layout_does_not(kind):
    cls = GRIDS[kind]
    grid = make_grid(kind, _shape(cls, (4, 6, 2)))
    stored = grid.to_dict()
    cls.check_stored(grid.shape, stored)
    if "inner" in stored:  # a layout that follows from its parameters
        with pytest.raises(ValueError, match="is not 25 cells wide"):
            cls.check_stored((grid.rows, grid.cols + 1), stored)


def test_polar_and_3d_opposite_corners_are_their_own():
    disc = make_grid("polar", (3, 6))
    start, goal = disc.opposite_corners(None)
    assert start == (0, 0) and goal[0] == 2 and goal[1] == int(disc.counts[2]) // 2
    cube = make_grid("3d", (2, 3, 4))
    start, goal = cube.opposite_corners(None)
    assert start == (3, 3) and goal == (2, 0)  # top level's top right, bottom level's bottom left


@pytest.mark.parametrize(
    "family", [GENERATORS, SOLVERS, TRANSFORMS], ids=["generators", "solvers", "transforms"]
)
def test_one_answer_to_where_an_algorithm_runs(family):
    """registry.runs_on is what the web catalogue and the front doors use."""
    from mazekit.web.work import Limits, catalogue

    offered = catalogue(Limits())
    listed = {e["name"]: e["grids"] for e in offered.get("solvers", []) + offered.get("generators", [])}
    for name, func in family.items():
        kinds = runs_on(func)
        assert kinds and set(kinds) <= set(GRIDS)
        if name in listed and family is not TRANSFORMS:
            assert listed[name] == list(kinds)
        for kind in GRIDS:
            grid = make_grid(kind, _shape(GRIDS[kind], (4, 4, 2)))
            assert runs_on_grid(func, grid) == (kind in kinds and (grid.is_flat or not flat_only(func)))
    if family is SOLVERS:
        assert runs_on(SOLVERS["pledge"]) == flat_kinds() and runs_on(SOLVERS["bfs"]) == tuple(GRIDS)


@pytest.mark.parametrize("name", list(GENERATORS))
def test_the_front_doors_refuse_exactly_where_runs_on_grid_says(name):
    """properties, generate, Maker and the gallery all ask registry.runs_on(_grid): a row-by-row
    generator refuses a wrapped rectangle because runs_on_grid says so, nowhere else."""
    from mazekit.registry import properties

    func = GENERATORS[name]
    assert properties(func)["grids"] == runs_on(func)
    for wrap in (None, "xy"):
        grid = make_grid("rect", (4, 4), **({"wrap": wrap} if wrap else {}))
        if runs_on_grid(func, grid):
            assert mazekit.Maker(name, grid)(1) == mazekit.generate(name, grid, rng=1)
        else:
            with pytest.raises(ValueError, match=f"{name} does not run on a wrapped"):
                mazekit.generate(name, grid, rng=1)
            with pytest.raises(ValueError, match=f"{name} does not run on a wrapped"):
                mazekit.Maker(name, grid)


def _grids_to_ask():
    for kind, cls in GRIDS.items():
        yield make_grid(kind, _shape(cls, (4, 4, 2)))
    yield make_grid("rect", (4, 4), wrap="xy")
    mask = np.ones((4, 4), bool)
    mask[0, 0] = False
    yield make_grid("rect", (4, 4), mask=mask)


@pytest.mark.parametrize("grid", list(_grids_to_ask()), ids=lambda g: g.kind_words.replace(" ", "-"))
def test_block_drawings_and_exports_ask_the_grid_for_a_square_lattice(grid):
    """Text art, maze_map and the block window views run exactly on grids whose cells sit on a
    square lattice; every refusal names the grid as kind_words says it."""
    from mazekit.env.export import to_maze_map
    from mazekit.render.text import render_text

    maze = mazekit.generate("kruskal", grid, rng=1, ends="opposite")
    if grid.square_lattice:
        assert grid.n_slots == 4 and grid.is_flat and not grid.thin_walls
        assert render_text(maze).count("\n") == 2 * grid.rows
        assert len(to_maze_map(maze)) == 2 * grid.rows + 1
    else:  # (render_text's ascii is line art on hex and triangle grids: its other styles refuse)
        for draw in (lambda m: render_text(m, style="unicode"), to_maze_map):
            with pytest.raises(ValueError, match=f"(for|not) a {re.escape(grid.kind_words)} grid"):
                draw(maze)
    assert grid.kind_words.endswith(grid.kind) and ("wrapped" in grid.kind_words) == bool(
        grid.param and grid.kind == "rect"
    )


def test_hex_triangle_and_upsilon_are_declared_tables_that_keep_their_arithmetic():
    """Issue 28: the three are table grids now, with no branches of their own in the
    kernels; their tables give what those branches computed (the slot back, the turn
    round a cell, A*'s bound, which layout) for every cell of a grid."""
    expect_back = {
        "hex": lambda r, c, s: s + 3 if s < 3 else s - 3,
        "triangle": lambda r, c, s: s ^ 1 if s < 2 else 2,
        "upsilon": lambda r, c, s: (s + 4) & 7,
    }
    expect_turn = {
        "hex": lambda r, c, s, d: (s + d + 6) % 6,
        "triangle": lambda r, c, s, d: (s + (d if (r + c) & 1 == 0 else -d) + 3) % 3,
        "upsilon": lambda r, c, s, d: (s + (2 * d if (r + c) & 1 else d)) & 7,
    }
    for kind in expect_back:
        cls = GRIDS[kind]
        assert gk.TABLE <= cls.code < gk.FIRST_FREE and cls.offsets is not None
        grid = make_grid(kind, (6, 7))
        for cell in grid.cell_indices().tolist():
            r, c = divmod(cell, grid.cols)
            for s in range(grid.n_slots):
                if not gk.is_slot(grid.geo, cell, s):
                    continue
                assert gk.back(grid.geo, cell, s) == expect_back[kind](r, c, s)
                for d in (1, -1):
                    assert gk.turn(grid.geo, cell, s, d) == expect_turn[kind](r, c, s, d), (kind, cell, s, d)
    assert (GRIDS["hex"].padded, GRIDS["triangle"].padded, GRIDS["upsilon"].padded) == (True, True, True)
    hex_grid = make_grid("hex", (9, 9))
    a, b = hex_grid.flat((0, 0)), hex_grid.flat((8, 8))
    assert gk.estimate(hex_grid.geo, a, b) == 12  # 8 columns across, 4 rows more down: the hex distance


def test_a_table_declaration_is_checked_in_one_line():
    square = [[(-1, 0), (0, 1), (1, 0), (0, -1)]]
    with pytest.raises(ValueError, match="metric must be one of reach, taxicab, offset_columns"):
        gk.table_rows(square, metric="euclid")
    with pytest.raises(ValueError, match="order must list each slot a cell has once"):
        gk.table_rows(square, order=[[0, 1, 2, 2]])
    turned = gk.table_rows(square, order=[[3, 2, 1, 0]])  # counter-clockwise numbering
    assert turned["turn"][0, 0].tolist() == [1, 3]  # clockwise from slot 0 is slot 3


def test_a_declared_grid_with_a_longer_step_has_no_padded_layout():
    """The padded layout's border is one blocked cell: a table grid with a step of two cells
    (a knight's-move grid, say) must take a neighbour table, or its kernels would read past
    the layout; the same grid with unit steps has one, as do eight-slot grids (upsilon's)."""
    unit = [(-1, 0), (0, 1), (1, 0), (0, -1)]
    assert gk.table_rows([unit])["padded"]
    assert not gk.table_rows([[(-2, 0), (0, 1), (2, 0), (0, -1)]])["padded"]
    eight = [[(-1, 0), (-1, 1), (0, 1), (1, 1), (1, 0), (1, -1), (0, -1), (-1, -1)]]
    assert gk.table_rows(eight)["padded"]


def test_a_declared_four_slot_grid_whose_steps_hang_on_the_parity_has_no_padded_layout():
    """The padded kernels read a four-slot grid as a rectangle, one set of offsets for every
    cell (``matching``, ``below``, ``held``): staggered columns, whose steps differ by the
    column's parity, must take a neighbour table (on the padded layout bfs crashed and prim
    carved off the grid); the same declaration with equal rows keeps the padded layout."""
    even = [(-1, 0), (-1, 1), (1, 0), (0, -1)]
    odd = [(-1, 0), (0, 1), (1, 0), (1, -1)]
    stagger = gk.table_rows([even, odd], parity="col")
    assert stagger["slots"] == 4 and bool(stagger["same"] & 1) and stagger["reach"] == 1
    assert not stagger["padded"]
    square = [(-1, 0), (0, 1), (1, 0), (0, -1)]
    assert gk.table_rows([square, square], parity="col")["padded"]
