"""mazekit.stats and `mazekit stats`: every number checked against an independent count (networkx
over the grid's neighbour table), hand-made mazes with known answers, and every grid."""

import json
import subprocess
import sys

import networkx as nx
import numpy as np
import pytest

import mazekit
from mazekit.grids import GRIDS, TriangleGrid, make_grid
from mazekit.measure import stats

SHAPES = {"3d": (2, 5, 6), "polar": (6, 6)}


def graph(maze) -> nx.Graph:
    """The passage graph, from the grid's neighbour table (not the stats kernels)."""
    nbr = maze.grid.neighbors()
    flat = maze.passages.ravel()
    g = nx.Graph()
    g.add_nodes_from(int(c) for c in maze.grid.cell_indices())
    for cell in g.nodes:
        for slot in range(maze.grid.n_slots):
            if flat[cell] >> slot & 1:
                g.add_edge(cell, int(nbr[cell, slot]))
    return g


def reference(maze) -> dict:
    """The statistics that do not depend on geometry, counted the slow, obvious way."""
    g = graph(maze)
    deg = dict(g.degree())
    corridor = g.subgraph([c for c, d in deg.items() if d == 2])
    runs = [len(c) for c in nx.connected_components(corridor)]
    river = []
    for end in (c for c, d in deg.items() if d == 1):
        prev, cur, n = end, next(iter(g[end])), 1
        while deg[cur] == 2:
            n += 1
            prev, cur = cur, next(x for x in g[cur] if x != prev)
        river.append(n)
    start, goal = maze.grid.flat(maze.start), maze.grid.flat(maze.goal)
    path = nx.shortest_path(g, start, goal) if nx.has_path(g, start, goal) else None
    out = {
        "dead_ends": sum(d == 1 for d in deg.values()),
        "junctions_by_degree": {k: sum(d == k for d in deg.values()) for k in range(3, 9)},
        "corridors": len(runs),
        "corridor_max": max(runs, default=0),
        "river": float(np.mean(river)) if river else 0.0,
        "components": nx.number_connected_components(g),
        "loops": g.number_of_edges() - g.number_of_nodes() + nx.number_connected_components(g),
    }
    if path is not None:
        onward = [deg[c] - (i > 0) for i, c in enumerate(path[:-1])]
        out["solution_length"] = len(path) - 1
        out["solution_decisions"] = sum(o >= 2 for o in onward)
        out["solution_branches"] = sum(o - 1 for o in onward) + deg[goal] - (len(path) > 1)
    return out


def make(kind: str, algorithm: str = "kruskal", seed: int = 3):
    grid = make_grid(kind, SHAPES.get(kind, (7, 9)))
    return mazekit.generate(algorithm, grid, rng=seed)


@pytest.mark.parametrize("kind", list(GRIDS))
def test_every_grid_against_the_reference(kind):
    m = make(kind)
    s, ref = stats(m), reference(m)
    for key, want in ref.items():
        got = s[key]
        if key == "junctions_by_degree":
            got = {k: got.get(k, 0) for k in range(3, 9)}
        assert got == pytest.approx(want), key
    assert s["dead_ends"] + s["straights"] + s["turns"] + s["junctions"] == s["cells"]
    assert s["corridor_mean"] * s["corridors"] == pytest.approx(s["straights"] + s["turns"])
    assert 0 <= s["turns_per_cell"] <= 1 and s["solution_turns"] <= max(s["solution_length"] - 1, 0)
    # the diameter of a perfect maze is exact: the longest of all shortest paths
    g = graph(m)
    lengths = dict(nx.all_pairs_shortest_path_length(g))
    assert s["diameter"] == max(max(d.values()) for d in lengths.values())
    a, b = s["diameter_ends"]
    assert lengths[m.grid.flat(a)][m.grid.flat(b)] == s["diameter"]
    assert s["solution_share"] == (s["solution_length"] + 1) / s["cells"]


def test_braided_maze_has_its_loops_counted():
    m = mazekit.transform(make("hex", "backtracker"), "braid", rng=1, fraction=0.5)
    s, ref = stats(m), reference(m)
    assert s["loops"] == ref["loops"] > 0
    assert s["solution_length"] == ref["solution_length"]
    assert s["solution_decisions"] == ref["solution_decisions"]


def rect_turns(maze) -> tuple[int, int]:
    """Turning corridor cells and turns along the solution on a rect grid, from directions."""
    p = maze.passages
    turning = sum(int(b) in (3, 6, 12, 9) for b in p.ravel())  # two passages at right angles
    path = mazekit.solve(maze, "bfs").path.tolist()
    steps = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:], strict=False)]
    return turning, sum(s != t for s, t in zip(steps, steps[1:], strict=False))


@pytest.mark.parametrize("name", ["backtracker", "prim", "wilson"])
def test_rect_turns_are_changes_of_direction(name):
    m = mazekit.generate(name, (12, 15), rng=5)
    s = stats(m)
    assert (s["turns"], s["solution_turns"]) == rect_turns(m)


def test_hand_made_mazes():
    line = stats(mazekit.generate("backtracker", (1, 5), rng=0))
    assert (line["corridors"], line["corridor_mean"], line["turns_per_cell"]) == (1, 3.0, 0.0)
    assert (line["river"], line["diameter"], line["diameter_ends"]) == (4.0, 4, ((0, 0), (0, 4)))
    assert (line["solution_decisions"], line["solution_branches"], line["branching"]) == (0, 0, 0.0)
    # a 3x3 comb: the left column, and three rows going east from it
    m = mazekit.generate("prim", (3, 3), rng=0)
    comb = np.array([[6, 10, 8], [7, 10, 8], [3, 10, 8]], np.uint8)
    s = stats(m.replace(passages=comb, start=(0, 0), goal=(2, 2)))
    assert s["junctions_by_degree"] == {3: 1} and s["dead_ends"] == 3 and s["loops"] == 0
    assert (s["straights"], s["turns"], s["corridors"], s["corridor_max"]) == (3, 2, 3, 2)
    # the start chooses between east and south; (1, 0) between east and south again
    assert (s["solution_length"], s["solution_turns"], s["solution_decisions"]) == (4, 1, 2)
    # dead-end passages of 3 (through the start), 2 and 3 cells
    assert (s["solution_branches"], s["river"], s["diameter"]) == (2, pytest.approx(8 / 3), 6)


def test_triangle_turns_are_same_way_bends():
    # a row of triangles runs straight: its bends alternate left and right
    row = stats(mazekit.generate("backtracker", TriangleGrid((1, 6)), rng=0))
    assert (row["turns"], row["solution_turns"], row["straights"]) == (0, 0, 4)
    # four triangles round one corner: both middle cells bend the same way
    m = mazekit.generate("backtracker", TriangleGrid((2, 2)), rng=0)
    around = np.array([[6, 1], [6, 1]], np.uint8)  # (0,1)-W-(0,0)-base-(1,0)-E-(1,1)
    s = stats(m.replace(passages=around, start=(0, 1), goal=(1, 1)))
    assert (s["turns"], s["turns_per_cell"], s["solution_turns"], s["solution_length"]) == (2, 1.0, 1, 3)


def test_texture_orders_generators_as_the_literature_says():
    """Oldest-first growing tree (a breadth-first frontier) is straighter than the backtracker
    (seed 003's claim), and the backtracker has higher river than Prim."""
    back = [stats(mazekit.generate("backtracker", (40, 40), rng=s)) for s in range(3)]
    oldest = [stats(mazekit.generate("growing_tree", (40, 40), rng=s, rule="oldest")) for s in range(3)]
    prim = [stats(mazekit.generate("prim", (40, 40), rng=s)) for s in range(3)]
    assert max(o["turns_per_cell"] for o in oldest) < 0.05 < 0.5 < min(b["turns_per_cell"] for b in back)
    assert min(b["river"] for b in back) > max(p["river"] for p in prim)


def test_unreachable_goal():
    m = mazekit.generate("prim", (4, 4), rng=0)
    s = stats(m.replace(passages=np.zeros((4, 4), np.uint8)))
    solution = (s["solution_length"], s["solution_decisions"], s["solution_share"])
    assert solution == (-1, 0, 0) and s["components"] == 16


def test_front_door_and_masked_grid():
    assert mazekit.stats is stats
    mask = np.ones((6, 6), bool)
    mask[2:4, 2:4] = False
    m = mazekit.generate("wilson", mask, rng=2)
    s = stats(m)
    assert s["cells"] == 32 and s["dead_ends"] + s["straights"] + s["turns"] + s["junctions"] == 32


def run_cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "mazekit", *args], capture_output=True, text=True, cwd=cwd)


def test_cli_table_and_json(tmp_path):
    m = mazekit.generate("kruskal", (8, 10), grid="hex", rng=4)
    mazekit.save(m, tmp_path / "m.json")
    table = run_cli("stats", "m.json", cwd=tmp_path)
    assert table.returncode == 0, table.stderr
    assert "dead ends, share of cells" in table.stdout and "diameter between" in table.stdout
    out = run_cli("stats", "m.json", "--json", cwd=tmp_path)
    data = json.loads(out.stdout)
    want = stats(m)
    assert data["dead_ends"] == want["dead_ends"] and data["diameter"] == want["diameter"]
    assert data["junctions_by_degree"] == {str(k): v for k, v in want["junctions_by_degree"].items()}
    assert data["seed"] == 4 and data["algorithm"] == "kruskal"
    (tmp_path / "bad.json").write_text("{nope")
    bad = run_cli("stats", "bad.json", cwd=tmp_path)
    assert bad.returncode == 1 and bad.stderr.startswith("mazekit: error:")
    assert len(bad.stderr.splitlines()) == 1


def braided(kind: str, seed: int, fraction: float = 1.0):
    return mazekit.transform(make(kind, "kruskal", seed), "braid", rng=seed, fraction=fraction)


@pytest.mark.parametrize("kind", list(GRIDS))
@pytest.mark.parametrize("seed", [1, 24])
def test_diameter_with_loops_is_exact_against_all_pairs(kind, seed):
    """With loops two sweeps give only a lower bound; the diameter must be the true one."""
    m = braided(kind, seed)
    s = stats(m)
    lengths = dict(nx.all_pairs_shortest_path_length(graph(m)))
    piece = lengths[m.grid.flat(m.start)]  # the start's piece
    truth = max(max(lengths[c].values()) for c in piece)
    assert s["loops"] > 0
    assert (s["diameter"], s["diameter_exact"], s["diameter_at_most"]) == (truth, True, truth)
    a, b = s["diameter_ends"]
    assert lengths[m.grid.flat(a)][m.grid.flat(b)] == truth


def test_the_reported_braided_maze_has_diameter_30():
    """The case from the hardening round: two sweeps said 27."""
    m = mazekit.generate("kruskal", (12, 15), rng=24)
    for fraction in (0.5, 1.0):
        b = mazekit.transform(m, "braid", rng=24, fraction=fraction)
        truth = nx.diameter(graph(b))
        assert stats(b)["diameter"] == truth


def test_a_diameter_cut_short_is_labelled_and_brackets_the_truth():
    labelled = 0
    for seed in range(6):
        m = braided("rect", seed, 0.6)
        g = graph(m)
        truth = nx.diameter(g)
        for work in (0, 200, 2000):
            s = stats(m, diameter_work=work)
            assert s["diameter"] <= truth <= s["diameter_at_most"]
            assert s["diameter_exact"] == (s["diameter"] == s["diameter_at_most"])
            a, b = s["diameter_ends"]
            assert nx.shortest_path_length(g, m.grid.flat(a), m.grid.flat(b)) == s["diameter"]
            labelled += not s["diameter_exact"]
    assert labelled > 0  # the bounded case is exercised, not just the exact one


def test_a_perfect_maze_needs_no_budget():
    m = make("rect", "wilson", 5)
    s = stats(m, diameter_work=0)
    assert s["diameter_exact"] and s["diameter"] == nx.diameter(graph(m)) == s["diameter_at_most"]


def test_cli_labels_a_bounded_diameter(tmp_path):
    m = mazekit.transform(mazekit.generate("kruskal", (12, 15), rng=24), "braid", rng=24)
    mazekit.save(m, tmp_path / "b.json")
    exact = run_cli("stats", "b.json", cwd=tmp_path)
    assert exact.returncode == 0, exact.stderr
    row = next(line for line in exact.stdout.splitlines() if "diameter (steps)" in line)
    assert "at least" not in row and str(nx.diameter(graph(m))) in row
    cut = run_cli("stats", "b.json", "--diameter-work", "0", cwd=tmp_path)
    row = next(line for line in cut.stdout.splitlines() if "diameter (steps)" in line)
    data = json.loads(run_cli("stats", "b.json", "--json", "--diameter-work", "0", cwd=tmp_path).stdout)
    assert data["diameter_exact"] is False and data["diameter"] < data["diameter_at_most"]
    assert f"at least {data['diameter']} (at most {data['diameter_at_most']})" in row
    bad = run_cli("stats", "b.json", "--diameter-work", "-1", cwd=tmp_path)
    assert bad.returncode != 0 and "Traceback" not in bad.stderr
