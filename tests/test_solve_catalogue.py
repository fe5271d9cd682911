"""The catalogue solvers: Dijkstra, bidirectional BFS, dead-end filling, chain, collision and
all shortest paths. Checked against plain Python BFS, networkx and counting formulas."""

import math
from collections import deque

import numpy as np
import pytest

import mazekit
from mazekit import trace as tr
from mazekit.convert import from_blocks
from mazekit.generate import properties
from mazekit.solve import guarantees
from mazekit.solve.bfs import bfs
from mazekit.solve.bidirectional_bfs import bidirectional_bfs
from mazekit.solve.chain import chain
from mazekit.solve.collision import collision
from mazekit.solve.dead_end_filling import dead_end_filling
from mazekit.solve.dijkstra import dijkstra
from mazekit.solve.shortest_paths import shortest_paths

from .checks import MASK_TEXT, STEPS, assert_valid_path, bfs_distance
from .test_solve import braided

CATALOGUE = {
    "dijkstra": dijkstra,
    "bidirectional_bfs": bidirectional_bfs,
    "dead_end_filling": dead_end_filling,
    "chain": chain,
    "collision": collision,
    "shortest_paths": shortest_paths,
}
NAMES = sorted(CATALOGUE)
SHAPES = [(1, 1), (1, 8), (8, 1), (2, 2), (9, 14), (40, 30)]
PERFECT = [
    (gen, shape)
    for gen, func in sorted(mazekit.GENERATORS.items())
    if properties(func)["perfect"]
    for shape in SHAPES
]


def room(shape) -> mazekit.Maze:
    """A maze with every inner wall open."""
    maze = mazekit.generate("prim", shape, rng=0)
    return maze.replace(passages=tr.open_room(maze.grid))


def distances(maze, source) -> dict:
    """Steps from ``source`` to every reachable cell, by a plain Python BFS."""
    dist = {tuple(source): 0}
    queue = deque([tuple(source)])
    while queue:
        cell = queue.popleft()
        for k, (dr, dc) in STEPS.items():
            if maze.passages[cell] >> k & 1:
                nb = (cell[0] + dr, cell[1] + dc)
                if nb not in dist:
                    dist[nb] = dist[cell] + 1
                    queue.append(nb)
    return dist


def cut_in_two(maze: mazekit.Maze) -> mazekit.Maze:
    """The maze with every passage across the middle column line closed."""
    p = maze.passages.copy()
    mid = maze.shape[1] // 2
    p[:, mid - 1] &= ~np.uint8(2)
    p[:, mid] &= ~np.uint8(8)
    return maze.replace(passages=p)


def test_modules_declare_their_guarantees():
    for name, func in CATALOGUE.items():
        g = guarantees(func)
        assert all(isinstance(v, bool) for v in g.values()), name
        assert g["perfect"] and g["loops"] and g["island"], name
        assert g["shortest"] == (name != "chain"), name


@pytest.mark.parametrize("solver", NAMES)
@pytest.mark.parametrize("gen, shape", PERFECT, ids=[f"{g}-{s[0]}x{s[1]}" for g, s in PERFECT])
def test_perfect_mazes(solver, gen, shape):
    maze = mazekit.generate(gen, shape, rng=8)
    before = maze.passages.copy()
    sol = CATALOGUE[solver](maze, maze.start, maze.goal)
    assert np.array_equal(maze.passages, before), "a solver changed the maze"
    assert sol.solver == solver and sol.found
    assert_valid_path(maze, sol.path, maze.start, maze.goal)
    assert sol.length == bfs_distance(maze, maze.start, maze.goal)  # the path is unique
    assert sol.trace.dtype == np.int32 and sol.trace.shape[1] == 3
    assert sol.explored[0].tolist() == list(maze.start)


@pytest.mark.parametrize("solver", NAMES)
@pytest.mark.parametrize("seed", range(5))
def test_mazes_with_loops(solver, seed):
    gen = ("backtracker", "growing_tree", "kruskal", "prim")[seed % 4]
    maze = braided(mazekit.generate(gen, (21, 26), rng=seed), seed)
    before = maze.passages.copy()
    rng = np.random.default_rng(seed)
    for _ in range(6):
        s = (int(rng.integers(21)), int(rng.integers(26)))
        g = (int(rng.integers(21)), int(rng.integers(26)))
        sol = CATALOGUE[solver](maze, s, g)
        assert_valid_path(maze, sol.path, s, g)
        best = bfs_distance(maze, s, g)
        if guarantees(CATALOGUE[solver])["shortest"]:
            assert sol.length == best
        else:
            assert sol.length >= best
    assert np.array_equal(maze.passages, before)


@pytest.mark.parametrize("solver", NAMES)
@pytest.mark.parametrize("seed", range(3))
def test_unreachable_goal(solver, seed):
    # a maze with loops, cut in two down the middle
    maze = cut_in_two(braided(mazekit.generate("backtracker", (30, 40), rng=seed), seed))
    sol = CATALOGUE[solver](maze, (15, 3), (15, 36))
    assert not sol.found and sol.path.shape == (0, 2) and sol.length is None
    seen = {side: {divmod(int(c), 40) for c in sol.trace[sol.trace[:, 2] == side, 0]} for side in (-1, 0, 1)}
    near, far = set(distances(maze, (15, 3))), set(distances(maze, (15, 36)))
    if solver == "bidirectional_bfs":  # a side is searched to the end, the other stays home
        assert seen[0] == near or seen[1] == far
        assert seen[0] <= near and seen[1] <= far
    elif solver == "chain":  # the walker and robots, round one border
        assert seen[-1] | seen[0] | seen[1] <= near
    else:  # all of the start's half, nothing else
        assert {divmod(int(c), 40) for c in sol.trace[:, 0]} == near


def test_unreachable_extras():
    maze = cut_in_two(mazekit.generate("prim", (6, 6), rng=1))
    d = dijkstra(maze, (0, 0), (5, 5))
    assert d.extras["cost"] == math.inf and np.isinf(d.extras["distances"][:, 3:]).all()
    c = collision(maze, (0, 0), (5, 5))
    assert c.extras["n_paths"] == 0 and not c.extras["on_shortest"].any()
    s = shortest_paths(maze, (0, 0), (5, 5))
    assert s.extras["n_paths"] == 0 and s.extras["paths"] == []


@pytest.mark.parametrize("solver", NAMES)
def test_masked_maze(solver):
    maze = mazekit.generate("kruskal", mazekit.RectGrid.from_text(MASK_TEXT), rng=1)
    sol = CATALOGUE[solver](maze, maze.start, maze.goal)
    assert_valid_path(maze, sol.path, maze.start, maze.goal)
    assert sol.length == bfs_distance(maze, maze.start, maze.goal)


@pytest.mark.parametrize("solver", NAMES)
def test_large_maze(solver):
    maze = mazekit.generate("backtracker", (1000, 1000), rng=5)
    sol = CATALOGUE[solver](maze, maze.start, maze.goal)
    assert sol.length == bfs(maze, maze.start, maze.goal).length


# -- dijkstra ------------------------------------------------------------------------------


def nx_graph(maze, weights):
    """The maze as a networkx digraph whose edge u->v costs the weight of v."""
    nx = pytest.importorskip("networkx")
    graph = nx.DiGraph()
    rows, cols = maze.shape
    graph.add_nodes_from((r, c) for r in range(rows) for c in range(cols))
    for r in range(rows):
        for c in range(cols):
            for k, (dr, dc) in STEPS.items():
                if maze.passages[r, c] >> k & 1:
                    graph.add_edge((r, c), (r + dr, c + dc), weight=float(weights[r + dr, c + dc]))
    return nx, graph


def test_dijkstra_takes_the_cheap_way_round():
    # a 5 x 9 room with a costly swamp across the middle rows, and a dry strip down column 8
    maze = room((5, 9))
    w = np.ones((5, 9))
    w[1:4, :8] = 50.0
    sol = dijkstra(maze, (0, 0), (4, 0), weights=w)
    assert_valid_path(maze, sol.path, (0, 0), (4, 0))
    assert sol.length > bfs_distance(maze, (0, 0), (4, 0)) == 4
    assert sol.extras["cost"] == pytest.approx(w[tuple(sol.path[1:].T)].sum()) == 20.0  # round the swamp
    nx, graph = nx_graph(maze, w)
    assert sol.extras["cost"] == pytest.approx(nx.dijkstra_path_length(graph, (0, 0), (4, 0)))
    plain = dijkstra(maze, (0, 0), (4, 0))
    assert plain.length == plain.extras["cost"] == 4


@pytest.mark.parametrize("seed", range(6))
def test_dijkstra_matches_networkx(seed):
    rng = np.random.default_rng(seed)
    maze = braided(mazekit.generate("kruskal", (14, 19), rng=seed), seed)
    w = rng.uniform(0.1, 10.0, maze.shape)
    s, g = (int(rng.integers(14)), int(rng.integers(19))), (int(rng.integers(14)), int(rng.integers(19)))
    sol = dijkstra(maze, s, g, weights=w)
    nx, graph = nx_graph(maze, w)
    best = nx.single_source_dijkstra_path_length(graph, s)
    assert_valid_path(maze, sol.path, s, g)
    assert sol.extras["cost"] == pytest.approx(best[g])
    assert sol.extras["cost"] == pytest.approx(w[tuple(sol.path[1:].T)].sum())
    dmap = sol.extras["distances"]
    assert dmap.shape == maze.shape and dmap.dtype == np.float64
    settled = {tuple(c) for c in sol.explored.tolist()}
    for r in range(14):
        for c in range(19):
            if (r, c) in settled:
                assert dmap[r, c] == pytest.approx(best[(r, c)])
                assert dmap[r, c] <= sol.extras["cost"] + 1e-9
            else:
                assert dmap[r, c] == math.inf


def test_dijkstra_weights_are_checked():
    maze = mazekit.generate("prim", (3, 4), rng=0)
    ok = np.ones((3, 4))
    for bad, msg in [
        (np.ones((4, 3)), r"shape \(3, 4\), got shape=\(4, 3\)"),
        (np.full((3, 4), "x"), "real numbers, got dtype=<U1"),
        (np.where(np.eye(3, 4, dtype=bool), -1.0, ok), r"> 0 on every cell, got -1.0 at \(0, 0\)"),
        (np.where(np.eye(3, 4, k=1, dtype=bool), np.nan, ok), r"got nan at \(0, 1\)"),
        (np.where(np.eye(3, 4, k=2, dtype=bool), np.inf, ok), r"got inf at \(0, 2\)"),
        (np.zeros((3, 4)), r"got 0.0 at \(0, 0\)"),
    ]:
        with pytest.raises(ValueError, match=msg):
            dijkstra(maze, maze.start, maze.goal, weights=bad)
    sol = dijkstra(maze, maze.start, maze.goal, weights=np.full((3, 4), 2, dtype=np.int8))
    assert sol.extras["cost"] == 2 * sol.length
    # values on masked-out cells are not used, so anything goes there
    masked = mazekit.generate("kruskal", mazekit.RectGrid.from_text(MASK_TEXT), rng=1)
    w = np.where(masked.grid.mask, 1.0, np.nan)
    assert dijkstra(masked, masked.start, masked.goal, weights=w).extras["cost"] == bfs_distance(
        masked, masked.start, masked.goal
    )


# -- bidirectional BFS ---------------------------------------------------------------------


def test_bidirectional_explores_less_on_open_ground():
    maze = room((30, 30))
    rng = np.random.default_rng(0)
    ours, plain = [], []
    for _ in range(40):
        s = (int(rng.integers(30)), int(rng.integers(30)))
        g = (int(rng.integers(30)), int(rng.integers(30)))
        a, b = bidirectional_bfs(maze, s, g), bfs(maze, s, g)
        assert a.length == b.length
        ours.append(a.n_explored)
        plain.append(b.n_explored)
    assert np.mean(ours) < 0.75 * np.mean(plain)


def test_bidirectional_trace_sides():
    maze = braided(mazekit.generate("prim", (20, 20), rng=4), 4)
    sol = bidirectional_bfs(maze, (0, 0), (19, 19))
    sides = sol.trace[:, 2]
    assert set(sides.tolist()) == {0, 1}
    cells = sol.trace[:, 0].tolist()
    assert len(cells) == len(set(cells)), "a cell was expanded twice"
    d_start, d_goal = distances(maze, (0, 0)), distances(maze, (19, 19))
    for side, dist in ((0, d_start), (1, d_goal)):  # each side expands in rings
        ring = [dist[divmod(c, 20)] for c in sol.trace[sides == side, 0].tolist()]
        assert ring == sorted(ring)


# -- dead-end filling ----------------------------------------------------------------------


def test_dead_end_filling_leaves_the_path():
    maze = mazekit.generate("backtracker", (25, 25), rng=7)
    sol = dead_end_filling(maze, maze.start, maze.goal)
    events = sol.trace[:, 1]
    scanned = sol.trace[events == tr.VISIT, 0]
    filled = sol.trace[events == tr.BACKTRACK, 0]
    on_path = set((sol.path[:, 0] * 25 + sol.path[:, 1]).tolist())
    assert sorted(scanned.tolist()) == list(range(625))
    assert len(set(filled.tolist())) == len(filled) and not on_path & set(filled.tolist())
    assert len(filled) + len(on_path) == 625
    assert (np.flatnonzero(events == tr.BACKTRACK) > np.flatnonzero(events == tr.VISIT).max()).all()


def test_dead_end_filling_only_fills_dead_ends():
    maze = braided(mazekit.generate("kruskal", (20, 20), rng=1), 1)
    sol = dead_end_filling(maze, (0, 0), (19, 19))
    filled = set(sol.trace[sol.trace[:, 1] == tr.BACKTRACK, 0].tolist())
    # replay the filling: each cell, when filled, has at most one unfilled open neighbour
    gone: set[int] = set()
    for cell in sol.trace[sol.trace[:, 1] == tr.BACKTRACK, 0].tolist():
        r, c = divmod(cell, 20)
        alive = [
            (r + dr, c + dc)
            for k, (dr, dc) in STEPS.items()
            if maze.passages[r, c] >> k & 1 and (r + dr) * 20 + c + dc not in gone
        ]
        assert len(alive) <= 1 and cell not in (0, 399)
        gone.add(cell)
    # and what is left has no dead ends but the ends
    for cell in set(range(400)) - filled - {0, 399}:
        r, c = divmod(cell, 20)
        live = [k for k, (dr, dc) in STEPS.items() if maze.passages[r, c] >> k & 1]
        live = [k for k in live if (r + STEPS[k][0]) * 20 + c + STEPS[k][1] not in filled]
        assert len(live) >= 2


# -- chain ---------------------------------------------------------------------------------


def random_passages(shape, p, rng) -> np.ndarray:
    """Each inner wall open with chance ``p``: loops, islands and cut-off parts."""
    rows, cols = shape
    out = np.zeros(shape, np.uint8)
    h = rng.random((rows, cols - 1)) < p
    v = rng.random((rows - 1, cols)) < p
    out[:, :-1] |= np.where(h, 2, 0).astype(np.uint8)
    out[:, 1:] |= np.where(h, 8, 0).astype(np.uint8)
    out[:-1, :] |= np.where(v, 4, 0).astype(np.uint8)
    out[1:, :] |= np.where(v, 1, 0).astype(np.uint8)
    return out


def test_chain_finds_a_path_whenever_there_is_one():
    rng = np.random.default_rng(11)
    found = 0
    for trial in range(600):
        shape = (int(rng.integers(1, 13)), int(rng.integers(1, 13)))
        maze = mazekit.generate("prim", shape, rng=trial)
        maze = maze.replace(passages=random_passages(shape, rng.uniform(0.3, 0.9), rng))
        s = (int(rng.integers(shape[0])), int(rng.integers(shape[1])))
        g = (int(rng.integers(shape[0])), int(rng.integers(shape[1])))
        sol = chain(maze, s, g)
        assert sol.found == (bfs_distance(maze, s, g) is not None), (trial, s, g)
        if sol.found:
            found += 1
            assert_valid_path(maze, sol.path, s, g)
            assert len({tuple(c) for c in sol.path.tolist()}) == len(sol.path), "path not simple"
    assert 100 < found < 500  # both outcomes well represented


def test_chain_reaches_an_island_goal():
    # an open room with a walled pen in the middle, open on its far side: the goal inside it
    # is on an island (the pen's walls do not touch the outer wall)
    blocks = np.zeros((19, 19), dtype=np.uint8)
    blocks[0, :] = blocks[-1, :] = blocks[:, 0] = blocks[:, -1] = 1
    blocks[6, 6:13] = blocks[12, 6:13] = blocks[6:13, 6] = blocks[6:13, 12] = 1
    blocks[12, 9] = 0
    maze = from_blocks(blocks)
    for s in [(0, 0), (0, 8), (3, 0), (8, 8)]:
        sol = chain(maze, s, (4, 4))
        assert_valid_path(maze, sol.path, s, (4, 4))
    sides = set(chain(maze, (0, 4), (4, 4)).trace[:, 2].tolist())
    assert sides <= {-1, 0, 1} and sides & {0, 1}, "the robots should have been sent out"


def test_chain_trace_visits_each_cell_once():
    maze = braided(mazekit.generate("growing_tree", (30, 30), rng=2), 2)
    sol = chain(maze, (0, 29), (29, 0))
    cells = sol.trace[:, 0].tolist()
    assert len(cells) == len(set(cells)) and set(sol.trace[:, 1].tolist()) == {tr.VISIT}
    assert set((sol.path[:, 0] * 30 + sol.path[:, 1]).tolist()) <= set(cells)


# -- collision and shortest paths ----------------------------------------------------------

ROOMS = [(1, 1), (1, 6), (6, 1), (2, 2), (3, 4), (5, 5), (7, 9), (12, 15)]


@pytest.mark.parametrize("a, b", ROOMS)
def test_counting_paths_across_a_room(a, b):
    maze = room((a, b))
    expected = math.comb(a + b - 2, a - 1)
    c = collision(maze, (0, 0), (a - 1, b - 1))
    s = shortest_paths(maze, (0, 0), (a - 1, b - 1), limit=500)
    assert c.extras["n_paths"] == s.extras["n_paths"] == expected
    assert isinstance(c.extras["n_paths"], int)
    assert c.extras["on_shortest"].all()  # corner to corner, every cell is on some path
    paths = s.extras["paths"]
    assert len(paths) == min(500, expected)
    assert len({p.tobytes() for p in paths}) == len(paths), "a path listed twice"
    for p in paths:
        assert_valid_path(maze, p, (0, 0), (a - 1, b - 1))
        assert len(p) == a + b - 1
    assert np.array_equal(s.path, paths[0])


def test_counts_too_big_for_an_int():
    maze = room((40, 40))
    c = collision(maze, (0, 0), (39, 39))
    s = shortest_paths(maze, (0, 0), (39, 39))
    exact = math.comb(78, 39)
    for n in (c.extras["n_paths"], s.extras["n_paths"]):
        assert isinstance(n, float) and math.isclose(n, exact, rel_tol=1e-12)
    assert len(s.extras["paths"]) == 1000
    assert collision(room((600, 600)), (0, 0), (599, 599)).extras["n_paths"] == math.inf


@pytest.mark.parametrize("seed", range(8))
def test_all_shortest_paths_on_mazes_with_loops(seed):
    maze = braided(mazekit.generate("backtracker", (12, 16), rng=seed), seed)
    rng = np.random.default_rng(seed)
    s, g = (int(rng.integers(12)), int(rng.integers(16))), (int(rng.integers(12)), int(rng.integers(16)))
    c = collision(maze, s, g)
    sp = shortest_paths(maze, s, g, limit=10**6)
    nx, graph = nx_graph(maze, np.ones(maze.shape))
    truth = {tuple(map(tuple, p)) for p in nx.all_shortest_paths(graph, s, g)}
    assert {tuple(map(tuple, p.tolist())) for p in sp.extras["paths"]} == truth
    assert c.extras["n_paths"] == sp.extras["n_paths"] == len(truth)
    union = np.zeros(maze.shape, bool)
    for p in truth:
        union[tuple(np.array(p).T)] = True
    assert np.array_equal(c.extras["on_shortest"], union)
    d_s, d_g = distances(maze, s), distances(maze, g)
    for r in range(12):
        for col in range(16):
            on = d_s.get((r, col), -99) + d_g.get((r, col), -99) == d_s[g]
            assert c.extras["on_shortest"][r, col] == on
    assert_valid_path(maze, c.path, s, g)
    assert c.length == d_s[g]


def test_collision_trace_floods_then_knocks_out():
    maze = braided(mazekit.generate("prim", (20, 20), rng=3), 3)
    sol = collision(maze, (0, 0), (19, 19))
    events = sol.trace[:, 1]
    flooded = sol.trace[events == tr.VISIT, 0]
    knocked = sol.trace[events == tr.BACKTRACK, 0]
    assert (np.flatnonzero(events == tr.BACKTRACK) > np.flatnonzero(events == tr.VISIT).max()).all()
    on = sol.extras["on_shortest"].ravel()
    assert set(knocked.tolist()) == {c for c in flooded.tolist() if not on[c]}
    d = distances(maze, (0, 0))
    far = [d[divmod(c, 20)] for c in knocked.tolist()]
    assert far == sorted(far, reverse=True)  # knocked out from the far edge of the flood back
    assert max(d[divmod(c, 20)] for c in flooded.tolist()) <= d[(19, 19)]


def test_shortest_paths_limit():
    maze = room((6, 6))
    assert len(shortest_paths(maze, (0, 0), (5, 5), limit=7).extras["paths"]) == 7
    assert shortest_paths(maze, (0, 0), (5, 5), limit=1).extras["n_paths"] == 252
    for bad in (0, -3, 2.5, True, "10"):
        with pytest.raises(ValueError, match="limit must be a positive integer"):
            shortest_paths(maze, (0, 0), (5, 5), limit=bad)
