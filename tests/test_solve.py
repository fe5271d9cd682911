import numpy as np
import pytest

import mazekit
from mazekit import trace as tr
from mazekit.convert import from_blocks
from mazekit.generate import properties
from mazekit.solve import SHORTEST, guarantees

from .checks import MASK_TEXT, assert_valid_path, bfs_distance

SOLVERS = sorted(mazekit.SOLVERS)


def promises(solver: str) -> dict[str, bool]:
    return guarantees(mazekit.SOLVERS[solver])


def assert_explores_from_an_end(maze, sol, start, goal):
    """Searches start exploring at the start; value methods start their wave at the goal."""
    assert sol.explored[0].tolist() in (list(start), list(goal))


MAZES = [
    (name, shape)
    for name in sorted(mazekit.GENERATORS)
    for shape in [(1, 1), (1, 8), (8, 1), (2, 2), (9, 14), (40, 30)]
]


def braided(maze: mazekit.Maze, rng: int) -> mazekit.Maze:
    """Open extra walls so the maze has loops (a stand-in until the braid transform lands)."""
    p = maze.passages.copy()
    gen = np.random.default_rng(rng)
    rows, cols = p.shape
    for _ in range(rows * cols // 4):
        r, c = int(gen.integers(rows)), int(gen.integers(cols - 1)) if cols > 1 else 0
        if cols > 1:
            p[r, c] |= 2
            p[r, c + 1] |= 8
    return maze.replace(passages=p)


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("name, shape", MAZES, ids=[f"{n}-{s[0]}x{s[1]}" for n, s in MAZES])
def test_path_is_valid_and_shortest_where_promised(solver, name, shape):
    maze = mazekit.generate(name, shape, rng=21)
    before = maze.passages.copy()
    sol = mazekit.solve(maze, solver)
    assert np.array_equal(maze.passages, before), "a solver changed the maze"
    assert sol.solver == solver
    if not promises(solver)["perfect"]:
        assert not sol.found or sol.length >= bfs_distance(maze, maze.start, maze.goal)
        return
    assert sol.found
    assert_valid_path(maze, sol.path, maze.start, maze.goal)
    best = bfs_distance(maze, maze.start, maze.goal)
    if properties(mazekit.GENERATORS[name])["perfect"] or solver in SHORTEST:
        # in a perfect maze the path is unique, so every solver finds the shortest one
        assert sol.length == best
    else:
        assert sol.length >= best
    assert_explores_from_an_end(maze, sol, maze.start, maze.goal)


@pytest.mark.parametrize("solver", SOLVERS)
@pytest.mark.parametrize("seed", range(4))
def test_mazes_with_loops(solver, seed):
    maze = braided(mazekit.generate("backtracker", (25, 25), rng=seed), seed)
    assert maze.n_passages > 25 * 25 - 1
    sol = mazekit.solve(maze, solver, start=(3, 4), goal=(20, 17))
    if not promises(solver)["loops"] and not sol.found:
        return
    assert_valid_path(maze, sol.path, (3, 4), (20, 17))
    best = bfs_distance(maze, (3, 4), (20, 17))
    if solver in SHORTEST:
        assert sol.length == best
    else:
        assert sol.length >= best


def test_bfs_and_astar_agree_on_many_mazes():
    for seed in range(20):
        maze = braided(mazekit.generate("prim", (15, 20), rng=seed), seed)
        lengths = {s: mazekit.solve(maze, s, goal=(14, 0)).length for s in SHORTEST}
        assert len(set(lengths.values())) == 1, lengths
        assert lengths["bfs"] == bfs_distance(maze, maze.start, (14, 0))


@pytest.mark.parametrize("solver", SOLVERS)
def test_unreachable_goal(solver):
    blocks = np.array(
        [
            [1, 1, 1, 1, 1, 1, 1],
            [1, 0, 0, 0, 1, 0, 1],
            [1, 1, 1, 0, 1, 0, 1],
            [1, 0, 0, 0, 1, 0, 1],
            [1, 1, 1, 1, 1, 1, 1],
        ]
    )
    maze = from_blocks(blocks)
    sol = mazekit.solve(maze, solver, start=(0, 0), goal=(1, 2))
    assert not sol.found
    assert sol.path.shape == (0, 2) and sol.length is None
    explored = {tuple(c) for c in sol.explored.tolist()}
    start_side = {(0, 0), (0, 1), (1, 0), (1, 1)}
    goal_side = {(0, 2), (1, 2)}
    assert explored <= start_side | goal_side
    assert start_side <= explored or goal_side <= explored


@pytest.mark.parametrize("solver", SOLVERS)
def test_masked_maze(solver):
    maze = mazekit.generate("kruskal", mazekit.RectGrid.from_text(MASK_TEXT), rng=1)
    sol = mazekit.solve(maze, solver)
    if not promises(solver)["perfect"] and not sol.found:
        return
    assert_valid_path(maze, sol.path, maze.start, maze.goal)


def test_bfs_explores_in_distance_order():
    maze = mazekit.generate("prim", (20, 20), rng=3)
    sol = mazekit.solve(maze, "bfs")
    d = [bfs_distance(maze, maze.start, tuple(c)) for c in sol.explored.tolist()]
    assert d == sorted(d)
    assert len(set(map(tuple, sol.explored.tolist()))) == len(d)


def test_dfs_records_backtracking():
    maze = mazekit.generate("prim", (20, 20), rng=3)
    sol = mazekit.solve(maze, "dfs")
    events = sol.trace[:, 1]
    assert (events == tr.BACKTRACK).any()
    visited = sol.trace[events == tr.VISIT, 0]
    back = sol.trace[events == tr.BACKTRACK, 0]
    assert len(set(visited.tolist())) == len(visited)
    assert set(back.tolist()) <= set(visited.tolist())
    on_path = set((sol.path[:, 0] * 20 + sol.path[:, 1]).tolist())
    assert not on_path & set(back.tolist()), "a cell on the final path was backtracked"
    assert len(visited) - len(back) == len(sol.path)


def test_astar_explores_no_more_than_bfs_on_open_ground():
    maze = mazekit.generate("backtracker", (30, 30), rng=1)
    p = np.full(maze.shape, 15, np.uint8)
    p[0, :] &= ~np.uint8(1)
    p[-1, :] &= ~np.uint8(4)
    p[:, 0] &= ~np.uint8(8)
    p[:, -1] &= ~np.uint8(2)
    room = maze.replace(passages=p)
    a, b = mazekit.solve(room, "astar"), mazekit.solve(room, "bfs")
    assert a.length == b.length == 58
    assert a.n_explored < b.n_explored / 5


def test_bad_solver_and_cells():
    maze = mazekit.generate("prim", (4, 4), rng=0)
    with pytest.raises(
        ValueError, match="unknown solver 'bsf'; choose from astar, bfs, bidirectional_bfs, chain"
    ):
        mazekit.solve(maze, "bsf")
    with pytest.raises(ValueError, match="off the grid"):
        mazekit.solve(maze, "bfs", start=(-1, 0))
    with pytest.raises(ValueError, match=r"\(row, col\) pair"):
        mazekit.solve(maze, "bfs", goal="corner")
    masked = mazekit.generate("prim", mazekit.RectGrid.from_text(MASK_TEXT), rng=0)
    with pytest.raises(ValueError, match="masked-out"):
        mazekit.solve(masked, "bfs", start=(0, 0))


@pytest.mark.parametrize("solver", [s for s in SOLVERS if promises(s)["perfect"]])
def test_large_maze(solver):
    maze = mazekit.generate("backtracker", (1000, 1000), rng=5)
    sol = mazekit.solve(maze, solver)
    assert sol.found
    assert_valid_path(maze, sol.path, maze.start, maze.goal)
