"""Contract of the solvers on every grid.

Parametrised over :data:`mazekit.solve.SOLVERS` and small grids of every kind in
:data:`mazekit.grids.GRIDS` (and the rect variants: masked, torus, cylinder), so a new solver
or a new grid is tested by being registered (shapes in ``SHAPES`` where the default ones do
not suit it). The
mazes are built here, independently of the generators: a random spanning tree of the grid
graph (perfect), and the same with about 30% of the remaining grid edges opened (braided).
Distances come from networkx. Each solver must return a walk through open passages from the
start to the goal, never change the maze, find a path wherever its module promises one, and
a shortest one where it promises that, set off from the start (value methods: from the
goal), and, when the goal cannot be reached, say so after exploring all of one end's piece
and nothing beyond the two ends' pieces. ``pledge`` and ``chain`` need a flat grid and must
refuse the others with a one-line ``ValueError``. Solvers with options run the perfect and
braided checks once per case in ``OPTION_CASES``. On rectangles every solver also runs on
every generator's mazes, on larger mazes with loops, and (if it promises perfect mazes) on a
million cells. What one solver does is in tests/solve/test_<name>.py (walkers and MDP
planners: test_walkers.py, test_mdp.py).
"""

from __future__ import annotations

import zlib

import networkx as nx
import numpy as np
import pytest

import mazekit
from mazekit.generate import properties
from mazekit.grids import GRIDS, Grid, PolarGrid, RectGrid, make_grid
from mazekit.grids.kernel import full_turn, heading, is_slot
from mazekit.solution import Solution
from mazekit.solve import SOLVERS, guarantees, supports
from mazekit.solve._walk import clockwise

from ..checks import MASK_TEXT, cut_grid

NAMES = sorted(SOLVERS)

#: Small shapes of each grid kind, from a single cell up.
SHAPES: dict[str, list[tuple[int, ...]]] = {
    "rect": [(1, 1), (1, 6), (5, 7)],
    "hex": [(1, 1), (2, 1), (5, 6)],
    "triangle": [(1, 1), (1, 5), (5, 7)],
    "polar": [(1, 1), (1, 3), (4, 6)],
    "upsilon": [(1, 1), (1, 4), (6, 6)],
    "3d": [(1, 1, 1), (2, 1, 1), (2, 3, 4)],
    "weave": [(1, 1), (1, 5), (6, 6)],
}
DEFAULT_SHAPES = [(1, 1), (2, 3), (6, 7)]  # a grid in (rows, cols) not listed above

CASES: dict[str, Grid] = {
    f"{kind}-{'x'.join(map(str, s))}": make_grid(kind, s)
    for kind in GRIDS
    for s in SHAPES.get(kind, DEFAULT_SHAPES)
}
CASES["rect-masked"] = RectGrid.from_text(MASK_TEXT)
CASES["rect-torus"] = make_grid("rect", (4, 5), wrap="xy")
CASES["rect-cylinder"] = make_grid("rect", (3, 5), wrap="x")
CASES["hex-masked"] = make_grid(
    "hex", RectGrid.from_text(MASK_TEXT).shape, mask=RectGrid.from_text(MASK_TEXT).mask
)
CASES["polar-cut"] = cut_grid("polar", (5, 6))
CASES["3d-cut"] = cut_grid("3d", (2, 5, 5))
CASES["weave-cut"] = cut_grid("weave", (7, 7))
IDS = sorted(CASES)

#: Options that make the random solvers reproducible (and the mouse patient).
#: Solvers whose exploration is a wave from the goal; every other one sets off from the start.
FROM_GOAL = ("value_iteration", "policy_iteration")
#: Solvers that search from both ends at once.
BOTH_ENDS = ("bidirectional_bfs",)

OPTIONS = {"random_mouse": {"rng": 0, "max_steps": 100_000}, "q_learning": {"rng": 0}}

#: Option values worth a full check, under which each solver keeps its promises (Pledge's
#: directions and slip have tests of their own below; add a line when a solver gains an option).
OPTION_CASES: dict[str, list[dict]] = {
    "wall_follower": [{"hand": "left"}, {"hand": "right"}],
    "value_iteration": [{}, {"gamma": 0.9}],
    "policy_iteration": [{}, {"gamma": 0.9}],
    "random_mouse": [{}, {"rng": 1}],
    "q_learning": [{}, {"rng": 1, "episodes": 50}],
    "shortest_paths": [{}, {"limit": 1}],
}
assert set(OPTION_CASES) <= set(SOLVERS), "option cases for a solver that is not registered"
SOLVER_CASES = [(name, opts) for name in NAMES for opts in OPTION_CASES.get(name, [{}])]
SOLVER_IDS = [name + "".join(f"-{k}={v}" for k, v in opts.items()) for name, opts in SOLVER_CASES]


# -- mazes and checks built here, from the grid's neighbour table only ----------------------


def seed_of(*parts: object) -> int:
    return zlib.crc32(repr(parts).encode())


def open_pair(p: np.ndarray, grid: Grid, a: int, b: int) -> None:
    s = int(np.flatnonzero(grid.neighbors()[a] == b)[0])
    p[a] |= np.uint8(1 << s)
    p[b] |= np.uint8(1 << grid.back(grid.unflat(a), s))


def spanning_tree(grid: Grid, rng: np.random.Generator) -> np.ndarray:
    """A random perfect maze: Kruskal over the grid graph, every grid edge a candidate."""
    edges = grid.edges()
    parent = list(range(grid.size))

    def find(x: int) -> int:
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    p = np.zeros(grid.size, np.uint8)
    for a, b in edges[rng.permutation(len(edges))].tolist():
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb
            open_pair(p, grid, a, b)
    return p


def braid(grid: Grid, p: np.ndarray, rng: np.random.Generator, share: float = 0.3) -> np.ndarray:
    """``p`` with about ``share`` of its closed grid edges opened, at random."""
    p = p.copy()
    g = graph(grid, p)
    closed = [(a, b) for a, b in grid.edges().tolist() if not g.has_edge(a, b)]
    for i in rng.permutation(len(closed))[: round(share * len(closed))].tolist():
        open_pair(p, grid, *closed[i])
    return p


def graph(grid: Grid, p: np.ndarray) -> nx.Graph:
    """The maze as a networkx graph of flat cells, from the neighbour table and the bits."""
    nb = grid.neighbors()
    g = nx.Graph()
    g.add_nodes_from(grid.cell_indices().tolist())
    for a in grid.cell_indices().tolist():
        for s in range(grid.n_slots):
            if p[a] >> s & 1:
                assert nb[a, s] >= 0 and p[nb[a, s]] >> grid.back(grid.unflat(a), s) & 1
                g.add_edge(a, int(nb[a, s]))
    return g


def make_maze(case: str, kind: str, seed: int) -> tuple[mazekit.Maze, nx.Graph]:
    """A perfect or braided maze of ``case``, start and goal its first and last cells."""
    grid = CASES[case]
    rng = np.random.default_rng(seed_of(case, kind, seed))
    p = spanning_tree(grid, rng)
    if kind == "braided":
        p = braid(grid, p, rng)
    cells = grid.cell_indices()
    maze = mazekit.Maze(p.reshape(grid.shape), grid, grid.unflat(cells[0]), grid.unflat(cells[-1]))
    maze.check()
    return maze, graph(grid, p)


def ends(maze: mazekit.Maze, seed: int) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The maze's own ends, and a random pair of cells."""
    cells = maze.grid.cell_indices()
    rng = np.random.default_rng(seed)
    a, b = (maze.grid.unflat(int(cells[rng.integers(len(cells))])) for _ in range(2))
    return [(maze.start, maze.goal), (a, b)]


def assert_walk(maze: mazekit.Maze, cells: np.ndarray, start: tuple[int, int]) -> None:
    """``cells`` (rows of ``(row, col)``) start at ``start`` and step through open passages."""
    grid = maze.grid
    cells = np.asarray(cells, dtype=np.int64).reshape(-1, 2)
    flat = cells[:, 0] * grid.cols + cells[:, 1]  # every grid: cell (r, c) is flat r * cols + c
    assert len(flat) and flat[0] == grid.flat(start)
    a, b = flat[:-1], flat[1:]
    bits = maze.passages.ravel()[a, None] >> np.arange(grid.n_slots, dtype=np.uint8) & 1
    ok = ((grid.neighbors()[a] == b[:, None]) & (bits == 1)).any(axis=1)
    bad = np.flatnonzero(~ok)
    assert not len(bad), (
        f"step {grid.unflat(int(a[bad[0]]))} -> {grid.unflat(int(b[bad[0]]))} is not through an open passage"
    )


def run(
    name: str, maze: mazekit.Maze, start: tuple[int, int], goal: tuple[int, int], opts: dict | None = None
) -> Solution:
    """Solve (with the options ``opts`` on top of ``OPTIONS``), checking the maze is untouched
    and the solution is well formed."""
    before = maze.passages.copy()
    sol = SOLVERS[name](maze, start, goal, **{**OPTIONS.get(name, {}), **(opts or {})})
    assert np.array_equal(maze.passages, before), f"{name} changed the maze"
    assert sol.solver == name and sol.trace.dtype == np.int32 and sol.trace.shape[1] == 3
    exists = np.zeros(maze.grid.size, bool)
    exists[maze.grid.cell_indices()] = True
    assert exists[sol.trace[:, 0]].all(), "the trace names a cell that does not exist"
    if len(sol.explored):  # searches set off from the start, value methods from the goal
        assert sol.explored[0].tolist() == list(goal if name in FROM_GOAL else start)
    if sol.found:
        assert_walk(maze, sol.path, start)
        assert tuple(sol.path[-1].tolist()) == tuple(goal)
        assert len({tuple(c) for c in sol.path.tolist()}) == len(sol.path), "the path repeats a cell"
    else:
        assert sol.path.shape == (0, 2) and sol.length is None
    if "walk" in sol.extras:
        assert_walk(maze, sol.extras["walk"], start)
    if "stopped" in sol.extras:  # walkers say why they stopped
        assert (sol.extras["stopped"] == "goal") == sol.found
    return sol


def needs_grid(name: str, case: str) -> None:
    if not supports(SOLVERS[name], CASES[case]):
        pytest.skip(f"{name} needs a flat grid (tested in test_refuses_grids_it_cannot_solve)")


# -- the contract -----------------------------------------------------------------------------


@pytest.mark.parametrize("case", IDS)
@pytest.mark.parametrize("name, opts", SOLVER_CASES, ids=SOLVER_IDS)
def test_perfect_mazes(name, opts, case):
    """A perfect maze has one path between two cells: whoever finds one finds that one."""
    needs_grid(name, case)
    promised = guarantees(SOLVERS[name])["perfect"]
    for seed in range(2):
        maze, g = make_maze(case, "perfect", seed)
        for start, goal in ends(maze, seed):
            sol = run(name, maze, start, goal, opts)
            assert sol.found or not promised, f"{name} promises to solve perfect mazes"
            if sol.found:
                best = nx.shortest_path_length(g, maze.grid.flat(start), maze.grid.flat(goal))
                assert sol.length == best


@pytest.mark.parametrize("case", IDS)
@pytest.mark.parametrize("name, opts", SOLVER_CASES, ids=SOLVER_IDS)
def test_braided_mazes(name, opts, case):
    """With loops: shortest solvers agree with networkx; solvers promising mazes with loops
    and islands find a path; the others' paths are at least as long."""
    needs_grid(name, case)
    promise = guarantees(SOLVERS[name])
    maze, g = make_maze(case, "braided", 0)
    for start, goal in ends(maze, 1):
        sol = run(name, maze, start, goal, opts)
        best = nx.shortest_path_length(g, maze.grid.flat(start), maze.grid.flat(goal))
        if promise["loops"] and promise["island"]:
            assert sol.found, f"{name} promises to solve mazes with loops"
        if promise["shortest"]:
            assert sol.length == best
        elif sol.found:
            assert sol.length >= best


@pytest.mark.parametrize("case", IDS)
@pytest.mark.parametrize("name", NAMES)
def test_start_is_goal(name, case):
    needs_grid(name, case)
    maze, _ = make_maze(case, "braided", 1)
    cell = maze.grid.unflat(int(maze.grid.cell_indices()[-1]))
    sol = run(name, maze, cell, cell)
    assert sol.found and sol.length == 0 and sol.path.tolist() == [list(cell)]
    if "walk" in sol.extras:
        assert sol.extras["walk"].tolist() == [list(cell)]


def close(maze: mazekit.Maze, g: nx.Graph, pairs: list) -> tuple[mazekit.Maze, list[set[int]]]:
    """The maze with the passages ``pairs`` (flat cells) closed, and its pieces."""
    grid, p, h = maze.grid, maze.passages.copy().ravel(), g.copy()
    for a, b in pairs:
        h.remove_edge(a, b)
        for x, y in ((a, b), (b, a)):
            p[x] &= np.uint8(~(1 << int(np.flatnonzero(grid.neighbors()[x] == y)[0])) & 0xFF)
    return maze.replace(passages=p.reshape(grid.shape)), [set(c) for c in nx.connected_components(h)]


@pytest.mark.parametrize("case", [c for c in IDS if CASES[c].n_cells > 2])
@pytest.mark.parametrize("name", NAMES)
def test_unreachable_goal(name, case):
    """A perfect maze cut in three, and a maze with loops split in two: no path is found;
    what is explored (and traced) lies in the piece of the end the solver sets off from
    (both ends' for a two-way search), and one of the two ends' pieces is explored to the
    end (nobody gives up while there is somewhere left to go)."""
    needs_grid(name, case)
    grid = CASES[case]
    rng = np.random.default_rng(seed_of("cut", case))
    perfect, g = make_maze(case, "perfect", 0)
    tree = list(g.edges())
    braided, gb = make_maze(case, "braided", 1)
    half = set(rng.permutation(grid.cell_indices())[: grid.n_cells // 2].tolist())
    split = [(a, b) for a, b in gb.edges() if (a in half) != (b in half)]
    for maze, pieces in (
        close(perfect, g, [tree[i] for i in rng.permutation(len(tree))[:2]]),
        close(braided, gb, split),
    ):
        a = next(c for c in pieces if grid.flat(maze.start) in c)
        b = max((c for c in pieces if c is not a), key=len)
        sol = run(name, maze, maze.start, grid.unflat(min(b)))
        assert not sol.found and sol.extras.get("stopped") != "goal"
        explored = set((sol.explored[:, 0] * grid.cols + sol.explored[:, 1]).tolist())
        side = a | b if name in BOTH_ENDS else b if name in FROM_GOAL else a
        assert explored | set(sol.trace[:, 0].tolist()) <= side, "explored beyond its end's piece"
        assert a <= explored or b <= explored, "gave up before exploring either end's piece"


@pytest.mark.parametrize("gen", sorted(mazekit.GENERATORS))
@pytest.mark.parametrize("name", NAMES)
def test_generated_mazes(name, gen):
    """Every generator's textures (long corridors, caves with rock, single paths...) between
    the maze's own ends: found where promised, shortest where the path is unique or promised."""
    promise = guarantees(SOLVERS[name])
    unique = properties(mazekit.GENERATORS[gen])["perfect"]
    for shape in [(1, 8), (8, 1), (9, 14), (40, 30)]:
        maze = mazekit.generate(gen, shape, rng=21)
        sol = run(name, maze, maze.start, maze.goal)
        assert sol.found or not promise["perfect"], f"{name} promises to solve {gen} {shape}"
        if sol.found:
            g = graph(maze.grid, maze.passages.ravel())
            best = nx.shortest_path_length(g, maze.grid.flat(maze.start), maze.grid.flat(maze.goal))
            assert sol.length == best if unique or promise["shortest"] else sol.length >= best


@pytest.mark.parametrize("name", NAMES)
def test_larger_mazes_with_loops(name):
    """A 21 x 26 rectangle with loops, random ends: paths through passages, shortest where
    promised, found where promised."""
    if not supports(SOLVERS[name], CASES["rect-5x7"]):
        pytest.skip("runs on flat grids; a rectangle is one")  # pragma: no cover
    promise = guarantees(SOLVERS[name])
    grid = make_grid("rect", (21, 26))
    for seed in range(4):
        rng = np.random.default_rng(seed_of("loops", seed))
        p = braid(grid, spanning_tree(grid, rng), rng)
        maze = mazekit.Maze(p.reshape(grid.shape), grid, (0, 0), (20, 25))
        g = graph(grid, p)
        for _ in range(4):
            start, goal = (grid.unflat(int(x)) for x in rng.integers(grid.size, size=2))
            sol = run(name, maze, start, goal)
            best = nx.shortest_path_length(g, grid.flat(start), grid.flat(goal))
            if promise["loops"] and promise["island"]:
                assert sol.found, (seed, start, goal)
            if promise["shortest"]:
                assert sol.length == best
            elif sol.found:
                assert sol.length >= best


def assert_rect_path(maze: mazekit.Maze, path: np.ndarray, start, goal) -> None:
    """A simple path of (row, col) cells from start to goal through open passages, checked
    with whole-array operations (fast enough for 10^5 steps)."""
    path = np.asarray(path)
    assert path[0].tolist() == list(start) and path[-1].tolist() == list(goal)
    step = np.diff(path, axis=0)
    slot = {(-1, 0): 0, (0, 1): 1, (1, 0): 2, (0, -1): 3}
    codes = [slot.get((int(dr), int(dc)), -1) for dr, dc in step.tolist()]
    assert -1 not in codes, "a jump between cells that are not neighbours"
    bits = maze.passages[path[:-1, 0], path[:-1, 1]] >> np.array(codes, dtype=np.uint8) & 1
    assert bits.all(), "a step through a wall"
    assert len({(r, c) for r, c in path.tolist()}) == len(path), "the path repeats a cell"


@pytest.fixture(scope="module")
def million() -> mazekit.Maze:
    """One million-cell maze for every solver of the big-maze test, made once."""
    return mazekit.generate("backtracker", (1000, 1000), rng=5)


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in NAMES if guarantees(SOLVERS[n])["perfect"]])
def test_large_maze(name, million):
    """A million cells: a solver that promises perfect mazes finds the one simple path."""
    maze = million
    start, goal = (150, 150), (860, 140)
    sol = SOLVERS[name](maze, start, goal, **OPTIONS.get(name, {}))
    assert sol.found and sol.solver == name
    # in a perfect maze a simple path is the only one, so this also checks the length
    assert_rect_path(maze, sol.path, start, goal)
    assert sol.length == len(sol.path) - 1


@pytest.mark.parametrize("case", IDS)
def test_refuses_grids_it_cannot_solve(case):
    """``pledge`` and ``chain`` run on flat grids only and say so in one line elsewhere."""
    grid = CASES[case]
    maze, _ = make_maze(case, "perfect", 0)
    for name, func in SOLVERS.items():
        if supports(func, grid):
            continue
        assert name in ("pledge", "chain") and not grid.is_flat
        with pytest.raises(ValueError, match=rf"^{name} works on flat grids only \(.*\), not on a .*grid$"):
            func(maze, maze.start, maze.goal)
    if not grid.is_flat:
        assert not supports(SOLVERS["pledge"], grid) and not supports(SOLVERS["chain"], grid)


@pytest.mark.parametrize("case", [c for c in IDS if CASES[c].is_flat])
def test_walkers_turn_as_drawn(case):
    """On a flat grid the walkers' slot order is clockwise in the picture (y down) and each
    slot's heading is the compass direction of its wall's outward normal."""
    grid = CASES[case]
    _, walls = grid.outline()
    centres = grid.centers()
    full = int(full_turn(grid.geo))
    for cell in grid.cell_indices().tolist():
        if isinstance(grid, PolarGrid) and grid.counts[cell // grid.cols] < 3:
            continue  # a ring of one or two cells: its arcs are half or whole circles
        drawn = [s for s in range(grid.n_slots) if not np.isnan(walls[cell, s]).any()]
        order = clockwise(grid.geo, cell, 0).tolist()
        assert set(drawn) <= set(order), "every side drawn is a slot to turn to"
        assert all(grid.neighbor(grid.unflat(cell), s) is None for s in set(order) - set(drawn))
        order = [s for s in order if s in drawn]
        bearing = {}
        for s in order:
            a, b = walls[cell, s, 0], walls[cell, s, -1]
            normal = np.array([b[1] - a[1], a[0] - b[0]])
            if normal @ (walls[cell, s].mean(axis=0) - centres[cell]) < 0:
                normal = -normal
            bearing[s] = np.degrees(np.arctan2(normal[0], -normal[1])) % 360
            assert np.isclose((heading(grid.geo, cell, s) * 360 / full - bearing[s] + 180) % 360, 180)
        turns = [(bearing[b] - bearing[a]) % 360 for a, b in zip(order, order[1:] + order[:1], strict=True)]
        assert len(order) == 1 or np.isclose(sum(turns), 360), f"not clockwise at {grid.unflat(cell)}"


# -- options that turn on every grid ------------------------------------------------------------


@pytest.mark.parametrize("case", [c for c in IDS if CASES[c].is_flat])
def test_pledge_every_direction_and_hand(case):
    """Each compass direction of the grid, either hand: every perfect maze is solved."""
    grid = CASES[case]
    for seed in range(3):
        maze, g = make_maze(case, "perfect", seed)
        for start, goal in ends(maze, seed):
            best = nx.shortest_path_length(g, grid.flat(start), grid.flat(goal))
            for direction in grid.directions():
                for hand in ("left", "right"):
                    sol = SOLVERS["pledge"](maze, start, goal, direction=direction, hand=hand)
                    assert sol.found and sol.length == best, (direction, hand)
                    assert_walk(maze, sol.extras["walk"], start)
    with pytest.raises(ValueError, match="direction must be one of 'N'"):
        SOLVERS["pledge"](maze, maze.start, maze.goal, direction="up")


def outer_edge(grid: Grid) -> list[int]:
    """Cells touching the outer wall: a side with no cell beyond (polar: the outer ring)."""
    if isinstance(grid, PolarGrid):
        return [c for c in grid.cell_indices().tolist() if c // grid.cols == grid.rows - 1]
    nb = grid.neighbors()
    return [
        c
        for c in grid.cell_indices().tolist()
        if any(nb[c, s] < 0 and is_slot(grid.geo, c, s) for s in range(grid.n_slots))
    ]


#: Flat grids of a few dozen cells without holes, for the walkers' edge guarantees.
OPEN_FLAT = [c for c in IDS if CASES[c].is_flat and CASES[c].mask is None and CASES[c].n_cells > 20]


@pytest.mark.parametrize("case", OPEN_FLAT)
def test_walkers_reach_the_edge_in_mazes_with_loops(case):
    """The wall follower joins any two cells on the outer edge; Pledge reaches one from
    anywhere, whichever way it prefers (islands and all: braided mazes)."""
    grid = CASES[case]
    edge, cells = outer_edge(grid), grid.cell_indices().tolist()
    for seed in range(3):
        maze, _ = make_maze(case, "braided", seed)
        rng = np.random.default_rng(seed)
        for _ in range(4):
            a, b, c = (grid.unflat(int(x)) for x in (rng.choice(edge), rng.choice(edge), rng.choice(cells)))
            for hand in ("left", "right"):
                assert SOLVERS["wall_follower"](maze, a, b, hand=hand).found, (a, b, hand)
                for direction in grid.directions():
                    sol = SOLVERS["pledge"](maze, c, b, direction=direction, hand=hand)
                    assert sol.found, (c, b, direction, hand)


@pytest.mark.parametrize("case", [case for case in IDS if CASES[case].n_cells > 1])  # a leaf to wall in
def test_wall_follower_either_hand_goes_round_the_tree(case):
    """Unable to reach the goal, the walk goes round the whole tree, each passage once each
    way (and one step more to see the repeat): on every grid, whatever its slot order."""
    maze, g = make_maze(case, "perfect", 2)
    grid = maze.grid
    goal = maze.goal
    p = maze.passages.copy().ravel()
    leaf = next(c for c in grid.cell_indices().tolist() if g.degree(c) == 1 and c != grid.flat(maze.start))
    (other,) = g.neighbors(leaf)
    s = int(np.flatnonzero(grid.neighbors()[leaf] == other)[0])
    p[leaf] = 0
    p[other] &= np.uint8(~(1 << grid.back(grid.unflat(leaf), s)) & 0xFF)
    cut = maze.replace(passages=p.reshape(grid.shape), goal=grid.unflat(leaf))
    for hand in ("left", "right"):
        sol = SOLVERS["wall_follower"](cut, cut.start, cut.goal, hand=hand)
        assert not sol.found and sol.extras["stopped"] in ("loop", "stuck")
        if sol.extras["stopped"] == "loop":
            # back where it set off (2 steps a passage), or one step on if it set off with its
            # back to a wall
            assert len(sol.extras["walk"]) - 1 in (2 * (grid.n_cells - 2), 2 * (grid.n_cells - 2) + 1)
            assert len({tuple(c) for c in sol.extras["walk"].tolist()}) == grid.n_cells - 1
    assert goal == maze.goal


@pytest.mark.parametrize("case", [c for c in IDS if CASES[c].n_cells > 4])
def test_mdp_solvers_agree_with_slip(case):
    """Value and policy iteration solve the same MDP (slip spreads over each cell's slots)."""
    maze, _ = make_maze(case, "braided", 3)
    for slip, gamma in ((0.2, 1.0), (0.5, 0.9)):
        v = SOLVERS["value_iteration"](maze, maze.start, maze.goal, slip=slip, gamma=gamma, tol=1e-11)
        p = SOLVERS["policy_iteration"](maze, maze.start, maze.goal, slip=slip, gamma=gamma, tol=1e-11)
        assert v.extras["converged"] and p.extras["converged"]
        np.testing.assert_allclose(v.extras["values"], p.extras["values"], atol=1e-6)
        assert v.found and p.found
        q = SOLVERS["q_learning"](maze, maze.start, maze.goal, rng=0, episodes=5, slip=slip)
        assert q.extras["q"].shape == (*maze.shape, maze.grid.n_slots)


def test_solver_functions_called_directly_refuse_cells_off_the_grid() -> None:
    """Each solver's own function (not only ``mazekit.solve``) checks its cells: in a child
    process, since a kernel reading off its arrays could take the interpreter down."""
    import subprocess
    import sys

    script = """if True:
        import importlib, mazekit
        from mazekit.solve import SOLVERS
        maze = mazekit.generate("prim", (5, 6), rng=1)
        for name, func in SOLVERS.items():
            for start, goal in (((0, 0), (9, 9)), ((-1, 0), (4, 5)), ((0, 0), (0, 6))):
                try:
                    func(maze, start, goal)
                except ValueError as exc:
                    assert "off the grid" in str(exc), (name, str(exc))
                else:
                    raise AssertionError(f"{name} accepted {start} -> {goal}")
        print("ok", len(SOLVERS))
    """
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and done.stdout.startswith("ok"), done.stderr[-2000:]
