"""The walkers: wall follower, Pledge, Trémaux and random mouse, and what each promises.

The key test (issue "The full algorithm catalogue"): the wall follower must fail on a braid
maze whose goal sits on an island and succeed on every perfect maze. What every solver
must do (paths, unreachable goals, start = goal, big mazes) is in tests/contract/test_solvers.py.
"""

import numpy as np
import pytest

import mazekit
from mazekit import trace as tr
from mazekit.convert import from_blocks, from_text
from mazekit.generate import properties
from mazekit.solve import guarantees
from mazekit.solve.pledge import pledge
from mazekit.solve.random_mouse import random_mouse
from mazekit.solve.tremaux import tremaux
from mazekit.solve.wall_follower import wall_follower

from ..checks import STEPS, assert_valid_path, bfs_distance

WALKERS = ["wall_follower", "pledge", "tremaux", "random_mouse"]
FUNCS = {"wall_follower": wall_follower, "pledge": pledge, "tremaux": tremaux, "random_mouse": random_mouse}
PERFECT_GENERATORS = sorted(g for g, f in mazekit.GENERATORS.items() if properties(f)["perfect"])
CONFIGS = [(d, h) for d in "NESW" for h in ("left", "right")]  # Pledge's direction and hand

# A braid maze (no dead ends) whose goal G sits on an island: the walls around G are joined
# to each other but not to the outer wall. Made from a 7x7 kruskal maze by opening a ring
# corridor round the middle (so no wall crosses it) and then every dead end.
ISLAND = """
# #############
#S  #     #   #
# # # # # # # #
# #           #
# # # # # # # #
# #   #   #   #
# # # ##### ###
#     #G      #
# # # # ### # #
# #   #       #
# # ### ### # #
#           # #
# ### # # ### #
#       #     #
###############
"""


def walk(name, maze, start=None, goal=None, **options):
    """Run a walker (the random mouse with a fixed seed and a generous step limit)."""
    if name == "random_mouse":
        options = {"rng": 0, "max_steps": 10**7, **options}
    s = maze.start if start is None else start
    g = maze.goal if goal is None else goal
    before = maze.passages.copy()
    sol = FUNCS[name](maze, s, g, **options)
    assert np.array_equal(maze.passages, before), f"{name} changed the maze"
    check_walk(maze, sol, s)
    return sol


def check_walk(maze, sol, start):
    """The walk is adjacent open steps from the start; the trace is a VISIT per step and a
    BACKTRACK exactly where the walk steps straight back; the path is simple."""
    w = [tuple(c) for c in sol.extras["walk"].tolist()]
    assert w[0] == tuple(start)
    assert_valid_path(maze, w, start, w[-1])
    assert [tuple(c) for c in sol.explored.tolist()] == w, "explored must be the walk, repeats and all"
    events = sol.trace[:, 1].tolist()
    assert set(events) <= {tr.VISIT, tr.BACKTRACK}
    backs = {i for i in range(1, len(w) - 1) if w[i + 1] == w[i - 1]}
    cols = maze.shape[1]
    expected = []
    for i, cell in enumerate(w):
        expected.append((cell[0] * cols + cell[1], tr.VISIT))
        if i in backs:
            expected.append((cell[0] * cols + cell[1], tr.BACKTRACK))
    assert [tuple(r) for r in sol.trace[:, :2].tolist()] == expected
    assert (sol.extras["stopped"] == "goal") == sol.found
    if sol.found:
        assert w[-1] == tuple(sol.goal)
        assert_valid_path(maze, sol.path, sol.start, sol.goal)
        cells = [tuple(c) for c in sol.path.tolist()]
        assert len(set(cells)) == len(cells), "the path must be simple"
        assert set(cells) <= set(w), "the path uses only cells the walker stepped on"
    else:
        assert sol.path.shape == (0, 2) and sol.length is None


def outer_touch(maze) -> np.ndarray:
    """Per cell: does a corner of it lie on the outer wall or a wall joined to it?

    Walls are segments between lattice points (cell corners); union-find over them, then
    the outer wall is the component of the grid's top-left corner point.
    """
    rows, cols = maze.shape
    parent = list(range((rows + 1) * (cols + 1)))

    def find(x):
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(a, b):
        parent[find(a[0] * (cols + 1) + a[1])] = find(b[0] * (cols + 1) + b[1])

    for r in range(rows):
        for c in range(cols):
            bits = int(maze.passages[r, c])
            sides = {0: ((r, c), (r, c + 1)), 1: ((r, c + 1), (r + 1, c + 1))}
            sides.update({2: ((r + 1, c), (r + 1, c + 1)), 3: ((r, c), (r + 1, c))})
            for k, (a, b) in sides.items():
                if not bits >> k & 1:
                    join(a, b)
    outer = find(0)
    touch = np.zeros((rows, cols), bool)
    for r in range(rows):
        for c in range(cols):
            corners = [(r, c), (r, c + 1), (r + 1, c), (r + 1, c + 1)]
            touch[r, c] = any(find(y * (cols + 1) + x) == outer for y, x in corners)
    return touch


def link(p, a, b):
    k = next(k for k, d in STEPS.items() if d == (b[0] - a[0], b[1] - a[1]))
    p[a] |= np.uint8(1 << k)
    p[b] |= np.uint8(1 << (k + 2) % 4)


def island_maze(seed: int, size: int) -> mazekit.Maze:
    """A braid maze whose goal, in the middle, sits on an island.

    A ring corridor is opened round the middle of a perfect maze, so no wall crosses it and
    the walls inside it are cut off from the outer wall; then every dead end is opened into
    a neighbour. Opening walls never joins two walls, so the island stays an island.
    """
    maze = mazekit.generate("kruskal", (size, size), rng=seed)
    p = maze.passages.copy()
    lo, hi = size // 2 - 2, size // 2 + 2
    ring = [(lo, c) for c in range(lo, hi)] + [(r, hi) for r in range(lo, hi)]
    ring += [(hi, c) for c in range(hi, lo, -1)] + [(r, lo) for r in range(hi, lo, -1)]
    for a, b in zip(ring, ring[1:] + ring[:1], strict=True):
        link(p, a, b)
    rng = np.random.default_rng(seed)
    for r, c in np.argwhere(np.ones_like(p, bool)).tolist():
        if bin(int(p[r, c])).count("1") == 1:
            closed = [
                (r + dr, c + dc)
                for k, (dr, dc) in STEPS.items()
                if not p[r, c] >> k & 1 and 0 <= r + dr < size and 0 <= c + dc < size
            ]
            link(p, (r, c), closed[rng.integers(len(closed))])
    return maze.replace(passages=p, goal=(size // 2, size // 2))


def assert_braid_island(maze):
    assert (maze.degree() >= 2).all(), "a braid maze has no dead ends"
    assert maze.n_passages > maze.grid.n_cells - 1, "a braid maze has loops"
    assert not outer_touch(maze)[maze.goal], "the goal must sit on an island"
    assert outer_touch(maze)[maze.start]


# -- the wall follower and Pledge on every perfect maze ------------------------------------


@pytest.mark.parametrize("gen", PERFECT_GENERATORS)
def test_wall_follower_and_pledge_solve_every_perfect_maze(gen):
    """Any start, any goal, many seeds: a perfect maze has one wall, and both walkers keep to it."""
    rng = np.random.default_rng(len(gen))
    for seed in range(25):
        shape = (int(rng.integers(1, 16)), int(rng.integers(1, 16)))
        maze = mazekit.generate(gen, shape, rng=seed)
        assert outer_touch(maze).all(), "every wall of a perfect maze is joined to the outer wall"
        for _ in range(4):
            a, b = (tuple(int(v) for v in rng.integers(shape)) for _ in range(2))
            best = bfs_distance(maze, a, b)
            for hand in ("left", "right"):
                sol = walk("wall_follower", maze, a, b, hand=hand)
                assert sol.found and sol.length == best, (seed, a, b, hand)
                steps = len(sol.extras["walk"]) - 1
                assert steps <= 2 * (maze.grid.n_cells - 1), "each passage at most once each way"
            for d, hand in CONFIGS:
                sol = walk("pledge", maze, a, b, direction=d, hand=hand)
                assert sol.found and sol.length == best, (seed, a, b, d, hand)


def test_wall_follower_walks_round_the_tree():
    """Unable to reach the goal, the walk goes round the whole tree, each passage once each
    way, and stops when it comes back to a cell facing the way it did before."""
    maze = mazekit.generate("prim", (12, 17), rng=2)
    deg = maze.degree()
    goal = next(tuple(c) for c in np.argwhere(deg == 1).tolist() if tuple(c) != (0, 0))
    p = maze.passages.copy()
    nb = maze.open_neighbors(goal)[0]
    p[goal] = 0
    p[nb] &= np.uint8(
        ~(1 << next(k for k, d in STEPS.items() if d == (goal[0] - nb[0], goal[1] - nb[1]))) & 0xFF
    )
    cut = maze.replace(passages=p)  # the goal walled in; the rest is still a tree
    for hand in ("left", "right"):
        sol = walk("wall_follower", cut, (0, 0), goal, hand=hand)
        assert not sol.found and sol.extras["stopped"] == "loop"
        w = [tuple(c) for c in sol.extras["walk"].tolist()]
        assert len(set(w)) == cut.grid.n_cells - 1, "every reachable cell visited"
        uses = passage_uses(sol)
        # round the tree, each passage once each way, and one step more to see the repeat
        assert len(uses) == cut.n_passages
        assert sum(uses.values()) == 2 * cut.n_passages + 1


# -- the key test: the wall follower fails on an island, Pledge escapes one ------------------


def test_island_picture_is_a_braid_maze_with_an_island_goal():
    maze = from_text(ISLAND)
    assert maze.shape == (7, 7) and maze.start == (0, 0) and maze.goal == (3, 3)
    assert_braid_island(maze)


@pytest.mark.parametrize("hand", ["left", "right"])
def test_wall_follower_fails_on_island_goal(hand):
    maze = from_text(ISLAND)
    sol = walk("wall_follower", maze, hand=hand)
    assert not sol.found
    assert sol.extras["stopped"] == "loop", "it must notice it is going round in circles"
    touch = outer_touch(maze)
    w = [tuple(c) for c in sol.extras["walk"].tolist()]
    assert all(touch[c] for c in w), "the hand stays on the outer wall, never near the island"
    assert len(w) <= 4 * maze.grid.n_cells + 1
    for name in ("tremaux", "random_mouse"):
        other = walk(name, maze)
        assert other.found and other.path[-1].tolist() == [3, 3]
    assert mazekit.solve(maze, "bfs").found


@pytest.mark.parametrize("seed", range(12))
def test_wall_follower_fails_on_island_goals_of_many_braid_mazes(seed):
    maze = island_maze(seed, 7 + seed % 5 * 2)
    assert_braid_island(maze)
    for hand in ("left", "right"):
        sol = walk("wall_follower", maze, hand=hand)
        assert not sol.found and sol.extras["stopped"] == "loop", hand
    sol = walk("tremaux", maze)
    assert sol.found
    assert sol.length >= bfs_distance(maze, maze.start, maze.goal)
    assert mazekit.solve(maze, "bfs").found
    for d, hand in CONFIGS:  # not guaranteed: it may pass the goal or go round for ever
        sol = walk("pledge", maze, direction=d, hand=hand)
        assert sol.extras["stopped"] in ("goal", "loop")


@pytest.mark.parametrize("seed", range(6))
def test_wall_follower_succeeds_with_both_ends_on_the_edge(seed):
    """With loops and islands, the wall follower still connects any two edge cells."""
    maze = island_maze(seed, 9)
    rows, cols = maze.shape
    edge = [(r, c) for r in range(rows) for c in range(cols) if r in (0, rows - 1) or c in (0, cols - 1)]
    for a in edge[::3]:
        for b in edge:
            for hand in ("left", "right"):
                sol = walk("wall_follower", maze, a, b, hand=hand)
                assert sol.found, (a, b, hand)


def test_pledge_on_the_island_maze_does_what_its_docs_say():
    maze = from_text(ISLAND)
    touch = outer_touch(maze)
    cells = [tuple(c) for c in np.argwhere(np.ones(maze.shape, bool)).tolist()]
    # not guaranteed for a goal on an island: here it goes round the outer wall for ever,
    # whichever way it prefers and whichever hand it uses
    for d, hand in CONFIGS:
        sol = walk("pledge", maze, direction=d, hand=hand)
        assert not sol.found and sol.extras["stopped"] == "loop", (d, hand)
    # guaranteed: from anywhere, even the island, to a goal touching the outer wall's walls;
    # the wall follower started on the island circles it instead
    goals = [c for c in cells if touch[c]]
    assert len(goals) < len(cells)
    for d, hand in CONFIGS:
        for a in cells:
            for b in goals[::2]:
                sol = walk("pledge", maze, a, b, direction=d, hand=hand)
                assert sol.found, (a, b, d, hand)
    for hand in ("left", "right"):
        sol = walk("wall_follower", maze, (3, 3), (0, 0), hand=hand)
        assert not sol.found and sol.extras["stopped"] == "loop"


@pytest.mark.parametrize("seed", range(8))
def test_pledge_reaches_goals_touching_the_outer_wall_from_anywhere(seed):
    maze = island_maze(seed, 9)
    p = maze.passages.copy()  # and open some more walls, making rooms
    rng = np.random.default_rng(seed)
    for _ in range(20):
        r, c = (int(v) for v in rng.integers(8, size=2))
        link(p, (r, c), (r, c + 1) if rng.random() < 0.5 else (r + 1, c))
    maze = maze.replace(passages=p)
    touch = outer_touch(maze)
    cells = [tuple(c) for c in np.argwhere(np.ones(maze.shape, bool)).tolist()]
    for _ in range(60):
        a, b = cells[rng.integers(len(cells))], cells[rng.integers(len(cells))]
        d, hand = CONFIGS[rng.integers(len(CONFIGS))]
        sol = walk("pledge", maze, a, b, direction=d, hand=hand)
        if touch[b]:
            assert sol.found, (a, b, d, hand)
        else:
            assert sol.extras["stopped"] in ("goal", "loop")


def test_guarantees_are_declared_truthfully():
    table = {name: guarantees(FUNCS[name]) for name in WALKERS}
    assert not any(g["shortest"] for g in table.values())
    assert table["wall_follower"] == {"shortest": False, "perfect": True, "loops": False, "island": False}
    # Pledge: any start, but only goals touching the outer wall's walls; not all cells of a
    # maze with loops do (see test_pledge_on_the_island_maze_does_what_its_docs_say)
    assert table["pledge"] == {"shortest": False, "perfect": True, "loops": False, "island": False}
    assert table["tremaux"] == {"shortest": False, "perfect": True, "loops": True, "island": True}
    assert table["random_mouse"] == {"shortest": False, "perfect": False, "loops": False, "island": False}


# -- Trémaux -------------------------------------------------------------------------------


def passage_uses(sol) -> dict:
    uses: dict = {}
    w = [tuple(c) for c in sol.extras["walk"].tolist()]
    for a, b in zip(w, w[1:], strict=False):
        key = (min(a, b), max(a, b))
        uses[key] = uses.get(key, 0) + 1
    return uses


@pytest.mark.parametrize("seed", range(6))
def test_tremaux_on_mazes_with_loops_and_islands(seed):
    maze = island_maze(seed, 11)
    rng = np.random.default_rng(seed)
    for _ in range(10):
        a, b = (tuple(int(v) for v in rng.integers(11, size=2)) for _ in range(2))
        sol = walk("tremaux", maze, a, b)
        assert sol.found and sol.length >= bfs_distance(maze, a, b)
        uses = passage_uses(sol)
        assert max(uses.values(), default=0) <= 2, "a passage walked a third time"
        once = {e for e, n in uses.items() if n == 1}
        path = [tuple(c) for c in sol.path.tolist()]
        assert once == {(min(x, y), max(x, y)) for x, y in zip(path, path[1:], strict=False)}


def test_tremaux_turns_back_where_a_loop_closes():
    # a 2x2 room with the goal below its bottom-left cell
    blocks = [
        [1, 1, 1, 1, 1],
        [1, 0, 0, 0, 1],
        [1, 0, 1, 0, 1],
        [1, 0, 0, 0, 1],
        [1, 0, 1, 1, 1],
        [1, 0, 1, 1, 1],
        [1, 1, 1, 1, 1],
    ]
    maze = from_blocks(np.array(blocks), start=(1, 1), goal=(5, 1))
    sol = walk("tremaux", maze)
    w = [tuple(c) for c in sol.extras["walk"].tolist()]
    # east first, round the room, back on the start by a new passage: turn back
    assert w == [(0, 0), (0, 1), (1, 1), (1, 0), (0, 0), (1, 0), (2, 0)]
    backs = sol.trace[sol.trace[:, 1] == tr.BACKTRACK, 0].tolist()
    assert backs == [0]
    # the path is the passages marked once, round the room (not the loop-erased walk)
    assert sol.path.tolist() == [[0, 0], [0, 1], [1, 1], [1, 0], [2, 0]]


# -- random mouse --------------------------------------------------------------------------


def test_random_mouse_same_seed_same_walk():
    maze = mazekit.generate("prim", (15, 15), rng=3)
    a = random_mouse(maze, maze.start, maze.goal, rng=5)
    b = random_mouse(maze, maze.start, maze.goal, rng=5)
    c = random_mouse(maze, maze.start, maze.goal, rng=np.random.default_rng(5))
    assert a == b and np.array_equal(a.extras["walk"], b.extras["walk"])
    assert np.array_equal(a.extras["walk"], c.extras["walk"])
    assert a.extras["seed"] == 5 and c.extras["seed"] is None
    d = random_mouse(maze, maze.start, maze.goal, rng=6)
    assert not np.array_equal(a.extras["walk"], d.extras["walk"])
    fresh = random_mouse(maze, maze.start, maze.goal)
    again = random_mouse(maze, maze.start, maze.goal, rng=fresh.extras["seed"])
    assert np.array_equal(fresh.extras["walk"], again.extras["walk"])


def test_random_mouse_step_limit():
    maze = mazekit.generate("kruskal", (20, 20), rng=1)
    free = walk("random_mouse", maze, rng=2)
    assert free.found
    steps = len(free.extras["walk"]) - 1
    assert steps > 40
    for limit in (0, 1, 5, steps // 2, steps - 1):
        sol = walk("random_mouse", maze, max_steps=limit, rng=2)
        assert not sol.found and sol.extras["stopped"] == "limit"
        assert np.array_equal(sol.extras["walk"], free.extras["walk"][: limit + 1])
    exact = walk("random_mouse", maze, max_steps=steps, rng=2)
    assert exact.found and np.array_equal(exact.extras["walk"], free.extras["walk"])
    default = random_mouse(maze, (0, 0), (0, 0), rng=0)
    assert default.found and default.length == 0
    for bad in (-1, 2.5, True, "10"):
        with pytest.raises(ValueError, match="max_steps must be (a non-negative integer|at least 0)"):
            random_mouse(maze, maze.start, maze.goal, max_steps=bad)


def test_random_mouse_turns_back_only_at_dead_ends():
    maze = mazekit.generate("kruskal", (12, 12), rng=4)
    sol = walk("random_mouse", maze, rng=9)
    deg = maze.degree()
    backs = sol.trace[sol.trace[:, 1] == tr.BACKTRACK, 0]
    assert backs.size and all(deg[c // 12, c % 12] == 1 for c in backs.tolist())


@pytest.mark.parametrize("name", ["wall_follower", "pledge"])
def test_hand_walkers_turn_back_only_at_dead_ends(name):
    maze = mazekit.generate("backtracker", (15, 15), rng=4)
    sol = walk(name, maze)
    deg = maze.degree()
    backs = sol.trace[sol.trace[:, 1] == tr.BACKTRACK, 0]
    assert backs.size and all(deg[c // 15, c % 15] == 1 for c in backs.tolist())


# -- unreachable goals, isolated starts, options ---------------------------------------------

STOPS = {"wall_follower": "loop", "pledge": "loop", "tremaux": "exhausted", "random_mouse": "limit"}


@pytest.mark.parametrize("name", WALKERS)
def test_unreachable_goal_each_gives_up_its_own_way(name):
    """Two perfect halves with no way between them: every walker gives up, none hangs, each
    with its own reason (the contract checks what they explore, on every grid)."""
    left, right = (mazekit.generate("backtracker", (30, 20), rng=seed) for seed in (6, 7))
    cut = mazekit.Maze(
        np.hstack([left.passages, right.passages]), mazekit.RectGrid((30, 40)), (0, 0), (29, 39)
    )
    options = {"max_steps": None} if name == "random_mouse" else {}
    sol = walk(name, cut, **options)
    assert not sol.found and sol.extras["stopped"] == STOPS[name]
    assert (sol.extras["walk"][:, 1] < 20).all()
    if name == "random_mouse":
        assert len(sol.extras["walk"]) == 100 * 30 * 40 + 1
    if name == "tremaux":  # home again, every reachable passage walked both ways
        assert sol.extras["walk"][-1].tolist() == [0, 0]
        assert set(passage_uses(sol).values()) == {2} and len(passage_uses(sol)) == 30 * 20 - 1


@pytest.mark.parametrize("name", WALKERS)
def test_isolated_start_is_stuck(name):
    lone = from_blocks(
        np.array([[1, 1, 1, 1, 1], [1, 0, 1, 0, 1], [1, 1, 1, 0, 1], [1, 0, 0, 0, 1], [1] * 5])
    )
    sol = walk(name, lone, (0, 0), (1, 1))
    assert not sol.found and sol.extras["stopped"] == "stuck"
    assert sol.extras["walk"].tolist() == [[0, 0]]


def test_bad_options():
    maze = mazekit.generate("prim", (4, 4), rng=0)
    with pytest.raises(ValueError, match="hand must be 'left' or 'right', got 'up'"):
        wall_follower(maze, maze.start, maze.goal, hand="up")
    with pytest.raises(ValueError, match="hand must be 'left' or 'right'"):
        pledge(maze, maze.start, maze.goal, hand="middle")
    with pytest.raises(ValueError, match="direction must be one of 'N', 'E', 'S', 'W', got 'NE'"):
        pledge(maze, maze.start, maze.goal, direction="NE")
    assert pledge(maze, maze.start, maze.goal, direction="s").found
