"""Value iteration: the maze as a Markov decision process, solved by Bellman sweeps.

The MDP: states are cells; actions are the four slots N, E, S, W; every move costs
``step_reward`` (negative), also a move into a wall, which leaves you where you are; the goal
is absorbing with value 0. With ``slip > 0`` a move goes where it was meant with probability
``1 - slip`` and sideways, ``slip / 2`` to each perpendicular slot, instead.

1. Order the cells breadth-first from the goal. Cells the goal cannot reach are left out:
   their value is ``-inf`` (masked-out cells, which are not states, get ``NaN``).
2. First sweep, in that order, from ``-inf``: the no-slip Bellman backup
   ``V(c) = max_a r + gamma V(c')``. This is the value wave spreading out from the goal
   (the trace records it), and the exact answer when ``slip == 0``: Bellman-Ford in the
   best possible order.
3. With slip, start from below instead: from the values of a policy that surely reaches
   the goal, the one :mod:`~mazekit.solve.policy_iteration` starts from, evaluated the same
   way. Starting above the answer, cells chase neighbours' stale, too-good values and
   count down a few units per sweep, for thousands of sweeps on a big maze.
4. Gauss-Seidel sweeps in breadth-first order, ``V(c) = max_a r + gamma E[V(c')]``, until
   no value moves by ``tol``. An action's chance of staying put (walls) is solved for
   exactly, ``Q = (r + gamma E[V(c') : c' != c]) / (1 - gamma P(stay))``.
5. The policy is the best action in each cell; the path climbs from the start to the open
   neighbour of highest value, which is strictly higher, until the goal.

With ``slip == 0`` and ``gamma == 1`` the value of a cell is minus its distance to the goal
and the path is a shortest one, after two sweeps (a 1000x1000 maze in well under a second).
With slip the optimal policy may push against a wall on purpose and let the slip carry it
round a corner; the path is then the most reliable route (highest expected value), not
necessarily the shortest, and need not follow the policy's arrow into the wall. Sweeps then
grow with the maze and the slip (a 200x200 perfect maze: 2 at slip 0.3, about 900 at slip
0.6), where policy iteration needs a handful of passes. With ``gamma < 1`` the values of far
cells approach ``step_reward / (1 - gamma)`` and, far enough away (about 50 steps at gamma
0.5, 320 at 0.9), become equal in floating point: the climb then stops and reports no path.
A start the goal cannot reach has value ``-inf`` (for every ``gamma``, so that "cannot get
there" is never mistaken for "far") and no path. Reference: R. Bellman, *Dynamic
Programming* (1957); Sutton and Barto, *Reinforcement Learning*, 2nd ed. (2018), ch. 4.
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from ..grid import Cell, through
from ..maze import Maze
from ..solution import Solution
from ..trace import VISIT
from ._common import flat_ends, solution

SHORTEST = True  # at the default options (no slip): values are minus distances
SOLVES_PERFECT = True
SOLVES_LOOPS = True
SOLVES_ISLAND = True

# The kernels below are shared with policy_iteration and q_learning.


@njit(cache=True, inline="always")
def move(passages, cols, cell, slot):  # pragma: no cover - compiled
    """Where trying ``slot`` from ``cell`` lands: across an open passage, or nowhere."""
    if passages[cell] >> slot & 1:
        return through(cols, cell, slot)
    return cell


@njit(cache=True, inline="always")
def outcome(action, j, slip):  # pragma: no cover - compiled
    """The ``j``-th (0..2) way ``action`` can turn out: ``(slot, probability)``."""
    if j == 0:
        return action, 1.0 - slip
    if j == 1:
        return (action + 1) & 3, 0.5 * slip
    return (action + 3) & 3, 0.5 * slip


@njit(cache=True, inline="always")
def _q3(m, h, oa, va, ob, vb, oc, vc, gamma, reward):  # pragma: no cover - compiled
    # Meant slot a (probability m), sideways b and c (h each); o = 1.0 if open, v its value
    # (0.0 if shut). Staying put has probability 1 - leave and is solved for.
    leave = m * oa + h * (ob + oc)
    if leave == 0.0:  # pushing into walls for ever
        return reward / (1.0 - gamma) if gamma < 1.0 else -np.inf
    return (reward + gamma * (m * va + h * (vb + vc))) / (1.0 - gamma * (1.0 - leave))


@njit(cache=True, inline="always")
def _around(passages, cols, values, cell):  # pragma: no cover - compiled
    bits = passages[cell]
    o0, o1, o2, o3 = float(bits & 1), float(bits >> 1 & 1), float(bits >> 2 & 1), float(bits >> 3 & 1)
    v0 = values[cell - cols] if bits & 1 else 0.0
    v1 = values[cell + 1] if bits & 2 else 0.0
    v2 = values[cell + cols] if bits & 4 else 0.0
    v3 = values[cell - 1] if bits & 8 else 0.0
    return o0, o1, o2, o3, v0, v1, v2, v3


@njit(cache=True)
def q_value(passages, cols, values, cell, action, slip, gamma, reward):  # pragma: no cover
    """Expected value of ``action`` in ``cell`` (neighbours' values must be finite if slip > 0)."""
    o0, o1, o2, o3, v0, v1, v2, v3 = _around(passages, cols, values, cell)
    m, h = 1.0 - slip, 0.5 * slip
    if action == 0:
        return _q3(m, h, o0, v0, o1, v1, o3, v3, gamma, reward)
    if action == 1:
        return _q3(m, h, o1, v1, o2, v2, o0, v0, gamma, reward)
    if action == 2:
        return _q3(m, h, o2, v2, o3, v3, o1, v1, gamma, reward)
    return _q3(m, h, o3, v3, o0, v0, o2, v2, gamma, reward)


@njit(cache=True)
def backup(passages, cols, values, cell, slip, gamma, reward):  # pragma: no cover - compiled
    """The Bellman backup of ``cell``: best value and its action (first slot on ties)."""
    if slip == 0.0:  # only the meant slot counts; neighbours may still be -inf
        best, arg = (reward / (1.0 - gamma) if gamma < 1.0 else -np.inf), -1
        for s in range(4):
            if passages[cell] >> s & 1:
                q = reward + gamma * values[through(cols, cell, s)]
                if q > best:
                    best, arg = q, s
        return best, arg
    o0, o1, o2, o3, v0, v1, v2, v3 = _around(passages, cols, values, cell)
    m, h = 1.0 - slip, 0.5 * slip
    best, arg = _q3(m, h, o0, v0, o1, v1, o3, v3, gamma, reward), 0
    q = _q3(m, h, o1, v1, o2, v2, o0, v0, gamma, reward)
    if q > best:
        best, arg = q, 1
    q = _q3(m, h, o2, v2, o3, v3, o1, v1, gamma, reward)
    if q > best:
        best, arg = q, 2
    q = _q3(m, h, o3, v3, o0, v0, o2, v2, gamma, reward)
    if q > best:
        best, arg = q, 3
    return best, arg


@njit(cache=True)
def value_wave(passages, cols, goal, values, parent, gamma, reward):  # pragma: no cover
    """Cells breadth-first from the goal, each given its no-slip backup as it is reached.

    ``values`` must be ``-inf`` and ``parent`` -1 everywhere; ``parent`` gets the cell each
    was reached from. Returns the order, the goal first."""
    order = np.empty(passages.shape[0], dtype=np.int64)
    order[0] = goal
    parent[goal] = goal
    values[goal] = 0.0
    head, tail = 0, 1
    while head < tail:
        cell = order[head]
        head += 1
        if cell != goal:
            values[cell] = backup(passages, cols, values, cell, 0.0, gamma, reward)[0]
        for slot in range(4):
            if passages[cell] >> slot & 1:
                nb = through(cols, cell, slot)
                if parent[nb] < 0:
                    parent[nb] = cell
                    order[tail] = nb
                    tail += 1
    parent[goal] = -1
    return order[:tail]


@njit(cache=True)
def _tree_pass(passages, cols, order, parent, policy, values, slip, gamma, reward, a, b):  # pragma: no cover
    # Leaves first, write each cell's value as a[c] + b[c] * V(parent) by eliminating its
    # breadth-first subtree; edges that close loops use the values of the last pass.
    for i in range(order.shape[0] - 1, 0, -1):
        cell = order[i]
        keep, up, const = 0.0, 0.0, reward
        for j in range(3):
            slot, p = outcome(policy[cell], j, slip)
            if p == 0.0:
                continue
            nb = move(passages, cols, cell, slot)
            if nb == cell:
                keep += p
            elif nb == parent[cell]:
                up += p
            elif parent[nb] == cell:
                keep += p * b[nb]
                const += gamma * p * a[nb]
            else:
                const += gamma * p * values[nb]
        d = 1.0 - gamma * keep
        a[cell] = const / d if d > 0.0 else -np.inf  # d <= 0: the policy never gets out
        b[cell] = gamma * up / d if d > 0.0 else 0.0
    delta = 0.0
    for i in range(1, order.shape[0]):
        cell = order[i]
        v = a[cell] + b[cell] * values[parent[cell]]
        delta = max(delta, abs(v - values[cell]))
        values[cell] = v
    return delta


@njit(cache=True)
def evaluate(
    passages, cols, order, parent, policy, values, slip, gamma, reward, tol, passes
):  # pragma: no cover
    """Policy evaluation by block Gauss-Seidel passes until no value moves by ``tol``.

    Each pass solves the policy exactly on the breadth-first tree, so a perfect maze needs
    one pass (and one to confirm). Returns ``(passes, converged)``."""
    a = np.zeros(passages.shape[0])
    b = np.zeros(passages.shape[0])
    for k in range(1, passes + 1):
        if _tree_pass(passages, cols, order, parent, policy, values, slip, gamma, reward, a, b) < tol:
            return k, True
    return passes, False


@njit(cache=True)
def _sweeps(passages, cols, order, values, slip, gamma, reward, tol, max_sweeps):  # pragma: no cover
    """Gauss-Seidel sweeps in ``order`` until no value moves by ``tol``: (sweeps, converged)."""
    for k in range(1, max_sweeps + 1):
        delta = 0.0
        for i in range(1, order.shape[0]):
            cell = order[i]
            v = backup(passages, cols, values, cell, slip, gamma, reward)[0]
            delta = max(delta, abs(v - values[cell]))
            values[cell] = v
        if delta < tol:
            return k, True
    return max_sweeps, False


@njit(cache=True)
def greedy(passages, cols, order, values, slip, gamma, reward, policy):  # pragma: no cover
    """Fill ``policy`` with each cell's best action (the goal keeps its -1)."""
    for i in range(1, order.shape[0]):
        cell = order[i]
        policy[cell] = backup(passages, cols, values, cell, slip, gamma, reward)[1]


@njit(cache=True)
def climb(passages, cols, values, start, goal):  # pragma: no cover - compiled
    """Path from ``start`` stepping to the best open neighbour while values strictly rise.

    Returns ``(cells, slots)``, both empty when the climb gets stuck; rising values mean it
    can never revisit a cell."""
    path = np.empty(passages.shape[0], dtype=np.int64)
    slots = np.empty(passages.shape[0], dtype=np.int64)
    cell, k = start, 0
    while cell != goal:
        best, nxt, slot = values[cell], -1, -1
        for s in range(4):
            if passages[cell] >> s & 1:
                nb = through(cols, cell, s)
                if values[nb] > best:
                    best, nxt, slot = values[nb], nb, s
        if nxt < 0:
            return np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int64)
        path[k] = cell
        slots[k] = slot
        k += 1
        cell = nxt
    path[k] = goal
    return path[: k + 1].copy(), slots[:k].copy()


def check_number(value: Any, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float | np.integer | np.floating):
        raise ValueError(f"{name} must be a number, got {value!r}")
    return float(value)


def check_mdp(slip: Any, gamma: Any, step_reward: Any) -> tuple[float, float, float]:
    """Validate the MDP options shared by the solvers; return them as floats."""
    s, g = check_number(slip, "slip"), check_number(gamma, "gamma")
    r = check_number(step_reward, "step_reward")
    if not 0.0 <= s < 1.0:
        raise ValueError(f"slip must be in [0, 1), got {slip!r}")
    if not 0.0 < g <= 1.0:
        raise ValueError(f"gamma must be in (0, 1], got {gamma!r}")
    if not (np.isfinite(r) and r < 0.0):
        raise ValueError(f"step_reward must be negative (a cost per move), got {step_reward!r}")
    return s, g, r


def check_count(value: Any, name: str, least: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < least:
        raise ValueError(f"{name} must be an integer >= {least}, got {value!r}")
    return int(value)


def check_sweeps(tol: Any, max_sweeps: Any) -> tuple[float, int]:
    t = check_number(tol, "tol")
    if not (np.isfinite(t) and t > 0.0):
        raise ValueError(f"tol must be positive, got {tol!r}")
    return t, check_count(max_sweeps, "max_sweeps", 1)


@njit(cache=True)
def _start_policy(passages, cols, order, parent, slip, policy):  # pragma: no cover - compiled
    # Re-parent each cell on its first neighbour one step nearer the goal, so the tree that
    # evaluate() solves exactly is the one the policy mostly walks. Then, of the actions that
    # may bring a cell nearer, take the one of most expected progress: with no slip, a step
    # along a shortest path; with slip, perhaps a push into a wall that slips the right way.
    dist = np.zeros(passages.shape[0], dtype=np.int64)
    for i in range(1, order.shape[0]):
        dist[order[i]] = dist[parent[order[i]]] + 1
    for i in range(1, order.shape[0]):
        cell = order[i]
        for slot in range(4):
            nb = move(passages, cols, cell, slot)
            if nb != cell and dist[nb] < dist[cell]:
                parent[cell] = nb
                break
        best, arg = -np.inf, -1
        for a in range(4):
            nearer, progress = 0.0, 0.0
            for j in range(3):
                slot, p = outcome(a, j, slip)
                gain = dist[cell] - dist[move(passages, cols, cell, slot)]
                progress += p * gain
                nearer += p if gain > 0 else 0.0
            if nearer > 0.0 and progress > best:
                best, arg = progress, a
        policy[cell] = arg


class Wave(NamedTuple):
    """Where the solvers start: flat values after the no-slip value wave (``-inf`` where
    the goal cannot be reached), the breadth-first order from the goal, a parent one step
    nearer the goal for each cell, and a first policy that surely reaches the goal (int8,
    -1 where there is no move)."""

    values: np.ndarray
    order: np.ndarray
    parent: np.ndarray
    policy: np.ndarray


def first_wave(maze: Maze, goal: int, slip: float, gamma: float, reward: float) -> Wave:
    passages, cols = maze.passages.ravel(), maze.grid.cols
    values = np.full(passages.size, -np.inf)
    parent = np.full(passages.size, -1, dtype=np.int64)
    order = value_wave(passages, cols, goal, values, parent, gamma, reward)
    policy = np.full(passages.size, -1, dtype=np.int8)
    _start_policy(passages, cols, order, parent, slip, policy)
    return Wave(values, order, parent, policy)


def mdp_solution(
    name: str,
    maze: Maze,
    start: Cell,
    goal: Cell,
    values: np.ndarray,
    policy: np.ndarray,
    wave: np.ndarray,
    **extras: Any,
) -> Solution:
    """Climb the values from ``start`` and package values, policy and trace.

    The trace is the wave (``VISIT``, arg -1), then each cell of the path with the slot taken
    out of it (``VISIT``, arg = slot)."""
    s, g = flat_ends(maze, start, goal)
    path, slots = climb(maze.passages.ravel(), maze.grid.cols, values, s, g)
    trace = np.empty((wave.size + slots.size, 3), dtype=np.int32)
    trace[:, 1] = VISIT
    trace[: wave.size, 0] = wave
    trace[: wave.size, 2] = -1
    trace[wave.size :, 0] = path[:-1]
    trace[wave.size :, 2] = slots
    shaped = values.reshape(maze.shape)
    if maze.grid.mask is not None:
        shaped[~maze.grid.mask] = np.nan
    sol = solution(name, maze, start, goal, path, trace)
    sol.extras.update(values=shaped, policy=policy.reshape(maze.shape), **extras)
    return sol


def value_iteration(
    maze: Maze,
    start: Cell,
    goal: Cell,
    *,
    step_reward: float = -1.0,
    slip: float = 0.0,
    gamma: float = 1.0,
    tol: float = 1e-9,
    max_sweeps: int = 10_000,
) -> Solution:
    """Solve the maze as a Markov decision process by value iteration.

    Parameters
    ----------
    step_reward : float
        Reward of every move (negative: a cost), including a move into a wall.
    slip : float
        Chance in ``[0, 1)`` that a move goes sideways instead, half to each side.
    gamma : float
        Discount in ``(0, 1]``. With ``gamma = 1`` a cell's value is ``step_reward`` times
        the expected number of moves to the goal.
    tol : float
        Stop when a sweep moves no value by this much.
    max_sweeps : int
        Give up after this many sweeps (``extras["converged"]`` is then False); also bounds
        the passes that evaluate the starting policy when there is slip.

    Returns
    -------
    Solution
        The path climbs the values from the start. ``extras``: ``values`` (float
        ``(rows, cols)``: 0 at the goal, ``-inf`` where the goal cannot be reached, ``NaN`` on
        masked-out cells), ``policy`` (int8 slot per cell, -1 at the goal, unreachable and
        masked cells), ``sweeps`` (including the first, no-slip one), ``evaluation_passes``
        (spent on the starting values, 0 without slip) and ``converged``. The trace is the
        value wave: ``VISIT`` (arg -1) for each cell in the order its value became finite,
        then ``VISIT`` for each cell of the path with the slot taken out of it as arg.

    Examples
    --------
    >>> import mazekit
    >>> from mazekit.solve.value_iteration import value_iteration
    >>> m = mazekit.generate("kruskal", (4, 6), rng=2)
    >>> s = value_iteration(m, m.start, m.goal)
    >>> s.found, s.length, float(s.extras["values"][m.start]), s.extras["sweeps"]
    (True, 8, -8.0, 2)
    >>> slippery = value_iteration(m, m.start, m.goal, slip=0.2)
    >>> slippery.length, round(float(slippery.extras["values"][m.start]), 3)
    (8, -11.194)
    """
    slip, gamma, reward = check_mdp(slip, gamma, step_reward)
    tol, max_sweeps = check_sweeps(tol, max_sweeps)
    start, goal = maze.grid.check_cell(start, "start"), maze.grid.check_cell(goal, "goal")
    passages, cols = maze.passages.ravel(), maze.grid.cols
    values, order, parent, policy = first_wave(maze, flat_ends(maze, start, goal)[1], slip, gamma, reward)
    passes = 0
    if slip > 0.0:  # start from below, from the value of a policy that surely gets there
        args = (passages, cols, order, parent, policy, values, slip, gamma, reward)
        passes = evaluate(*args, tol, max_sweeps)[0]
    sweeps, converged = _sweeps(passages, cols, order, values, slip, gamma, reward, tol, max_sweeps)
    if slip > 0.0:  # without slip the first policy is already the greedy one
        greedy(passages, cols, order, values, slip, gamma, reward, policy)
    return mdp_solution(
        "value_iteration", maze, start, goal, values, policy, order,
        sweeps=sweeps + 1, evaluation_passes=passes, converged=converged,
    )  # fmt: skip
