"""The Markov-decision-process solvers: value iteration, policy iteration, Q-learning.

Checked against plain Python breadth-first distances and, with slip and discount, against a
dense numpy value iteration written here from the definition of the MDP. What every solver
must do (paths, unreachable goals, start = goal, big mazes) is in tests/contract/test_solvers.py."""

from collections import deque

import numpy as np
import pytest

import mazekit
from mazekit import trace as tr
from mazekit.convert import from_blocks
from mazekit.solve import guarantees
from mazekit.solve.bfs import bfs
from mazekit.solve.policy_iteration import policy_iteration
from mazekit.solve.q_learning import q_learning
from mazekit.solve.value_iteration import value_iteration

from ..checks import MASK_TEXT, STEPS, assert_valid_path, bfs_distance, braided

PLANNERS = {"value_iteration": value_iteration, "policy_iteration": policy_iteration}
GENS = ("backtracker", "prim", "kruskal")
MAZES = [(gen, seed, loops) for gen in GENS for seed in range(3) for loops in (0, 1)]


def make(gen, seed, loops, shape=(12, 15)):
    maze = mazekit.generate(gen, shape, rng=seed)
    return braided(maze, seed) if loops else maze


def distances(maze, source) -> np.ndarray:
    """Steps from ``source`` to every cell by a plain Python BFS; -1 where unreachable."""
    dist = np.full(maze.shape, -1)
    dist[source] = 0
    queue = deque([tuple(source)])
    while queue:
        cell = queue.popleft()
        for k, (dr, dc) in STEPS.items():
            nb = (cell[0] + dr, cell[1] + dc)
            if maze.passages[cell] >> k & 1 and dist[nb] < 0:
                dist[nb] = dist[cell] + 1
                queue.append(nb)
    return dist


def reference_values(maze, goal, slip, gamma, reward=-1.0) -> np.ndarray:
    """Optimal values by dense synchronous value iteration from the MDP's definition.

    Cells the goal cannot reach are left out (-inf), as the solvers document."""
    rows, cols = maze.shape
    live = distances(maze, goal).ravel() >= 0
    n = rows * cols
    land = np.arange(n)[None, :].repeat(4, 0)  # land[k, s]: where slot k from s leads
    for s in range(n):
        for k, (dr, dc) in STEPS.items():
            if maze.passages.flat[s] >> k & 1:
                land[k, s] = s + dr * cols + dc
    g = goal[0] * cols + goal[1]
    v = np.zeros(n)
    for _ in range(200_000):
        q = np.zeros((4, n))
        for a in range(4):
            for k, p in ((a, 1 - slip), ((a + 1) % 4, slip / 2), ((a + 3) % 4, slip / 2)):
                q[a] += p * (reward + gamma * v[land[k]])
        new = np.where(live, q.max(axis=0), 0.0)
        new[g] = 0.0
        if np.abs(new - v).max() < 1e-12:
            break
        v = new
    else:
        raise AssertionError("the reference did not converge")
    return np.where(live, v, -np.inf).reshape(maze.shape)


def assert_policy_descends(maze, sol, dist):
    """Every cell's arrow leads through an open passage to a cell one step nearer the goal."""
    policy = sol.extras["policy"]
    assert policy.dtype == np.int8 and policy.shape == maze.shape
    for r, c in np.argwhere(dist > 0).tolist():
        k = int(policy[r, c])
        assert maze.passages[r, c] >> k & 1, f"arrow into a wall at {(r, c)}"
        dr, dc = STEPS[k]
        assert dist[r + dr, c + dc] == dist[r, c] - 1, f"arrow not along a shortest path at {(r, c)}"
    assert (policy[dist <= 0] == -1).all()


def test_modules_declare_their_guarantees():
    for func in PLANNERS.values():
        assert guarantees(func) == {"shortest": True, "perfect": True, "loops": True, "island": True}
    assert guarantees(q_learning) == {"shortest": False, "perfect": False, "loops": False, "island": False}


@pytest.mark.parametrize("name", sorted(PLANNERS))
@pytest.mark.parametrize("gen, seed, loops", MAZES)
def test_no_slip_values_are_minus_distances(name, gen, seed, loops):
    maze = make(gen, seed, loops)
    before = maze.passages.copy()
    goal = (5, 9)
    sol = PLANNERS[name](maze, maze.start, goal)
    assert np.array_equal(maze.passages, before), "a solver changed the maze"
    dist = distances(maze, goal)
    assert np.array_equal(sol.extras["values"], -dist.astype(float))
    assert sol.found and sol.solver == name
    assert_valid_path(maze, sol.path, maze.start, goal)
    assert sol.length == bfs_distance(maze, maze.start, goal) == bfs(maze, maze.start, goal).length
    assert_policy_descends(maze, sol, dist)
    assert sol.extras["converged"]


def test_no_slip_is_two_sweeps_or_one_iteration():
    maze = make("prim", 1, 1)
    assert value_iteration(maze, maze.start, maze.goal).extras["sweeps"] == 2
    pi = policy_iteration(maze, maze.start, maze.goal).extras
    assert pi["iterations"] == 1 and pi["sweeps"] == 1


@pytest.mark.parametrize("slip, gamma", [(0.0, 0.9), (0.2, 1.0), (0.5, 1.0), (0.3, 0.95), (0.9, 1.0)])
@pytest.mark.parametrize("loops", [0, 1])
def test_values_match_a_dense_reference(slip, gamma, loops):
    maze = make("backtracker", 4, loops, shape=(5, 6))
    ref = reference_values(maze, maze.goal, slip, gamma)
    for func in PLANNERS.values():
        sol = func(maze, maze.start, maze.goal, slip=slip, gamma=gamma)
        assert sol.extras["converged"]
        np.testing.assert_allclose(sol.extras["values"], ref, rtol=1e-8, atol=1e-8)


@pytest.mark.parametrize("gen, seed, loops", MAZES[::2])
def test_policy_iteration_agrees_with_value_iteration(gen, seed, loops):
    maze = make(gen, seed, loops)
    for slip, gamma in [(0.0, 1.0), (0.0, 0.95), (0.2, 1.0), (0.5, 0.97)]:
        vi = value_iteration(maze, maze.start, maze.goal, slip=slip, gamma=gamma)
        pi = policy_iteration(maze, maze.start, maze.goal, slip=slip, gamma=gamma)
        assert vi.extras["converged"] and pi.extras["converged"]
        np.testing.assert_allclose(pi.extras["values"], vi.extras["values"], rtol=1e-9, atol=1e-7)
        assert pi.length == vi.length
        if slip == 0.0:
            assert np.array_equal(pi.extras["policy"], vi.extras["policy"])
            assert np.array_equal(pi.path, vi.path)


@pytest.mark.parametrize("name", sorted(PLANNERS))
@pytest.mark.parametrize("loops", [0, 1])
def test_slip_costs_more_and_still_finds_a_path(name, loops):
    maze = make("kruskal", 7, loops, shape=(15, 15))
    plain = PLANNERS[name](maze, maze.start, maze.goal).extras["values"]
    best = bfs_distance(maze, maze.start, maze.goal)
    for slip in (0.1, 0.3, 0.6):
        sol = PLANNERS[name](maze, maze.start, maze.goal, slip=slip)
        values = sol.extras["values"]
        # a move changes the distance to the goal by one at most: slip can only cost
        assert (values <= plain).all() and values[maze.start] < plain[maze.start]
        assert values[maze.goal] == 0
        assert sol.found, slip
        assert_valid_path(maze, sol.path, maze.start, maze.goal)
        assert sol.length >= best
        on_path = values[tuple(sol.path.T)]
        assert (np.diff(on_path) > 0).all(), "the path climbs the values"
    if not loops:  # one way through a perfect maze, slip or not
        assert sol.length == best


def two_routes() -> mazekit.Maze:
    """From (0, 0) to (0, 6): along row 0, 6 steps past five side pockets, or round by
    column 0, row 2 and column 6, 10 steps down a bare corridor."""
    p = np.zeros((3, 7), np.uint8)
    p[0, :-1] |= 2
    p[0, 1:] |= 8
    p[2, :-1] |= 2
    p[2, 1:] |= 8
    p[0, 1:-1] |= 4  # the pockets below row 0
    p[1, 1:-1] |= 1
    p[:2, [0, 6]] |= 4
    p[1:, [0, 6]] |= 1
    maze = mazekit.generate("prim", (3, 7), rng=0).replace(passages=p)
    maze.check()
    return maze


@pytest.mark.parametrize("name", sorted(PLANNERS))
def test_slip_can_make_the_best_route_longer(name):
    maze = two_routes()
    assert PLANNERS[name](maze, (0, 0), (0, 6)).length == 6
    sol = PLANNERS[name](maze, (0, 0), (0, 6), slip=0.7)
    assert sol.length == 10 and [2, 3] in sol.path.tolist()
    assert_valid_path(maze, sol.path, (0, 0), (0, 6))
    np.testing.assert_allclose(sol.extras["values"], reference_values(maze, (0, 6), 0.7, 1.0), rtol=1e-9)


@pytest.mark.parametrize("name", sorted(PLANNERS))
def test_discount(name):
    maze = make("prim", 2, 1)
    gamma = 0.9
    sol = PLANNERS[name](maze, maze.start, maze.goal, gamma=gamma)
    dist = distances(maze, maze.goal)
    np.testing.assert_allclose(sol.extras["values"], -(1 - gamma**dist) / (1 - gamma), rtol=1e-12)
    assert sol.length == bfs_distance(maze, maze.start, maze.goal)
    assert_policy_descends(maze, sol, dist)
    slippery = PLANNERS[name](maze, maze.start, maze.goal, gamma=gamma, slip=0.3)
    assert slippery.found and (slippery.extras["values"] > -1 / (1 - gamma)).all()


@pytest.mark.parametrize("name", sorted(PLANNERS))
def test_discounted_values_too_close_to_tell_apart(name):
    """Over about 50 steps from the goal at gamma 0.5 every value rounds to -2: the climb
    stops there and says not found rather than wander (documented)."""
    maze = mazekit.generate("backtracker", (1, 200), rng=0)
    sol = PLANNERS[name](maze, (0, 0), (0, 199), gamma=0.5)
    assert not sol.found and sol.path.shape == (0, 2)
    assert np.isfinite(sol.extras["values"]).all()
    assert PLANNERS[name](maze, (0, 150), (0, 199), gamma=0.5).length == 49


def unreachable() -> mazekit.Maze:
    return from_blocks(
        np.array(
            [
                [1, 1, 1, 1, 1, 1, 1],
                [1, 0, 0, 0, 1, 0, 1],
                [1, 1, 1, 0, 1, 0, 1],
                [1, 0, 0, 0, 1, 0, 1],
                [1, 1, 1, 1, 1, 1, 1],
            ]
        )
    )


@pytest.mark.parametrize("name", sorted(PLANNERS))
@pytest.mark.parametrize("slip, gamma", [(0.0, 1.0), (0.3, 1.0), (0.0, 0.9), (0.3, 0.9)])
def test_cells_that_cannot_reach_the_goal(name, slip, gamma):
    maze = unreachable()
    sol = PLANNERS[name](maze, (0, 0), (1, 2), slip=slip, gamma=gamma)
    assert not sol.found and sol.length is None and sol.path.shape == (0, 2)
    values, policy = sol.extras["values"], sol.extras["policy"]
    cut_off = np.array([[1, 1, 0], [1, 1, 0]], bool)
    assert (values[cut_off] == -np.inf).all(), "cells that cannot reach the goal are -inf"
    assert np.isfinite(values[~cut_off]).all() and values[1, 2] == 0
    assert (policy[cut_off] == -1).all() and policy[1, 2] == -1 and policy[0, 2] == 2
    assert sol.extras["converged"]
    wave = {tuple(c) for c in sol.explored.tolist()}
    assert wave == {(0, 2), (1, 2)}


@pytest.mark.parametrize("name", sorted(PLANNERS))
def test_masked_cells_have_no_value(name):
    maze = mazekit.generate("kruskal", mazekit.RectGrid.from_text(MASK_TEXT), rng=1)
    sol = PLANNERS[name](maze, maze.start, maze.goal)
    off = ~maze.grid.mask
    assert (sol.extras["policy"][off] == -1).all()
    assert np.isnan(sol.extras["values"][off]).all()
    assert np.isfinite(sol.extras["values"][~off]).all()
    assert_valid_path(maze, sol.path, maze.start, maze.goal)
    assert sol.length == bfs_distance(maze, maze.start, maze.goal)
    slippery = PLANNERS[name](maze, maze.start, maze.goal, slip=0.2)
    assert_valid_path(maze, slippery.path, maze.start, maze.goal)
    assert np.isnan(slippery.extras["values"][off]).all()


@pytest.mark.parametrize("name", sorted(PLANNERS))
def test_trace_is_the_value_wave_then_the_path(name):
    maze = make("backtracker", 0, 1)
    sol = PLANNERS[name](maze, maze.start, maze.goal)
    dist = distances(maze, maze.goal)
    t = sol.trace
    assert t.dtype == np.int32 and (t[:, 1] == tr.VISIT).all()
    wave, walk = t[t[:, 2] < 0], t[t[:, 2] >= 0]
    cells = np.stack([wave[:, 0] // maze.shape[1], wave[:, 0] % maze.shape[1]], axis=1)
    order = dist[tuple(cells.T)]
    assert (np.diff(order) >= 0).all() and order[0] == 0, "breadth-first from the goal"
    assert len(set(wave[:, 0].tolist())) == len(wave) == (dist >= 0).sum()
    assert np.array_equal(walk[:, 0], sol.path[:-1, 0] * maze.shape[1] + sol.path[:-1, 1])
    steps = np.array([STEPS[k] for k in walk[:, 2]])
    assert np.array_equal(sol.path[:-1] + steps, sol.path[1:])


def test_not_converged_is_reported():
    maze = make("backtracker", 1, 1, shape=(20, 20))
    vi = value_iteration(maze, maze.start, maze.goal, slip=0.6, max_sweeps=2)
    pi = policy_iteration(maze, maze.start, maze.goal, slip=0.6, max_sweeps=2)
    assert not vi.extras["converged"] and vi.extras["sweeps"] == 3
    assert not pi.extras["converged"] and pi.extras["sweeps"] == 2


@pytest.mark.parametrize("name", sorted(PLANNERS))
def test_values_and_slip_on_a_million_cells(name):
    maze = mazekit.generate("backtracker", (1000, 1000), rng=5)
    sol = PLANNERS[name](maze, maze.start, maze.goal)
    assert sol.length == bfs(maze, maze.start, maze.goal).length
    assert sol.extras["values"][maze.start] == -sol.length
    slippery = PLANNERS[name](maze, maze.start, maze.goal, slip=0.1)
    assert slippery.length == sol.length and slippery.extras["converged"]


# -- Q-learning -------------------------------------------------------------------------------


def test_q_learning_same_seed_same_result():
    maze = make("prim", 3, 1, shape=(8, 8))
    a = q_learning(maze, maze.start, maze.goal, rng=5, episodes=100)
    b = q_learning(maze, maze.start, maze.goal, rng=5, episodes=100)
    c = q_learning(maze, maze.start, maze.goal, rng=np.random.default_rng(5), episodes=100)
    assert a == b and a == c
    for key in ("q", "values", "policy", "episode_lengths"):
        np.testing.assert_array_equal(a.extras[key], b.extras[key])
        np.testing.assert_array_equal(a.extras[key], c.extras[key])
    assert a.extras["seed"] == 5 and c.extras["seed"] is None
    d = q_learning(maze, maze.start, maze.goal, rng=6, episodes=100)
    assert not np.array_equal(a.extras["q"], d.extras["q"])
    slip = [q_learning(maze, maze.start, maze.goal, rng=1, episodes=50, slip=0.2) for _ in range(2)]
    np.testing.assert_array_equal(slip[0].extras["q"], slip[1].extras["q"])


@pytest.mark.parametrize("gen", GENS)
@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize("loops", [0, 1])
def test_q_learning_finds_the_shortest_path_on_a_small_maze(gen, seed, loops):
    maze = make(gen, seed, loops, shape=(8, 8))
    sol = q_learning(maze, maze.start, maze.goal, rng=seed)
    assert sol.found
    assert_valid_path(maze, sol.path, maze.start, maze.goal)
    assert sol.length == bfs_distance(maze, maze.start, maze.goal)
    ex = sol.extras
    assert ex["q"].shape == (8, 8, 4) and ex["values"].shape == ex["policy"].shape == (8, 8)
    assert ex["policy"].dtype == np.int8 and ex["policy"][maze.goal] == -1 and ex["values"][maze.goal] == 0
    assert len(ex["episode_lengths"]) == 500 and ex["episode_lengths"].min() >= 1
    seen = ~np.isnan(ex["values"])
    np.testing.assert_array_equal(ex["values"][seen], ex["q"].max(axis=2)[seen])
    # the learned values are those of an optimal policy along the path it found
    assert ex["values"][maze.start] == pytest.approx(-sol.length, abs=1e-6)
    t = sol.trace
    assert t[0, 0] == maze.start[0] * 8 + maze.start[1] and (t[:, 1] == tr.VISIT).all()


def test_q_learning_without_training_finds_nothing():
    maze = mazekit.generate("backtracker", (6, 6), rng=0)
    sol = q_learning(maze, maze.start, maze.goal, rng=0, episodes=0)
    assert not sol.found and sol.extras["episode_lengths"].shape == (0,)
    assert (sol.extras["policy"] == -1).all() and sol.n_explored == 0
    assert np.isnan(sol.extras["values"]).sum() == 35 and sol.extras["values"][maze.goal] == 0


def test_q_learning_unreachable_and_masked():
    sol = q_learning(unreachable(), (0, 0), (1, 2), rng=0, episodes=20, max_steps_per_episode=50)
    assert not sol.found and (sol.extras["episode_lengths"] == 50).all()
    assert np.isnan(sol.extras["values"][0, 2])  # never visited: no value
    maze = mazekit.generate("kruskal", mazekit.RectGrid.from_text(MASK_TEXT), rng=1)
    sol = q_learning(maze, maze.start, maze.goal, rng=0, episodes=50)
    off = ~maze.grid.mask
    assert (sol.extras["policy"][off] == -1).all() and np.isnan(sol.extras["values"][off]).all()
    assert np.isnan(sol.extras["q"][off]).all()


# -- options ----------------------------------------------------------------------------------

BAD = [
    ({"slip": -0.1}, "slip must be in"),
    ({"slip": 1.0}, "slip must be in"),
    ({"slip": float("nan")}, "slip must be in"),
    ({"slip": True}, "slip must be a number"),
    ({"gamma": 0.0}, "gamma must be in"),
    ({"gamma": 1.5}, "gamma must be in"),
    ({"step_reward": 0.0}, "step_reward must be negative"),
    ({"step_reward": 2}, "step_reward must be negative"),
    ({"step_reward": "a"}, "step_reward must be a number"),
]


SWEEPS = [({"tol": 0}, "tol must be positive"), ({"max_sweeps": 0}, r"max_sweeps must be an integer >= 1")]


@pytest.mark.parametrize("options, message", BAD + SWEEPS)
@pytest.mark.parametrize("name", sorted(PLANNERS))
def test_planner_options_are_validated(name, options, message):
    maze = mazekit.generate("prim", (4, 4), rng=0)
    with pytest.raises(ValueError, match=message):
        PLANNERS[name](maze, maze.start, maze.goal, **options)


@pytest.mark.parametrize(
    "options, message",
    BAD
    + [
        ({"episodes": -1}, r"episodes must be an integer >= 0, got -1"),
        ({"episodes": 2.5}, "episodes must be an integer"),
        ({"alpha": 0.0}, r"alpha must be in \(0, 1\]"),
        ({"alpha": 1.5}, "alpha must be in"),
        ({"epsilon": -0.5}, r"epsilon must be in \[0, 1\]"),
        ({"epsilon_decay": 0}, "epsilon_decay must be in"),
        ({"max_steps_per_episode": 0}, "max_steps_per_episode must be an integer >= 1"),
        ({"rng": "seed"}, "rng must be"),
        ({"rng": -3}, "seed must be a non-negative"),
    ],
)
def test_q_learning_options_are_validated(options, message):
    maze = mazekit.generate("prim", (4, 4), rng=0)
    with pytest.raises(ValueError, match=message):
        q_learning(maze, maze.start, maze.goal, **options)


@pytest.mark.parametrize("func", [value_iteration, policy_iteration, q_learning])
def test_bad_cells(func):
    maze = mazekit.generate("prim", mazekit.RectGrid.from_text(MASK_TEXT), rng=0)
    with pytest.raises(ValueError, match="masked-out"):
        func(maze, (0, 0), maze.goal)
    with pytest.raises(ValueError, match="off the grid"):
        func(maze, maze.start, (99, 0))
