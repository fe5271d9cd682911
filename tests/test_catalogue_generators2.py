"""Recursive division, true Prim, growing forest, origin shift, caves and unicursal labyrinths.

The generators are called through their modules, so these tests do not depend on the
registry; once registered, the registry-wide tests in test_generate.py cover them as well.
"""

import importlib
import itertools
from collections import Counter, deque

import numpy as np
import pytest

import mazekit
from mazekit import trace as tr
from mazekit.grid import DCOL, DROW, RectGrid, as_grid
from mazekit.maze import Maze

from .checks import MASK_TEXT, assert_spanning_tree, edges

NAMES = [
    "recursive_division",
    "prim_true",
    "growing_forest",
    "origin_shift",
    "cellular_automaton",
    "unicursal",
]
PERFECT = [n for n in NAMES if n != "cellular_automaton"]
GRAPH = ["prim_true", "growing_forest", "origin_shift", "cellular_automaton"]  # work on masks
SHAPES = [(1, 1), (1, 9), (9, 1), (2, 2), (5, 7), (6, 8), (7, 6), (200, 300)]
POPCOUNT = np.array([bin(i).count("1") for i in range(16)], dtype=np.uint8)


def module(name):
    return importlib.import_module(f"mazekit.generate.{name}")


def carve(name, shape, rng=0, **options) -> Maze:
    grid = as_grid(shape)
    gen = rng if isinstance(rng, np.random.Generator) else np.random.default_rng(rng)
    out = getattr(module(name), name)(grid, gen, **options)
    first = grid.unflat(int(grid.cell_indices()[0]))
    return Maze(out.passages, grid, first, first, algorithm=name, trace=out.trace)


def degree(passages: np.ndarray) -> np.ndarray:
    return POPCOUNT[passages & 15]


def components(passages: np.ndarray, cells) -> list[set]:
    """Connected groups of ``cells`` through the passages (an independent BFS)."""
    todo, out = set(cells), []
    while todo:
        seed = todo.pop()
        seen, queue = {seed}, deque([seed])
        while queue:
            r, c = queue.popleft()
            for k in range(4):
                if passages[r, c] >> k & 1:
                    nb = (r + int(DROW[k]), c + int(DCOL[k]))
                    if nb not in seen:
                        seen.add(nb)
                        queue.append(nb)
        todo -= seen
        out.append(seen)
    return out


# -- what every generator of the six must do -------------------------------------------


@pytest.mark.parametrize("shape", SHAPES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", NAMES)
def test_sound_passages_and_spanning_trees(name, shape):
    maze = carve(name, shape, rng=11)
    assert maze.shape == shape
    if name in PERFECT:
        assert_spanning_tree(maze)
    else:
        edges(maze)


@pytest.mark.parametrize("name", NAMES)
def test_masks(name, ring_mask):
    grid = RectGrid.from_text(MASK_TEXT)
    if name not in GRAPH:
        with pytest.raises(ValueError, match="needs a full rectangle"):
            carve(name, grid)
        return
    for shape in (grid, ring_mask):
        maze = carve(name, shape, rng=3)
        edges(maze)  # includes: nothing leads into a masked-out cell
        assert not maze.passages[~maze.grid.mask].any()
        if name in PERFECT:
            assert_spanning_tree(maze)


@pytest.mark.parametrize("name", NAMES)
def test_seeds(name):
    a = carve(name, (25, 31), rng=42)
    assert np.array_equal(a.passages, carve(name, (25, 31), rng=42).passages)
    assert np.array_equal(a.passages, carve(name, (25, 31), rng=np.random.default_rng(42)).passages)
    assert not np.array_equal(a.passages, carve(name, (25, 31), rng=43).passages)


@pytest.mark.parametrize("shape", [(1, 1), (2, 2), (7, 6), (12, 17)], ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", NAMES)
def test_trace_replays_and_recording_changes_nothing(name, shape):
    plain = carve(name, shape, rng=8)
    traced = carve(name, shape, rng=8, record=True)
    assert plain.trace is None
    assert np.array_equal(plain.passages, traced.passages)
    t = traced.trace
    assert t.dtype == np.int32 and t.ndim == 2 and t.shape[1] == 3
    assert ((t[:, 2] >= -1) & (t[:, 2] < 4)).all()  # args are slots (or -1), as animations expect
    starts_open = getattr(module(name), "STARTS_OPEN", False)
    assert np.array_equal(tr.replay(t, traced.grid, starts_open=starts_open), traced.passages)


def test_summaries_and_flags():
    for name in NAMES:
        mod = module(name)
        assert mod.__doc__.strip().splitlines()[0].endswith(".")
        assert getattr(mod, "PERFECT", True) == (name in PERFECT)
        assert getattr(mod, "RECT_ONLY", False) == (name not in GRAPH)
    assert module("origin_shift").UNIFORM is True
    assert module("recursive_division").STARTS_OPEN is True


# -- recursive division ------------------------------------------------------------------


def test_recursive_division_closes_walls_in_an_open_room():
    maze = carve("recursive_division", (9, 13), rng=4, record=True)
    t = maze.trace
    assert set(np.unique(t[:, 1]).tolist()) == {tr.VISIT, tr.CLOSE}
    assert (t[t[:, 1] == tr.CLOSE, 2] >= 1).all()  # walls are put up east or south of a cell
    assert int((t[:, 1] == tr.CLOSE).sum()) == 8 * 12  # every inner wall but cells-1 passages
    assert np.array_equal(tr.replay(t, maze.grid, starts_open=True), maze.passages)
    assert not np.array_equal(tr.replay(t, maze.grid), maze.passages)  # needs the open room
    # the first wall crosses the whole (wider than tall) room, with one gap
    assert t[0, 0] == 0 and t[0, 1] == tr.VISIT
    first = t[1:9]
    assert (first[:, 1] == tr.CLOSE).all() and (first[:, 2] == 1).all()
    assert len(set((first[:, 0] % 13).tolist())) == 1  # one column: a straight vertical wall
    assert t[9, 1] == tr.VISIT


def test_recursive_division_corridors_need_no_walls():
    maze = carve("recursive_division", (1, 7), record=True)
    assert maze.passages.tolist() == [[2, 10, 10, 10, 10, 10, 8]]
    assert len(maze.trace) == 0


# -- true Prim ---------------------------------------------------------------------------


def test_prim_true_differs_from_simplified_prim():
    from mazekit.generate.prim import prim

    grid = RectGrid((100, 100))
    simple = prim(grid, np.random.default_rng(5)).passages
    true = carve("prim_true", grid, rng=5).passages
    assert not np.array_equal(simple, true)
    # the minimum spanning tree of random weights is Kruskal's maze: ~30% dead ends, not ~36%
    assert 0.28 < (degree(true) == 1).mean() < 0.32 < 0.34 < (degree(simple) == 1).mean()


def test_prim_true_grows_one_region_from_its_root():
    maze = carve("prim_true", (15, 20), rng=2, record=True)
    t = maze.trace
    assert t[0, 1] == tr.VISIT
    carves = t[t[:, 1] == tr.CARVE]
    assert len(carves) == 15 * 20 - 1
    joined = {int(t[0, 0])}
    for cell, _, slot in carves.tolist():  # each new cell attaches to the region grown so far
        r, c = divmod(cell, 20)
        assert (r + int(DROW[slot])) * 20 + c + int(DCOL[slot]) in joined
        joined.add(cell)


# -- growing forest ----------------------------------------------------------------------


def test_growing_forest_seeds_option(ring_mask):
    for seeds in (1, 2, 17, 300):
        assert_spanning_tree(carve("growing_forest", (15, 20), rng=seeds, seeds=seeds))
    assert_spanning_tree(carve("growing_forest", ring_mask, seeds=int(ring_mask.sum())))
    for bad in (0, -3, 301, 2.5, True, "4"):
        with pytest.raises(ValueError, match="seeds must be an integer from 1 to 300"):
            carve("growing_forest", (15, 20), seeds=bad)


def test_growing_forest_trace_shows_the_trees_then_the_doors():
    maze = carve("growing_forest", (20, 20), rng=1, seeds=6, record=True)
    t = maze.trace
    assert (t[:6, 1] == tr.VISIT).all()  # the seeds
    opens = np.flatnonzero(t[:, 1] == tr.OPEN)
    assert len(opens) == 5 and opens[0] > np.flatnonzero(t[:, 1] == tr.CARVE)[-1]
    assert int((t[:, 1] == tr.CARVE).sum()) == 400 - 6


def test_growing_forest_default_density():
    gf = importlib.import_module("mazekit.generate.growing_forest")

    maze = carve("growing_forest", (30, 40), rng=0, record=True)
    assert int((maze.trace[:, 1] == tr.VISIT).sum()) == 1200 // gf.CELLS_PER_SEED
    small = carve("growing_forest", (5, 5), rng=0, record=True)
    assert int((small.trace[:, 1] == tr.VISIT).sum()) == 1


# -- origin shift ------------------------------------------------------------------------


def spanning_trees(rows, cols):
    """Every spanning tree of the grid, as passage bytes, by brute force over edge subsets."""
    cells = rows * cols
    all_edges = [(r * cols + c, k) for r in range(rows) for c in range(cols) for k in (1, 2)
                 if (k == 1 and c + 1 < cols) or (k == 2 and r + 1 < rows)]  # fmt: skip
    out = set()
    for subset in itertools.combinations(all_edges, cells - 1):
        p = np.zeros(cells, np.uint8)
        for cell, k in subset:
            nb = cell + 1 if k == 1 else cell + cols
            p[cell] |= 1 << k
            p[nb] |= 1 << (k + 2) % 4
        grid = p.reshape(rows, cols)
        if len(components(grid, [(r, c) for r in range(rows) for c in range(cols)])) == 1:
            out.add(grid.tobytes())
    return out


def test_origin_shift_is_uniform_on_3x3():
    stats = pytest.importorskip("scipy.stats")
    trees = spanning_trees(3, 3)
    assert len(trees) == 192
    grid, gen = RectGrid((3, 3)), np.random.default_rng(2024)
    from mazekit.generate.origin_shift import origin_shift

    counts = Counter(origin_shift(grid, gen).passages.tobytes() for _ in range(192 * 40))
    assert set(counts) == trees
    assert stats.chisquare([counts[k] for k in sorted(trees)]).pvalue > 0.001
    # the test has teeth: a few moves from the starting tree are far from uniform
    few = Counter(origin_shift(grid, gen, steps=12).passages.tobytes() for _ in range(192 * 40))
    assert stats.chisquare([few.get(k, 0) for k in sorted(trees)]).pvalue < 1e-6


@pytest.mark.parametrize("shape", [(6, 7), "mask"])
def test_origin_shift_keeps_a_perfect_maze_after_every_move(shape, ring_mask):
    maze = carve("origin_shift", ring_mask if shape == "mask" else shape, rng=5, record=True)
    t, grid, n = maze.trace, maze.grid, maze.grid.n_cells
    assert (t[: n - 1, 1] == tr.OPEN).all() and t[n - 1, 1] == tr.VISIT  # the starting tree
    visits = np.flatnonzero(t[:, 1] == tr.VISIT)
    assert len(visits) > n  # the walk
    for end in visits[:: max(1, len(visits) // 60)].tolist() + [len(t) - 1]:
        assert_spanning_tree(maze.replace(passages=tr.replay(t, grid, end + 1)))
    moves = t[n:]  # each move: (OPEN, CLOSE)? then VISIT of the new origin
    assert set(np.unique(moves[:, 1]).tolist()) <= {tr.OPEN, tr.CLOSE, tr.VISIT}
    assert int((moves[:, 1] == tr.OPEN).sum()) == int((moves[:, 1] == tr.CLOSE).sum())


def test_origin_shift_visits_every_cell_by_default():
    maze = carve("origin_shift", (8, 9), rng=3, record=True)
    visited = set(maze.trace[maze.trace[:, 1] == tr.VISIT, 0].tolist())
    assert visited == set(range(72))


def test_origin_shift_steps_option():
    start = carve("origin_shift", (6, 8), rng=1, steps=0, record=True)
    assert_spanning_tree(start)
    assert len(start.trace) == 6 * 8  # the starting tree and the origin
    moved = carve("origin_shift", (6, 8), rng=1, steps=25, record=True)
    assert_spanning_tree(moved)
    assert int((moved.trace[:, 1] == tr.VISIT).sum()) == 1 + 25
    assert_spanning_tree(carve("origin_shift", (1, 1), steps=10))
    for bad in (-1, 2.5, True, "10"):
        with pytest.raises(ValueError, match="steps must be (at least 0|a non-negative integer)"):
            carve("origin_shift", (3, 3), steps=bad)


# -- cellular automaton caves ------------------------------------------------------------


def floor_of(passages: np.ndarray) -> set:
    return {tuple(x) for x in np.argwhere(passages != 0).tolist()}


def assert_cave(maze) -> None:
    """Passages join every two edge-adjacent floor cells; rock cells have none."""
    edges(maze)
    p = maze.passages
    floor = floor_of(p)
    rows, cols = p.shape
    for r, c in floor:
        for k in range(4):
            nb = (r + int(DROW[k]), c + int(DCOL[k]))
            if 0 <= nb[0] < rows and 0 <= nb[1] < cols and nb in floor:
                assert p[r, c] >> k & 1, f"floor cells {(r, c)} and {nb} are not joined"


def disc(rows, cols):
    r, c = np.ogrid[:rows, :cols]
    return ((r - rows / 2 + 0.5) / rows) ** 2 + ((c - cols / 2 + 0.5) / cols) ** 2 < 0.25


@pytest.mark.parametrize("seed", range(4))
def test_caves_are_connected(seed):
    from mazekit.generate.cellular_automaton import ends

    for shape in ((40, 60), disc(40, 60)):
        maze = carve("cellular_automaton", shape, rng=seed)
        assert_cave(maze)
        floor = floor_of(maze.passages)
        assert floor and len(components(maze.passages, floor)) == 1
        start, goal = ends(maze.passages, maze.grid)
        assert start in floor and goal in floor and start != goal
        assert start == min(floor, key=lambda x: (x[0] + x[1], x[0]))
        assert goal == max(floor, key=lambda x: (x[0] + x[1], x[0]))
        assert mazekit.solve(maze.replace(start=start, goal=goal), "bfs").found


def test_caves_unconnected_keep_every_cavern():
    loose = carve("cellular_automaton", (60, 80), rng=7, connect=False)
    tight = carve("cellular_automaton", (60, 80), rng=7)
    assert_cave(loose)
    loose_floor, tight_floor = floor_of(loose.passages), floor_of(tight.passages)
    assert tight_floor < loose_floor
    groups = components(loose.passages, loose_floor)
    assert len(groups) > 1 and max(groups, key=len) == tight_floor


def test_cave_fill_extremes():
    from mazekit.generate.cellular_automaton import ends

    open_room = carve("cellular_automaton", (6, 9), fill=0.0, steps=0)
    assert np.array_equal(open_room.passages, tr.open_room(open_room.grid))
    # off-grid counts as rock, so the 4-5 rule turns the corners (5 rock neighbours) to rock
    smoothed = carve("cellular_automaton", (6, 9), fill=0.0)
    assert {(r, c) for r in range(6) for c in range(9)} - floor_of(smoothed.passages) == {
        (0, 0),
        (0, 8),
        (5, 0),
        (5, 8),
    }
    solid = carve("cellular_automaton", (6, 9), fill=1.0, connect=False)
    assert not solid.passages.any()
    kept = carve("cellular_automaton", (6, 9), fill=1.0)
    assert not kept.passages.any()
    assert ends(kept.passages, kept.grid) == ((2, 4), (2, 4))  # the one cell kept, in the middle
    tiny = carve("cellular_automaton", (1, 1))
    assert not tiny.passages.any() and ends(tiny.passages, tiny.grid) == ((0, 0), (0, 0))


def test_cave_trace_toggles_rock_and_floor():
    maze = carve("cellular_automaton", (30, 40), rng=2, record=True)
    t = maze.trace
    assert set(np.unique(t[:, 1]).tolist()) == {tr.VISIT, tr.CLOSE, tr.OPEN}
    assert (t[t[:, 1] == tr.CLOSE, 2] == -1).all(), "a CLOSE here turns a cell to rock"
    floor = np.zeros(30 * 40, bool)
    for cell, event, _ in t[np.isin(t[:, 1], (tr.VISIT, tr.CLOSE))].tolist():
        assert floor[cell] == (event == tr.CLOSE), "VISIT makes floor of rock, CLOSE rock of floor"
        floor[cell] = event == tr.VISIT
    assert {tuple(x) for x in np.argwhere(floor.reshape(30, 40)).tolist()} == floor_of(maze.passages)
    assert np.array_equal(tr.replay(t, maze.grid), maze.passages)


def test_cave_rules_and_options():
    from mazekit.generate.cellular_automaton import parse_rule

    born, stays = parse_rule("b678/s345678")
    assert born.nonzero()[0].tolist() == [6, 7, 8] and stays.nonzero()[0].tolist() == [3, 4, 5, 6, 7, 8]
    a = carve("cellular_automaton", (40, 50), rng=1)
    b = carve("cellular_automaton", (40, 50), rng=1, rule="B678/S345678")
    c = carve("cellular_automaton", (40, 50), rng=1, steps=0, connect=False)
    assert not np.array_equal(a.passages, b.passages)
    assert_cave(b)
    assert_cave(c)
    bad = [
        ({"fill": -0.1}, "fill must be a number from 0 to 1"),
        ({"fill": 1.5}, "fill must be a number from 0 to 1"),
        ({"fill": "half"}, "fill must be a number from 0 to 1"),
        ({"steps": -1}, "steps must be a non-negative integer"),
        ({"steps": 1.5}, "steps must be a non-negative integer"),
        ({"rule": "4-5"}, "rule must look like 'B5678/S45678'"),
        ({"rule": "B9/S1"}, "rule must look like"),
        ({"rule": 45}, "rule must look like"),
        ({"connect": "yes"}, "connect must be True or False"),
    ]
    for options, message in bad:
        with pytest.raises(ValueError, match=message):
            carve("cellular_automaton", (5, 5), **options)


# -- unicursal ---------------------------------------------------------------------------


def assert_single_path(maze) -> None:
    assert_spanning_tree(maze)
    d = degree(maze.passages)
    assert d.max() <= 2
    assert int((d == 1).sum()) == (0 if maze.grid.n_cells == 1 else 2)


@pytest.mark.parametrize("rows", range(1, 10))
def test_unicursal_every_shape_is_one_path(rows):
    from mazekit.generate.unicursal import ends

    for cols in range(1, 10):
        for seed in (0, 1):
            maze = carve("unicursal", (rows, cols), rng=seed, record=True)
            assert_single_path(maze)
            start, goal = ends(maze.passages)
            if rows * cols == 1:
                assert start == goal == (0, 0)
            elif rows == 1 or cols == 1:
                assert (start, goal) == ((0, 0), (rows - 1, cols - 1))
            elif rows % 2 and cols % 2:
                assert (start, goal) == ((rows - 2, cols - 2), (rows - 1, cols - 1))
            else:
                assert (start, goal) == ((0, 0), (0, 1))
            path = maze.trace  # a VISIT of the start, then one CARVE per step along the path
            assert path[0, 0] == grid_flat(start, cols) and path[-1, 0] == grid_flat(goal, cols)
            assert len(path) == rows * cols and len(set(path[:, 0].tolist())) == rows * cols


def grid_flat(cell, cols):
    return cell[0] * cols + cell[1]


def test_unicursal_large_and_other_bases():
    assert_single_path(carve("unicursal", (200, 300), rng=3))
    assert_single_path(carve("unicursal", (201, 301), rng=3))
    a = carve("unicursal", (30, 40), rng=3, base="kruskal")
    b = carve("unicursal", (30, 40), rng=3, base="backtracker")
    assert_single_path(a)
    assert not np.array_equal(a.passages, b.passages)


def test_unicursal_doubles_its_base(monkeypatch):
    from mazekit.generate.backtracker import backtracker

    base = backtracker(RectGrid((4, 5)), np.random.default_rng(9)).passages
    lanes = carve("unicursal", (8, 10), rng=9).passages
    for r, c in itertools.product(range(4), range(5)):
        # a base passage east shows as two parallel lanes crossing the block boundary
        east = bool(base[r, c] & 2)
        assert bool(lanes[2 * r, 2 * c + 1] & 2) == east == bool(lanes[2 * r + 1, 2 * c + 1] & 2)
        south = bool(base[r, c] & 4)
        assert bool(lanes[2 * r + 1, 2 * c] & 4) == south == bool(lanes[2 * r + 1, 2 * c + 1] & 4)


def test_unicursal_base_option(monkeypatch):
    from mazekit.generate import GENERATORS
    from mazekit.generate.cellular_automaton import cellular_automaton

    with pytest.raises(ValueError, match="unknown generator 'nope'"):
        carve("unicursal", (4, 4), base="nope")
    monkeypatch.setitem(GENERATORS, "cave", cellular_automaton)
    with pytest.raises(ValueError, match="not a perfect generator"):
        carve("unicursal", (4, 4), base="cave")
    from mazekit.generate.unicursal import ends

    with pytest.raises(ValueError, match="not a single path"):
        ends(carve("prim_true", (6, 6)).passages)
